package play

import (
	"context"
	"encoding/json"
	"os"
	"sync"
	"testing"
	"time"

	"knightwatch/changefeed"
	"knightwatch/live"
	"knightwatch/pgtest"
	"knightwatch/recon"
	"knightwatch/store"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// signalTab is a tab that pokes changed each time it is sent something,
// and keeps the last thing sent.
type signalTab struct {
	viewer  live.Viewer
	changed chan struct{}

	mu   sync.Mutex
	last []byte
}

func (t *signalTab) Viewer() live.Viewer   { return t.viewer }
func (t *signalTab) MayCreate(string) bool { return true }
func (t *signalTab) Send(b []byte) {
	t.mu.Lock()
	t.last = b
	t.mu.Unlock()
	select {
	case t.changed <- struct{}{}:
	default:
	}
}

// clockTold reports whether the last Reconnaissance Chess state the tab
// was sent says its clock runs (false when it was sent none).
func (t *signalTab) clockTold() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	var st ReconState
	if json.Unmarshal(t.last, &st) != nil || st.Type != ReconMsgState || st.Clock == nil {
		return false
	}
	return st.Clock.Running
}

// following hands a change feed's news to a registry, as serve does.
type following struct{ r *live.Registry }

func (f following) Changed(c changefeed.Change) { f.r.Changed(c.Game, c.Revision) }
func (f following) Resync()                     { f.r.Resync() }

// server is one server of the test's site: its store, games and
// registry, following the others' commits, with its presence as serve
// has it.
type server struct {
	st  *store.Store
	gs  *Games
	reg *live.Registry
}

func newServer(t *testing.T, dsn string) server {
	return newServerWith(t, dsn, func(p store.Presence) Presence { return p })
}

// newServerWith is newServer with the presence presence makes of the
// store's.
func newServerWith(t *testing.T, dsn string, presence func(store.Presence) Presence) server {
	st, err := store.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	gs, reg := newTestGames(t, st, func(c *Config) { c.Presence = presence(st.Presence(store.NewServerID())) })
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

// clockOf is the clock host h holds: whether it runs, and the time each
// side has left at the moment at.
func clockOf(h *live.Host, at time.Time) (running bool, left [2]time.Duration) {
	h.Read(func(g live.Game, _ live.Moment) {
		c := g.Clock()
		_, running = c.Running()
		left = c.RemainingAt(at)
	})
	return
}

// TestClockPresenceAcrossServers: a Reconnaissance Chess game played in
// person, open on server A by its player and on server B by a spectator
// or by the player's second tab. The mover's clock runs on both servers
// from the same committed moment (both compute the same time left),
// whichever server the player is on; once the player has left every
// server, it stands still on both, and every tab open is told so. Before
// presence, B's host, with no player of its own, stopped the clock A ran.
// Before the state said whether the clock runs (it said so whenever it was
// the person's turn), a stop whose time left, cut to the millisecond, was
// what B's tab had last been sent was sent to nobody (one run in twenty
// or so).
func TestClockPresenceAcrossServers(t *testing.T) {
	for _, tc := range []struct {
		name string
		// onB is whom server B holds the game for.
		onB live.Viewer
	}{
		{"a spectator on B", live.Spectator},
		{"the player's second tab on B", live.WhiteViewer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dsn := pgtest.DB(t)
			a, b := newServer(t, dsn), newServer(t, dsn)
			rec := &store.ReconGame{Owner: "o", Human: store.White, Opponent: "random", Seed: 7, ClockInitialMS: 600_000, WhiteMS: 600_000, BlackMS: 600_000}
			if err := a.st.Games().CreateReconGame(rec); err != nil {
				t.Fatal(err)
			}
			// B holds the game first, so that A's start of the clock reaches
			// it through the change feed.
			tabB := &signalTab{viewer: tc.onB, changed: make(chan struct{}, 1)}
			hostB, err := b.reg.Join(rec.ID, tabB)
			if err != nil {
				t.Fatal(err)
			}
			defer b.reg.Leave(hostB, tabB)
			tabA := &signalTab{viewer: live.WhiteViewer, changed: make(chan struct{}, 1)}
			hostA, err := a.reg.Join(rec.ID, tabA)
			if err != nil {
				t.Fatal(err)
			}
			// agree waits until both hosts hold the clock as the record has
			// it (running or not), compute the same time left, and have last
			// sent the tabs open on each (tabA, tabB) a state that says so:
			// the test wakes on what the tabs are sent, so a change not
			// sent would leave it waiting.
			agree := func(what string, running bool) {
				t.Helper()
				deadline := time.After(30 * time.Second)
				for {
					db, err := a.st.Games().GetReconGame(rec.ID)
					if err != nil {
						t.Fatal(err)
					}
					at := time.Now()
					runA, leftA := clockOf(hostA, at)
					runB, leftB := clockOf(hostB, at)
					toldA, toldB := tabA.clockTold(), tabB.clockTold()
					if (db.ClockSince != nil) == running && runA == running && runB == running && leftA == leftB && toldA == running && toldB == running {
						return
					}
					select {
					case <-tabB.changed:
					case <-tabA.changed:
					case <-deadline:
						t.Fatalf("%s: the record's clock runs %v, A's %v (%v left, its tab told %v), B's %v (%v left, its tab told %v); want all %v, the same time left",
							what, db.ClockSince != nil, runA, leftA, toldA, runB, leftB, toldB, running)
					}
				}
			}
			agree("the player on A", true)
			if tc.onB == live.WhiteViewer {
				// The player closes A's tab: the tab on B keeps the clock
				// running, on both.
				a.reg.Leave(hostA, tabA)
				tabA = &signalTab{viewer: live.Spectator, changed: make(chan struct{}, 1)}
				if hostA, err = a.reg.Join(rec.ID, tabA); err != nil {
					t.Fatal(err)
				}
				agree("the player gone from A, on B still", true)
				b.reg.Leave(hostB, tabB)
				tabB = &signalTab{viewer: live.Spectator, changed: make(chan struct{}, 1)}
				if hostB, err = b.reg.Join(rec.ID, tabB); err != nil {
					t.Fatal(err)
				}
			} else {
				a.reg.Leave(hostA, tabA)
				tabA = &signalTab{viewer: live.Spectator, changed: make(chan struct{}, 1)}
				if hostA, err = a.reg.Join(rec.ID, tabA); err != nil {
					t.Fatal(err)
				}
			}
			agree("the player gone from every server", false)
		})
	}
}

