package live

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"knightwatch/game"
)

// sharedStore is one database that several servers' toys commit to: a
// record and its revision, which a commit from an older revision may not
// overwrite.
type sharedStore struct {
	toyStore
	revision int64
	rec      toyRecord
}

// sharedToy is a toyGame that other servers commit too (Shared).
type sharedToy struct {
	*toyGame
	db       *sharedStore
	revision int64
	reloads  int
	failRead bool
}

func newSharedToy(db *sharedStore, limit int) *sharedToy {
	g := &sharedToy{toyGame: newToy(&db.toyStore, limit, 0), db: db}
	if err := g.Reload(); err != nil {
		panic(err)
	}
	return g
}

func (g *sharedToy) Revision() int64 { return g.revision }

func (g *sharedToy) Mark() func() {
	restore, revision := g.toyGame.Mark(), g.revision
	return func() { restore(); g.revision = revision }
}

func (g *sharedToy) Commit(now time.Time) error {
	g.db.mu.Lock()
	defer g.db.mu.Unlock()
	if g.db.revision != g.revision {
		return fmt.Errorf("toy: committed at %d, built from %d: %w", g.db.revision, g.revision, ErrConflict)
	}
	g.db.revision++
	g.revision = g.db.revision
	g.db.rec = toyRecord{total: g.total, ply: g.ply, result: g.result}
	return nil
}

func (g *sharedToy) Reload() error {
	g.db.mu.Lock()
	defer g.db.mu.Unlock()
	if g.failRead {
		return errDiskFull
	}
	g.reloads++
	g.total, g.ply, g.result = g.db.rec.total, g.db.rec.ply, g.db.rec.result
	g.revision = g.db.revision
	return nil
}

func newSharedHost(t *testing.T, g *sharedToy) *Host {
	h := NewHost(Config{ID: "toy", Logf: t.Logf}, g, [2]Automaton{})
	t.Cleanup(h.Close)
	return h
}

func (g *sharedToy) Latest() (int64, error) {
	g.db.mu.Lock()
	defer g.db.mu.Unlock()
	return g.db.revision, nil
}

// TestTwoServersRaceOnOneGame: two servers hold a host of the same game;
// each player's change is made from the revision its host has. Of two
// changes from the same revision exactly one is committed; the other is
// refused with ErrConflict, the loser's host reads the game again and its
// subscribers see the winner's change.
func TestTwoServersRaceOnOneGame(t *testing.T) {
	db := &sharedStore{}
	ga, gb := newSharedToy(db, 10), newSharedToy(db, 10)
	ha, hb := newSharedHost(t, ga), newSharedHost(t, gb)
	wa, wb := newSub(WhiteViewer), newSub(WhiteViewer)
	if err := ha.Join(wa); err != nil {
		t.Fatal(err)
	}
	if err := hb.Join(wb); err != nil {
		t.Fatal(err)
	}

	if err := ha.Act(func(now time.Time) error { return ga.add(game.White, 5, now) }); err != nil {
		t.Fatalf("server A's move: %v", err)
	}
	err := hb.Act(func(now time.Time) error { return gb.add(game.White, 7, now) })
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("server B's move from the old revision: %v, want ErrConflict", err)
	}
	if db.revision != 1 || db.rec.total != 5 || db.rec.ply != 1 {
		t.Fatalf("the database has revision %d, %+v; want A's move alone at revision 1", db.revision, db.rec)
	}
	// B read the game again: its player sees A's move, and B's next change
	// is made from it.
	wb.waitFor(t, "A's move on server B", has("ply 1 total 5"))
	if gb.Revision() != 1 {
		t.Errorf("server B's game is at revision %d, want 1", gb.Revision())
	}
	if err := hb.Act(func(now time.Time) error { return gb.add(game.Black, 1, now) }); err != nil {
		t.Fatalf("server B's move after reading again: %v", err)
	}

	// A hears of it on the feed and tells its subscribers; its own commit,
	// heard back, reads nothing.
	reloads := ga.reloads
	ha.Changed(1)
	if ga.reloads != reloads {
		t.Errorf("a change A had committed itself read the game again")
	}
	ha.Changed(2)
	wa.waitFor(t, "B's move on server A", has("ply 2 total 6"))
	if ga.Revision() != 2 {
		t.Errorf("server A's game is at revision %d, want 2", ga.Revision())
	}
}

