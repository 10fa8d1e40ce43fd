package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"knightwatch/store"
)

// crashThink is how long the mover thinks before the "crash" in
// TestRestartChargesThinking; aliveEveryTest is the heartbeat there, and
// restartSlack what the restart may refund at most: a heartbeat's worth,
// and the scheduling of a loaded machine.
const (
	crashThink     = 600 * time.Millisecond
	aliveEveryTest = 10 * time.Millisecond
	restartSlack   = 150 * time.Millisecond
)

// restarted is a second server on e's database, as after a kill -9 of the
// first: the first is left running and never closes its games first, so
// the second finds every game as the last commit left it (the first one's
// heartbeat says it was alive up to now).
func (e *testEnv) restarted(t *testing.T) (*Server, *httptest.Server) {
	t.Helper()
	st, err := store.Open(e.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	k := newStack(t, st, envOpts{rbcClock: 60 * time.Second, aliveEvery: aliveEveryTest})
	srv := k.srv
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { k.close(); ts.Close(); st.Close() })
	return srv, ts
}

// Issue 41 item 7: after a kill -9, the mover's clock is charged the time
// it had been thinking since its last committed action, up to the crash.
// Before, a restart gave it all back (53.99 s left after 6 s of thinking,
// 59.70 s after the restart): the record held the time at the last
// action, and the restart started the turn afresh. Time while the server
// is down is still not charged. The thinking is real time: what is tested
// is how much of it is charged.
func TestRestartChargesThinking(t *testing.T) {
	cases := []struct {
		name string
		// play starts a game on e, makes the mover's clock run, thinks
		// crashThink, and returns the mover's time left then and a
		// function reading it from the restarted server.
		play func(t *testing.T, e *testEnv) (time.Duration, func(*Server, *httptest.Server) time.Duration)
	}{
		{"API game", func(t *testing.T, e *testEnv) (time.Duration, func(*Server, *httptest.Server) time.Duration) {
			alice, bob := e.apiClient("alice", "password-a"), e.apiClient("bob", "password-b")
			alice.register()
			bob.register()
			id := alice.invite("bob", true)
			var inv []int64
			bob.must("GET", "/api/invitations/", nil, "invitations", &inv)
			bob.must("POST", fmt.Sprintf("/api/invitations/%d", inv[0]), nil, "game_id", new(int64))
			g := fmt.Sprintf("/api/games/%d/", id)
			alice.must("POST", g+"ready", nil, "", nil)
			bob.must("POST", g+"ready", nil, "", nil)
			alice.must("POST", g+"sense", map[string]any{"square": nil}, "", nil)
			time.Sleep(crashThink) // time itself is what is tested: the mover thinks, and how much of it is charged
			left := func(_ *Server, ts *httptest.Server) time.Duration {
				var secs float64
				as := &apiClient{t: t, base: ts.URL, user: "alice", pass: "password-a", http: &http.Client{Timeout: 30 * time.Second}}
				as.must("GET", g+"seconds_left", nil, "seconds_left", &secs)
				return time.Duration(secs * float64(time.Second))
			}
			return left(e.srv, e.ts), left
		}},
		{"chess in the browser", func(t *testing.T, e *testEnv) (time.Duration, func(*Server, *httptest.Server) time.Duration) {
			c := e.browser()
			id := e.newGame(c, form("white", "1", "standard", "1+0"))
			w := e.mustDial(c, id)
			w.state()
			w.send(`{"type":"move","move":"e2e4","ply":0}`)
			if st := w.stateAt(2); st.Clock == nil || st.Clock.Running != "white" {
				t.Fatalf("the clock does not run after the engine's reply: %+v", st.Clock)
			}
			time.Sleep(crashThink) // time itself is what is tested: the person thinks, and how much of it is charged
			white := func(ts *httptest.Server, conn *wsConn) time.Duration {
				st := conn.sync()
				return time.Duration(st.Clock.White) * time.Millisecond
			}
			return white(e.ts, w), func(_ *Server, ts *httptest.Server) time.Duration {
				conn, _, err := wsDialer(c).Dial("ws"+strings.TrimPrefix(ts.URL, "http")+"/ws/game/"+id, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				return white(ts, &wsConn{t: t, conn: conn})
			}
		}},
		{"Reconnaissance Chess in the browser", func(t *testing.T, e *testEnv) (time.Duration, func(*Server, *httptest.Server) time.Duration) {
			c := e.browser()
			id := e.newRecon(c, "white", "random", "3+2")
			w := e.dialRecon(c, id)
			w.send(`{"type":"sense","square":"e7","seq":0}`)
			w.reconWait("the move phase", nil, func(f reconFrame) bool { return isState(f) && f.State.Phase == "move" })
			time.Sleep(crashThink) // time itself is what is tested: the person thinks, and how much of it is charged
			mine := func(conn *wsConn) time.Duration {
				return time.Duration(conn.reconSync().Clock.Mine) * time.Millisecond
			}
			return mine(w), func(_ *Server, ts *httptest.Server) time.Duration {
				conn, _, err := (&websocket.Dialer{Jar: c.Jar}).Dial("ws"+strings.TrimPrefix(ts.URL, "http")+"/ws/game/"+id, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				return mine(&wsConn{t: t, conn: conn})
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOpts{rbcClock: 60 * time.Second, aliveEvery: aliveEveryTest})
			before, after := tc.play(t, e)
			srv, ts := e.restarted(t)
			left := after(srv, ts)
			t.Logf("left before the crash %v, after the restart %v", before, left)
			if left > before+restartSlack {
				t.Errorf("the restart gave back %v of the %v thought (left %v before the crash, %v after)", left-before, crashThink, before, left)
			}
			if left < before-restartSlack-5*time.Second {
				t.Errorf("the restart charged too much: left %v before the crash, %v after", before, left)
			}
		})
	}
}
