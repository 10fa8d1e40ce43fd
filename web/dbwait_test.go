package web

import (
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"knightwatch/play"
	"knightwatch/store/storetest"
)

// TestPagesDoNotWaitForWriteLock: with the write lock held by another
// process and one of the server's own writes waiting for it, a new
// visitor's home page and a game's page and PGN still load at once
// (issue 35: 7-9.5 s with a single database connection).
func TestPagesDoNotWaitForWriteLock(t *testing.T) {
	e, writes := newWritingEnv(t, envOpts{noEngine: true})
	c := e.browser()
	id := e.newGame(c, form("white", "1", "standard", "none"))
	storetest.HoldWriteLock(t, e.dbPath)
	before := writes.Load()
	go e.store.SetSetting("pending", "write") // waits for the lock on the writer
	e.until("the write to start", func() bool { return writes.Load() > before })

	const bound = time.Second // well under the 5 s busy timeout
	for _, tc := range []struct {
		name   string
		client *http.Client
		path   string
	}{
		{"home page, new visitor", e.browser(), "/"},
		{"home page, the owner", c, "/"},
		{"game page", c, "/game/" + id},
		{"PGN", c, "/game/" + id + "/pgn"},
	} {
		start := time.Now()
		resp, err := tc.client.Get(e.ts.URL + tc.path)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if d := time.Since(start); d > bound {
			t.Errorf("%s took %v with the write lock held elsewhere, want under %v", tc.name, d, bound)
		}
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %s", tc.name, resp.Status)
		}
	}
}

// newWritingEnv is newEnv, with a count of the writes the store has
// started (store.Hooks.Writing), each of which pokes the env's signal.
func newWritingEnv(t *testing.T, o envOpts) (*testEnv, *atomic.Int32) {
	var writes atomic.Int32
	o.sig = &signal{}
	o.storeHooks.Writing = func() {
		writes.Add(1)
		o.sig.poke()
	}
	return newEnv(t, o), &writes
}

// TestJoinDoesNotHoldHubDuringRead: while one game's record is slow to read
// (the load hook blocks), tabs joining other games get their state at
// once, and a second tab of the slow game waits for the same room rather
// than opening another. Under the old locking the read ran under hub.mu,
// so every join waited for it.
func TestJoinDoesNotHoldHubDuringRead(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 4)
	var once sync.Once
	var slow string // set before any game is opened
	load := func(id string) {
		if id == slow {
			entered <- struct{}{}
			<-release
		}
	}
	e := newEnv(t, envOpts{noEngine: true, hooks: play.Hooks{Load: load}})
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	c := e.browser()
	slow = e.newGame(c, form("white", "1", "standard", "none"))
	var others []string
	for i := 0; i < 3; i++ {
		others = append(others, e.newGame(c, form("white", "1", "standard", "none")))
	}

	// Two tabs on the slow game: the first blocks in the read, the second
	// waits for that room.
	type joined struct {
		w   *wsConn
		err error
	}
	slowTabs := make(chan joined, 2)
	for i := 0; i < 2; i++ {
		go func() {
			w, _, err := e.dial(c, slow)
			slowTabs <- joined{w, err}
		}()
	}
	select {
	case <-entered:
	case <-time.After(5 * time.Second):
		t.Fatal("the slow game's read never started")
	}

	// Other games, concurrently, while the read is stuck.
	var wg sync.WaitGroup
	errs := make(chan string, len(others))
	for _, id := range others {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			w, _, err := e.dial(c, id)
			if err != nil {
				errs <- "dial " + id + ": " + err.Error()
				return
			}
			m, ok := w.next(2 * time.Second)
			if !ok || m.Type != "state" {
				errs <- "no state for " + id + " while another game's read was slow (" + time.Since(start).String() + ")"
			}
		}()
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}

	once.Do(func() { close(release) })
	for i := 0; i < 2; i++ {
		j := <-slowTabs
		if j.err != nil {
			t.Fatalf("dial the slow game: %v", j.err)
		}
		if m, ok := j.w.next(5 * time.Second); !ok || m.Type != "state" {
			t.Fatalf("the slow game's tab got %+v, %v", m, ok)
		}
	}
	select {
	case <-entered:
		t.Error("the slow game was read twice: two rooms for one game")
	default:
	}
	h := e.reg.Get(slow)
	if h == nil {
		t.Fatal("no host for the slow game")
	}
	if n := len(h.Subscribers()); n != 2 {
		t.Errorf("the slow game's room has %d tabs, want 2", n)
	}
}

