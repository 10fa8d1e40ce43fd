package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/rbcapi"
	"knightwatch/recon"
	"knightwatch/recon/bots"
	"knightwatch/store"
)

func randomBot(t *testing.T, seed uint64) recon.Player {
	t.Helper()
	p, err := bots.New("random", seed)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkHistory checks a history the API returned: it parses, replays on
// the arbiter, and is byte for byte what the store holds.
func checkHistory(t *testing.T, e *testEnv, id int64, data []byte) *recon.History {
	t.Helper()
	h, err := recon.UnmarshalHistory(data)
	if err != nil {
		t.Fatalf("game %d history: %v", id, err)
	}
	if _, err := recon.Playback(h, recon.PlaybackOptions{}); err != nil {
		t.Fatalf("game %d history does not replay: %v", id, err)
	}
	rec, err := e.store.API().GetAPIGame(id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.History != string(data) || rec.Status != store.StatusOver {
		t.Errorf("game %d: stored %s with a different history", id, rec.Status)
	}
	return h
}

// TestAPIGameAgainstBuiltinBots plays whole games through the API against
// Knightwatch's own bots, as RemoteGame would, with both colours.
func TestAPIGameAgainstBuiltinBots(t *testing.T) {
	e := newEnv(t, envOpts{rbcClock: 120 * time.Second, rbcIncrement: time.Second})
	alice := e.apiClient("alice", "correct horse")
	alice.register()
	var users []string
	alice.must("GET", "/api/users/", nil, "usernames", &users)
	for _, want := range []string{"alice", "knightwatch", "knightwatch-1", "random", "attacker", "trout"} {
		if !strings.Contains(" "+strings.Join(users, " ")+" ", " "+want+" ") {
			t.Errorf("active users %v lack %s", users, want)
		}
	}
	for i, tc := range []struct {
		opponent string
		white    bool
	}{{"random", true}, {"attacker", false}, {"knightwatch-1", true}} {
		t.Run(tc.opponent, func(t *testing.T) {
			id := alice.invite(tc.opponent, tc.white)
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			res := alice.playRemote(ctx, id, randomBot(t, uint64(i)))
			h := checkHistory(t, e, id, res.history)
			names := [2]string{"alice", tc.opponent}
			if !tc.white {
				names[0], names[1] = names[1], names[0]
			}
			if h.Names != names {
				t.Errorf("names %v, want %v", h.Names, names)
			}
			o := h.Outcome
			if (res.winner == nil) != !o.Decisive || res.reason != o.Reason.String() || (o.Decisive && *res.winner != (o.Winner == game.White)) {
				t.Errorf("winner_color %v, win_reason %s; the history says %s", res.winner, res.reason, o)
			}
			t.Logf("%s: %s after %d turns", tc.opponent, o, h.NumTurns())
		})
	}
}

// TestAPITwoClients plays bots against each other through the API, the
// invitee found by polling its invitations as rc-connect does, two games
// at once, and checks the invitation's life: pending, accepted, finished.
func TestAPITwoClients(t *testing.T) {
	e := newEnv(t, envOpts{rbcClock: 120 * time.Second})
	alice, bob := e.apiClient("alice", "password-a"), e.apiClient("Bob", "password-b")
	alice.register()
	bob.register()
	ids := []int64{alice.invite("bob", true), alice.invite("BOB", false)} // names in any case
	var pending []int64
	bob.must("GET", "/api/invitations/", nil, "invitations", &pending)
	if len(pending) != 2 {
		t.Fatalf("bob's invitations %v, want two", pending)
	}
	var none []int64
	alice.must("GET", "/api/invitations/", nil, "invitations", &none)
	if len(none) != 0 {
		t.Errorf("alice sees invitations %v", none)
	}
	if status, _ := bob.call("POST", fmt.Sprintf("/api/invitations/%d/finish", pending[0]), nil); status != http.StatusBadRequest {
		t.Errorf("finishing an invitation not accepted: %d", status)
	}
	if status, _ := alice.call("POST", fmt.Sprintf("/api/invitations/%d", pending[0]), nil); status != http.StatusBadRequest {
		t.Errorf("accepting someone else's invitation: %d", status)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	results := make([][2]remoteResult, len(ids))
	for i, inv := range pending {
		var gameID int64
		bob.must("POST", fmt.Sprintf("/api/invitations/%d", inv), nil, "game_id", &gameID) // rc-connect posts no body
		if gameID != ids[i] {
			t.Fatalf("invitation %d is for game %d, want %d", inv, gameID, ids[i])
		}
		if status, _ := bob.call("POST", fmt.Sprintf("/api/invitations/%d", inv), nil); status != http.StatusBadRequest {
			t.Errorf("accepting twice: %d", status)
		}
		for side, cl := range []*apiClient{alice, bob} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i][side] = cl.playRemote(ctx, gameID, randomBot(t, uint64(10*i+side)))
			}()
		}
	}
	wg.Wait()
	for i, id := range ids {
		a, b := results[i][0], results[i][1]
		if string(a.history) != string(b.history) || a.reason != b.reason {
			t.Errorf("game %d: the players were told different endings", id)
		}
		checkHistory(t, e, id, a.history)
		bob.must("POST", fmt.Sprintf("/api/invitations/%d/finish", pending[i]), nil, "", nil)
	}
	bob.must("GET", "/api/invitations/", nil, "invitations", &none)
	if len(none) != 0 {
		t.Errorf("bob still has invitations %v", none)
	}
}

