package web

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"knightwatch/rbcapi"
	"knightwatch/recon/bots"
	"knightwatch/store"
)

// rcConnect is what rc-connect does for one bot: poll the invitations,
// accept while it has a free slot, play each game in its own goroutine
// and mark its invitation finished. It records the most games it ever
// played at once.
type rcConnect struct {
	c        *apiClient
	maxGames int
	playing  atomic.Int32
	most     atomic.Int32
	played   atomic.Int32
	wg       sync.WaitGroup
}

// rcDrainLimit bounds how long a stopped rcConnect waits for a free slot
// to accept the invitations still pending, so that a test whose games
// hang fails instead of hanging.
const rcDrainLimit = 2 * time.Minute

// run accepts and plays until stop ends; then it accepts the invitations
// still pending, each once a slot frees (the matchmaker pairs a user only
// while it has a free slot, so none is left waiting), and returns when
// its games are over. stop must end only once no round of the
// matchmaker can pair this bot any more: an invitation it left
// unaccepted would keep its opponent, who accepted, waiting until the
// game is called off (rbcapi.RankedStartWithin later, with no winner and no
// reason, as rbcapi/API.md says).
//
// Where rc-connect polls the invitations every few seconds, run asks again
// each time the server has written to its store (the matchmaker's
// invitations are written) or one of its own games has ended.
func (r *rcConnect) run(stop context.Context, t *testing.T, seed uint64) {
	seen := map[int64]bool{}
	stopped := stop.Done()
	var drain <-chan time.Time // a guard against hanging, once stopped
	for {
		changed := r.c.sig.wait()
		var inv []int64
		r.c.must("GET", "/api/invitations/", nil, "invitations", &inv)
		if stop.Err() != nil {
			if len(inv) == 0 {
				break
			}
			if drain == nil {
				stopped = nil
				timer := time.NewTimer(rcDrainLimit)
				defer timer.Stop()
				drain = timer.C
			}
		}
		for _, id := range inv {
			if seen[id] || int(r.playing.Load()) >= r.maxGames {
				continue
			}
			seen[id] = true
			var gameID int64
			r.c.must("POST", fmt.Sprintf("/api/invitations/%d", id), nil, "game_id", &gameID)
			n := r.playing.Add(1)
			for m := r.most.Load(); n > m && !r.most.CompareAndSwap(m, n); m = r.most.Load() {
			}
			r.wg.Add(1)
			go func() {
				defer r.wg.Done()
				defer r.c.sig.poke() // a slot is free
				defer r.playing.Add(-1)
				// attacker: its games are short, and short games are what this test needs many of
				p, err := bots.New("attacker", seed+uint64(id))
				if err != nil {
					t.Error(err)
					return
				}
				r.c.playRemote(context.Background(), gameID, p)
				r.c.must("POST", fmt.Sprintf("/api/invitations/%d/finish", id), nil, "", nil)
				r.played.Add(1)
			}()
		}
		select {
		case <-changed:
		case <-stopped:
		case <-drain:
			t.Errorf("%s: invitations %v still pending after %v", r.c.user, inv, rcDrainLimit)
			r.wg.Wait()
			return
		}
	}
	r.wg.Wait()
}

