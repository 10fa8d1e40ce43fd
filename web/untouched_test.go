package web

import (
	"net/http"
	"testing"
	"time"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"

	"knightwatch/play"
	"knightwatch/store"
)

// backdate sets the creation time of games ids (either kind) to at.
func (e *testEnv) backdate(at time.Time, ids ...string) {
	e.t.Helper()
	db, err := gorm.Open(sqlite.Open("file:"+e.dbPath+"?_busy_timeout=5000"), &gorm.Config{})
	if err != nil {
		e.t.Fatal(err)
	}
	if sqlDB, err := db.DB(); err == nil {
		defer sqlDB.Close()
	}
	for _, m := range []any{&store.Game{}, &store.ReconGame{}} {
		if err := db.Model(m).Where("id IN ?", ids).Update("created_at", at).Error; err != nil {
			e.t.Fatal(err)
		}
	}
}

// gameExists reports whether game id (either kind) has a row.
func (e *testEnv) gameExists(id string) bool {
	_, gerr := e.store.Games().GetGame(id)
	_, rerr := e.store.Games().GetReconGame(id)
	return gerr == nil || rerr == nil
}

// Issue 41 item 3: games their player never acted in are dropped a day
// after they were started, so that a visitor who starts games and never
// comes back leaves nothing behind for long. A game with a move or a sense
// of the person's stays, and so does one a tab has open.
func TestDropUntouchedGames(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	chessUntouched := e.newGame(c, form("white", "1", "standard", "none"))
	chessEngineFirst := e.newGame(c, form("black", "1", "standard", "none"))
	chessPlayed := e.newGame(c, form("white", "1", "standard", "none"))
	w := e.mustDial(c, chessPlayed)
	w.state()
	w.send(`{"type":"move","move":"e2e4","ply":0}`)
	w.stateAt(2) // the engine replied: both moves committed
	w.conn.Close()
	reconUntouched := e.newRecon(c, "white", "random", "15+5")
	reconPlayed := e.newRecon(c, "white", "random", "15+5")
	rw := e.dialRecon(c, reconPlayed)
	rw.send(`{"type":"sense","square":"e7","seq":0}`)
	rw.reconWait("the sense", nil, func(f reconFrame) bool { return isState(f) && f.State.Phase == "move" })
	rw.conn.Close()
	open := e.newGame(c, form("white", "1", "standard", "none"))
	ow := e.mustDial(c, open)
	ow.state()
	recent := e.newGame(c, form("white", "1", "standard", "none"))
	all := []string{chessUntouched, chessEngineFirst, chessPlayed, reconUntouched, reconPlayed, open}
	now := time.Now()
	e.backdate(now.Add(-48*time.Hour), all...)

	n, err := e.games.DropUntouched(now.Add(-play.DefaultUntouchedAfter))
	if err != nil || n != 3 {
		t.Errorf("dropped %d (%v), want 3", n, err)
	}
	for _, g := range []struct {
		name, id string
		kept     bool
	}{
		{"chess, no move", chessUntouched, false},
		{"chess, the engine's first move only", chessEngineFirst, false},
		{"chess, the person's move", chessPlayed, true},
		{"recon, no action", reconUntouched, false},
		{"recon, the person's sense", reconPlayed, true},
		{"chess, no move, a tab open", open, true},
		{"chess, no move, started now", recent, true},
	} {
		if got := e.gameExists(g.id); got != g.kept {
			t.Errorf("%s: kept %v, want %v", g.name, got, g.kept)
		}
	}
	// The visitor coming back finds it gone, in words.
	resp, err := c.Get(e.ts.URL + "/game/" + chessUntouched)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("a dropped game's page: %s", resp.Status)
	}
	// The open tab's game still plays.
	ow.send(`{"type":"move","move":"e2e4","ply":0}`)
	ow.stateAt(2)
}

// A server sweeps at start (and hourly after).
func TestUntouchedSweepAtStart(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	id := e.newGame(c, form("white", "1", "standard", "none"))
	e.backdate(time.Now().Add(-25*time.Hour), id)
	swept := make(chan int64, 1)
	o := envOpts{untouchedAfter: play.DefaultUntouchedAfter, hooks: play.Hooks{Swept: func(n int64) { swept <- n }}}
	k := newStack(t, e.store, o)
	defer k.close()
	select {
	case n := <-swept:
		if n != 1 || e.gameExists(id) {
			t.Errorf("the sweep at start dropped %d; the game untouched for 25 hours is still there: %v", n, e.gameExists(id))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no sweep at start")
	}
}
