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

// signedInAs is the name the header of /bots shows the browser signed in
// as, or "".
func (e *testEnv) signedInAs(c *http.Client) string {
	e.t.Helper()
	resp, err := c.Get(e.ts.URL + "/bots")
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	_, rest, ok := strings.Cut(string(b), `id="signed-in"`)
	if !ok {
		return ""
	}
	_, rest, _ = strings.Cut(rest, ">")
	name, _, _ := strings.Cut(rest, "<")
	return name
}

// Issue 41 item 5: signing out ends the session on the server. Before, the
// cookie was all there was (signed, valid for a year), so a copy taken
// before the sign-out still acted for the account after it: its pages,
// its invitations, its games' sockets. Issue 45 made sessions per
// browser: signing out ends this browser's session (and any copy of its
// cookie) and leaves the account's other browsers signed in, which
// before were signed out too; "sign out everywhere" ends them all.
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

	resp, err = ann.PostForm(e.ts.URL+"/account/signout", url.Values{})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign out: %s", resp.Status)
	}

	e.checkSignedIn(id, []signedInCase{{"the browser that signed out", ann, false}, {"the copied cookie", thief, false}, {"ann's other browser", laptop, true}})
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
	// The signed-out browser starts afresh with an owner key of its own:
	// the games stay with the account.
	if owner := e.ownerOf(ann); owner == "" {
		t.Error("the browser has no owner key")
	}

	// Sign out everywhere, from the laptop: ann's browser, signed in
	// again, is signed out too.
	resp, err = laptop.PostForm(e.ts.URL+"/account/signout-everywhere", url.Values{})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign out everywhere: %s", resp.Status)
	}
	e.checkSignedIn(id, []signedInCase{{"ann's browser", ann, false}, {"the laptop", laptop, false}, {"the copied cookie", thief, false}})
}

// signedInCase is a browser and whether it should be signed in to ann.
type signedInCase struct {
	name string
	c    *http.Client
	want bool
}

// checkSignedIn checks that each browser is signed in to ann, or not: the
// header, an invitation, API game id's socket.
func (e *testEnv) checkSignedIn(id int64, cases []signedInCase) {
	e.t.Helper()
	t := e.t
	for _, who := range cases {
		if got := e.signedInAs(who.c); (got == "ann") != who.want || got != "" && got != "ann" {
			t.Errorf("%s: /bots shows %q signed in, want signed in %v", who.name, got, who.want)
		}
		if who.want {
			continue // inviting and playing as ann: the tests of bots_play_test.go
		}
		resp, err := who.c.PostForm(e.ts.URL+"/bots/invite", url.Values{"opponent": {"random"}, "color": {"white"}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: invite %s, want 401", who.name, resp.Status)
		}
		if _, err := e.dialAPI(who.c, id); err == nil {
			t.Errorf("%s: opened the game's socket", who.name)
		}
	}
}
