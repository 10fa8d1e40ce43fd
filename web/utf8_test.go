package web

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// A text frame that is not UTF-8 closes the socket with 1007 (RFC 6455);
// a valid one is answered.
func TestInvalidUTF8Closes1007(t *testing.T) {
	tests := []struct {
		name  string
		recon bool
		frame string
		close int // 0: answered with a state
	}{
		{"game, invalid", false, "{\"type\":\"sync\",\"x\":\"\xff\xfe\"}", websocket.CloseInvalidFramePayloadData},
		{"game, truncated rune", false, "{\"type\":\"sync\",\"x\":\"\xe2\x82\"}", websocket.CloseInvalidFramePayloadData},
		{"recon, invalid", true, "{\"type\":\"sync\",\"x\":\"\xc0\xaf\"}", websocket.CloseInvalidFramePayloadData},
		{"game, valid", false, `{"type":"sync","x":"é♞"}`, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOpts{noEngine: true})
			c := e.browser()
			var id string
			if tc.recon {
				id = e.newRecon(c, "white", "random", "15+5")
			} else {
				id = e.newGame(c, form("white", "1", "standard", "none"))
			}
			w := e.mustDial(c, id)
			if err := w.conn.WriteMessage(websocket.TextMessage, []byte(tc.frame)); err != nil {
				t.Fatal(err)
			}
			states := 0
			for {
				w.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
				_, b, err := w.conn.ReadMessage()
				if err != nil {
					var ce *websocket.CloseError
					if tc.close == 0 || !errors.As(err, &ce) || ce.Code != tc.close {
						t.Fatalf("read: %v, want close %d", err, tc.close)
					}
					return
				}
				var m struct{ Type string }
				json.Unmarshal(b, &m)
				if m.Type == "state" || m.Type == "recon_state" {
					states++
				}
				if tc.close == 0 && states == 2 {
					return
				}
			}
		})
	}
}
