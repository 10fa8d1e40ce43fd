package web

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"
)

// copyCookies is a browser holding a copy of c's cookies: someone who
// captured them.
func (e *testEnv) copyCookies(c *http.Client) *http.Client {
	u, _ := url.Parse(e.ts.URL)
	jar, _ := cookiejar.New(nil)
	jar.SetCookies(u, c.Jar.Cookies(u))
	return &http.Client{Jar: jar, CheckRedirect: c.CheckRedirect}
}

// signedInAs is the name /bots shows the browser signed in as, or "".
func (e *testEnv) signedInAs(c *http.Client) string {
	e.t.Helper()
	resp, err := c.Get(e.ts.URL + "/bots")
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	_, rest, ok := strings.Cut(string(b), `<p id="user">`)
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "<")
	return name
}

// Issue 41 item 5: signing out ends the session on the server. Before, the
// cookie was all there was (signed, valid for a year), so a copy taken
// before the sign-out still acted for the account after it: its pages,
// its invitations, its games' sockets.
func TestSignOutEndsSession(t *testing.T) {
	e := newEnv(t, envOpts{rbcClock: 300 * time.Second})
	e.apiClient("ann", "ann's password").register()
	ann := e.browser()
	e.signIn(ann, "ann", "ann's password")
	laptop := e.browser() // ann's other browser
	e.signIn(laptop, "ann", "ann's password")
	thief := e.copyCookies(ann)
	if got := e.signedInAs(thief); got != "ann" {
		t.Fatalf("the copied cookie before the sign-out: signed in as %q", got)
	}
	resp, err := ann.PostForm(e.ts.URL+"/bots/invite", url.Values{"opponent": {"random"}, "color": {"white"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var id int64
	if _, err := fmt.Sscanf(resp.Header.Get("Location"), "/bots/games/%d/play", &id); err != nil {
		t.Fatalf("invite: %s %q", resp.Status, resp.Header.Get("Location"))
	}
	open, err := e.dialAPI(thief, id) // a socket the copy opened before
	if err != nil {
		t.Fatal(err)
	}
	open.reconWait("state", nil, func(f reconFrame) bool { return f.State != nil })

	resp, err = ann.PostForm(e.ts.URL+"/bots/logout", url.Values{})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign out: %s", resp.Status)
	}

	for _, who := range []struct {
		name string
		c    *http.Client
	}{{"the browser that signed out", ann}, {"the copied cookie", thief}, {"ann's other browser", laptop}} {
		if got := e.signedInAs(who.c); got != "" {
			t.Errorf("%s after the sign-out: /bots shows %q signed in", who.name, got)
		}
		resp, err := who.c.PostForm(e.ts.URL+"/bots/invite", url.Values{"opponent": {"random"}, "color": {"white"}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s after the sign-out: invite %s, want 401", who.name, resp.Status)
		}
		if _, err := e.dialAPI(who.c, id); err == nil {
			t.Errorf("%s after the sign-out: opened the game's socket", who.name)
		}
	}
	// The socket opened before is closed.
	open.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		if _, _, err := open.conn.ReadMessage(); err != nil {
			if strings.Contains(err.Error(), "timeout") {
				t.Error("the socket opened before the sign-out is still open")
			}
			break
		}
	}

	// Signing in again works, and the old copy stays dead.
	e.signIn(ann, "ann", "ann's password")
	if got := e.signedInAs(ann); got != "ann" {
		t.Errorf("signed in again: /bots shows %q", got)
	}
	if got := e.signedInAs(thief); got != "" {
		t.Errorf("the copied cookie after signing in again: /bots shows %q", got)
	}
	// The owner key (games against the engine) survives the sign-out.
	if owner := e.ownerOf(ann); owner == "" {
		t.Error("the sign-out lost the browser's games")
	}
}
