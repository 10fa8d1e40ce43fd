package chenserver

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// startServer runs srv on a random loopback port until the test ends.
func startServer(t *testing.T, srv *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// tcpCommand is what chenclient does: connect, send one line, read one
// line, and check the server then closes the connection.
func tcpCommand(t *testing.T, addr, cmd string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.WriteString(c, cmd+"\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	line, err := br.ReadString('\n')
	if err != nil {
		t.Fatalf("%q: %v", cmd, err)
	}
	if rest, err := br.ReadString('\n'); err != io.EOF || rest != "" {
		t.Fatalf("%q: connection not closed after the response (%q, %v)", cmd, rest, err)
	}
	return strings.TrimSuffix(line, "\n")
}

func TestTCPRoundTrip(t *testing.T) {
	addr := startServer(t, &Server{Session: NewSession(&quickThinker{})})
	steps := []struct{ cmd, want string }{
		{"status", "* rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{"move e4", "OK 1"},
		{"status\r", "* rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"},
		{"history pgn", "OK 1 e4"},
		{"bogus", "UNKNOWN_COMMAND"},
		{"GET /status HTTP/2", "UNKNOWN_COMMAND"}, // not an HTTP/1.x request line: a plain command
	}
	for _, st := range steps {
		if got := tcpCommand(t, addr, st.cmd); got != st.want {
			t.Fatalf("%q: got %q, want %q", st.cmd, got, st.want)
		}
	}
}

// TestTCPNoNewlineAtEOF: a client that half-closes after its command
// without a newline still gets an answer.
func TestTCPNoNewlineAtEOF(t *testing.T) {
	addr := startServer(t, &Server{Session: NewSession(nil)})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "move d4")
	c.(*net.TCPConn).CloseWrite()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	got, err := io.ReadAll(c)
	if err != nil || string(got) != "OK 1\n" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestHTTPRoundTrip(t *testing.T) {
	addr := startServer(t, &Server{Session: NewSession(nil)})
	client := &http.Client{Timeout: 30 * time.Second}
	steps := []struct{ path, want string }{
		{"/status", "* rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{"/move+e4", "OK 1"},
		{"/move%20e5+Nf3", "OK 2"},
		{"/history+pgn", "OK 3 e4 e5 Nf3"},
		{"/test+Nc6%2B", "OK b8c6 Nc6"},
		{"/move+Zz9", "BAD_MOVE Zz9"},
		{"/legal+tuna", "BAD_FORMAT"},
		{"/", "CANNOT_PARSE"},
		{"/favicon.ico", "UNKNOWN_COMMAND"},
		{"/history", "OK 3 e2e4 e7e5 g1f3"},
	}
	for _, st := range steps {
		resp, err := client.Get("http://" + addr + st.path)
		if err != nil {
			t.Fatalf("GET %s: %v", st.path, err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/plain" {
			t.Fatalf("GET %s: status %d, type %q", st.path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if string(body) != st.want+"\r\n" {
			t.Fatalf("GET %s: body %q, want %q", st.path, body, st.want+"\r\n")
		}
	}
}

// TestHTTP10Raw checks the exact reply to a minimal HTTP/1.0 request.
func TestHTTP10Raw(t *testing.T) {
	addr := startServer(t, &Server{Session: NewSession(nil)})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(c, "GET /move+e4 HTTP/1.0\r\nHost: x\r\n\r\n")
	got, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	if !strings.HasPrefix(s, "HTTP/1.0 200 OK\r\nDate: ") || !strings.HasSuffix(s, "\r\nContent-Type: text/plain\r\nContent-Length: 6\r\nConnection: close\r\n\r\nOK 1\r\n") {
		t.Fatalf("reply %q", s)
	}
}

// TestConcurrentClients: many clients at once, each repeatedly playing two
// moves in one `move`, looking at the history and taking two moves back.
// Commands are serialised and all-or-nothing, so no client ever sees half
// a `move`, every answer is one of the possible ones, and the final history
// is exactly the successful moves minus the successful undos.
func TestConcurrentClients(t *testing.T) {
	s := NewSession(nil)
	addr := startServer(t, &Server{Session: s})
	const clients, rounds = 8, 10
	allowed := map[string]map[string]int{ // command -> answer -> effect in plies
		"move e4 e5": {"OK 2": 2, "BAD_MOVE e4": 0},
		"history":    {"OK 0": 0, "OK 2 e2e4 e7e5": 0},
		"undo 2":     {"OK": -2, "BAD_NUM_TURNS": 0},
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		plies int
		errs  []string
	)
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				for _, cmd := range []string{"move e4 e5", "history", "undo 2"} {
					c, err := net.Dial("tcp", addr)
					if err != nil {
						mu.Lock()
						errs = append(errs, err.Error())
						mu.Unlock()
						return
					}
					c.SetDeadline(time.Now().Add(30 * time.Second))
					io.WriteString(c, cmd+"\n")
					line, err := bufio.NewReader(c).ReadString('\n')
					c.Close()
					line = strings.TrimSuffix(line, "\n")
					effect, ok := allowed[cmd][line]
					mu.Lock()
					if err != nil || !ok {
						errs = append(errs, fmt.Sprintf("%s: %q %v", cmd, line, err))
					}
					plies += effect
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		t.Error(e)
	}
	got, _ := s.Execute("history")
	want := map[int]string{0: "OK 0", 2: "OK 2 e2e4 e7e5"}[plies]
	if got != want {
		t.Fatalf("history %q after a net %d plies", got, plies)
	}
}

// TestOversizeLine: a line over the limit is answered LINE_TOO_LONG after
// reading no more than the limit into memory, changes nothing, and the
// server keeps serving.
func TestOversizeLine(t *testing.T) {
	s := NewSession(nil)
	addr := startServer(t, &Server{Session: s, MaxLine: 64})
	for _, tc := range []struct {
		name string
		data string
	}{
		{"long line", "move " + strings.Repeat("e4 ", 1000) + "\n"},
		{"endless line", strings.Repeat("x", 200000)},
		{"long HTTP header", "GET /move+e4 HTTP/1.1\r\nX: " + strings.Repeat("y", 500) + "\r\n\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(30 * time.Second))
			go io.WriteString(c, tc.data) // may fail once the server gives up
			got, _ := bufio.NewReader(c).ReadString('\n')
			if !strings.Contains(got, RespLineTooLong) && !strings.HasPrefix(got, "HTTP/1.1 200") {
				t.Fatalf("got %q", got)
			}
			if h := tcpCommand(t, addr, "history"); h != "OK 0" {
				t.Fatalf("state changed: %q", h)
			}
		})
	}
}

// TestOversizeLineStdio: in -s mode the long line is skipped and the next
// line is served.
func TestOversizeLineStdio(t *testing.T) {
	in := strings.NewReader(strings.Repeat("x", 100) + "\nmove e4\n" + strings.Repeat("y", 50) + "\nhistory")
	var out strings.Builder
	if err := ServeLines(NewSession(nil), in, &out, 32); err != nil {
		t.Fatal(err)
	}
	want := "LINE_TOO_LONG\nOK 1\nLINE_TOO_LONG\nOK 1 e2e4\n"
	if out.String() != want {
		t.Fatalf("got %q, want %q", out.String(), want)
	}
}

// TestSlowClientDoesNotBlock: a client that connects and never finishes
// its line does not hold up others, and is cut off by the read deadline.
func TestSlowClientDoesNotBlock(t *testing.T) {
	addr := startServer(t, &Server{Session: NewSession(nil), ReadTimeout: 500 * time.Millisecond})
	slow, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	io.WriteString(slow, "move e") // no newline: still "typing"

	// Served while the slow client is still connected.
	if got := tcpCommand(t, addr, "move d4"); got != "OK 1" {
		t.Fatalf("fast client: %q", got)
	}
	slow.SetReadDeadline(time.Now().Add(30 * time.Second))
	n, err := slow.Read(make([]byte, 16))
	if n != 0 || err == nil {
		t.Fatalf("slow client got %d bytes, %v; want the connection closed", n, err)
	}
	if got := tcpCommand(t, addr, "history"); got != "OK 1 d2d4" {
		t.Fatalf("history %q: the slow client's half line was executed", got)
	}
}

// TestBusy: beyond MaxConns a connection is told BUSY at once.
func TestBusy(t *testing.T) {
	addr := startServer(t, &Server{Session: NewSession(nil), MaxConns: 1, ReadTimeout: 5 * time.Second})
	hold, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	if got := tcpCommandNoClose(t, addr, "status"); got != RespBusy {
		t.Fatalf("got %q, want %s", got, RespBusy)
	}
	io.WriteString(hold, "history\n")
	hold.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, _ := bufio.NewReader(hold).ReadString('\n')
	if line != "OK 0\n" {
		t.Fatalf("held connection: %q", line)
	}
}

func tcpCommandNoClose(t *testing.T, addr, cmd string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(c, cmd+"\n")
	line, _ := bufio.NewReader(c).ReadString('\n')
	return strings.TrimSuffix(line, "\n")
}

// TestExitStopsServer: `exit` answers OK and Serve returns.
func TestExitStopsServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{Session: NewSession(nil)}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	if got := tcpCommand(t, ln.Addr().String(), "exit"); got != "OK" {
		t.Fatalf("exit: %q", got)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return after exit")
	}
}

func TestParseHTTPRequestLine(t *testing.T) {
	tests := []struct {
		line  string
		ok    bool
		minor byte
		uri   string
	}{
		{"GET /status HTTP/1.1\r\n", true, '1', "status"},
		{"GET /move+e4 HTTP/1.0\n", true, '0', "move+e4"},
		{"GET / HTTP/1.1\r\n", true, '1', ""},
		{"GET /status HTTP/1.2\r\n", false, 0, ""},
		{"POST /status HTTP/1.1\r\n", false, 0, ""},
		{"GET status HTTP/1.1\r\n", false, 0, ""},
		{"GET /\n", false, 0, ""},
		{"status\n", false, 0, ""},
	}
	for _, tt := range tests {
		ok, minor, uri := parseHTTPRequestLine([]byte(tt.line))
		if ok != tt.ok || minor != tt.minor || string(uri) != tt.uri {
			t.Errorf("%q: got %v %q %q", tt.line, ok, minor, uri)
		}
	}
}

func TestURLDecode(t *testing.T) {
	tests := []struct{ in, want string }{
		{"move+e4", "move e4"},
		{"move%20e4", "move e4"},
		{"test+Qh5%23", "test Qh5#"},
		{"test+O-O%2b", "test O-O+"},
		{"bad%2", ""},
		{"bad%g1", ""},
		{"bad%", ""},
		{"tab\there", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := urlDecode([]byte(tt.in)); got != tt.want {
			t.Errorf("urlDecode(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
