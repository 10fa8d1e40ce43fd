package attack

import (
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"knightwatch/play"
)

// Request bodies sent a byte every 2 seconds, on the form routes and the
// API's, are cut off by the read timeout (3 s here, --read-timeout; 30 s
// by default) and create nothing. Before the timeout such a body held its
// connection past 60 s, for as long as the client liked.
func TestSlowBodies(t *testing.T) {
	const (
		every   = 2 * time.Second
		timeout = 3 * time.Second
		// The server must hang up before this many bytes: 10 s, over three
		// times the timeout, and far short of the 100 announced.
		most = 5
	)
	s := startServer(t, "--read-timeout", timeout.String())
	v := newVisitor(t, s)
	v.newGame(ChessForm(1, "")) // the session cookie
	register := `{"username": "slowbot", "email": "", "affiliation": "", "password": "slow password"}`
	if code, body := apiCall(s, "POST", "/api/users/", "", register); code != http.StatusOK {
		t.Fatalf("register: %d %s", code, body)
	}
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte("slowbot:slow password"))
	u := strings.TrimPrefix(s.URL(), "http://")
	cookie := v.cookie()
	tables := []string{"games", "recon_games", "users", "api_games"}
	before := map[string]int{}
	for _, tb := range tables {
		before[tb] = s.count(tb)
	}
	routes := []struct {
		name, path, headers string
	}{
		{"new game form", "/games", "Content-Type: application/x-www-form-urlencoded\r\nCookie: " + cookie + "\r\nOrigin: " + s.URL() + "\r\n"},
		{"sign-in form", "/account/signin", "Content-Type: application/x-www-form-urlencoded\r\nOrigin: " + s.URL() + "\r\n"},
		{"API registration", "/api/users/", "Content-Type: application/json\r\n"},
		{"API invitation", "/api/invitations/", "Content-Type: application/json\r\nAuthorization: " + auth + "\r\n"},
	}
	var wg sync.WaitGroup
	for _, r := range routes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := net.Dial("tcp", u)
			if err != nil {
				t.Errorf("%s: %v", r.name, err)
				return
			}
			defer conn.Close()
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\n%sContent-Length: 100\r\n\r\n", r.path, u, r.headers)
			closed := make(chan struct{})
			go func() {
				defer close(closed)
				io.Copy(io.Discard, conn) // until the server hangs up
			}()
			for sent := 0; ; sent++ {
				select {
				case <-closed:
					return
				case <-time.After(every): // time itself is what is tested: a byte every so often, a body slower than the read timeout
				}
				if sent == most {
					t.Errorf("%s: still open after %d bytes, a byte every %v", r.name, most, every)
					return
				}
				conn.Write([]byte("a"))
			}
		}()
	}
	wg.Wait()
	for _, tb := range tables {
		if n := s.count(tb); n != before[tb] {
			t.Errorf("%s: %d rows, %d before the slow bodies", tb, n, before[tb])
		}
	}
}

// apiCall makes one API call with a body; auth is "user:password" or "".
func apiCall(s *server, method, path, auth, body string) (int, string) {
	req, err := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	if user, pass, ok := strings.Cut(auth, ":"); ok {
		req.SetBasicAuth(user, pass)
	}
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{}}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Issue 41 item 10, in a browser: a 20 KB new-game form (and sign-in
// form) is refused with 413 in words, where before the new-game form read
// the cut-off body as an empty form and answered 400 naming level; a note
// naming one of the person's own pieces is refused with bad_field and not
// kept (a note is a guess about the opponent's pieces; the page only
// sends those), and a note of an opponent's piece still is.
func TestOversizeFormsAndOwnNotes(t *testing.T) {
	s := startServer(t)
	v := newVisitor(t, s)
	pad := strings.Repeat("x", 20<<10)
	for _, f := range []struct {
		path string
		form url.Values
	}{
		{"/games", url.Values{"color": {"white"}, "level": {"1"}, "variant": {"standard"}, "clock": {"none"}, "pad": {pad}}},
		{"/games", url.Values{"variant": {"recon"}, "color": {"white"}, "opponent": {"random"}, "clock": {"15+5"}, "pad": {pad}}},
		{"/account/signin", url.Values{"username": {"nobody"}, "password": {"long enough"}, "pad": {pad}}},
	} {
		status, _, body, _, err := v.Post(f.path, f.form)
		if err != nil {
			t.Fatal(err)
		}
		if status != http.StatusRequestEntityTooLarge || !strings.Contains(body, "The form is too large") {
			t.Errorf("a 20 KB form to %s: %d %.200s", f.path, status, body)
		}
	}
	if n := s.count("games") + s.count("recon_games"); n != 0 {
		t.Errorf("%d games stored after oversize forms", n)
	}

	id := v.newGame(url.Values{"variant": {"recon"}, "color": {"black"}, "opponent": {"random"}, "clock": {"15+5"}})
	c, _, err := v.Dial(id)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// next reads up to an error or a state whose note on e5 is want.
	next := func(want string) (code, message string) {
		t.Helper()
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		for {
			var m struct {
				Type, Code, Message string
				Markers             map[string]string
			}
			if err := c.ReadJSON(&m); err != nil {
				t.Fatal(err)
			}
			if m.Type == "error" || m.Type == "recon_state" && m.Markers["e5"] == want {
				return m.Code, m.Message
			}
		}
	}
	for _, n := range []struct {
		piece, code string
	}{{"wN", ""}, {"bN", play.CodeBadField}, {"bK", play.CodeBadField}, {"wQ", ""}} {
		Send(c, map[string]string{"type": "marker", "square": "e5", "piece": n.piece})
		code, msg := next(n.piece)
		if code != n.code || n.code != "" && !strings.Contains(msg, "opponent") {
			t.Errorf("note %s as Black: %s %q, want %q in words", n.piece, code, msg, n.code)
		}
	}
	if got := s.query("SELECT markers FROM recon_games WHERE id = '" + id + "'"); got != `{"e5":"wQ"}` {
		t.Errorf("notes kept: %s, want only the opponent's", got)
	}
}
