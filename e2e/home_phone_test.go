package e2e

import (
	"fmt"
	"testing"

	"knightwatch/game"
	"knightwatch/store"
)

// firstGame starts a chess game for the tab's browser by posting the
// new-game form's fields, as the form does, without opening it; it
// returns the game's ID.
func (tb *tab) firstGame() string {
	tb.t.Helper()
	u := eval[string](tb, `fetch('/games', {method: 'POST', body: new URLSearchParams({color: 'white', level: '1', variant: 'standard', clock: '5+3'})})
		.then((r) => r.ok ? r.url : 'refused ' + r.status)`)
	id := gameIDOf(u)
	if id == "" {
		tb.fail("creating a game: %s", u)
	}
	return id
}

// injectGames gives the owner of game like n more unfinished games,
// written into the database while the server is stopped: more games
// than the server lets one browser start in a burst.
func (e *env) injectGames(like string, n int) {
	e.t.Helper()
	// Killed, not stopped: a graceful stop waits out the browser's idle
	// pre-opened connections, and every write is on disk already.
	if err := e.srv.Kill(); err != nil {
		e.t.Fatalf("stopping the server: %v", err)
	}
	st, err := store.Open(e.srv.DB)
	if err != nil {
		e.t.Fatalf("opening the database: %v", err)
	}
	g, err := st.Games().GetGame(like)
	for i := 0; err == nil && i < n; i++ {
		human := game.White
		if i%2 == 1 {
			human = game.Black
		}
		err = st.Games().CreateGame(&store.Game{Owner: g.Owner, Variant: g.Variant, StartFEN: g.StartFEN, Human: store.ColorOf(human),
			Level: 1 + i%8, ClockInitialMS: 300000, ClockIncrementMS: 3000, WhiteMS: 300000, BlackMS: 300000})
	}
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		e.t.Fatalf("adding %d games: %v", n, err)
	}
	if err := e.srv.Start(); err != nil {
		e.t.Fatalf("restarting the server: %v", err)
	}
}

// TestHomePlayReachable (issue 42, item 6): on a phone, either way up, the
// new-game form's Play button and the latest unfinished game's Continue
// are in sight when the home page opens, however many unfinished games
// the list holds.
func TestHomePlayReachable(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.open("/")
	made, first := 0, ""
	for _, n := range []int{0, 1, 6, 12} {
		switch {
		case n == 1:
			first = tb.firstGame()
		case n > made:
			e.injectGames(first, n-made)
		}
		made = n
		for _, vp := range []viewport{phone390, phone844} {
			t.Run(fmt.Sprintf("%d-games-%s", n, vp.name), func(t *testing.T) {
				p := e.newTab(t, vp)
				defer p.close()
				p.open("/")
				p.waitJS(`document.querySelector('form#new-game')`, "the new-game form", "", uiWait)
				if n > 0 {
					p.waitUnfinishedRows(n)
				}
				p.shot("home")
				want := []mustSee{{"Play", `form#new-game button[type=submit]`}}
				if n > 0 {
					want = append(want, mustSee{"Continue of the latest game", `[data-latest-continue]`})
				}
				for _, why := range p.notInView(want) {
					t.Errorf("[%s] with %d unfinished games: %s", vp.name, n, why)
				}
				p.checkNoSideways("home page", "form#new-game")
			})
		}
	}
}