// TestAPIRanked connects three ranked bots and one unranked one: the
// server pairs the ranked ones (and, when one is left over, gives it a
// built-in bot), never beyond a bot's max_games and never with itself;
// every finished ranked game is rated once, under the version each bot
// had, and the leaderboard adds up.
func TestAPIRanked(t *testing.T) {
	// No matchmaker of the server's own: the test runs the rounds, so
	// that it knows when the last one has ended. A 15 s clock: a built-in
	// bot thinks in proportion to its clock, and at 60 s its games made
	// the test last up to 70 s (a loss on time would be a result like any
	// other).
	e := newEnv(t, envOpts{rbcClock: 15 * time.Second})
	bots := []*rcConnect{
		{c: e.apiClient("ann", "password-1"), maxGames: 1},
		{c: e.apiClient("ben", "password-2"), maxGames: 2},
		{c: e.apiClient("cid", "password-3"), maxGames: 1},
		{c: e.apiClient("dot", "password-4"), maxGames: 3}, // stays unranked
	}
	for i, b := range bots {
		b.c.register()
		b.c.must("POST", "/api/users/me/max_games", map[string]int{"max_games": b.maxGames}, "", nil)
		if i < 3 {
			b.c.must("POST", "/api/users/me/version", nil, "", nil) // version 1, as rc-connect --ranked does first
			b.c.must("POST", "/api/users/me/ranked", map[string]bool{"ranked": true}, "", nil)
		}
	}
	pairing, stopPairing := context.WithCancel(context.Background())
	defer stopPairing()
	rounds := make(chan struct{})
	go func() {
		defer close(rounds)
		// A round each time the server has written to its store: a game
		// ended, an invitation finished, a bot's settings changed.
		for pairing.Err() == nil {
			changed := e.sig.wait()
			e.api.MatchRound(time.Now())
			select {
			case <-changed:
			case <-pairing.Done():
			}
		}
	}()
	clients, stopClients := context.WithCancel(context.Background())
	defer stopClients()
	var wg sync.WaitGroup
	for i, b := range bots {
		wg.Add(1)
		go func() { defer wg.Done(); b.run(clients, t, uint64(100*i)) }()
	}
	target := 12
	if testing.Short() {
		target = 6
	}
	deadline := time.NewTimer(90 * time.Second) // then the checks below say what was played
	defer deadline.Stop()
wait:
	for {
		changed := e.sig.wait() // poked as each game is played
		total := 0
		for _, b := range bots[:3] {
			total += int(b.played.Load())
		}
		if total >= target {
			break
		}
		select {
		case <-changed:
		case <-deadline.C:
			break wait
		}
	}
	// rc-connect's exit: ranked off, then the games in progress finish.
	// A round under way may still pair a bot: the rounds stop, and only
	// then do the clients, each accepting what it was paired for first.
	for _, b := range bots[:3] {
		b.c.must("POST", "/api/users/me/ranked", map[string]bool{"ranked": false}, "", nil)
	}
	stopPairing()
	<-rounds
	stopClients()
	wg.Wait()
	e.api.MatchRound(time.Now()) // rates anything left unrated

	for _, b := range bots {
		if most := int(b.most.Load()); most > b.maxGames {
			t.Errorf("%s played %d games at once, max_games %d", b.c.user, most, b.maxGames)
		}
	}
	if n := bots[3].played.Load(); n != 0 {
		t.Errorf("the unranked bot was given %d games", n)
	}
	users := map[string]int64{}
	for _, name := range []string{"ann", "ben", "cid", "dot"} {
		u, err := e.store.API().UserByName(name)
		if err != nil {
			t.Fatal(err)
		}
		users[name] = u.ID
	}
	seen := map[int64]bool{}
	perVersion := map[[2]int64]int{}
	for _, name := range []string{"ann", "ben", "cid"} {
		gs, err := e.store.API().UserAPIGames(users[name], store.StatusUnset, 1000)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			if !g.Ranked || g.WhiteID == g.BlackID || g.WhiteID == users["dot"] || g.BlackID == users["dot"] {
				t.Errorf("game %d: ranked %v, %s vs %s", g.ID, g.Ranked, g.WhiteName, g.BlackName)
			}
			if g.Status == store.StatusOver && !seen[g.ID] {
				seen[g.ID] = true
				if !g.Rated {
					t.Errorf("game %d finished but not rated", g.ID)
				}
				perVersion[[2]int64{g.WhiteID, int64(g.WhiteVersion)}]++
				perVersion[[2]int64{g.BlackID, int64(g.BlackVersion)}]++
			}
		}
	}
	games := len(seen)
	if games < target/2 {
		t.Fatalf("only %d ranked games finished", games)
	}
	rows, err := e.store.API().Leaderboard(100)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, r := range rows {
		sum += r.Elo
		if want := perVersion[[2]int64{r.UserID, int64(r.Version)}]; r.Games != want || r.Wins+r.Losses+r.Draws != r.Games {
			t.Errorf("%s v%d: %d games (%d-%d-%d), want %d", r.Name, r.Version, r.Games, r.Wins, r.Losses, r.Draws, want)
		}
		if (r.UserID == users["ann"] || r.UserID == users["ben"] || r.UserID == users["cid"]) && r.Version != 1 {
			t.Errorf("%s rated under version %d", r.Name, r.Version)
		}
	}
	if d := sum - store.StartRating*float64(len(rows)); d > 1e-6 || d < -1e-6 {
		t.Errorf("ratings add up to %.3f more than they started with", d)
	}
	t.Logf("%d ranked games; leaderboard %v", games, rows)
}

