package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"knightwatch/store"
)

// FuzzAPIHandlers posts arbitrary bodies to the API's routes that read one,
// through the server's own handler (auth, body limits, parsing, the game),
// as a registered bot playing a started game: which route is the first
// byte's choice. Every answer is a JSON object with a status the API
// documents; a refusal says what went wrong; none is a 500, nothing
// panics. (FuzzAPIRequestBody fuzzes the parsers alone.)
func FuzzAPIHandlers(f *testing.F) {
	for _, seed := range []struct {
		route byte
		body  string
	}{
		{0, `{"square": 12}`}, {0, `{"square": null}`}, {0, `{"square": "e4"}`}, {0, `{"square": 1e300}`},
		{1, `{"requested_move": {"type": "Move", "value": "e2e4"}}`}, {1, `{"requested_move": null}`}, {1, `{"requested_move": {"type": "Move", "value": "e7e8q"}}`},
		{2, `{"max_games": 7}`}, {2, `{"max_games": -1}`}, {3, `{"ranked": true}`}, {3, `{"ranked": "yes"}`},
		{4, `{"opponent": "bob", "color": true}`}, {4, `{"opponent": "random", "color": false}`}, {4, `{"opponent": "fuzzbot"}`},
		{5, `{"username": "fuzz2", "email": "", "affiliation": "", "password": "long enough"}`}, {5, `{"username": 1}`},
		{0, `{`}, {1, `[]`}, {2, `null`}, {4, "{\"opponent\": \"\xff\"}"},
	} {
		f.Add(seed.route, []byte(seed.body))
	}
	srv, _ := fuzzServer(f)
	call := func(method, path, auth, body string) (int, []byte) {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.RemoteAddr = "192.0.2.1:1234"
		if user, pass, ok := strings.Cut(auth, ":"); ok {
			req.SetBasicAuth(user, pass)
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec.Code, rec.Body.Bytes()
	}
	for _, u := range []string{"fuzzbot", "bob"} {
		if code, out := call("POST", "/api/users/", "", fmt.Sprintf(`{"username": %q, "email": "", "affiliation": "", "password": "fuzz password"}`, u)); code != 200 {
			f.Fatalf("register %s: %d %s", u, code, out)
		}
	}
	code, out := call("POST", "/api/invitations/", "fuzzbot:fuzz password", `{"opponent": "bob", "color": true}`)
	var created struct {
		GameID int64 `json:"game_id"`
	}
	if code != 200 || json.Unmarshal(out, &created) != nil {
		f.Fatalf("invite: %d %s", code, out)
	}
	var inv struct{ Invitations []int64 }
	_, out = call("GET", "/api/invitations/", "bob:fuzz password", "")
	json.Unmarshal(out, &inv)
	for _, id := range inv.Invitations {
		call("POST", fmt.Sprintf("/api/invitations/%d", id), "bob:fuzz password", "")
	}
	g := fmt.Sprintf("/api/games/%d/", created.GameID)
	for _, u := range []string{"fuzzbot", "bob"} {
		if code, out := call("POST", g+"ready", u+":fuzz password", "{}"); code != 200 {
			f.Fatalf("ready %s: %d %s", u, code, out)
		}
	}
	routes := []string{g + "sense", g + "move", "/api/users/me/max_games", "/api/users/me/ranked", "/api/invitations/", "/api/users/"}
	documented := map[int]bool{200: true, 400: true, 401: true, 404: true, 409: true, 413: true, 429: true}
	f.Fuzz(func(t *testing.T, route byte, body []byte) {
		path := routes[int(route)%len(routes)]
		auth := "fuzzbot:fuzz password"
		if path == "/api/users/" {
			auth = ""
		}
		code, out := call("POST", path, auth, string(body))
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(out, &obj); err != nil || obj == nil {
			t.Fatalf("POST %s %q: %d, not a JSON object: %q", path, body, code, out)
		}
		if !documented[code] {
			t.Fatalf("POST %s %q: status %d %s", path, body, code, out)
		}
		if code != 200 {
			var msg string
			if json.Unmarshal(obj["error"], &msg) != nil || msg == "" || bytes.Contains(out, []byte("panic")) {
				t.Fatalf("POST %s %q: %d without a reason: %s", path, body, code, out)
			}
		}
	})
}

// fuzzServer is a server for the fuzz targets, with its own database; it
// closes when the fuzz target ends.
func fuzzServer(f *testing.F) (*Server, *store.Store) {
	st, err := store.Open(filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	k := newStack(f, st, envOpts{})
	f.Cleanup(func() {
		k.close()
		st.Close()
	})
	return k.srv, st
}
