package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Issue 41 item 4: every response that sets the session cookie sets it
// Secure exactly when the site is served over HTTPS. Before, signing in
// and out with a session already there saved it with gorilla/sessions'
// default (Secure), so over plain HTTP on any host but localhost the
// browser dropped it and signing in silently did not stick.
func TestCookieSecureOnlyOverHTTPS(t *testing.T) {
	sites := []struct {
		name       string
		opts       envOpts
		header     string // X-Forwarded-Proto sent, if any
		wantSecure bool
	}{
		{"plain HTTP", envOpts{}, "", false},
		{"plain HTTP, the header not trusted", envOpts{}, "https", false},
		{"behind a proxy over HTTP", envOpts{trustProxy: true}, "http", false},
		{"behind a proxy over HTTPS", envOpts{trustProxy: true}, "https", true},
		{"an https public origin", envOpts{publicOrigin: "https://example.org"}, "", true},
	}
	for _, site := range sites {
		t.Run(site.name, func(t *testing.T) {
			e := newEnv(t, site.opts)
			e.apiClient("ann", "ann's password").register()
			hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			cookie := "" // kept by hand: a jar would drop a Secure cookie over http://
			steps := []struct {
				name, method, path string
				form               url.Values
				withCookie         bool
			}{
				{"first visit", "GET", "/", nil, false},
				{"sign in with a session", "POST", "/account/signin", url.Values{"username": {"ann"}, "password": {"ann's password"}}, true},
				{"sign out", "POST", "/account/signout", url.Values{}, true},
				{"sign in without a session", "POST", "/account/signin", url.Values{"username": {"ann"}, "password": {"ann's password"}}, false},
			}
			for _, st := range steps {
				req, _ := http.NewRequest(st.method, e.ts.URL+st.path, strings.NewReader(st.form.Encode()))
				if st.form != nil {
					req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				}
				if site.header != "" {
					req.Header.Set("X-Forwarded-Proto", site.header)
				}
				if st.withCookie && cookie != "" {
					req.Header.Set("Cookie", cookie)
				}
				resp, err := hc.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				var got *http.Cookie
				for _, c := range resp.Cookies() {
					if c.Name == SessionCookie {
						got = c
					}
				}
				if got == nil {
					t.Fatalf("%s: %s and no session cookie set", st.name, resp.Status)
				}
				if got.Secure != site.wantSecure {
					t.Errorf("%s: cookie Secure=%v, want %v (%s)", st.name, got.Secure, site.wantSecure, resp.Header.Get("Set-Cookie"))
				}
				cookie = got.Name + "=" + got.Value
			}
		})
	}
}
