package live

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"knightwatch/game"
)

// toyGame is the smallest game a host can drive: the sides take turns to
// add a number to a running total, until ply limit; the total is hidden
// from spectators. Its record is kept by a toyStore that can be told to
// refuse commits.
type toyGame struct {
	st      *toyStore
	total   int
	ply     int
	limit   int
	result  string // "" while on; "time" or "done"
	clock   game.Clock
	started bool
}

// toyRecord is what the toy commits.
type toyRecord struct {
	total, ply int
	result     string
	left       [2]time.Duration
	since      time.Time // zero: the clock stopped
}

type toyStore struct {
	mu      sync.Mutex
	fail    bool
	saved   []toyRecord
	commits chan toyRecord // each commit attempt, if set
}

func (s *toyStore) setFail(f bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = f
}

func (s *toyStore) last() toyRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.saved[len(s.saved)-1]
}

var errDiskFull = errors.New("disk full")

func newToy(st *toyStore, limit int, clock time.Duration) *toyGame {
	return &toyGame{st: st, limit: limit, clock: game.NewClock(clock, 0), started: true}
}

func (g *toyGame) Turn() (game.Color, bool) {
	return game.Color(g.ply % 2), g.started && g.result == ""
}
func (g *toyGame) Ply() int               { return g.ply }
func (g *toyGame) Over() bool             { return g.result != "" }
func (g *toyGame) Clock() *game.Clock     { return &g.clock }
func (g *toyGame) ClockDue() bool         { return true }
func (g *toyGame) Notice(n Notice) []byte { return []byte(fmt.Sprintf("notice %d", n)) }

func (g *toyGame) Mark() func() {
	saved := *g
	return func() { *g = saved }
}

func (g *toyGame) Commit(now time.Time) error {
	rec := toyRecord{total: g.total, ply: g.ply, result: g.result, left: g.clock.Left(), since: g.clock.Since()}
	g.st.mu.Lock()
	defer g.st.mu.Unlock()
	if g.st.commits != nil {
		g.st.commits <- rec
	}
	if g.st.fail {
		return errDiskFull
	}
	g.st.saved = append(g.st.saved, rec)
	return nil
}

func (g *toyGame) Flag(now time.Time) bool {
	if _, out := g.clock.Flagged(now); !out {
		return false
	}
	g.clock.Stop(now)
	g.result = "time"
	return true
}

func (g *toyGame) View(v Viewer, m Moment) []byte {
	total := g.total
	if v == Spectator {
		total = -1
	}
	return []byte(fmt.Sprintf("ply %d total %d result %q saving %v thinking %v", g.ply, total, g.result, m.Saving, m.Thinking))
}

// add is a player's (or an automaton's) action: add n on its turn.
func (g *toyGame) add(c game.Color, n int, now time.Time) error {
	if mover, on := g.Turn(); !on || mover != c {
		return errors.New("not your turn")
	}
	if n <= 0 {
		return errors.New("add a positive number")
	}
	g.total += n
	g.ply++
	g.clock.Press(now)
	if g.ply >= g.limit {
		g.result = "done"
		g.clock.Stop(now)
	}
	return nil
}

// toySub is a subscriber keeping what it is sent.
type toySub struct {
	v    Viewer
	mu   sync.Mutex
	got  []string
	more chan struct{}
}

func newSub(v Viewer) *toySub { return &toySub{v: v, more: make(chan struct{}, 1)} }

func (s *toySub) Viewer() Viewer { return s.v }
func (s *toySub) Send(b []byte) {
	s.mu.Lock()
	s.got = append(s.got, string(b))
	s.mu.Unlock()
	select {
	case s.more <- struct{}{}:
	default:
	}
}

func (s *toySub) messages() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.got...)
}

// waitFor waits until the subscriber was sent a message ok accepts; the
// deadline only bounds a failing test.
func (s *toySub) waitFor(t *testing.T, what string, ok func(string) bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		for _, m := range s.messages() {
			if ok(m) {
				return
			}
		}
		select {
		case <-s.more:
		case <-deadline:
			t.Fatalf("timed out waiting for %s; got %q", what, s.messages())
		}
	}
}

// toyBot is an automaton adding 1 on each of its turns, when go_ lets it
// (nil: at once); started tells each turn's start.
type toyBot struct {
	color   game.Color
	go_     chan struct{}
	started chan *Turn
	closed  chan struct{}
	steps   chan bool // each Step's answer
}

func newBot(c game.Color, gated bool) *toyBot {
	b := &toyBot{color: c, started: make(chan *Turn, 16), closed: make(chan struct{}), steps: make(chan bool, 16)}
	if gated {
		b.go_ = make(chan struct{})
	}
	return b
}

func (b *toyBot) Play(t *Turn) {
	b.started <- t
	if b.go_ != nil {
		select {
		case <-b.go_:
		case <-t.Context().Done():
			b.steps <- false
			return
		}
	}
	ok := t.Step(func(now time.Time) error {
		return t.h.g.(*toyGame).add(b.color, 1, now) // under the host's lock
	})
	b.steps <- ok
}

func (b *toyBot) Close() { close(b.closed) }
