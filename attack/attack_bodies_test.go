package attack

import (
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
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
		{"sign-in form", "/bots/login", "Content-Type: application/x-www-form-urlencoded\r\nOrigin: " + s.URL() + "\r\n"},
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
				case <-time.After(every):
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
