package web

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"knightwatch/rbcapi"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
)

// dbSnapshot is every row of the API's tables and the game tables as
// text, to compare before and after hostile calls.
func (e *testEnv) dbSnapshot() string {
	e.t.Helper()
	db, err := gorm.Open(sqlite.Open("file:"+e.dbPath+"?mode=ro&_busy_timeout=5000"), &gorm.Config{})
	if err != nil {
		e.t.Fatal(err)
	}
	if sqlDB, err := db.DB(); err == nil {
		defer sqlDB.Close()
	}
	var b strings.Builder
	for _, q := range []string{
		"SELECT id, name, email, max_games, ranked, version, password_hash, owner_key FROM users ORDER BY id",
		"SELECT id, user_id, ended_at FROM sessions ORDER BY id",
		"SELECT id, owner FROM games ORDER BY id",
		"SELECT id, status, white_ready, black_ready, history, white_ms, black_ms, updated_at FROM api_games ORDER BY id",
		"SELECT id, from_id, to_id, game_id, accepted, finished FROM invitations ORDER BY id",
		"SELECT COUNT(*) FROM games",
		"SELECT COUNT(*) FROM recon_games",
	} {
		rows, err := db.Raw(q).Rows()
		if err != nil {
			e.t.Fatalf("%s: %v", q, err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			rows.Scan(ptrs...)
			fmt.Fprintln(&b, vals...)
		}
		rows.Close()
	}
	return b.String()
}

// The HTTP API under attack: forged and borrowed credentials, bodies too
// large, garbage JSON, calls on another user's game and floods of calls
// from one bot. Each gets a clear error in JSON with its status, and
// nothing in the database changes. (Slow bodies: TestAPISlowBodies.)
func TestAPIUnderAttack(t *testing.T) {
	e := newEnv(t, envOpts{rbcClock: 300 * time.Second, loginEvery: time.Hour}) // failures do not come back during the test
	alice, bob, carol := e.apiClient("alice", "password-a"), e.apiClient("bob", "password-b"), e.apiClient("carol", "password-c")
	for _, c := range []*apiClient{alice, bob, carol} {
		c.register()
	}
	id := alice.invite("bob", true)
	var inv []int64
	bob.must("GET", "/api/invitations/", nil, "invitations", &inv)
	bob.must("POST", fmt.Sprintf("/api/invitations/%d", inv[0]), nil, "game_id", new(int64))
	alice.must("POST", fmt.Sprintf("/api/games/%d/ready", id), map[string]any{}, "", nil)
	bob.must("POST", fmt.Sprintf("/api/games/%d/ready", id), map[string]any{}, "", nil)
	g := fmt.Sprintf("/api/games/%d/", id)

	// raw sends a request with the given Authorization header as is.
	raw := func(method, path, auth, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, e.ts.URL+path, strings.NewReader(body))
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		var out struct{ Error string }
		if err := json.Unmarshal(data, &out); err != nil {
			t.Errorf("%s %s: not JSON: %q", method, path, data)
		}
		return resp.StatusCode, out.Error
	}
	basic := func(s string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte(s)) }
	aliceAuth := basic("alice:password-a")
	huge := `{"square": 1, "pad": "` + strings.Repeat("x", rbcapi.BodyLimit) + `"}`
	deep := strings.Repeat("[", 8000) + strings.Repeat("]", 8000) // under the size limit
	// The calls that read a body (the rest ignore theirs).
	posts := []string{"/api/users/me/max_games", "/api/users/me/ranked", "/api/invitations/", g + "sense", g + "move"}

	type attackCall struct {
		name               string
		method, path, auth string
		body               string
		status             int
		says               string
	}
	var calls []attackCall
	for _, p := range []string{"/api/invitations/", g + "sense", "/api/users/me/version"} {
		calls = append(calls,
			attackCall{"no credentials", "POST", p, "", `{}`, 401, "Basic authorization required"},
			attackCall{"not base64", "POST", p, "Basic !!!", `{}`, 401, "Basic authorization required"},
			attackCall{"no colon", "POST", p, basic("alice"), `{}`, 401, "Basic authorization required"},
			attackCall{"a bearer token", "POST", p, "Bearer abc", `{}`, 401, "Basic authorization required"},
			attackCall{"bob's password", "POST", p, basic("alice:password-b"), `{}`, 401, "wrong username or password"},
			attackCall{"a built-in bot", "POST", p, basic("knightwatch:"), `{}`, 401, "wrong username or password"},
			attackCall{"nobody", "POST", p, basic("nobody:password-a"), `{}`, 401, "wrong username or password"},
		)
	}
	for _, p := range posts {
		calls = append(calls,
			attackCall{"too large", "POST", p, aliceAuth, huge, 413, "over"},
			attackCall{"not JSON", "POST", p, aliceAuth, `{"square": `, 400, "JSON"},
			attackCall{"an array", "POST", p, aliceAuth, `[1, 2]`, 400, "JSON object"},
			attackCall{"null", "POST", p, aliceAuth, `null`, 400, "not null"},
			attackCall{"a string", "POST", p, aliceAuth, `"x"`, 400, "JSON object"},
			attackCall{"two objects", "POST", p, aliceAuth, `{}{}`, 400, "JSON"},
			attackCall{"invalid UTF-8", "POST", p, aliceAuth, "{\"square\": \"\xff\xfe\"}", 400, ""},
			attackCall{"arrays nested 8,000 deep", "POST", p, aliceAuth, deep, 400, "JSON object"},
		)
	}
	for _, p := range []string{"sense", "move", "end_turn", "resign", "error_resign", "ready", "color", "game_history", "move_actions"} {
		method := "POST"
		if p == "color" || p == "game_history" || p == "move_actions" {
			method = "GET"
		}
		calls = append(calls, attackCall{"carol on alice and bob's game", method, g + p, basic("carol:password-c"), `{"square": 1}`, 401, "not a player"})
	}
	before := e.dbSnapshot()
	for _, c := range calls {
		status, says := raw(c.method, c.path, c.auth, c.body)
		if status != c.status || !strings.Contains(says, c.says) || says == "" {
			t.Errorf("%s: %s %s: %d %q, want %d with %q", c.name, c.method, c.path, status, says, c.status, c.says)
		}
	}
	if after := e.dbSnapshot(); after != before {
		t.Errorf("hostile calls changed the database:\n%s\n%s", before, after)
	}

	// Floods from one bot, each refused in words once over its limit.
	t.Run("failed logins", func(t *testing.T) {
		before := e.dbSnapshot()
		mallory := e.apiClient("bob", "guessing")
		var last int
		var msg string
		for i := 0; i < 3*rbcapi.LoginBurst; i++ {
			status, out := mallory.call("GET", g+"color", nil)
			last = status
			json.Unmarshal(out["error"], &msg)
		}
		if last != http.StatusTooManyRequests || !strings.Contains(msg, "too many failed logins") {
			t.Errorf("after %d wrong passwords: %d %q", 3*rbcapi.LoginBurst, last, msg)
		}
		if after := e.dbSnapshot(); after != before {
			t.Error("failed logins changed the database")
		}
	})
	t.Run("registrations", func(t *testing.T) {
		anon := e.apiClient("", "")
		refused := 0
		for i := 0; i < 20; i++ {
			status, out := anon.call("POST", "/api/users/", map[string]string{"username": fmt.Sprintf("flood%d", i), "email": "", "affiliation": "", "password": "long enough"})
			var msg string
			json.Unmarshal(out["error"], &msg)
			if status == http.StatusTooManyRequests && strings.Contains(msg, "too many registrations") {
				refused++
			}
		}
		if refused < 20-rbcapi.LoginBurst {
			t.Errorf("%d of 20 registrations from one address refused, want at least %d", refused, 20-rbcapi.LoginBurst)
		}
	})
	t.Run("invitations", func(t *testing.T) {
		dave := e.apiClient("dave", "password-d")
		// From another address than the registrations' flood.
		dave.http = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}).DialContext}}
		dave.register()
		refused := 0
		for i := 0; i < rbcapi.MaxOpenGames+20; i++ {
			status, out := dave.call("POST", "/api/invitations/", map[string]any{"opponent": "carol", "color": true})
			var msg string
			json.Unmarshal(out["error"], &msg)
			switch {
			case status == http.StatusOK:
			case status == http.StatusBadRequest && strings.Contains(msg, "unfinished games; finish some first"):
				refused++
			default:
				t.Fatalf("invitation %d: %d %q", i, status, msg)
			}
		}
		u, err := e.store.API().UserByName("dave")
		if err != nil {
			t.Fatal(err)
		}
		if n, err := e.store.API().OpenAPIGames(u.ID); err != nil || n != rbcapi.MaxOpenGames || refused != 20 {
			t.Errorf("%d open games (%v), %d invitations refused; want %d and 20", n, err, refused, rbcapi.MaxOpenGames)
		}
	})
}

