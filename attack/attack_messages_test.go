package attack

import (
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"knightwatch/web"
)

// One socket sends 500 messages at once, on a chess and on a
// Reconnaissance Chess game. Before the per-socket limit the only brake was
// the 32-message send queue. Now it gets DefaultMessageBurst answers, one
// rate_limited error in words, then close 1008 with a reason; the same
// browser's other socket is answered throughout.
func TestMessageFlood(t *testing.T) {
	s := startServer(t)
	for _, tc := range []struct {
		name string
		form url.Values
		sync string
	}{
		{"chess", ChessForm(1, ""), `{"type":"sync"}`},
		{"recon", url.Values{"variant": {"recon"}, "color": {"white"}, "opponent": {"random"}, "clock": {"15+5"}}, `{"type":"sync"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newVisitor(t, s)
			flooder, calm := v.newGame(tc.form), v.newGame(ChessForm(1, ""))
			c, _, err := v.Dial(flooder)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			q, _, err := v.Dial(calm)
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			Read(q, 10*time.Second) // its first state
			go func() {
				for range 500 {
					c.SetWriteDeadline(time.Now().Add(5 * time.Second))
					if c.WriteMessage(websocket.TextMessage, []byte(tc.sync)) != nil {
						return
					}
				}
			}()
			states, limited := 0, 0
			var closeErr *websocket.CloseError
			for {
				m, err := Read(c, 10*time.Second)
				if err != nil {
					errors.As(err, &closeErr)
					break
				}
				switch {
				case m.Type == "error" && m.Code == web.CodeRateLimited && m.Message == "too many messages; slow down":
					limited++
				case m.Type == "error":
					t.Errorf("error %s %q", m.Code, m.Message)
				default:
					states++
				}
			}
			if limited != 1 || closeErr == nil || closeErr.Code != websocket.ClosePolicyViolation || closeErr.Text != "too many messages" {
				t.Errorf("%d rate_limited errors, close %v; want 1 and 1008 \"too many messages\"", limited, closeErr)
			}
			if most := 1 + web.DefaultMessageBurst + 5; states > most {
				t.Errorf("%d states answered to the flood, want at most %d (the burst)", states, most)
			}
			// The browser's other socket still answers.
			if err := Send(q, map[string]string{"type": "sync"}); err != nil {
				t.Fatal(err)
			}
			if _, err := WaitFor(q, 10*time.Second, func(m Msg) bool { return m.Type == "state" }); err != nil {
				t.Errorf("the calm socket: %v", err)
			}
		})
	}
}
