package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestBotsPage: the sign-up form (the site's, on /account) makes an account the API accepts, refuses
// bad input and cross-origin posts, and finished API games are listed with
// a replay and their history file; unfinished ones have neither.
func TestBotsPage(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := c.Get(e.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	// Each sign-up in a browser of its own: a successful one signs that
	// browser in.
	post := func(form url.Values, origin string) (int, string) {
		t.Helper()
		c := e.browser()
		req, _ := http.NewRequest("POST", e.ts.URL+"/account/signup", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if status, body := get("/bots"); status != 200 || !strings.Contains(body, "Connect your bot") {
		t.Fatalf("GET /bots: %d %.200s", status, body)
	}
	form := url.Values{"username": {"carol"}, "email": {""}, "affiliation": {"lab"}, "password": {"carol's pass"}, "password2": {"carol's pass"}}
	bad := url.Values{"username": {"carol"}, "password": {"carol's pass"}, "password2": {"other pass"}}
	for _, tc := range []struct {
		form   url.Values
		origin string
		status int
		says   string
	}{
		{bad, "", 400, "differ"},
		{form, "http://evil.example", 403, "cross-origin"},
		{form, "", 303, ""},
		{form, "", 409, "taken"},
	} {
		if status, body := post(tc.form, tc.origin); status != tc.status || !strings.Contains(body, tc.says) {
			t.Errorf("register %v from %q: %d %.300s, want %d with %q", tc.form, tc.origin, status, body, tc.status, tc.says)
		}
	}
	carol := e.apiClient("carol", "carol's pass")
	id := carol.invite("attacker", true)
	if status, _ := get(fmt.Sprintf("/bots/games/%d/replay", id)); status != 404 {
		t.Errorf("replay of an unfinished game: %d", status)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res := carol.playRemote(ctx, id, randomBot(t, 7))
	if _, body := get("/bots"); !strings.Contains(body, fmt.Sprintf(`href="/bots/games/%d/replay"`, id)) || !strings.Contains(body, "carol") {
		t.Errorf("the finished game or carol is not listed: %.500s", body)
	}
	if status, body := get(fmt.Sprintf("/bots/games/%d/replay", id)); status != 200 || !strings.Contains(body, "replays all") {
		t.Errorf("replay: %d %.300s", status, body)
	}
	if status, body := get(fmt.Sprintf("/bots/games/%d/history.json", id)); status != 200 || body != string(res.history) {
		t.Errorf("history file: %d, same as the API's: %v", status, body == string(res.history))
	}
	if status, _ := get("/bots/games/999/replay"); status != 404 {
		t.Errorf("replay of no game: %d", status)
	}
}