// snapshot is the stored state of an API game that a refused call must
// leave alone.
func snapshot(t *testing.T, e *testEnv, id int64) string {
	t.Helper()
	rec, err := e.store.API().GetAPIGame(id)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%s|%s|%v|%v|%s|%s|%v", rec.Status, rec.Result, rec.WhiteReady, rec.BlackReady, rec.History, rec.Reason, rec.UpdatedAt)
}

// TestAPIRefusals sends calls out of turn, out of phase, malformed and
// about other users' games: each gets the document's status and a clear
// error, and the stored game does not change.
func TestAPIRefusals(t *testing.T) {
	e := newEnv(t, envOpts{rbcClock: 300 * time.Second})
	alice, bob, carol := e.apiClient("alice", "password-a"), e.apiClient("bob", "password-b"), e.apiClient("carol", "password-c")
	for _, c := range []*apiClient{alice, bob, carol} {
		c.register()
	}
	id := alice.invite("bob", true) // alice White
	g := fmt.Sprintf("/api/games/%d/", id)
	var inv []int64
	bob.must("GET", "/api/invitations/", nil, "invitations", &inv)
	bob.must("POST", fmt.Sprintf("/api/invitations/%d", inv[0]), nil, "game_id", new(int64))

	type call struct {
		who          *apiClient
		method, path string
		body         any
		status       int
		says         string
	}
	check := func(phase string, calls []call) {
		t.Helper()
		for _, c := range calls {
			before := snapshot(t, e, id)
			status, out := c.who.call(c.method, c.path, c.body)
			var msg string
			_ = json.Unmarshal(out["error"], &msg)
			if status != c.status || !strings.Contains(msg, c.says) {
				t.Errorf("%s: %s %s %v as %s: %d %q, want %d with %q", phase, c.method, c.path, c.body, c.who.user, status, msg, c.status, c.says)
			}
			if after := snapshot(t, e, id); after != before {
				t.Errorf("%s: %s %s changed the game:\n%s\n%s", phase, c.method, c.path, before, after)
			}
		}
	}
	check("before the start", []call{
		{alice, "POST", g + "sense", map[string]any{"square": 12}, 400, "not started"},
		{alice, "POST", g + "move", map[string]any{"requested_move": nil}, 400, "not started"},
		{alice, "GET", g + "winner_color", nil, 400, "not over"},
		{alice, "GET", g + "game_history", nil, 400, "not over"},
		{carol, "GET", g + "color", nil, 401, "not a player"},
		{carol, "POST", g + "ready", map[string]any{}, 401, "not a player"},
		{alice, "GET", "/api/games/999/color", nil, 404, "does not exist"},
		{alice, "GET", "/api/games/x1/color", nil, 404, "does not exist"},
	})
	alice.must("POST", g+"ready", map[string]any{}, "", nil)
	check("ready twice", []call{{alice, "POST", g + "ready", map[string]any{}, 400, "already"}})
	bob.must("POST", g+"ready", map[string]any{}, "", nil)
	var myTurn bool
	bob.must("GET", g+"is_my_turn", nil, "is_my_turn", &myTurn)
	if myTurn {
		t.Fatal("black's turn first")
	}
	check("white to sense", []call{
		{bob, "POST", g + "sense", map[string]any{"square": 12}, 400, "not your turn"},
		{bob, "POST", g + "resign", nil, 400, "not your turn"},
		{alice, "POST", g + "move", map[string]any{"requested_move": nil}, 400, "not sensed"},
		{alice, "POST", g + "end_turn", map[string]any{}, 400, "not sensed and moved"},
		{alice, "POST", g + "sense", map[string]any{"square": 64}, 400, "not from 0 to 63"},
		{alice, "POST", g + "sense", map[string]any{"square": "e4"}, 400, "must be a square"},
		{alice, "POST", g + "sense", map[string]any{"squares": 12}, 400, "missing"},
		{alice, "POST", g + "sense", "{not json", 400, "JSON"},
		{alice, "POST", g + "sense", "null", 400, "not null"},
		{alice, "POST", g + "sense", `{"square": 1}{"square": 2}`, 400, "JSON"},
		{alice, "POST", g + "sense", `{"square": 1, "pad": "` + strings.Repeat("x", rbcapi.BodyLimit) + `"}`, 413, "over"},
		{alice, "GET", g + "sense", nil, 405, ""},
		{alice, "GET", g + "winner_color", nil, 400, "not over"},
	})
	alice.must("POST", g+"sense", map[string]any{"square": nil}, "sense_result", new([]any))
	check("white to move", []call{
		{alice, "POST", g + "sense", map[string]any{"square": 12}, 400, "already sensed"},
		{alice, "POST", g + "move", map[string]any{"requested_move": map[string]string{"type": "Move", "value": "e2e5"}}, 400, "not a move action"},
		{alice, "POST", g + "move", map[string]any{"requested_move": map[string]string{"type": "Move", "value": "e7e5"}}, 400, "not a move action"},
		{alice, "POST", g + "move", map[string]any{"requested_move": map[string]string{"type": "Piece", "value": "e2e4"}}, 400, "want \"Move\""},
		{alice, "POST", g + "move", map[string]any{"requested_move": map[string]string{"type": "Move", "value": "e2"}}, 400, "not a move"},
		{alice, "POST", g + "move", map[string]any{"requested_move": "e2e4"}, 400, "must be"},
		{alice, "POST", g + "move", map[string]any{}, 400, "missing"},
		{alice, "POST", g + "end_turn", map[string]any{}, 400, "not sensed and moved"},
		{bob, "POST", g + "move", map[string]any{"requested_move": nil}, 400, "not your turn"},
	})
	var res []json.RawMessage
	alice.must("POST", g+"move", map[string]any{"requested_move": map[string]string{"type": "Move", "value": "e2e4"}}, "move_result", &res)
	if len(res) != 3 || string(res[0]) != `{"type":"Move","value":"e2e4"}` || string(res[1]) != `{"type":"Move","value":"e2e4"}` || string(res[2]) != "null" {
		t.Errorf("move_result %s", res)
	}
	check("white to end the turn", []call{
		{alice, "POST", g + "move", map[string]any{"requested_move": nil}, 400, "already moved"},
		{bob, "POST", g + "end_turn", map[string]any{}, 400, "not your turn"},
	})
	alice.must("POST", g+"end_turn", nil, "", nil)
	// Black's turn: what each side may ask is its own.
	var aliceMoves, bobMoves []map[string]string
	alice.must("GET", g+"move_actions", nil, "move_actions", &aliceMoves)
	bob.must("GET", g+"move_actions", nil, "move_actions", &bobMoves)
	for _, m := range aliceMoves {
		if r := m["value"][1]; r == '7' || r == '8' && m["value"][3] != '8' {
			t.Errorf("white's move actions include %s", m["value"])
		}
	}
	for _, m := range bobMoves {
		if r := m["value"][1]; r == '1' || r == '2' {
			t.Errorf("black's move actions include %s", m["value"])
		}
	}
	alice.must("GET", g+"is_my_turn", nil, "is_my_turn", &myTurn)
	if myTurn {
		t.Error("still white's turn")
	}
	bob.must("POST", g+"resign", nil, "", nil)
	check("over", []call{
		{alice, "POST", g + "sense", map[string]any{"square": 1}, 400, "over"},
		{bob, "POST", g + "resign", nil, 400, "over"},
		{bob, "GET", g + "opponent_move_results", nil, 400, "over"},
		{carol, "GET", g + "game_history", nil, 401, "not a player"},
	})
	var winner *bool
	alice.must("GET", g+"winner_color", nil, "winner_color", &winner)
	var reason map[string]string
	alice.must("GET", g+"win_reason", nil, "win_reason", &reason)
	if winner == nil || !*winner || reason["value"] != "RESIGN" || reason["type"] != "WinReason" {
		t.Errorf("after black resigned: winner %v, reason %v", winner, reason)
	}
	bob.must("POST", g+"error_resign", nil, "", nil) // harmless once over
	alice.must("GET", g+"win_reason", nil, "win_reason", &reason)
	if reason["value"] != "RESIGN" {
		t.Errorf("error_resign after the end changed the reason to %v", reason)
	}
}

