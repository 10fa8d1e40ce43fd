package play

import (
	"context"
	"os"
	"testing"
	"time"

	"knightwatch/changefeed"
	"knightwatch/live"
	"knightwatch/pgtest"
	"knightwatch/recon"
	"knightwatch/store"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// signalTab is a tab that pokes changed each time it is sent something.
type signalTab struct {
	viewer  live.Viewer
	changed chan struct{}
}

func (t *signalTab) Viewer() live.Viewer { return t.viewer }
func (t *signalTab) Send([]byte) {
	select {
	case t.changed <- struct{}{}:
	default:
	}
}
func (t *signalTab) MayCreate(string) bool { return true }

// following hands a change feed's news to a registry, as serve does.
type following struct{ r *live.Registry }

func (f following) Changed(c changefeed.Change) { f.r.Changed(c.Game, c.Revision) }
func (f following) Resync()                     { f.r.Resync() }

// server is one server of the test's site: its store, games and
// registry, following the others' commits.
type server struct {
	st  *store.Store
	gs  *Games
	reg *live.Registry
}

func newServer(t *testing.T, dsn string) server {
	st, err := store.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	gs, reg := newTestGames(t, st)
	l, err := changefeed.Listen(context.Background(), dsn, following{reg}, changefeed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return server{st, gs, reg}
}

// reconHistory is what host h holds: its history, whether the game is
// over and how many moves Black (the bot) made.
func reconHistory(h *live.Host) (hist string, over bool, botMoves int) {
	h.Read(func(g live.Game, _ live.Moment) {
		r := g.(*reconGame)
		hh := r.Arbiter.History()
		hist, over, botMoves = string(recon.MarshalHistory(hh)), r.Arbiter.IsOver(), len(hh.RequestedMoves[1])
	})
	return
}

// TestReconGameSharedBetweenServers: a Reconnaissance Chess game against
// a bot held by two servers on one PostgreSQL database, the person with
// a tab on each. The person's sense on one server and move on the other
// are both taken, each server reading the other's commit; the bot, which
// both servers run, plays each of its turns once; both hosts end with the
// database's history, which replays.
func TestReconGameSharedBetweenServers(t *testing.T) {
	dsn := pgtest.DB(t)
	a, b := newServer(t, dsn), newServer(t, dsn)
	rec := &store.ReconGame{Owner: "o", Human: store.White, Opponent: "random", Seed: 7}
	if err := a.st.Games().CreateReconGame(rec); err != nil {
		t.Fatal(err)
	}
	join := func(s server) (*Seat, *signalTab) {
		tab := &signalTab{viewer: live.PlayerOf(rec.Human.Color), changed: make(chan struct{}, 1)}
		seat, err := s.gs.Join(rec.ID, tab)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.reg.Leave(seat.Host(), tab) })
		return seat, tab
	}
	seatA, tabA := join(a)
	seatB, tabB := join(b)
	_ = tabA
	// until waits for cond over what tab's host holds, checking again
	// each time the host sends the tab something.
	until := func(what string, tab *signalTab, cond func() bool) {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for !cond() {
			select {
			case <-tab.changed:
			case <-deadline:
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	send := func(s server, seat *Seat, line string) {
		t.Helper()
		m, perr := DecodeReconMessage([]byte(line))
		if perr != nil {
			t.Fatal(perr)
		}
		s.gs.reconMessage(seat, seat.recon, m)
	}
	stored := func() *store.ReconGame {
		t.Helper()
		db, err := a.st.Games().GetReconGame(rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		return db
	}

	send(a, seatA, `{"type":"sense","square":"e7","seq":0}`)
	until("the sense on server B", tabB, func() bool {
		h, _, _ := reconHistory(seatB.Host())
		return h == stored().History && stored().Revision >= 1
	})
	send(b, seatB, `{"type":"move","move":"e2e4","seq":1}`)
	// The bot's turn follows on both servers; each of its steps is
	// played once, and both hosts come to the database's history.
	for _, x := range []struct {
		s    server
		seat *Seat
		tab  *signalTab
	}{{a, seatA, tabA}, {b, seatB, tabB}} {
		until("the bot's turn on both servers", x.tab, func() bool {
			h, over, botMoves := reconHistory(x.seat.Host())
			return (botMoves >= 1 || over) && h == stored().History
		})
	}
	db := stored()
	hist, err := recon.UnmarshalHistory([]byte(db.History))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := recon.Restore(reconConfig(db), hist, [2]time.Duration{time.Hour, time.Hour}, nil, 0); err != nil {
		t.Fatalf("the stored history does not replay: %v", err)
	}
	if len(hist.Senses[0]) != 1 || len(hist.RequestedMoves[0]) != 1 || hist.Senses[0][0].String() != "e7" {
		t.Errorf("the person's sense (on one server) and move (on the other) are not both in the history once: %s", db.History)
	}
	if len(hist.Senses[1]) != 1 || len(hist.RequestedMoves[1]) != 1 {
		t.Errorf("the bot's turn is in the history as %d senses and %d moves, want one of each: %s", len(hist.Senses[1]), len(hist.RequestedMoves[1]), db.History)
	}
}
