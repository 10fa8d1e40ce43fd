package web

import (
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Issue 41 item 3: creating games is limited per client address as well
// as per owner, so a client that sends no cookie (a new owner on every
// request) is held too. Before, 300 cookieless forms made 300 games.
func TestCreationLimitPerAddress(t *testing.T) {
	const burst = 4
	chess := url.Values{"color": {"white"}, "level": {"1"}, "variant": {"standard"}, "clock": {"none"}}
	recon := url.Values{"variant": {"recon"}, "color": {"white"}, "opponent": {"random"}, "clock": {"15+5"}}
	cases := []struct {
		name  string
		trust bool
		// post posts the new-game form as a stranger from address addr.
		post func(e *testEnv, form url.Values, addr string) (int, string)
	}{
		{"cookieless forms", false, func(e *testEnv, form url.Values, addr string) (int, string) {
			return postForm(e, fromAddrNoCookies(addr), e.ts.URL+"/games", form, "")
		}},
		{"cookieless forms behind a proxy", true, func(e *testEnv, form url.Values, addr string) (int, string) {
			// Every connection from the proxy; the address in the header.
			return postForm(e, fromAddrNoCookies("127.0.0.1"), e.ts.URL+"/games", form, addr)
		}},
	}
	for _, tc := range cases {
		for _, f := range []struct {
			name string
			form url.Values
		}{{"chess", chess}, {"recon", recon}} {
			t.Run(tc.name+"/"+f.name, func(t *testing.T) {
				// Owners may create as fast as they like here: only the
				// address's limit is in the way.
				e := newEnv(t, envOpts{noEngine: true, trustProxy: tc.trust, createAddrRate: 1e-6, createAddrBurst: burst})
				created := 0
				for i := 0; i < 3*burst; i++ {
					status, body := tc.post(e, f.form, "127.0.0.2")
					switch {
					case status == http.StatusSeeOther:
						created++
					case status == http.StatusTooManyRequests && strings.Contains(body, "starting new games too fast"):
					default:
						t.Fatalf("form %d: %d %.200s", i, status, body)
					}
				}
				if created != burst || e.countGames() != int64(burst) {
					t.Errorf("%d cookieless forms from one address: %d created, %d stored; want %d", 3*burst, created, e.countGames(), burst)
				}
				// Another address is not held back.
				if status, body := tc.post(e, f.form, "127.0.0.3"); status != http.StatusSeeOther {
					t.Errorf("another address: %d %.200s", status, body)
				}
			})
		}
	}
	t.Run("rematch over the socket", func(t *testing.T) {
		e := newEnv(t, envOpts{noEngine: true, createAddrRate: 1e-6, createAddrBurst: burst})
		c := fromAddr("127.0.0.4")
		var id string
		for i := 0; i < burst; i++ {
			id = e.newGame(c, chess)
		}
		for _, browser := range []*http.Client{c, fromAddr("127.0.0.4")} { // the same browser, and a fresh one there
			if browser != c {
				resp, err := browser.Get(e.ts.URL + "/")
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if status, _ := postForm(e, browser, e.ts.URL+"/games", chess, ""); status != http.StatusTooManyRequests {
					t.Errorf("a fresh browser at the spent address: %d", status)
				}
				continue
			}
			d := wsDialer(browser)
			d.NetDialContext = (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.4")}}).DialContext
			conn, _, err := d.Dial("ws"+strings.TrimPrefix(e.ts.URL, "http")+"/ws/game/"+id, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			w := &wsConn{t: t, conn: conn}
			w.state()
			w.send(`{"type":"rematch"}`)
			m := w.waitFor("error", func(m anyMsg) bool { return m.Type == "error" || m.Type == "redirect" })
			if m.Type != "error" || m.Code != CodeCreateRateLimited {
				t.Errorf("rematch at the spent address: %s", m.raw)
			}
		}
		if n := e.countGames(); n != burst {
			t.Errorf("%d games stored, want %d", n, burst)
		}
	})
}

// fromAddrNoCookies is fromAddr without a cookie jar: every request is a
// stranger.
func fromAddrNoCookies(ip string) *http.Client {
	c := fromAddr(ip)
	c.Jar = nil
	return c
}

// postForm posts form, with X-Forwarded-For fwd when not empty, and
// returns the status and body.
func postForm(e *testEnv, c *http.Client, u string, form url.Values, fwd string) (int, string) {
	e.t.Helper()
	req, _ := http.NewRequest("POST", u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if fwd != "" {
		req.Header.Set("X-Forwarded-For", fwd)
	}
	resp, err := c.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
