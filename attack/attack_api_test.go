package attack

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// Issue 41 item 8: 130 invitations sent at once by one bot. Before, the
// count of its unfinished games was read apart from the insert, so they
// all saw room: 110 games were made under a cap of 100. Now exactly 100
// are, and 30 are refused in words.
func TestInvitationRace(t *testing.T) {
	const cap, extra = 100, 30
	s := startServer(t)
	// From two addresses, under the cap on connections per address.
	daves := []*bot{newBot(s, "127.0.0.1", "dave", "dave's password"), newBot(s, "127.0.0.2", "dave", "dave's password")}
	daves[0].register(t)
	newBot(s, "127.0.0.1", "erin", "erin's password").register(t)
	daves[0].must(t, "GET", "/api/invitations/", nil, "", nil) // the password checked once; the rest compare a digest
	var wg sync.WaitGroup
	var mu sync.Mutex
	answers := map[string]int{}
	start := make(chan struct{})
	for i := range cap + extra {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			status, _, msg := daves[i%2].call("POST", "/api/invitations/", map[string]any{"opponent": "erin", "color": true})
			mu.Lock()
			defer mu.Unlock()
			answers[fmt.Sprintf("%d %s", status, msg)]++
		}()
	}
	close(start)
	wg.Wait()
	for _, d := range daves {
		d.hc.CloseIdleConnections()
	}
	t.Logf("%d invitations at once: %v", cap+extra, answers)
	refusal := fmt.Sprintf("%d you have %d unfinished games; finish some first", http.StatusBadRequest, cap)
	if answers["200 "] != cap || answers[refusal] != extra || len(answers) != 2 {
		t.Errorf("%d invitations at once: %v; want %d made and %d refused", cap+extra, answers, cap, extra)
	}
	if n := s.count("api_games"); n != cap {
		t.Errorf("%d games stored, want %d", n, cap)
	}
}

// Issue 41 items 6 and 10, on a game between two bots: opponent_move_results
// says nothing of the turn in progress (before, White's exd5 showed to
// Black as 35 before White ended the turn), and a required field sent as
// null is refused in words with nothing changed (before, {"ranked": null}
// turned ranked play off and {"opponent": null} invited "").
func TestAPIHonestAnswers(t *testing.T) {
	s := startServer(t)
	alice, bob := newBot(s, "127.0.0.1", "alice", "alice's password"), newBot(s, "127.0.0.1", "bob", "bob's password")
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
	move := func(b *bot, uci string, end bool) {
		b.must(t, "POST", g+"sense", map[string]any{"square": nil}, "", nil)
		b.must(t, "POST", g+"move", map[string]any{"requested_move": map[string]string{"type": "Move", "value": uci}}, "", nil)
		if end {
			b.must(t, "POST", g+"end_turn", nil, "", nil)
		}
	}
	told := func() string {
		var v json.RawMessage
		bob.must(t, "GET", g+"opponent_move_results", nil, "opponent_move_results", &v)
		return string(v)
	}
	move(alice, "e2e4", true)
	move(bob, "d7d5", true)
	move(alice, "e4d5", false)
	if got := told(); got != "null" {
		t.Errorf("Black is told %s of White's capture before White ended the turn", got)
	}
	alice.must(t, "POST", g+"end_turn", nil, "", nil)
	if got := told(); got != "35" {
		t.Errorf("Black is told %s after White ended the turn, want 35", got)
	}

	alice.must(t, "POST", "/api/users/me/ranked", map[string]any{"ranked": true}, "", nil)
	games := s.count("api_games")
	for _, c := range []struct{ path, body, field string }{
		{"/api/users/me/ranked", `{"ranked": null}`, "ranked"},
		{"/api/users/me/max_games", `{"max_games": null}`, "max_games"},
		{"/api/invitations/", `{"opponent": null, "color": true}`, "opponent"},
		{"/api/invitations/", `{"opponent": "bob", "color": null}`, "color"},
	} {
		status, _, msg := alice.call("POST", c.path, c.body)
		if status != http.StatusBadRequest || !strings.Contains(msg, `"`+c.field+`"`) || !strings.Contains(msg, "not null") {
			t.Errorf("POST %s %s: %d %q, want 400 naming %q and null", c.path, c.body, status, msg, c.field)
		}
	}
	if n := s.count("api_games"); n != games {
		t.Errorf("%d games after the refused invitations, %d before", n, games)
	}
	if ranked := s.query("SELECT ranked FROM users WHERE name = 'alice'"); ranked != "1" {
		t.Errorf("alice's ranked play after {\"ranked\": null}: %s, want still on", ranked)
	}
}