// A slow request body on the API's routes that read one, with good
// credentials, is cut off by the read timeout and changes nothing.
func TestAPISlowBodies(t *testing.T) {
	e := newEnv(t, envOpts{requestReadTimeout: 300 * time.Millisecond, requestWriteTimeout: 300 * time.Millisecond})
	alice := e.apiClient("alice", "password-a")
	alice.register()
	e.apiClient("bob", "password-b").register()
	alice.invite("bob", true)
	before := e.dbSnapshot()
	host := strings.TrimPrefix(e.ts.URL, "http://")
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:password-a"))
	for _, path := range []string{"/api/invitations/", "/api/users/me/max_games", "/api/users/me/ranked"} {
		conn, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: %s\r\nContent-Length: 100\r\n\r\n{", path, host, auth)
		closed := make(chan struct{})
		go func() {
			defer close(closed)
			io.Copy(io.Discard, conn)
		}()
		for i := 0; ; i++ {
			select {
			case <-closed:
			case <-time.After(100 * time.Millisecond): // time itself is what is tested: a byte every 100 ms, a body slower than the read timeout
				if i == 50 {
					t.Errorf("%s: a slow body still open after 5 s", path)
				} else {
					conn.Write([]byte(" "))
					continue
				}
			}
			break
		}
		conn.Close()
	}
	if after := e.dbSnapshot(); after != before {
		t.Errorf("slow bodies changed the database:\n%s\n%s", before, after)
	}
}
