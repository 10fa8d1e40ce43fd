package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// The session cookie is Secure and HSTS is sent exactly when the browser
// is on HTTPS: direct TLS, or a trusted proxy that says so.
func TestHTTPSCookieAndHSTS(t *testing.T) {
	tests := []struct {
		name       string
		trustProxy bool
		tls        bool
		proto      string // X-Forwarded-Proto
		wantHTTPS  bool
	}{
		{"plain http", false, false, "", false},
		{"untrusted proxy header", false, false, "https", false},
		{"trusted proxy, https", true, false, "https", true},
		{"trusted proxy, list", true, false, "https, http", true},
		{"trusted proxy, http", true, false, "http", false},
		{"direct TLS", false, true, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOpts{noEngine: true, trustProxy: tc.trustProxy})
			base, client := e.ts.URL, e.ts.Client()
			if tc.tls {
				ts := httptest.NewTLSServer(e.srv)
				defer ts.Close()
				base, client = ts.URL, ts.Client()
			}
			for _, path := range []string{"/", "/bots"} {
				req, _ := http.NewRequest("GET", base+path, nil)
				if tc.proto != "" {
					req.Header.Set("X-Forwarded-Proto", tc.proto)
				}
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if got := resp.Header.Get("Strict-Transport-Security"); (got == "max-age=31536000") != tc.wantHTTPS || (got != "" && !tc.wantHTTPS) {
					t.Errorf("%s: HSTS %q", path, got)
				}
				if path != "/" {
					continue
				}
				var ck *http.Cookie
				for _, c := range resp.Cookies() {
					if c.Name == SessionCookie {
						ck = c
					}
				}
				if ck == nil || ck.Secure != tc.wantHTTPS || !ck.HttpOnly {
					t.Errorf("cookie %+v, want Secure %v", ck, tc.wantHTTPS)
				}
			}
		})
	}
}

// The Host header never reaches the CSP, a WebSocket URL, the bots page or
// a PGN: a configured public origin is used, or a Host that looks like a
// host, or "localhost".
func TestHostNotReflected(t *testing.T) {
	tests := []struct {
		name, publicOrigin, host  string
		wantSite, wantWS, wantCSP string
	}{
		{"plain host", "", "chess.local:8080", "http://chess.local:8080", "ws://chess.local:8080/ws/game/", "ws://chess.local:8080 wss://chess.local:8080;"},
		{"quote in host", "", `evil.example"; script-src *`, "http://localhost", "ws://localhost/ws/game/", "ws://localhost wss://localhost;"},
		{"path in host", "", "evil.example/x", "http://localhost", "ws://localhost/ws/game/", "ws://localhost wss://localhost;"},
		{"public origin wins", "https://chess.example", "evil.example", "https://chess.example", "wss://chess.example/ws/game/", "ws://chess.example wss://chess.example;"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOpts{noEngine: true, publicOrigin: tc.publicOrigin})
			c := e.browser()
			id := e.newGameFrom(c, tc.publicOrigin)
			u, _ := url.Parse(e.ts.URL)
			get := func(path string) *httptest.ResponseRecorder {
				req := httptest.NewRequest("GET", path, nil)
				req.Host = tc.host
				for _, ck := range c.Jar.Cookies(u) {
					req.AddCookie(ck)
				}
				rec := httptest.NewRecorder()
				e.srv.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
				}
				return rec
			}
			page := get("/game/" + id)
			if csp := page.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self' "+tc.wantCSP) || strings.Contains(csp, "evil") {
				t.Errorf("CSP %q", csp)
			}
			if body := page.Body.String(); !strings.Contains(body, `data-ws="`+tc.wantWS+id+`"`) {
				t.Errorf("game page %s, want WebSocket URL %s", body, tc.wantWS+id)
			}
			if pgn := get("/game/" + id + "/pgn").Body.String(); !strings.Contains(pgn, `[Site "`+tc.wantSite+"/game/"+id+`"]`) {
				t.Errorf("PGN %s, want Site %s", pgn, tc.wantSite)
			}
			if strings.Contains(get("/bots").Body.String(), "evil") {
				t.Error("bots page shows the Host header")
			}
		})
	}
}