// TestAPIClock: the server's clock ends a game whose player stops calling,
// and error_resign ends one at once; neither needs a call to notice.
func TestAPIClock(t *testing.T) {
	// setup starts a server whose API games have clock, with alice and bob
	// registered.
	var e *testEnv
	var alice, bob *apiClient
	setup := func(clock time.Duration) {
		e = newEnv(t, envOpts{rbcClock: clock})
		alice, bob = e.apiClient("alice", "password-a"), e.apiClient("bob", "password-b")
		alice.register()
		bob.register()
	}
	setup(400 * time.Millisecond)
	start := func(white *apiClient, black string) int64 {
		id := white.invite(black, true)
		if black != "random" {
			var inv []int64
			bob.must("GET", "/api/invitations/", nil, "invitations", &inv)
			bob.must("POST", fmt.Sprintf("/api/invitations/%d", inv[len(inv)-1]), nil, "game_id", new(int64))
			bob.must("POST", fmt.Sprintf("/api/games/%d/ready", id), nil, "", nil)
		}
		white.must("POST", fmt.Sprintf("/api/games/%d/ready", id), nil, "", nil)
		return id
	}
	waitOver := func(id int64) *store.APIGame {
		t.Helper()
		var rec *store.APIGame
		e.until(fmt.Sprintf("game %d to be over", id), func() bool {
			var err error
			if rec, err = e.store.API().GetAPIGame(id); err != nil {
				t.Fatal(err)
			}
			return rec.Status == store.StatusOver
		})
		return rec
	}
	// White never senses: the flag falls with nobody calling.
	id := start(alice, "bob")
	if rec := waitOver(id); rec.Result != "0-1" || rec.Reason.String() != "TIMEOUT" || rec.WhiteMS > 0 {
		t.Errorf("timeout: %s %s, white's clock %d ms", rec.Result, rec.Reason, rec.WhiteMS)
	}
	var left float64
	alice.must("GET", fmt.Sprintf("/api/games/%d/seconds_left", id), nil, "seconds_left", &left)
	if left != 0 {
		t.Errorf("seconds_left after the flag %v", left)
	}
	// error_resign on the opponent's turn ends it at once (a clock no flag
	// falls on meanwhile).
	setup(time.Minute)
	id = start(alice, "bob")
	bob.must("POST", fmt.Sprintf("/api/games/%d/error_resign", id), nil, "", nil)
	if rec := waitOver(id); rec.Result != "1-0" || rec.Reason.String() != "TIMEOUT" || rec.BlackMS != 0 {
		t.Errorf("error_resign: %s %s, black's clock %d ms", rec.Result, rec.Reason, rec.BlackMS)
	}
}

