package web

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// A socket that floods gets one rate_limited error, then close 1008 with a
// reason; a socket within the limit is answered every time. Game and
// Reconnaissance Chess sockets share the limiter.
func TestMessageRateLimit(t *testing.T) {
	tests := []struct {
		name  string
		recon bool
		flood bool
		rate  float64
		burst int
	}{
		{"game flood", false, true, 5, 5},
		{"recon flood", true, true, 5, 5},
		{"game within the limit", false, false, 5, 5},
		{"recon within the limit", true, false, 5, 5},
		// The defaults: a burst larger than the send queue used to be, so
		// the flood's answers overflowed it and the socket was dropped
		// (1006) without the error.
		{"game flood, default limits", false, true, DefaultMessageRate, DefaultMessageBurst},
		{"recon flood, default limits", true, true, DefaultMessageRate, DefaultMessageBurst},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOpts{noEngine: true, messageRate: tc.rate, messageBurst: tc.burst})
			c := e.browser()
			var id string
			if tc.recon {
				id = e.newRecon(c, "white", "random", "15+5")
			} else {
				id = e.newGame(c, form("white", "1", "standard", "none"))
			}
			w := e.mustDial(c, id)
			var sent int
			if tc.flood {
				// Sent while the answers are read, as a browser would: a
				// tab that reads nothing is dropped for that alone.
				go func() {
					for range 500 {
						if w.conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"sync"}`)) != nil {
							return
						}
					}
				}()
			} else {
				for range 8 {
					w.send(`{"type":"sync"}`)
					sent++
					// time itself is what is tested: 4 messages a second, under the limit of 5
					time.Sleep(250 * time.Millisecond)
				}
			}
			var states, limited int
			var closeErr *websocket.CloseError
			deadline := time.Now().Add(10 * time.Second)
			for time.Now().Before(deadline) {
				w.conn.SetReadDeadline(time.Now().Add(time.Second))
				_, b, err := w.conn.ReadMessage()
				if err != nil {
					errors.As(err, &closeErr)
					break
				}
				var m struct{ Type, Code, Message string }
				json.Unmarshal(b, &m)
				switch {
				case m.Type == "error" && m.Code == CodeRateLimited:
					limited++
					if m.Message != "too many messages; slow down" {
						t.Errorf("rate_limited message %q", m.Message)
					}
				case m.Type == "error":
					t.Errorf("unexpected error %s", b)
				case m.Type == "state" || m.Type == "recon_state":
					states++
				}
				if !tc.flood && states == sent+1 { // the greeting and one per sync
					break
				}
			}
			if tc.flood {
				if limited != 1 {
					t.Errorf("%d rate_limited errors, want 1", limited)
				}
				if closeErr == nil || closeErr.Code != websocket.ClosePolicyViolation || closeErr.Text != "too many messages" {
					t.Errorf("close %v, want 1008 \"too many messages\"", closeErr)
				}
				if states > tc.burst+1+1 {
					t.Errorf("%d states for a flood with burst %d", states, tc.burst)
				}
				return
			}
			if limited != 0 || closeErr != nil || states != sent+1 {
				t.Errorf("within the limit: %d states for %d syncs, %d limited, close %v", states, sent, limited, closeErr)
			}
		})
	}
}

func TestMsgLimiterVerdicts(t *testing.T) {
	s := &sockets{site: &site{cfg: Config{MessageRate: 1, MessageBurst: 2}}}
	m := s.newMsgLimiter()
	now := time.Now()
	want := []limitVerdict{limitPass, limitPass, limitWarn, limitDrop, limitClose}
	for i, w := range want {
		if got := m.check(now); got != w {
			t.Fatalf("message %d: %v, want %v", i, got, w)
		}
	}
	// After a quiet spell messages pass again and strikes wear off.
	m = s.newMsgLimiter()
	m.check(now)
	m.check(now)
	if m.check(now) != limitWarn {
		t.Fatal("want warn")
	}
	if got := m.check(now.Add(2 * time.Second)); got != limitPass {
		t.Fatalf("after a pause: %v", got)
	}
}
