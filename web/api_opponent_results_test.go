package web

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// Issue 41 item 6: opponent_move_results says where the opponent's last
// completed move captured, never anything of the turn in progress
// (rbcapi/API.md). Before, White's exd5 showed to Black as 35 as soon as it
// was played, before White ended the turn.
func TestAPIOpponentMoveResultsWaitForEndTurn(t *testing.T) {
	e := newEnv(t, envOpts{rbcClock: 300 * time.Second})
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

	players := map[string]*apiClient{"white": alice, "black": bob}
	move := func(uci string) map[string]any {
		return map[string]any{"requested_move": map[string]string{"type": "Move", "value": uci}}
	}
	// After each step, what each side's opponent_move_results says.
	steps := []struct {
		who, call string
		body      any
		white     string // White's answer: where Black's last completed move captured
		black     string // Black's answer
	}{
		{"white", "sense", map[string]any{"square": nil}, "null", "null"},
		{"white", "move", move("e2e4"), "null", "null"},
		{"white", "end_turn", nil, "null", "null"},
		{"black", "sense", map[string]any{"square": nil}, "null", "null"},
		{"black", "move", move("d7d5"), "null", "null"},
		{"black", "end_turn", nil, "null", "null"},
		{"white", "sense", map[string]any{"square": nil}, "null", "null"},
		{"white", "move", move("e4d5"), "null", "null"}, // captured, the turn not ended: Black knows nothing yet
		{"white", "end_turn", nil, "null", "35"},
		{"black", "sense", map[string]any{"square": nil}, "null", "35"},
		{"black", "move", move("d8d5"), "null", "35"}, // Black takes back: White knows nothing yet
		{"black", "end_turn", nil, "35", "35"},
		{"white", "sense", map[string]any{"square": nil}, "35", "35"},
		{"white", "move", move("a2a3"), "35", "35"},
		{"white", "end_turn", nil, "35", "null"},
	}
	for i, st := range steps {
		players[st.who].must("POST", g+st.call, st.body, "", nil)
		for _, side := range []struct {
			name string
			c    *apiClient
			want string
		}{{"White", alice, st.white}, {"Black", bob, st.black}} {
			var got json.RawMessage
			side.c.must("GET", g+"opponent_move_results", nil, "opponent_move_results", &got)
			if string(got) != side.want {
				t.Errorf("step %d (%s %s): %s is told %s, want %s", i+1, st.who, st.call, side.name, got, side.want)
			}
		}
	}
}
