package attack

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"knightwatch/web"
)

// One browser opens 1,010 sockets to one game, 16 at a time, keeping every
// one it gets, on a server limited to 1,024 open files. Before the caps,
// it held 1,010 descriptors and 3 of 4 requests from another visitor timed
// out (accept4: too many open files). Now it gets DefaultMaxSocketsPerGame
// sockets, every other attempt is refused with 429 and a sentence, and
// another visitor, meanwhile, loads pages, starts a game and plays it.
// Then the same browser spreads sockets over more games and is stopped at
// DefaultMaxSocketsPerOwner.
func TestSocketFlood(t *testing.T) {
	const attempts = 1010
	s := startServer(t)
	att := newVisitor(t, s)
	target := att.newGame(ChessForm(1, ""))

	var (
		mu       sync.Mutex
		held     []*websocket.Conn
		refused  int
		failures []string
	)
	t.Cleanup(func() {
		for _, c := range held {
			c.Close()
		}
	})
	attempt := func(id, want string) {
		c, resp, err := att.Dial(id)
		mu.Lock()
		defer mu.Unlock()
		if err == nil {
			held = append(held, c)
			return
		}
		if resp == nil {
			failures = append(failures, err.Error())
			return
		}
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode == http.StatusTooManyRequests && strings.Contains(string(b), want) {
			refused++
			return
		}
		failures = append(failures, resp.Status+" "+string(b))
	}

	// The other visitor plays while the flood goes on.
	other := newVisitor(t, s)
	otherDone := make(chan []string)
	go func() {
		var problems []string
		for i := 0; i < 20; i++ {
			if code, _, err := other.get("/"); err != nil || code != http.StatusOK {
				problems = append(problems, "home page: "+http.StatusText(code)+" "+errString(err))
			}
		}
		status, id, body, _, err := other.Post("/games", ChessForm(1, ""))
		if err != nil || status != http.StatusSeeOther {
			otherDone <- append(problems, "new game: "+http.StatusText(status)+" "+errString(err)+" "+body)
			return
		}
		c, _, err := other.Dial(id)
		if err != nil {
			otherDone <- append(problems, "socket: "+err.Error())
			return
		}
		defer c.Close()
		if _, err := WaitFor(c, 20*time.Second, func(m Msg) bool { return m.Type == "state" }); err != nil {
			problems = append(problems, "first state: "+err.Error())
		}
		if err := Send(c, map[string]any{"type": "move", "move": "e2e4", "ply": 0}); err != nil {
			problems = append(problems, "move: "+err.Error())
		}
		if _, err := WaitFor(c, 20*time.Second, func(m Msg) bool { return m.Type == "state" && m.Ply == 2 }); err != nil {
			problems = append(problems, "the engine's reply: "+err.Error())
		}
		otherDone <- problems
	}()

	work := make(chan struct{})
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range work {
				attempt(target, "too many connections to this game from this browser")
			}
		}()
	}
	for range attempts {
		work <- struct{}{}
	}
	close(work)
	wg.Wait()
	for _, p := range <-otherDone {
		t.Errorf("the other visitor, during the flood: %s", p)
	}
	if len(held) != web.DefaultMaxSocketsPerGame || refused != attempts-web.DefaultMaxSocketsPerGame || len(failures) > 0 {
		t.Errorf("%d sockets held, %d refused with 429 in words, %d other outcomes (%.3q); want %d and %d",
			len(held), refused, len(failures), failures, web.DefaultMaxSocketsPerGame, attempts-web.DefaultMaxSocketsPerGame)
	}

	// More games: full sockets to each until the browser's cap.
	refused, failures = 0, nil
	for len(held) < web.DefaultMaxSocketsPerOwner {
		id := att.newGame(ChessForm(1, ""))
		for i := 0; i < web.DefaultMaxSocketsPerGame && len(held) < web.DefaultMaxSocketsPerOwner; i++ {
			attempt(id, "")
		}
	}
	if len(held) != web.DefaultMaxSocketsPerOwner || len(failures) > 0 || refused > 0 {
		t.Fatalf("%d sockets held over several games, %d refused, failures %q", len(held), refused, failures)
	}
	attempt(att.newGame(ChessForm(1, "")), "too many connections from this browser")
	if refused != 1 {
		t.Errorf("socket %d of one browser: %d refused, failures %q", web.DefaultMaxSocketsPerOwner+1, refused, failures)
	}
	if strings.Contains(s.log(), "too many open files") {
		t.Error("the server ran out of file descriptors")
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// A client that keeps every connection it opens: 1,010 WebSocket upgrades
// for one game, the refused ones never closed, and as many kept-alive
// page loads. Before the cap on
// connections per address the refused upgrades stayed open (keep-alive),
// the server ran out of descriptors ("accept4: too many open files") and
// half of another visitor's page loads timed out. Now the server hangs up
// on every refusal and on whatever one address opens beyond
// DefaultMaxConnsPerAddr, and the other visitor (another address) is
// served throughout.
func TestIdleConnectionFlood(t *testing.T) {
	const attempts = 1010
	s := startServer(t)
	att := newVisitor(t, s)
	id := att.newGame(ChessForm(1, ""))
	u, _ := url.Parse(s.URL())
	cookie := att.cookie()
	host := u.Host
	dialer := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}, Timeout: 5 * time.Second}
	var conns []net.Conn
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	for i := 0; i < 2*attempts; i++ {
		c, err := dialer.Dial("tcp", host)
		if err != nil {
			continue // the backlog is full: as good as refused
		}
		conns = append(conns, c)
		if i%2 == 0 {
			fmt.Fprintf(c, "GET /ws/game/%s HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
				"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: %s\r\n\r\n", id, host, cookie, s.URL())
		} else {
			fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", host)
		}
	}
	// Another visitor, from another address, while all of that is held.
	other := newVisitor(t, s)
	for i := 0; i < 20; i++ {
		if code, _, err := other.get("/"); err != nil || code != http.StatusOK {
			t.Errorf("the other visitor's page load %d: %d %v", i, code, err)
		}
	}
	oid := other.newGame(ChessForm(1, ""))
	c, _, err := other.Dial(oid)
	if err != nil {
		t.Fatalf("the other visitor's socket: %v", err)
	}
	defer c.Close()
	if _, err := WaitFor(c, 20*time.Second, func(m Msg) bool { return m.Type == "state" }); err != nil {
		t.Errorf("the other visitor's game: %v", err)
	}
	// How many of the attacker's connections the server still holds: each
	// is read until the server hangs up on it, and one it has not hung up
	// on is still open. Connections still in the listen backlog look open
	// until the server accepts and hangs up on them, which on a busy
	// machine can take a while: wait until the count is within the cap,
	// or for 20 s.
	deadline := time.Now().Add(20 * time.Second)
	hungUp := make(chan struct{}, len(conns))
	for _, c := range conns {
		c.SetReadDeadline(deadline)
		go func() {
			if _, err := io.Copy(io.Discard, c); err == nil || !isTimeout(err) {
				hungUp <- struct{}{}
			}
		}()
	}
	open := len(conns)
	stop := time.After(time.Until(deadline))
count:
	for open > web.DefaultMaxConnsPerAddr {
		select {
		case <-hungUp:
			open--
		case <-stop:
			break count
		}
	}
	if open > web.DefaultMaxConnsPerAddr {
		t.Errorf("the server holds %d of the attacker's connections, more than %d", open, web.DefaultMaxConnsPerAddr)
	}
	t.Logf("the attacker holds %d of %d connections", open, len(conns))
	if strings.Contains(s.log(), "too many open files") {
		t.Error("the server ran out of file descriptors")
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}
