package web

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"knightwatch/live"
)

// TestBusyRoomHoldsUpNoOtherGame: while one game's room is held (as by a
// commit waiting on a busy or full disk), a tab joining or leaving that
// game waits for it, but nobody else does: another game still opens at
// once (issue 35: no waiting under the hub's lock).
func TestBusyRoomHoldsUpNoOtherGame(t *testing.T) {
	cases := []struct {
		name  string
		recon bool
		leave bool // a tab of the busy game closes (else one more opens)
	}{
		{"a tab joins the busy chess game", false, false},
		{"a tab leaves the busy chess game", false, true},
		{"a tab joins the busy recon game", true, false},
		{"a tab leaves the busy recon game", true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var busy string                   // set before its first tab opens
			var joining, leaving atomic.Int32 // the busy game's tabs
			count := func(n *atomic.Int32) func(string) {
				return func(id string) {
					if id == busy {
						n.Add(1)
					}
				}
			}
			e := newEnv(t, envOpts{socketHooks: Hooks{Joining: count(&joining), Leaving: count(&leaving)}})
			br := e.browser()
			if c.recon {
				busy = e.newRecon(br, "white", "random", "none")
			} else {
				busy = e.newGame(br, form("white", "1", "standard", "none"))
			}
			first, second := e.mustDial(br, busy), e.mustDial(br, busy)
			first.waitFor("state", func(m anyMsg) bool { return m.Type == "state" || m.Type == "recon_state" })
			second.waitFor("state", func(m anyMsg) bool { return m.Type == "state" || m.Type == "recon_state" })

			mu := e.roomLock(busy)
			mu.Lock()
			var once sync.Once
			unlock := func() { once.Do(mu.Unlock) }
			defer unlock()
			// The server reaches the busy room: the tab's join or leave
			// runs as soon as the socket opens or closes.
			if c.leave {
				second.conn.Close()
				e.until("the tab to leave the busy room", func() bool { return leaving.Load() == 1 })
			} else {
				e.mustDial(br, busy) // its join waits for the room
				e.until("the tab to join the busy room", func() bool { return joining.Load() == 3 })
			}

			other := e.browser()
			opened := make(chan bool, 1)
			go func() {
				w, _, err := e.dial(other, e.newGame(other, form("white", "1", "standard", "none")))
				if err != nil {
					opened <- false
					return
				}
				_, got := w.next(5 * time.Second)
				opened <- got
			}()
			if !<-opened {
				t.Fatal("another game did not open while one room was busy")
			}
			unlock()
			first.send(map[string]any{"type": "sync"})
			first.waitFor("state after the room is free", func(m anyMsg) bool { return m.Type == "state" || m.Type == "recon_state" })
		})
	}
}

// roomLock returns the lock of game id's host.
func (e *testEnv) roomLock(id string) sync.Locker {
	e.t.Helper()
	if e.reg.Get(id) != nil {
		return &hostHold{games: e.reg, id: id}
	}
	e.t.Fatalf("game %s has no host", id)
	return nil
}

// hostHold holds a host's lock as a long commit would: Lock returns once
// a function run under it (live.Registry's With) has started, and it
// returns when Unlock is called.
type hostHold struct {
	games   *live.Registry
	id      string
	release chan struct{}
}

func (h *hostHold) Lock() {
	h.release = make(chan struct{})
	held := make(chan struct{})
	go h.games.With(h.id, func(live.Locked) error {
		close(held)
		<-h.release
		return nil
	})
	<-held
}

func (h *hostHold) Unlock() { close(h.release) }

// TestCloseWhileTabsComeAndGo: Close returns, every tab gone, while tabs
// keep opening games (half of them closing again, half staying for Close
// to close), each racing Close for the room's lock; run with -race, it
// also checks the hub's locking.
func TestCloseWhileTabsComeAndGo(t *testing.T) {
	var joined, left atomic.Int32
	e := newEnv(t, envOpts{noEngine: true, socketHooks: Hooks{
		Joining: func(string) { joined.Add(1) }, Left: func(string) { left.Add(1) }}})
	br := e.browser()
	games := []string{
		e.newGame(br, form("white", "1", "standard", "none")),
		e.newRecon(br, "white", "random", "none"),
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := i; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				w, _, err := e.dial(br, games[n%len(games)])
				if err != nil {
					continue
				}
				w.next(time.Second)
				if n%2 == 0 {
					w.conn.Close() // else kept open, for Close to close
				}
			}
		}()
	}
	// Close once tabs have come and gone for a while, and go on coming.
	e.until("tabs to come and go", func() bool { return joined.Load() >= 24 && left.Load() >= 8 })
	closed := make(chan struct{})
	go func() {
		e.srv.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Error("Close did not return while tabs came and went")
	}
	close(stop)
	wg.Wait()
	for _, id := range games {
		if h := e.reg.Get(id); h != nil {
			if n := len(h.Subscribers()); n > 0 {
				t.Errorf("game %s still has %d tabs after Close", id, n)
			}
		}
	}
}
