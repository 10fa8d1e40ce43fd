package rbcapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"knightwatch/enginepool"
	"knightwatch/live"
	"knightwatch/play"
	"knightwatch/store"
)

// newTestAPI serves an API of its own (no web server in front) on a fresh
// database, its games in the registry it returns: its games' bots think
// outside any pool, the matchmaker runs only when a test calls
// MatchRound.
func newTestAPI(t *testing.T) (*live.Registry, *httptest.Server, *store.Store) {
	t.Helper()
	return newTestAPIOn(t, filepath.Join(t.TempDir(), "kw.db"))
}

// newTestAPIOn is newTestAPI on the database dsn.
func newTestAPIOn(t *testing.T, dsn string) (*live.Registry, *httptest.Server, *store.Store) {
	t.Helper()
	reg, ts, st, _ := newTestAPIWith(t, dsn)
	return reg, ts, st
}

// newTestAPIWith is newTestAPIOn with the API itself, for its rounds.
func newTestAPIWith(t *testing.T, dsn string) (*live.Registry, *httptest.Server, *store.Store, *API) {
	t.Helper()
	st, err := store.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	quiet := log.New(io.Discard, "", 0)
	reg := live.NewRegistry()
	games, err := play.New(play.Config{Store: st, NoEngine: true, Levels: enginepool.Levels(), ReplyPause: -1, UntouchedAfter: -1, Logger: quiet}, reg)
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{Store: st, Games: games, Clock: time.Minute, Increment: time.Second, MatchEvery: -1, BcryptCost: bcrypt.MinCost, Logger: quiet}, reg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(a.Handler(func(r *http.Request) string {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		return host
	}))
	t.Cleanup(func() {
		ts.Close()
		reg.Close()
		a.Close()
		games.Close()
		st.Close()
	})
	return reg, ts, st, a
}

// call makes one call as user:pass (user "": none) and decodes the JSON
// object answered.
func call(t *testing.T, ts *httptest.Server, user, pass, method, path string, body any) (int, map[string]json.RawMessage) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if user != "" {
		req.SetBasicAuth(user, pass)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]json.RawMessage
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return resp.StatusCode, out
}

// TestHandlerAlone: the API's handler serves the reference's calls by
// itself, the built-in bots' accounts made and a game against one of them
// played through its first turn.
func TestHandlerAlone(t *testing.T) {
	reg, ts, st := newTestAPI(t)
	if code, out := call(t, ts, "", "", "GET", "/api/version", nil); code != 200 || string(out["version"]) != `"`+ReconchessVersion+`"` {
		t.Fatalf("version: %d %s", code, out["version"])
	}
	if _, err := st.API().UserByName("random"); err != nil {
		t.Fatalf("the built-in bot's account: %v", err)
	}
	if code, out := call(t, ts, "", "", "POST", "/api/users/", map[string]string{"username": "alice", "email": "", "affiliation": "", "password": "password-a"}); code != 200 {
		t.Fatalf("register: %d %s", code, out["error"])
	}
	if code, _ := call(t, ts, "alice", "wrong password", "POST", "/api/users/me", nil); code != http.StatusUnauthorized {
		t.Fatalf("a wrong password: %d", code)
	}
	code, out := call(t, ts, "alice", "password-a", "POST", "/api/invitations/", map[string]any{"opponent": "random", "color": true})
	if code != 200 {
		t.Fatalf("invite: %d %s", code, out["error"])
	}
	var id int64
	if err := json.Unmarshal(out["game_id"], &id); err != nil {
		t.Fatal(err)
	}
	g := fmt.Sprintf("/api/games/%d/", id)
	for _, c := range []struct {
		method, path string
		body         any
	}{{"POST", "ready", nil}, {"POST", "sense", map[string]any{"square": nil}},
		{"POST", "move", map[string]any{"requested_move": map[string]string{"type": "Move", "value": "e2e4"}}}, {"POST", "end_turn", nil}} {
		if code, out := call(t, ts, "alice", "password-a", c.method, g+c.path, c.body); code != 200 {
			t.Fatalf("%s: %d %s", c.path, code, out["error"])
		}
	}
	// The bot's turn started as the turn ended; its host says when it is
	// over.
	select {
	case <-reg.Get(apiKey(id)).Settled():
	case <-time.After(10 * time.Second):
		t.Fatal("the bot did not play its turn")
	}
	if _, out := call(t, ts, "alice", "password-a", "GET", g+"is_my_turn", nil); string(out["is_my_turn"]) != "true" {
		t.Errorf("after the bot's turn, is_my_turn %s", out["is_my_turn"])
	}
	if code, out := call(t, ts, "alice", "password-a", "GET", "/api/nothing", nil); code != http.StatusNotFound || out["error"] == nil {
		t.Errorf("an unknown path: %d %v", code, out)
	}
}

// TestRegisterRefusesControlCharacters: an e-mail or affiliation with a
// control character (a NUL, which PostgreSQL refuses in text; a line
// break) is refused in words, and no account is made.
func TestRegisterRefusesControlCharacters(t *testing.T) {
	_, ts, st := newTestAPI(t)
	for i, c := range []struct{ email, affiliation string }{
		{"a\x00b@example.org", ""},
		{"", "Uni\x00"},
		{"a@example.org\r\nBcc: b@example.org", ""},
		{"", "tab\there"},
		{"", "\u0085next line"},
	} {
		name := fmt.Sprintf("ctl%d", i)
		code, out := call(t, ts, "", "", "POST", "/api/users/", map[string]string{"username": name, "email": c.email, "affiliation": c.affiliation, "password": "password-a"})
		if code != http.StatusBadRequest || !strings.Contains(string(out["error"]), "control characters") {
			t.Errorf("registering with %q / %q: %d %s, want 400 saying why", c.email, c.affiliation, code, out["error"])
		}
		if _, err := st.API().UserByName(name); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("registering with %q / %q made an account (%v)", c.email, c.affiliation, err)
		}
	}
	if code, out := call(t, ts, "", "", "POST", "/api/users/", map[string]string{"username": "plain", "email": "ann@example.org", "affiliation": "Université Paris-Saclay", "password": "password-a"}); code != 200 {
		t.Errorf("a plain e-mail and an affiliation with accents: %d %s", code, out["error"])
	}
}