// shortPresence is a store's presence that expires a moment after each
// write instead of PresenceTTL after it: a killed server's, in a test that
// must not wait PresenceTTL.
type shortPresence struct{ store.Presence }

const shortPresenceFor = 300 * time.Millisecond

func (p shortPresence) Here(id string, present bool, now time.Time) error {
	return p.Presence.Here(id, present, now.Add(shortPresenceFor-store.PresenceTTL))
}

func (p shortPresence) Renew(now time.Time) error {
	return p.Presence.Renew(now.Add(shortPresenceFor - store.PresenceTTL))
}

// TestClockStopsAfterAKilledServer: the player's server is killed (its
// database connections gone, its presence left to expire) while the
// clock runs; server B, holding the game for a spectator, stops the clock
// once that presence has expired, and commits it: the clock does not run
// on for ever.
func TestClockStopsAfterAKilledServer(t *testing.T) {
	dsn := pgtest.DB(t)
	a := newServerWith(t, dsn, func(p store.Presence) Presence { return shortPresence{p} })
	b := newServer(t, dsn)
	rec := &store.ReconGame{Owner: "o", Human: store.White, Opponent: "random", Seed: 7, ClockInitialMS: 600_000, WhiteMS: 600_000, BlackMS: 600_000}
	if err := a.st.Games().CreateReconGame(rec); err != nil {
		t.Fatal(err)
	}
	if _, err := a.reg.Join(rec.ID, &signalTab{viewer: live.WhiteViewer, changed: make(chan struct{}, 1)}); err != nil {
		t.Fatal(err)
	}
	tab := &signalTab{viewer: live.Spectator, changed: make(chan struct{}, 1)}
	h, err := b.reg.Join(rec.ID, tab)
	if err != nil {
		t.Fatal(err)
	}
	defer b.reg.Leave(h, tab)
	if running, _ := clockOf(h, time.Now()); !running {
		t.Fatal("the clock the player's server runs does not run for the spectator's")
	}
	a.st.Close() // server A is killed: nothing of its is written any more
	// time itself is what is tested: A's presence expires shortPresenceFor
	// after its last renewal, and B's sweep (every second) then stops the
	// clock; the spectator's tab is told.
	deadline := time.After(30 * time.Second)
	for {
		if running, _ := clockOf(h, time.Now()); !running {
			break
		}
		select {
		case <-tab.changed:
		case <-deadline:
			t.Fatal("the clock still runs after the player's server was killed and its presence expired")
		}
	}
	db, err := b.st.Games().GetReconGame(rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if db.ClockSince != nil {
		t.Error("the clock stopped on B but runs on in the record")
	}
}