// TestAPIAccounts covers registration and logins: validation, names
// unique in any case, wrong and missing credentials, built-in bots that
// cannot log in, and the settings calls rc-connect makes.
func TestAPIAccounts(t *testing.T) {
	e := newEnv(t, envOpts{})
	anon := e.apiClient("", "")
	for _, tc := range []struct {
		body   any
		status int
		says   string
	}{
		{map[string]string{"username": "alice", "email": "a@x", "affiliation": "", "password": "long enough"}, 200, ""},
		{map[string]string{"username": "ALICE", "email": "a@x", "affiliation": "", "password": "long enough"}, 409, "taken"},
		{map[string]string{"username": "knightwatch", "email": "a@x", "affiliation": "", "password": "long enough"}, 409, "taken"},
		{map[string]string{"username": "al", "email": "a@x", "affiliation": "", "password": "long enough"}, 400, "3 to 32"},
		{map[string]string{"username": "al ice", "email": "a@x", "affiliation": "", "password": "long enough"}, 400, "letters, digits"},
		{map[string]string{"username": "-alice", "email": "a@x", "affiliation": "", "password": "long enough"}, 400, "starts with"},
		{map[string]string{"username": "bob", "email": "a@x", "affiliation": "", "password": "short"}, 400, "at least 8"},
		{map[string]string{"username": "bob", "email": "a@x", "affiliation": "", "password": strings.Repeat("p", 73)}, 400, "at most 72"},
		{map[string]string{"username": "bob", "email": "a@x", "password": "long enough"}, 400, "affiliation"},
		{map[string]any{"username": 7, "email": "a@x", "affiliation": "", "password": "long enough"}, 400, "must be a string"},
		{"[]", 400, "JSON object"},
	} {
		status, out := anon.call("POST", "/api/users/", tc.body)
		var msg string
		_ = json.Unmarshal(out["error"], &msg)
		if status != tc.status || !strings.Contains(msg, tc.says) {
			t.Errorf("register %v: %d %q, want %d %q", tc.body, status, msg, tc.status, tc.says)
		}
	}
	for _, c := range []*apiClient{anon, e.apiClient("alice", "wrong password"), e.apiClient("nobody", "long enough"), e.apiClient("random", "")} {
		if status, _ := c.call("GET", "/api/users/", nil); status != http.StatusUnauthorized {
			t.Errorf("users as %q/%q: %d, want 401", c.user, c.pass, status)
		}
	}
	alice := e.apiClient("Alice", "long enough") // logins in any case
	var version string
	alice.must("GET", "/api/version", nil, "version", &version)
	if version != rbcapi.ReconchessVersion {
		t.Errorf("version %q", version)
	}
	var me struct {
		ID       int64  `json:"id"`
		Username string `json:"username"`
		MaxGames int    `json:"max_games"`
		Ranked   bool   `json:"ranked"`
		Version  int    `json:"version"`
	}
	alice.must("POST", "/api/users/me", nil, "username", &me.Username)
	if me.Username != "alice" {
		t.Errorf("me: %q", me.Username)
	}
	alice.must("POST", "/api/users/me/max_games", map[string]int{"max_games": 7}, "max_games", &me.MaxGames)
	alice.must("POST", "/api/users/me/ranked", map[string]bool{"ranked": true}, "ranked", &me.Ranked)
	alice.must("POST", "/api/users/me/version", nil, "version", &me.Version)
	alice.must("POST", "/api/users/me/version", nil, "version", &me.Version)
	alice.must("GET", "/api/users/me/version", nil, "version", &me.Version)
	u, err := e.store.API().UserByName("alice")
	if err != nil || u.MaxGames != 7 || !u.Ranked || u.Version != 2 || me.Version != 2 || u.Email != "a@x" {
		t.Errorf("stored %+v (%v), reported %+v", u, err, me)
	}
	if len(u.PasswordHash) == 0 || strings.Contains(string(u.PasswordHash), "long enough") {
		t.Error("the password is not stored as a hash")
	}
	for _, tc := range []struct{ path, body string }{
		{"/api/users/me/max_games", `{"max_games": "7"}`},
		{"/api/users/me/max_games", `{"max_games": 0}`},
		{"/api/users/me/max_games", `{}`},
		{"/api/users/me/ranked", `{"ranked": 1}`},
		{"/api/invitations/", `{"opponent": "alice", "color": true}`},
		{"/api/invitations/", `{"opponent": "nobody", "color": true}`},
		{"/api/invitations/", `{"opponent": "random"}`},
		{"/api/invitations/12345", ``},
		{"/api/invitations/12345/finish", ``},
	} {
		if status, _ := alice.call("POST", tc.path, tc.body); status != http.StatusBadRequest {
			t.Errorf("POST %s %s: %d, want 400", tc.path, tc.body, status)
		}
	}
	if u2, _ := e.store.API().UserByName("alice"); u2.MaxGames != 7 || !u2.Ranked {
		t.Errorf("refused settings changed the user: %+v", u2)
	}
	if status, _ := alice.call("GET", "/api/nothing", nil); status != http.StatusNotFound {
		t.Errorf("unknown endpoint: %d", status)
	}
}

