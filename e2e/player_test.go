package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"knightwatch/store"
)

// makeAccount gives the browser that played game id an account, name,
// that it plays under (the account's owner key is the game's owner), as
// signing in does: the server is stopped while the account is written to
// its database through the store, and started again on the same address.
func (e *env) makeAccount(name, id string) {
	e.t.Helper()
	if err := e.srv.Kill(); err != nil {
		e.t.Fatalf("stopping the server: %v", err)
	}
	st, err := store.Open(e.srv.DB)
	if err != nil {
		e.t.Fatalf("opening the database: %v", err)
	}
	g, err := st.Games().GetGame(id)
	u := &store.User{Name: name, Email: name + "@example.org", PasswordHash: []byte("not a hash")}
	if err == nil {
		err = st.API().CreateUser(u)
	}
	if err == nil {
		_, err = st.API().AccountOwnerKey(u.ID, g.Owner)
	}
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		e.t.Fatalf("making the account %s of game %s: %v", name, id, err)
	}
	if err := e.srv.Start(); err != nil {
		e.t.Fatalf("restarting the server: %v", err)
	}
}

// TestPlayerPage (issue 45): a player's page lists the account's finished
// game with the player's accuracy once it is reviewed; the player's link
// opens the game's own page with its review, a stranger's the read-only
// view with the review; the page offers the PGN of every game; and
// axe-core finds nothing serious or critical on it, in light and dark, on
// a desktop and a phone.
func TestPlayerPage(t *testing.T) {
	src := axeSource(t)
	e := newEnv(t)
	setup := e.newTab(t, desktop)
	over := mateInOne(setup)
	setup.waitReview()
	setup.close()
	e.makeAccount("e2e-player", gameIDOf(over))
	const path = "/players/E2E-Player" // any letter case
	rowReady := `document.querySelector('#player-games tr[data-outcome="won"]')`

	t.Run("the player", func(t *testing.T) {
		tb := e.newTab(t, desktop)
		defer tb.close()
		tb.open(path)
		tb.waitJS(rowReady, "the won game's row", `document.body.innerText.slice(0, 300)`, uiWait)
		tb.shot("player-page")
		row := eval[string](tb, `document.querySelector('#player-games tbody tr').innerText`)
		for _, want := range []string{"Won by checkmate", "Level 1", "White", "%"} {
			if !strings.Contains(row, want) {
				tb.fail("the row %q lacks %q", row, want)
			}
		}
		if got := eval[string](tb, `document.getElementById('pgn-export')?.getAttribute('href') || ''`); got != "/players/e2e-player/games.pgn" {
			tb.fail("the PGN link is %q", got)
		}
		if got := eval[string](tb, `document.querySelector('#player-record tbody tr')?.innerText || ''`); !strings.Contains(got, "100%") {
			tb.fail("the record against level 1: %q", got)
		}
		tb.clickSel(`#player-games tbody tr a`)
		tb.waitJS(`document.getElementById('review')?.dataset.status === 'done'`, "the game's review", `location.href`, uiWait)
		if got := tb.gamePath(); got != over {
			tb.fail("the link opened %s, want %s", got, over)
		}
	})

	t.Run("a stranger", func(t *testing.T) {
		tb := e.newTab(t, desktop, chromedp.WithNewBrowserContext())
		defer tb.close()
		tb.open(path)
		tb.waitJS(rowReady, "the won game's row", `document.body.innerText.slice(0, 300)`, uiWait)
		if eval[bool](tb, `document.body.innerText.includes('This is your page')`) {
			tb.fail("a stranger is told the page is theirs")
		}
		tb.clickSel(`#player-games tbody tr a`)
		tb.waitJS(`location.pathname.startsWith('/watch/') && document.getElementById('review')?.dataset.status === 'done'`,
			"the read-only review", `location.href`, uiWait)
	})

	for _, scheme := range []string{"light", "dark"} {
		for _, vp := range []viewport{desktop1440, phone390} {
			t.Run("axe-"+scheme+"-"+vp.name, func(t *testing.T) {
				tb := e.newTab(t, vp)
				defer tb.close()
				tb.colourScheme(scheme)
				tb.open(path)
				tb.waitJS(rowReady, "the player's page", `document.body.innerText.slice(0, 200)`, 20*time.Second)
				tb.shot("player-page-" + scheme)
				tb.axeCheck(src, "player")
			})
		}
	}
}
