package attack

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// Issue 41 item 2: someone guessing bob's password from another address,
// as fast as they can, while bob's bot calls as rc-connect does. Before,
// the limit on failures per name was checked before the password: bob's
// correct logins were refused with 429 (52 of 60 in the probe) and his
// game lost on time. Now failures count per (name, address) and per
// address: every one of bob's calls is answered, the guesser gets 429
// from its own address, and an address guessing over many names is held
// after 30.
func TestLoginLockout(t *testing.T) {
	s := startServer(t)
	bob := newBot(s, "127.0.0.1", "bob", "bob's password")
	bob.register(t)
	var id int64
	bob.must(t, "POST", "/api/invitations/", map[string]any{"opponent": "random", "color": true}, "game_id", &id)
	bob.must(t, "POST", fmt.Sprintf("/api/games/%d/ready", id), nil, "", nil)

	const guesses = 30
	start := time.Now()
	mallory := newBot(s, "127.0.0.2", "bob", "")
	var wg sync.WaitGroup
	wg.Add(1)
	done := make(chan struct{})
	statuses := map[int]int{}
	go func() {
		defer wg.Done()
		defer close(done)
		for i := range guesses {
			mallory.pass = fmt.Sprintf("guess %d", i)
			status, _, _ := mallory.call("GET", "/api/users/me/version", nil)
			statuses[status]++
		}
	}()
	calls, refused := 0, 0
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		for _, c := range []struct{ method, path string }{{"POST", "/api/users/me"}, {"GET", fmt.Sprintf("/api/games/%d/game_status", id)}} {
			calls++
			if status, _, msg := bob.call(c.method, c.path, nil); status != http.StatusOK {
				refused++
				t.Logf("bob's %s %s: %d %s", c.method, c.path, status, msg)
			}
		}
	}
	wg.Wait()
	t.Logf("%d wrong passwords for bob from another address: %v; bob's calls meanwhile: %d, %d refused", guesses, statuses, calls, refused)
	if refused > 0 {
		t.Errorf("%d of bob's %d calls refused while another address guessed his password", refused, calls)
	}
	// Ten failures, then one per 6 s comes back (the test takes seconds).
	if most := 10 + int(time.Since(start)/(6*time.Second)); statuses[http.StatusUnauthorized] > most || statuses[http.StatusTooManyRequests] < guesses-most {
		t.Errorf("the guesser's %d wrong passwords: %v, want at most %d 401, then 429", guesses, statuses, most)
	}
	// The sign-in form: the same limits, the same answer for bob.
	if got := visitorFrom(t, s, "127.0.0.1").signIn("bob", "bob's password"); got != http.StatusSeeOther {
		t.Errorf("bob's sign-in on /bots after the guessing: %d", got)
	}
	if got := visitorFrom(t, s, "127.0.0.2").signIn("bob", "bob's password"); got != http.StatusTooManyRequests {
		t.Errorf("the right password from the guessing address: %d, want 429 (the guesser learns nothing more)", got)
	}
	// One address guessing over many names is held after 30.
	spray := map[int]int{}
	start = time.Now()
	for i := range 40 {
		status, _, _ := newBot(s, "127.0.0.3", fmt.Sprintf("name%d", i), "guess").call("GET", "/api/users/me/version", nil)
		spray[status]++
	}
	// Thirty failures, then one per 2 s comes back.
	if most := 30 + int(time.Since(start)/(2*time.Second)); spray[http.StatusUnauthorized] > most || spray[http.StatusTooManyRequests] < 40-most {
		t.Errorf("40 names guessed from one address: %v, want at most %d 401, then 429", spray, most)
	}
}