// TestListActionsDoNotHoldHub: while a Resign or Delete from the home
// page's list waits for the database (another process holds the write
// lock), tabs joining other games get their state, before that action
// has returned; once the lock is released the action completes. Under
// the old locking the action ran under hub.mu from its first read to its
// last write, so every join waited for it.
func TestListActionsDoNotHoldHub(t *testing.T) {
	tests := []struct {
		action string
		recon  bool
		open   bool // a tab has the game open (its room is live)
	}{
		{"resign", false, false},
		{"resign", false, true},
		{"resign", true, false},
		{"resign", true, true},
		{"delete", false, false},
		{"delete", false, true},
		{"delete", true, false},
		{"delete", true, true},
	}
	for _, tc := range tests {
		name := tc.action
		if tc.recon {
			name += " recon"
		}
		if tc.open {
			name += " open"
		}
		t.Run(name, func(t *testing.T) {
			e, writes := newWritingEnv(t, envOpts{noEngine: true})
			c := e.browser()
			var id string
			if tc.recon {
				id = e.newRecon(c, "white", "random", "15+5")
			} else {
				id = e.newGame(c, form("white", "1", "standard", "none"))
			}
			var others []string
			for i := 0; i < 3; i++ {
				others = append(others, e.newGame(c, form("white", "1", "standard", "none")))
			}
			if tc.open {
				e.mustDial(c, id).next(5 * time.Second)
			}
			release := storetest.HoldWriteLock(t, e.dbPath)
			before := writes.Load()
			done := make(chan int, 1)
			go func() {
				code, _ := e.postList(c, id, tc.action, e.ts.URL)
				done <- code
			}()
			e.until("the "+tc.action+" to reach the write", func() bool { return writes.Load() > before })

			var wg sync.WaitGroup
			errs := make(chan string, len(others))
			for _, oid := range others {
				wg.Add(1)
				go func() {
					defer wg.Done()
					w, _, err := e.dial(c, oid)
					if err != nil {
						errs <- "dial " + oid + ": " + err.Error()
						return
					}
					if m, ok := w.next(10 * time.Second); !ok || m.Type != "state" {
						errs <- "no state for " + oid
					}
				}()
			}
			wg.Wait()
			code := 0
			select {
			case code = <-done:
				t.Errorf("the %s (%d) returned before the joins of other games could finish: they waited for it", tc.action, code)
			default:
			}
			close(errs)
			for msg := range errs {
				t.Error(msg)
			}
			release()
			if code == 0 {
				code = <-done
			}
			if code != http.StatusSeeOther {
				t.Errorf("%s: %d", tc.action, code)
			}
		})
	}
}

// TestWriteLockDuringPlay: another process holds the write lock past the
// busy timeout (5 s) while the engine's move is saved, then while the
// person's is. The engine's move waits, with a notice, and is played by
// itself once the lock is released; the person's move is refused in words
// and plays when sent again. Nothing acknowledged is lost. (About 11 s;
// not in -short.)
func TestWriteLockDuringPlay(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the busy timeout twice")
	}
	searching := make(chan struct{})
	locked := make(chan struct{})
	hs := &hookSearcher{}
	hs.hook = func(n int) {
		if n == 2 {
			searching <- struct{}{}
			<-locked
		}
	}
	e := newEnv(t, envOpts{searcher: hs, saveRetryFirst: 20 * time.Millisecond, saveRetryMax: 100 * time.Millisecond})
	c := e.browser()
	id := e.newGame(c, form("white", "1", "standard", "5+3"))
	w := e.mustDial(c, id)
	w.state()
	w.send(`{"type":"move","move":"e2e4","ply":0}`)
	w.stateAt(2)
	w.send(`{"type":"move","move":"d2d4","ply":2}`)
	<-searching
	release := storetest.HoldWriteLock(t, e.dbPath)
	close(locked)
	if m := w.waitFor("notice", func(m anyMsg) bool { return m.Type == "notice" }); m.Text != play.EngineMoveUnsavedNotice {
		t.Errorf("notice %q", m.Text)
	}
	s := w.sync()
	if s.Ply != 3 || !s.Saving || !s.Thinking {
		t.Fatalf("while the lock is held: ply %d saving %v thinking %v", s.Ply, s.Saving, s.Thinking)
	}
	checkNothingLost(t, e, id, s)
	release()
	s = w.waitFor("the engine's move", func(m anyMsg) bool { return m.Type == "state" && m.state.Ply == 4 }).state
	if s.Saving || s.Thinking {
		t.Errorf("after the release: saving %v thinking %v", s.Saving, s.Thinking)
	}
	checkNothingLost(t, e, id, s)

	release = storetest.HoldWriteLock(t, e.dbPath)
	w.send(`{"type":"move","move":"g1f3","ply":4}`)
	m := w.waitFor("error", func(m anyMsg) bool { return m.Type == "error" })
	if m.Code != play.CodeServer || m.Message != play.MoveUnsavedText {
		t.Errorf("move while the lock is held: %s", m.raw)
	}
	release()
	s = w.sync()
	if s.Ply != 4 {
		t.Errorf("after the refusal: ply %d", s.Ply)
	}
	checkNothingLost(t, e, id, s)
	w.send(`{"type":"move","move":"g1f3","ply":4}`)
	checkNothingLost(t, e, id, w.stateAt(6))
}