// TestResyncReadsAgain: after a cut in the feed every host reads its game
// again; a read that fails leaves the game as it was, and the next one
// catches up.
func TestResyncReadsAgain(t *testing.T) {
	db := &sharedStore{}
	ga, gb := newSharedToy(db, 10), newSharedToy(db, 10)
	r := NewRegistry()
	t.Cleanup(func() { r.Close() })
	r.Kind("toy", func(id string) (*Host, error) {
		return NewHost(Config{ID: id, Logf: t.Logf}, ga, [2]Automaton{}), nil
	})
	wa := newSub(WhiteViewer)
	ha, err := r.Join("toy1", wa)
	if err != nil {
		t.Fatal(err)
	}
	hb := newSharedHost(t, gb)
	if err := hb.Join(newSub(WhiteViewer)); err != nil {
		t.Fatal(err)
	}
	if err := hb.Act(func(now time.Time) error { return gb.add(game.White, 3, now) }); err != nil {
		t.Fatal(err)
	}
	// The feed was cut: A heard nothing. The first read fails.
	ha.mu.Lock()
	ga.failRead = true
	ha.mu.Unlock()
	r.Resync()
	if ga.Revision() != 0 {
		t.Fatalf("a failed read changed the game to revision %d", ga.Revision())
	}
	ha.mu.Lock()
	ga.failRead = false
	ha.mu.Unlock()
	r.Resync()
	wa.waitFor(t, "B's move on A after the resync", has("ply 1 total 3"))
	r.Changed("toy1", 1) // heard late: nothing more to read
	r.Changed("toy-unknown", 7)
	if ga.reloads != 2 { // the first at its start, the resync's
		t.Errorf("%d reads, want 2", ga.reloads)
	}
}

// TestChangeElsewhereWithdrawsTheTurn: when another server moves the game
// on under an automaton's turn, the change heard withdraws the turn: its
// thinking stops and its step is not applied.
func TestChangeElsewhereWithdrawsTheTurn(t *testing.T) {
	db := &sharedStore{}
	ga, gb := newSharedToy(db, 10), newSharedToy(db, 10)
	bot := newBot(game.Black, true)
	ha := NewHost(Config{ID: "toy", Logf: t.Logf}, ga, [2]Automaton{nil, bot})
	t.Cleanup(ha.Close)
	hb := newSharedHost(t, gb)
	if err := ha.Join(newSub(WhiteViewer)); err != nil {
		t.Fatal(err)
	}
	if err := ha.Act(func(now time.Time) error { return ga.add(game.White, 2, now) }); err != nil {
		t.Fatal(err)
	}
	turn := <-bot.started
	// Server B, which has not heard of A's move yet, cannot move from the
	// old revision; having read the game again, it plays Black's move.
	if err := hb.Act(func(now time.Time) error { return gb.add(game.White, 4, now) }); !errors.Is(err, ErrConflict) {
		t.Fatalf("B's move from the old revision: %v", err)
	}
	if err := hb.Act(func(now time.Time) error { return gb.add(game.Black, 9, now) }); err != nil {
		t.Fatal(err)
	}
	ha.Changed(gb.Revision())
	<-turn.Context().Done()
	close(bot.go_)
	if <-bot.steps {
		t.Fatal("the bot's step was applied after the game moved on elsewhere")
	}
	if db.rec.total != 11 || db.rec.ply != 2 {
		t.Errorf("the database has %+v, want White's 2 and B's 9", db.rec)
	}
}

// TestReadsCatchUp: a client that acted through server A and comes to
// server B before the change feed brought the change there is shown the
// game with its action: a socket joining B is sent it, and a read of the
// latest reads the game again; a plain Read does not (it is for a host's
// own steps, which the revisions keep honest).
func TestReadsCatchUp(t *testing.T) {
	db := &sharedStore{}
	ga, gb := newSharedToy(db, 10), newSharedToy(db, 10)
	ha, hb := newSharedHost(t, ga), newSharedHost(t, gb)
	if err := ha.Join(newSub(WhiteViewer)); err != nil {
		t.Fatal(err)
	}
	if err := hb.Join(newSub(Spectator)); err != nil {
		t.Fatal(err)
	}
	if err := ha.Act(func(now time.Time) error { return ga.add(game.White, 5, now) }); err != nil {
		t.Fatal(err)
	}
	// B has heard nothing (no Changed): its copy is at revision 0.
	var plain int
	hb.Read(func(Game, Moment) { plain = gb.ply })
	if plain != 0 {
		t.Fatalf("a plain read on B saw ply %d: the test needs B behind", plain)
	}
	var latest int
	if !hb.ReadLatest(func(Game, Moment) { latest = gb.ply }) || latest != 1 {
		t.Fatalf("a read of the latest on B saw ply %d, want 1 (A's move)", latest)
	}
	if err := ha.Act(func(now time.Time) error { return ga.add(game.Black, 2, now) }); err != nil {
		t.Fatal(err)
	}
	w := newSub(WhiteViewer)
	if err := hb.Join(w); err != nil {
		t.Fatal(err)
	}
	if got := w.messages(); len(got) == 0 || !has("ply 2 total 7")(got[len(got)-1]) {
		t.Fatalf("a socket joining B was sent %q, want the game with both moves", got)
	}
}
