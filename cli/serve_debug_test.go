package cli

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// --debug-addr takes loopback IP addresses only: the endpoint has no
// session check, so anything another machine could reach is refused.
func TestCheckDebugAddr(t *testing.T) {
	tests := []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:6060", true},
		{"127.0.0.2:0", true},
		{"[::1]:6060", true},
		{":6060", false},
		{"0.0.0.0:6060", false},
		{"[::]:6060", false},
		{"192.168.1.5:6060", false},
		{"localhost:6060", false}, // a name could resolve to anything
		{"example.org:6060", false},
		{"127.0.0.1", false}, // no port
		{"", false},
	}
	for _, tc := range tests {
		err := checkDebugAddr(tc.addr)
		if (err == nil) != tc.ok {
			t.Errorf("checkDebugAddr(%q) = %v, want ok=%v", tc.addr, err, tc.ok)
		}
	}
}

// serve with a non-loopback --debug-addr stops before opening anything.
func TestServeRefusesPublicDebugAddr(t *testing.T) {
	var out, errOut bytes.Buffer
	got := runMain([]string{"serve", "--db", t.TempDir() + "/kw.db", "--addr", "127.0.0.1:0", "--debug-addr", "0.0.0.0:0"}, strings.NewReader(""), &out, &errOut)
	if got != 1 || !strings.Contains(errOut.String(), "--debug-addr") {
		t.Fatalf("status %d, stderr %q; want 1 and a message naming --debug-addr", got, errOut.String())
	}
}

// The endpoint answers the goroutine count, and nothing else.
func TestDebugHandler(t *testing.T) {
	h := debugHandler()
	tests := []struct {
		method, path string
		status       int
	}{
		{"GET", "/debug/goroutines", http.StatusOK},
		{"POST", "/debug/goroutines", http.StatusMethodNotAllowed},
		{"GET", "/debug/pprof/", http.StatusNotFound},
		{"GET", "/", http.StatusNotFound},
	}
	for _, tc := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		if rec.Code != tc.status {
			t.Errorf("%s %s: status %d, want %d", tc.method, tc.path, rec.Code, tc.status)
			continue
		}
		if tc.status == http.StatusOK {
			n, err := strconv.Atoi(strings.TrimSpace(rec.Body.String()))
			if err != nil || n < 1 {
				t.Errorf("%s %s: body %q, want a goroutine count", tc.method, tc.path, rec.Body.String())
			}
		}
	}
}

// startDebugServer serves on the address it was given until stopped.
func TestStartDebugServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	stop, err := startDebugServer(addr, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(fmt.Sprintf("http://%s/debug/goroutines", addr))
	if err != nil {
		stop()
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	stop()
	if resp.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) == "" {
		t.Fatalf("status %d, body %q", resp.StatusCode, body)
	}
	if _, err := http.Get(fmt.Sprintf("http://%s/debug/goroutines", addr)); err == nil {
		t.Fatal("the endpoint still answers after stop")
	}
}
