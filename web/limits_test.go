package web

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// One browser cannot hold more than the configured number of sockets to
// one game, nor in all; the one over the limit is refused with 429 and a
// sentence, and closing a socket frees its place.
func TestSocketLimits(t *testing.T) {
	tests := []struct {
		name            string
		perGame, perOwn int
		games           int // games the browser opens sockets to, round robin
		sockets         int // sockets opened before the one that must fail
		wantText        string
	}{
		{"per game", 3, 10, 1, 3, "to this game"},
		{"per owner", 3, 4, 2, 4, "from this browser (at most 4)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			leaving, left := notify()
			e := newEnv(t, envOpts{noEngine: true, maxSocketsPerGame: tc.perGame, maxSocketsPerOwner: tc.perOwn,
				socketHooks: Hooks{Left: leaving}})
			c := e.browser()
			var ids []string
			for range tc.games {
				ids = append(ids, e.newGame(c, form("white", "1", "standard", "none")))
			}
			var open []*wsConn
			for i := range tc.sockets {
				w := e.mustDial(c, ids[i%len(ids)])
				w.state()
				open = append(open, w)
			}
			_, resp, err := e.dial(c, ids[0])
			if err == nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests {
				t.Fatalf("socket over the limit: err %v, resp %v", err, resp)
			}
			body, _ := io.ReadAll(resp.Body)
			if !strings.Contains(string(body), tc.wantText) {
				t.Errorf("refusal %q, want it to say %q", body, tc.wantText)
			}
			// Someone else is not affected.
			other := e.browser()
			oid := e.newGame(other, form("white", "1", "standard", "none"))
			e.mustDial(other, oid).state()
			// Closing one frees its place.
			open[0].conn.Close()
			await(t, "the closed socket to free its place", left)
			w, _, err := e.dial(c, ids[0])
			if err != nil {
				t.Fatalf("place not freed: %v", err)
			}
			w.state()
		})
	}
}

// A request body trickled in a byte at a time is cut off by the read
// timeout, and a form body over the cap is refused, on every POST route;
// WebSockets outlive both timeouts.
func TestSlowAndLargeBodies(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true, requestReadTimeout: 300 * time.Millisecond, requestWriteTimeout: 300 * time.Millisecond})
	host := strings.TrimPrefix(e.ts.URL, "http://")
	for _, path := range []string{"/games", "/account/signin", "/account/signup", "/bots/invite", "/replay", "/api/users/"} {
		t.Run("slow "+path, func(t *testing.T) {
			conn, err := net.Dial("tcp", host)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n", path, host)
			start := time.Now()
			closed := make(chan struct{})
			go func() {
				defer close(closed)
				io.Copy(io.Discard, conn) // until the server hangs up
			}()
			for i := 0; ; i++ {
				select {
				case <-closed:
					if d := time.Since(start); d > 3*time.Second {
						t.Errorf("connection held %v", d)
					}
					return
				case <-time.After(100 * time.Millisecond): // time itself is what is tested: a byte every 100 ms, a body slower than the read timeout
				}
				if time.Since(start) > 5*time.Second {
					t.Fatal("slow body still open after 5 s")
				}
				conn.Write([]byte("a"))
			}
		})
	}
	for _, path := range []string{"/games", "/account/signin", "/account/signup"} {
		t.Run("large "+path, func(t *testing.T) {
			c := e.browser()
			resp, err := c.Post(e.ts.URL+path, "application/x-www-form-urlencoded", strings.NewReader("username="+strings.Repeat("a", 64<<10)))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode < 400 {
				t.Errorf("64 KiB form: %s", resp.Status)
			}
		})
	}
	t.Run("websocket outlives the timeouts", func(t *testing.T) {
		c := e.browser()
		id := e.newGame(c, form("white", "1", "standard", "none"))
		w := e.mustDial(c, id)
		w.state()
		// time itself is what is tested: the socket lives on past both 300 ms timeouts
		time.Sleep(800 * time.Millisecond)
		if st := w.sync(); st == nil {
			t.Fatal("no state")
		}
	})
}

// serve's http.Server has every timeout that does not cut WebSockets.
func TestNewHTTPServer(t *testing.T) {
	hs := NewHTTPServer(http.NotFoundHandler())
	if hs.ReadHeaderTimeout <= 0 || hs.IdleTimeout <= 0 || hs.ReadTimeout != 0 || hs.WriteTimeout != 0 {
		t.Errorf("timeouts %v %v %v %v", hs.ReadHeaderTimeout, hs.IdleTimeout, hs.ReadTimeout, hs.WriteTimeout)
	}
	// A request whose headers never finish is dropped.
	hs.ReadHeaderTimeout = 200 * time.Millisecond
	ts := httptest.NewUnstartedServer(hs.Handler)
	ts.Config = hs
	ts.Start()
	defer ts.Close()
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprint(conn, "GET / HTTP/1.1\r\nHost: x\r\n")
	conn.SetReadDeadline(time.Now().Add(3 * time.Second))
	_, err = bufio.NewReader(conn).ReadString('\n')
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("unfinished headers still open after 3 s")
	}
}
