package cli

import (
	"errors"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"knightwatch/pgtest"
)

// TestSignOutReachesEveryServer: two servers on one PostgreSQL database.
// A browser signed in plays a game through server B; another browser of
// the same account signs out everywhere through server A. The first
// browser's socket on B is hung up: the sessions are the database's and
// the ending is told to every server (store.SessionsChannel), so a socket
// of an ended session can act on no server.
func TestSignOutReachesEveryServer(t *testing.T) {
	dsn := pgtest.DB(t)
	a, b := startChildServer(t, dsn), startChildServer(t, dsn)
	browser := func() *http.Client {
		jar, err := cookiejar.New(nil)
		if err != nil {
			t.Fatal(err)
		}
		return &http.Client{Jar: jar, Timeout: 30 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	post := func(c *http.Client, u string, form url.Values) *http.Response {
		t.Helper()
		resp, err := c.PostForm(u, form)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("POST %s: %s", u, resp.Status)
		}
		return resp
	}
	first, second := browser(), browser()
	post(first, a.URL()+"/account/signup", url.Values{"username": {"alice"}, "password": {"password-a"}, "password2": {"password-a"}, "next": {"/"}})
	resp := post(first, a.URL()+"/games", url.Values{"color": {"white"}, "level": {"1"}, "variant": {"standard"}, "clock": {"none"}})
	id, ok := strings.CutPrefix(resp.Header.Get("Location"), "/game/")
	if !ok {
		t.Fatalf("new game: to %q", resp.Header.Get("Location"))
	}
	d := websocket.Dialer{Jar: first.Jar, HandshakeTimeout: 30 * time.Second}
	conn, _, err := d.Dial("ws"+strings.TrimPrefix(b.URL(), "http")+"/ws/game/"+id, nil)
	if err != nil {
		t.Fatalf("the first browser's socket on B: %v", err)
	}
	defer conn.Close()
	nextState(t, conn, 0)

	post(second, a.URL()+"/account/signin", url.Values{"username": {"alice"}, "password": {"password-a"}, "next": {"/"}})
	post(second, a.URL()+"/account/signout-everywhere", url.Values{})

	// The deadline only bounds a failing test: B hangs up at once.
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	for {
		_, _, err := conn.ReadMessage()
		if err == nil {
			continue // a state sent before the sign-out
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatal("the socket of an ended session stayed open on the other server")
		}
		break
	}
}