// newGameFrom posts the new-game form with the Origin of the public
// origin (when set), as a browser on that site would.
func (e *testEnv) newGameFrom(c *http.Client, origin string) string {
	if origin == "" {
		return e.newGame(c, form("white", "1", "standard", "none"))
	}
	req, _ := http.NewRequest("POST", e.ts.URL+"/games", strings.NewReader(form("white", "1", "standard", "none").Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusSeeOther {
		e.t.Fatalf("POST /games: %s %s", resp.Status, b)
	}
	return strings.TrimPrefix(resp.Header.Get("Location"), "/game/")
}

// Sockets and form posts are held to one origin rule, scheme included:
// the page must come from the server's own origin (its public origin, or
// the request's scheme, a trusted proxy's, and host); a foreign or "null"
// origin gets 403; a request without Origin (no browser's) is let through.
// how says which is tried: "socket" (the game's WebSocket) or "form"
// (POST /games).
func TestOriginScheme(t *testing.T) {
	tests := []struct {
		how                string
		name, publicOrigin string
		trustProxy         bool
		proto              string // X-Forwarded-Proto
		origin             string // "SELF" is replaced by the test server's host
		ok                 bool
	}{
		{"socket", "http page, http server", "", false, "", "http://SELF", true},
		{"socket", "https page, http server", "", false, "", "https://SELF", false},
		{"socket", "http page behind https proxy", "", true, "https", "http://SELF", false},
		{"socket", "https page behind https proxy", "", true, "https", "https://SELF", true},
		{"socket", "untrusted proxy header", "", false, "https", "https://SELF", false},
		{"socket", "public origin", "https://chess.example", false, "", "https://chess.example", true},
		{"socket", "public origin, http", "https://chess.example", false, "", "http://chess.example", false},
		{"socket", "public origin, other host", "https://chess.example", false, "", "https://SELF", false},
		{"socket", "no origin", "", false, "", "", true},
		{"form", "http page, http server", "", false, "", "http://SELF", true},
		{"form", "https page, http server", "", false, "", "https://SELF", false},
		{"form", "http page behind https proxy", "", true, "https", "http://SELF", false},
		{"form", "https page behind https proxy", "", true, "https", "https://SELF", true},
		{"form", "public origin, http", "https://chess.example", false, "", "http://chess.example", false},
		{"form", "other site", "", false, "", "http://evil.example", false},
		{"form", "null origin", "", false, "", "null", false},
		{"form", "no origin", "", false, "", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.how+"/"+tc.name, func(t *testing.T) {
			e := newEnv(t, envOpts{noEngine: true, trustProxy: tc.trustProxy, publicOrigin: tc.publicOrigin})
			c := e.browser()
			h := http.Header{}
			if tc.origin != "" {
				h.Set("Origin", strings.Replace(tc.origin, "SELF", strings.TrimPrefix(e.ts.URL, "http://"), 1))
			}
			if tc.proto != "" {
				h.Set("X-Forwarded-Proto", tc.proto)
			}
			var ok bool
			var resp *http.Response
			switch tc.how {
			case "socket":
				id := e.newGameFrom(c, tc.publicOrigin)
				conn, r, err := wsDialer(c).Dial("ws"+strings.TrimPrefix(e.ts.URL, "http")+"/ws/game/"+id, h)
				if ok, resp = err == nil, r; ok {
					conn.Close()
				}
			case "form":
				form := url.Values{"color": {"white"}, "level": {"1"}, "variant": {"standard"}, "clock": {"none"}}
				req, err := http.NewRequest(http.MethodPost, e.ts.URL+"/games", strings.NewReader(form.Encode()))
				if err != nil {
					t.Fatal(err)
				}
				req.Header = h
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				if resp, err = c.Do(req); err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				ok = resp.StatusCode == http.StatusSeeOther // to the new game
			}
			if ok != tc.ok {
				t.Fatalf("accepted %v (%v), want %v", ok, resp, tc.ok)
			}
			if !ok && (resp == nil || resp.StatusCode != http.StatusForbidden) {
				t.Errorf("want 403, got %v", resp)
			}
		})
	}
}

func TestPublicOriginValidated(t *testing.T) {
	for _, v := range []string{"example.org", "ftp://example.org", "https://example.org/path", "https://exa mple.org", "https://u@example.org", "https://example.org?q"} {
		if _, err := parsePublicOrigin(v); err == nil {
			t.Errorf("%q accepted", v)
		}
	}
	for _, v := range []string{"https://example.org", "http://localhost:8080", "https://example.org/", "http://[::1]:8080"} {
		if _, err := parsePublicOrigin(v); err != nil {
			t.Errorf("%q: %v", v, err)
		}
	}
}

// Scripts come from /static/js only: the CSP allows no inline script.
func TestCSPNoInlineScript(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	resp, err := http.Get(e.ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self';") || strings.Contains(csp, "script-src 'self' 'unsafe-inline'") {
		t.Errorf("CSP %q", csp)
	}
}