// TestAPIRankedAlone: a ranked bot with nobody else ranked is given one
// of Knightwatch's bots; a second round while its slot is full gives it
// nothing more; the game is rated for both.
func TestAPIRankedAlone(t *testing.T) {
	e := newEnv(t, envOpts{rbcClock: 60 * time.Second})
	ann := e.apiClient("ann", "password-1")
	ann.register()
	ann.must("POST", "/api/users/me/max_games", map[string]int{"max_games": 1}, "", nil)
	ann.must("POST", "/api/users/me/ranked", map[string]bool{"ranked": true}, "", nil)
	e.api.MatchRound(time.Now())
	e.api.MatchRound(time.Now())
	var inv []int64
	ann.must("GET", "/api/invitations/", nil, "invitations", &inv)
	if len(inv) != 1 {
		t.Fatalf("invitations %v, want one", inv)
	}
	var id int64
	ann.must("POST", fmt.Sprintf("/api/invitations/%d", inv[0]), nil, "game_id", &id)
	var opponent string
	ann.must("GET", fmt.Sprintf("/api/games/%d/opponent_name", id), nil, "opponent_name", &opponent)
	bot, err := e.store.API().UserByName(opponent)
	if err != nil || bot.Builtin == "" {
		t.Fatalf("opponent %q (%v) is not a built-in bot", opponent, err)
	}
	// Ann resigns at her first turn: a built-in bot at full strength would
	// make a whole game long, and the rating needs only a result.
	ann.must("POST", fmt.Sprintf("/api/games/%d/ready", id), nil, "", nil)
	var st map[string]bool
	e.until("ann's turn", func() bool {
		_, out := ann.call("GET", fmt.Sprintf("/api/games/%d/game_status", id), nil)
		st = map[string]bool{"is_my_turn": string(out["is_my_turn"]) == "true", "is_over": string(out["is_over"]) == "true"}
		return st["is_over"] || st["is_my_turn"]
	})
	if !st["is_over"] {
		ann.must("POST", fmt.Sprintf("/api/games/%d/resign", id), nil, "", nil)
	}
	g, err := e.store.API().GetAPIGame(id)
	if err != nil || !g.Ranked || !g.Rated {
		t.Fatalf("game %+v (%v)", g, err)
	}
	rows, _ := e.store.API().Leaderboard(10)
	if len(rows) != 2 || rows[0].Games != 1 || rows[1].Games != 1 {
		t.Errorf("leaderboard %v", rows)
	}
}

// TestAPIUnstartedGamesCalledOff: an invitation nobody accepts is called
// off after its time; the sender's client then sees the game over with no
// winner, and the invitation is gone.
func TestAPIUnstartedGamesCalledOff(t *testing.T) {
	e := newEnv(t, envOpts{})
	ann, ben := e.apiClient("ann", "password-1"), e.apiClient("ben", "password-2")
	ann.register()
	ben.register()
	id := ann.invite("ben", true)
	ann.must("POST", fmt.Sprintf("/api/games/%d/ready", id), nil, "", nil)
	e.api.MatchRound(time.Now().Add(rbcapi.InviteStartWithin - time.Minute))
	var st map[string]bool
	ann.must("GET", fmt.Sprintf("/api/games/%d/game_status", id), nil, "", nil)
	e.api.MatchRound(time.Now().Add(rbcapi.InviteStartWithin + time.Minute))
	_, out := ann.call("GET", fmt.Sprintf("/api/games/%d/game_status", id), nil)
	st = map[string]bool{}
	for k, v := range out {
		st[k] = string(v) == "true"
	}
	if !st["is_over"] || st["is_my_turn"] {
		t.Fatalf("after the call-off: %v", st)
	}
	var winner, reason any = "x", "x"
	ann.must("GET", fmt.Sprintf("/api/games/%d/winner_color", id), nil, "winner_color", &winner)
	ann.must("GET", fmt.Sprintf("/api/games/%d/win_reason", id), nil, "win_reason", &reason)
	if winner != nil || reason != nil {
		t.Errorf("winner %v, reason %v; want null, null", winner, reason)
	}
	if status, _ := ann.call("POST", fmt.Sprintf("/api/games/%d/sense", id), map[string]any{"square": 1}); status != 400 {
		t.Errorf("sense in a called-off game: %d", status)
	}
	var inv []int64
	ben.must("GET", "/api/invitations/", nil, "invitations", &inv)
	if len(inv) != 0 {
		t.Errorf("ben still invited: %v", inv)
	}
	// Ben, who had accepted just before the call-off, readies after it:
	// refused, and the game stays called off rather than starting.
	if status, out := ben.call("POST", fmt.Sprintf("/api/games/%d/ready", id), map[string]any{}); status != 400 {
		t.Errorf("ready in a called-off game: %d %s", status, out["error"])
	}
	if g, _ := e.store.API().GetAPIGame(id); g.Status != store.StatusAborted {
		t.Errorf("status %s", g.Status)
	}
	var over bool
	ann.must("GET", fmt.Sprintf("/api/games/%d/is_over", id), nil, "is_over", &over)
	if !over {
		t.Error("the called-off game is no longer over")
	}
}
