package web

import (
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"knightwatch/rbcapi"
)

// fromAddr is an HTTP client whose connections come from the loopback
// address ip (127.0.0.2, ...): another client address to the server.
func fromAddr(ip string) *http.Client {
	jar, _ := cookiejar.New(nil)
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Jar: jar, Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: d.DialContext},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// loginVia is one way to log in: the API's Basic auth or the /bots
// sign-in form. It returns the status in the API's terms: 200 for a login
// that worked (the form's redirect), else the refusal's status.
type loginVia struct {
	name  string
	login func(e *testEnv, c *http.Client, user, password string) int
}

var loginWays = []loginVia{
	{"API", func(e *testEnv, c *http.Client, user, password string) int {
		a := e.apiClient(user, password)
		a.http = c
		status, _ := a.call("GET", "/api/invitations/", nil)
		return status
	}},
	{"sign-in form", func(e *testEnv, c *http.Client, user, password string) int {
		resp, err := c.PostForm(e.ts.URL+"/account/signin", url.Values{"username": {user}, "password": {password}})
		if err != nil {
			e.t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusSeeOther {
			return http.StatusOK
		}
		return resp.StatusCode
	}},
}

// Issue 41 item 9: bcrypt reads 72 bytes of a password, so the 72-byte
// password followed by anything logged in. Registration refuses over 72
// bytes; so does every login now.
func TestLoginPasswordOver72Bytes(t *testing.T) {
	password := strings.Repeat("p", rbcapi.MaxPasswordLen)
	for _, via := range loginWays {
		t.Run(via.name, func(t *testing.T) {
			e := newEnv(t, envOpts{})
			e.apiClient("bob", password).register()
			c := e.browser()
			for _, tc := range []struct {
				password string
				want     int
			}{
				{password, http.StatusOK},
				{password + "x", http.StatusUnauthorized},
				{password + strings.Repeat("anything", 100), http.StatusUnauthorized},
				{password, http.StatusOK}, // after the cached check too
				{password + "y", http.StatusUnauthorized},
			} {
				if got := via.login(e, c, "bob", tc.password); got != tc.want {
					t.Errorf("%d bytes: %d, want %d", len(tc.password), got, tc.want)
				}
			}
		})
	}
}