// Issue 41 item 9: bcrypt reads 72 bytes of a password, so the 72-byte
// password and anything after it logged in. Now a login over 72 bytes is
// refused, by the API and by the sign-in form.
func TestLoginPasswordOver72Bytes(t *testing.T) {
	s := startServer(t)
	password := strings.Repeat("k", 72)
	newBot(s, "127.0.0.1", "carol", password).register(t)
	for _, tc := range []struct {
		password string
		want     int
	}{{password, http.StatusOK}, {password + "x", http.StatusUnauthorized}, {password + strings.Repeat("y", 900), http.StatusUnauthorized}} {
		if status, _, msg := newBot(s, "127.0.0.1", "carol", tc.password).call("GET", "/api/users/me/version", nil); status != tc.want {
			t.Errorf("API, %d bytes: %d %s, want %d", len(tc.password), status, msg, tc.want)
		}
		want := http.StatusSeeOther
		if tc.want != http.StatusOK {
			want = tc.want
		}
		if got := newVisitor(t, s).signIn("carol", tc.password); got != want {
			t.Errorf("sign-in form, %d bytes: %d, want %d", len(tc.password), got, want)
		}
	}
}

// Issue 41 items 4 and 5: the session cookie of a sign-in or a sign-out
// over plain HTTP is not Secure (before, gorilla/sessions' default made it
// Secure, so on any http:// host but localhost signing in did not stick),
// and behind --trust-proxy over HTTPS it is. A copy of the cookie taken
// before a sign-out no longer acts for the account after it (before, the
// signed cookie was all there was, valid for a year).
func TestSessionCookies(t *testing.T) {
	for _, site := range []struct {
		name       string
		args       []string
		proto      string
		wantSecure bool
	}{
		{"plain HTTP", nil, "", false},
		{"behind a proxy over HTTPS", []string{"--trust-proxy"}, "https", true},
	} {
		t.Run(site.name, func(t *testing.T) {
			s := startServer(t, site.args...)
			newBot(s, "127.0.0.1", "dora", "dora's password").register(t)
			hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Transport: &http.Transport{}}
			cookie := ""
			post := func(path string, form url.Values) *http.Cookie {
				t.Helper()
				req, _ := http.NewRequest("POST", s.URL()+path, strings.NewReader(form.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.Header.Set("Origin", s.URL())
				if site.proto != "" {
					req.Header.Set("X-Forwarded-Proto", site.proto)
					req.Header.Set("Origin", "https://"+strings.TrimPrefix(s.URL(), "http://"))
				}
				if cookie != "" {
					req.Header.Set("Cookie", cookie)
				}
				resp, err := hc.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				for _, c := range resp.Cookies() {
					if c.Name == "kw_session" {
						cookie = c.Name + "=" + c.Value
						return c
					}
				}
				t.Fatalf("POST %s: %s, no session cookie", path, resp.Status)
				return nil
			}
			signedIn := func(cookie string) bool {
				req, _ := http.NewRequest("GET", s.URL()+"/bots", nil)
				req.Header.Set("Cookie", cookie)
				if site.proto != "" {
					req.Header.Set("X-Forwarded-Proto", site.proto)
				}
				code, body := 0, ""
				if resp, err := hc.Do(req); err == nil {
					b, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					code, body = resp.StatusCode, string(b)
				}
				if code != http.StatusOK {
					t.Fatalf("/bots: %d", code)
				}
				return strings.Contains(body, `id="signed-in">dora<`)
			}
			in := post("/account/signin", url.Values{"username": {"dora"}, "password": {"dora's password"}})
			// Signing in again, with the session now, starts a new one and
			// ends the browser's old one (issue 45's per-browser sessions):
			// the capture is of the new one.
			in2 := post("/account/signin", url.Values{"username": {"dora"}, "password": {"dora's password"}})
			captured := cookie
			if in.Secure != site.wantSecure || in2.Secure != site.wantSecure {
				t.Errorf("sign-in cookies Secure %v and %v, want %v", in.Secure, in2.Secure, site.wantSecure)
			}
			if !signedIn(captured) {
				t.Fatal("the captured cookie is not signed in before the sign-out")
			}
			out := post("/account/signout", url.Values{})
			if out.Secure != site.wantSecure {
				t.Errorf("sign-out cookie Secure %v, want %v", out.Secure, site.wantSecure)
			}
			if signedIn(captured) {
				t.Error("a cookie captured before the sign-out still acts for the account")
			}
		})
	}
}
