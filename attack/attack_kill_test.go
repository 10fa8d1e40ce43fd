package attack

import (
	"encoding/json"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// Issue 41 item 7: kill -9 while three players think, one in each kind of
// game: an API game (60+1), chess in the browser (1+0) and Reconnaissance
// Chess in the browser (3+2). Before, the restart gave each mover back its
// thinking since its last action (53.99 s left after 6 s of thinking,
// 59.70 s after the restart): the record held the clock at that action
// and the restart started the turn afresh. Now each is charged up to the
// crash, within the server's heartbeat (a second); the time the server
// was down is not charged. The thinking is real time: what is tested is
// how much of it is charged.
func TestKill9ChargesThinking(t *testing.T) {
	const (
		think = 3 * time.Second
		slack = 1250 * time.Millisecond // the heartbeat (1 s), and a loaded machine
	)
	s := startServer(t, "--rbc-clock", "60+1")
	alice := newBot(s, "127.0.0.1", "alice", "alice's password")
	bob := newBot(s, "127.0.0.1", "bob", "bob's password")
	alice.register(t)
	bob.register(t)
	var id int64
	alice.must(t, "POST", "/api/invitations/", map[string]any{"opponent": "bob", "color": true}, "game_id", &id)
	var inv []int64
	bob.must(t, "GET", "/api/invitations/", nil, "invitations", &inv)
	bob.must(t, "POST", fmt.Sprintf("/api/invitations/%d", inv[0]), nil, "game_id", new(int64))
	g := fmt.Sprintf("/api/games/%d/", id)
	alice.must(t, "POST", g+"ready", nil, "", nil)
	bob.must(t, "POST", g+"ready", nil, "", nil)
	alice.must(t, "POST", g+"sense", map[string]any{"square": nil}, "", nil)
	apiLeft := func() time.Duration {
		var sec float64
		alice.must(t, "GET", g+"seconds_left", nil, "seconds_left", &sec)
		return time.Duration(sec * float64(time.Second))
	}

	v := newVisitor(t, s)
	chess := v.newGame(url.Values{"color": {"white"}, "level": {"1"}, "variant": {"standard"}, "clock": {"1+0"}})
	recon := v.newGame(url.Values{"variant": {"recon"}, "color": {"white"}, "opponent": {"random"}, "clock": {"3+2"}})
	type clockState struct {
		Type  string `json:"type"`
		Ply   int    `json:"ply"`
		Phase string `json:"phase"`
		Clock *struct {
			White int64 `json:"white"` // chess
			Mine  int64 `json:"mine"`  // Reconnaissance Chess
		} `json:"clock"`
	}
	// state reads c up to a state that ok accepts.
	state := func(c *websocket.Conn, ok func(clockState) bool) clockState {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			c.SetReadDeadline(deadline)
			_, data, err := c.ReadMessage()
			if err != nil {
				t.Fatalf("waiting for a state: %v", err)
			}
			var st clockState
			if json.Unmarshal(data, &st) == nil && (st.Type == "state" || st.Type == "recon_state") && st.Clock != nil && ok(st) {
				return st
			}
		}
	}
	dial := func(id string) *websocket.Conn {
		t.Helper()
		c, _, err := v.Dial(id)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	anyState := func(clockState) bool { return true }
	cc := dial(chess)
	state(cc, anyState)
	Send(cc, map[string]any{"type": "move", "move": "e2e4", "ply": 0})
	state(cc, func(st clockState) bool { return st.Ply == 2 }) // the engine replied: White's clock runs
	rc := dial(recon)
	state(rc, anyState)
	Send(rc, map[string]any{"type": "sense", "square": "e7", "seq": 0})
	state(rc, func(st clockState) bool { return st.Phase == "move" })

	time.Sleep(think) // time itself is what is tested: all three think, and how much of it is charged
	sync := func(c *websocket.Conn, ms func(clockState) int64) time.Duration {
		Send(c, map[string]string{"type": "sync"})
		return time.Duration(ms(state(c, anyState))) * time.Millisecond
	}
	white := func(st clockState) int64 { return st.Clock.White }
	mine := func(st clockState) int64 { return st.Clock.Mine }
	before := map[string]time.Duration{"API": apiLeft(), "chess": sync(cc, white), "recon": sync(rc, mine)}
	if err := s.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	after := map[string]time.Duration{"API": apiLeft(), "chess": sync(dial(chess), white), "recon": sync(dial(recon), mine)}
	for _, k := range []string{"API", "chess", "recon"} {
		t.Logf("%s: %v left before the kill, %v after the restart", k, before[k], after[k])
		if after[k] > before[k]+slack {
			t.Errorf("%s: the restart gave back %v of the %v thought (%v left before the kill, %v after)", k, after[k]-before[k], think, before[k], after[k])
		}
	}
}