// TestAPIRestart closes the server in the middle of API games (one against
// a built-in bot, one between two clients) and opens a new one on the same
// database: the games go on from where they were and finish.
func TestAPIRestart(t *testing.T) {
	dir := t.TempDir()
	db := dir + "/kw.db"
	e := newEnv(t, envOpts{dbPath: db, rbcClock: 120 * time.Second})
	alice, bob := e.apiClient("alice", "password-a"), e.apiClient("bob", "password-b")
	alice.register()
	bob.register()
	vsBot := alice.invite("random", false)
	vsBob := alice.invite("bob", true)
	var inv []int64
	bob.must("GET", "/api/invitations/", nil, "invitations", &inv)
	bob.must("POST", fmt.Sprintf("/api/invitations/%d", inv[0]), nil, "game_id", new(int64))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	players := map[string]recon.Player{"a1": randomBot(t, 1), "a2": randomBot(t, 2), "b2": randomBot(t, 3)}
	// A few turns each on the first server.
	alice.must("POST", fmt.Sprintf("/api/games/%d/ready", vsBot), nil, "", nil)
	alice.must("POST", fmt.Sprintf("/api/games/%d/ready", vsBob), nil, "", nil)
	bob.must("POST", fmt.Sprintf("/api/games/%d/ready", vsBob), nil, "", nil)
	for _, p := range players {
		p.Start(game.White, recon.NewBoard(), "x") // the turns below are played blind; only the API is tested
	}
	waitTurn := func(c *apiClient, id int64) {
		t.Helper()
		e.until(fmt.Sprintf("%s's turn in game %d", c.user, id), func() bool {
			var mine bool
			c.must("GET", fmt.Sprintf("/api/games/%d/is_my_turn", id), nil, "is_my_turn", &mine)
			return mine
		})
	}
	for i := 0; i < 3; i++ {
		waitTurn(alice, vsBot)
		alice.playTurn(ctx, fmt.Sprintf("/api/games/%d/", vsBot), players["a1"])
		alice.playTurn(ctx, fmt.Sprintf("/api/games/%d/", vsBob), players["a2"])
		bob.playTurn(ctx, fmt.Sprintf("/api/games/%d/", vsBob), players["b2"])
	}
	// Alice senses in both and the server goes down mid-turn.
	waitTurn(alice, vsBot)
	alice.must("POST", fmt.Sprintf("/api/games/%d/sense", vsBot), map[string]any{"square": 27}, "sense_result", new([]any))
	alice.must("POST", fmt.Sprintf("/api/games/%d/sense", vsBob), map[string]any{"square": 36}, "sense_result", new([]any))
	before := map[int64]string{vsBot: snapshot(t, e, vsBot), vsBob: snapshot(t, e, vsBob)}
	e.srv.Close()
	e.ts.Close()
	e.store.Close()

	e2 := newEnv(t, envOpts{dbPath: db, rbcClock: 120 * time.Second})
	for id, s := range before {
		if after := snapshot(t, e2, id); strings.Split(after, "|")[4] != strings.Split(s, "|")[4] {
			t.Errorf("game %d's history changed across the restart", id)
		}
	}
	alice, bob = e2.apiClient("alice", "password-a"), e2.apiClient("bob", "password-b")
	for _, id := range []int64{vsBot, vsBob} {
		if status, out := alice.call("POST", fmt.Sprintf("/api/games/%d/sense", id), map[string]any{"square": 1}); status != http.StatusBadRequest {
			t.Errorf("game %d: sensing again after the restart: %d %s", id, status, out["error"])
		}
		var res []json.RawMessage
		alice.must("POST", fmt.Sprintf("/api/games/%d/move", id), map[string]any{"requested_move": nil}, "move_result", &res)
		alice.must("POST", fmt.Sprintf("/api/games/%d/end_turn", id), nil, "", nil)
	}
	// Play both to the end: the bot game against the built-in bot, which
	// took up its side again, and the two-client game.
	var wg sync.WaitGroup
	var results [3]remoteResult
	play := func(i int, c *apiClient, id int64, seed uint64) {
		defer wg.Done()
		results[i] = c.playRemoteFromTurn(ctx, id, randomBot(t, seed))
	}
	wg.Add(3)
	go play(0, alice, vsBot, 4)
	go play(1, alice, vsBob, 5)
	go play(2, bob, vsBob, 6)
	wg.Wait()
	for i, id := range []int64{vsBot, vsBob} {
		h := checkHistory(t, e2, id, results[i].history)
		if h.NumTurns() < 8 {
			t.Errorf("game %d: %d turns; the first server's turns are lost", id, h.NumTurns())
		}
	}
}
