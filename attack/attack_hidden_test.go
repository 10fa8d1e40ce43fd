package attack

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// The probe of issue 41, item 1: a user of the API signs in on /bots,
// opens the page's socket of their own API game (/ws/api/N) and plays by
// HTTP, reading everything the socket and the API tell them, also in the
// window between the opponent's move and the end of its turn. Before the
// fix the socket sent, after each own move, a state in phase "move" whose
// move actions were the opponent's (the squares of its hidden pieces), and
// opponent_move_results named the opponent's capture before its turn ended.
// Now:
//   - every move action a state offers starts on one of the player's own
//     pieces in that state;
//   - a state counts only the actions the player knows of: an odd count
//     (the player's own sense made) only in its own move phase;
//   - the socket is sent nothing while the opponent senses and moves (no
//     state twice in a row);
//   - what the API answers the player during the opponent's turn
//     (move_actions, opponent_move_results) does not change before that
//     turn ends.
func TestAPIGameSocketHidesOpponent(t *testing.T) {
	s := startServer(t, "--rbc-clock", "600+1")
	for _, u := range []string{"ann", "bob"} {
		body := fmt.Sprintf(`{"username": %q, "email": "", "affiliation": "", "password": "%s's password"}`, u, u)
		if code, out := apiCall(s, "POST", "/api/users/", "", body); code != http.StatusOK {
			t.Fatalf("register %s: %d %s", u, code, out)
		}
	}
	ann, bob := "ann:ann's password", "bob:bob's password"
	page := NewBrowser(s.URL())
	if status, _, body, _, err := page.Post("/account/signin", url.Values{"username": {"ann"}, "password": {"ann's password"}}); err != nil || status != http.StatusSeeOther {
		t.Fatalf("sign in: %d %v %.200s", status, err, body)
	}
	var inv struct {
		GameID int64 `json:"game_id"`
	}
	// One client for every call: a client per call keeps a connection per
	// call open, and the per-address cap hangs up on the 129th.
	hc := &http.Client{Timeout: 10 * time.Second}
	defer hc.CloseIdleConnections()
	call := func(auth, method, path, body string, v any) {
		t.Helper()
		req, err := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		user, pass, _ := strings.Cut(auth, ":")
		req.SetBasicAuth(user, pass)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		code, out := resp.StatusCode, string(b)
		if code != http.StatusOK {
			t.Fatalf("%s %s: %d %s", method, path, code, out)
		}
		if v != nil {
			if err := json.Unmarshal([]byte(out), v); err != nil {
				t.Fatalf("%s %s: %v in %s", method, path, err, out)
			}
		}
	}
	call(bob, "POST", "/api/invitations/", `{"opponent": "ann", "color": true}`, &inv)
	var invs struct {
		Invitations []int64 `json:"invitations"`
	}
	call(ann, "GET", "/api/invitations/", "", &invs)
	if len(invs.Invitations) != 1 {
		t.Fatalf("ann's invitations: %v", invs.Invitations)
	}
	call(ann, "POST", fmt.Sprintf("/api/invitations/%d", invs.Invitations[0]), "{}", nil)

	d := websocket.Dialer{Jar: page.HC.Jar, HandshakeTimeout: 10 * time.Second}
	conn, _, err := d.Dial(fmt.Sprintf("ws%s/ws/api/%d", strings.TrimPrefix(s.URL(), "http"), inv.GameID), http.Header{"Origin": {s.URL()}})
	if err != nil {
		t.Fatalf("ann's socket: %v", err)
	}
	defer conn.Close()
	var mu sync.Mutex
	var frames [][]byte
	more := make(chan struct{}, 1)
	go func() {
		for {
			_, b, err := conn.ReadMessage()
			if err != nil {
				return
			}
			mu.Lock()
			frames = append(frames, b)
			mu.Unlock()
			select {
			case more <- struct{}{}:
			default:
			}
		}
	}()
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(frames)
	}

	g := fmt.Sprintf("/api/games/%d/", inv.GameID)
	call(bob, "POST", g+"ready", "{}", nil)
	call(ann, "POST", g+"ready", "{}", nil)
	rng := rand.New(rand.NewPCG(41, 1))
	// annSees is what ann's out-of-turn calls answer now.
	annSees := func() string {
		var acts, caps json.RawMessage
		call(ann, "GET", g+"move_actions", "", &struct {
			MoveActions *json.RawMessage `json:"move_actions"`
		}{&acts})
		call(ann, "GET", g+"opponent_move_results", "", &struct {
			Capture *json.RawMessage `json:"opponent_move_results"`
		}{&caps})
		return string(acts) + " " + string(caps)
	}
	turn := func(auth string) (over bool) {
		t.Helper()
		sq := "null"
		if rng.IntN(8) > 0 {
			sq = fmt.Sprint(rng.IntN(64))
		}
		call(auth, "POST", g+"sense", `{"square": `+sq+`}`, nil)
		var acts struct {
			MoveActions []struct{ Value string } `json:"move_actions"`
		}
		call(auth, "GET", g+"move_actions", "", &acts)
		mv := "null"
		if n := len(acts.MoveActions); n > 0 && rng.IntN(10) > 0 {
			mv = fmt.Sprintf(`{"type": "Move", "value": %q}`, acts.MoveActions[rng.IntN(n)].Value)
		}
		call(auth, "POST", g+"move", `{"requested_move": `+mv+`}`, nil)
		var st struct {
			Over bool `json:"is_over"`
		}
		call(auth, "GET", g+"is_over", "", &st)
		return st.Over
	}
	for n := 0; n < 80; n++ {
		// Bob's turn, ann looking before, during and after it.
		before := annSees()
		if turn(bob) {
			break
		}
		if mid := annSees(); mid != before && !t.Failed() {
			t.Errorf("turn %d: in bob's turn, before it ends, ann's calls answer\n%s\nnot as at its start\n%s", n, mid, before)
		}
		call(bob, "POST", g+"end_turn", "{}", nil)
		if turn(ann) {
			break
		}
		call(ann, "POST", g+"end_turn", "{}", nil)
	}

	// Ann syncs, and the answer is the socket's last frame: everything the
	// game sent before it is in.
	sent := count()
	if err := Send(conn, map[string]string{"type": "sync"}); err != nil {
		t.Fatal(err)
	}
	for count() == sent {
		select {
		case <-more:
		case <-time.After(20 * time.Second):
			t.Fatal("no answer to the sync")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	var last []byte
	states := 0
	// Each kind of fault is reported once, at its first frame.
	seen := map[string]bool{}
	fault := func(kind string, i int, f []byte) {
		if !seen[kind] {
			seen[kind] = true
			t.Errorf("frame %d %s: %s", i, kind, f)
		}
	}
	for i, f := range frames {
		var st struct {
			Type        string            `json:"type"`
			Phase       string            `json:"phase"`
			Seq         int               `json:"seq"`
			Pieces      map[string]string `json:"pieces"`
			MoveActions []struct {
				From, UCI string
			} `json:"moveActions"`
		}
		if err := json.Unmarshal(f, &st); err != nil || st.Type != "recon_state" || st.Phase == "over" {
			continue
		}
		states++
		for _, m := range st.MoveActions {
			if p, ok := st.Pieces[m.From]; !ok || p[0] != 'b' {
				fault("offers ann (Black) a move from a square without her piece", i, f)
			}
		}
		if st.Seq%2 == 1 && st.Phase != "move" {
			fault("counts an action of bob's turn in progress", i, f)
		}
		if st.Phase != "move" && len(st.MoveActions) > 0 {
			fault("offers move actions outside ann's move phase", i, f)
		}
		if slices.Equal(f, last) && i != len(frames)-1 {
			fault("repeats the state before it, telling ann when bob acted", i, f)
		}
		last = f
	}
	if states < 20 {
		t.Fatalf("only %d states on ann's socket", states)
	}
}
