package cli

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"time"
)

// checkDebugAddr accepts only a loopback IP address with a port (such as
// 127.0.0.1:6060 or [::1]:6060) for serve --debug-addr: the endpoint asks
// for no session, so it must not be reachable from another machine. A
// host name is refused too, since it could resolve to anything.
func checkDebugAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--debug-addr %q: %v", addr, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("--debug-addr %q: must be a loopback IP address and port, such as 127.0.0.1:6060", addr)
	}
	return nil
}

// debugHandler serves GET /debug/goroutines: the number of goroutines of
// the process, as a decimal number and a newline. The load tests under
// bench/ read it beside the memory and descriptors /proc gives them; only
// the runtime knows its goroutines.
func debugHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /debug/goroutines", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "%d\n", runtime.NumGoroutine())
	})
	return mux
}

// startDebugServer listens on addr (checked by checkDebugAddr) and serves
// debugHandler until the returned stop is called.
// Serving errors go to stderr.
func startDebugServer(addr string, stderr io.Writer) (stop func(), err error) {
	if err := checkDebugAddr(addr); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--debug-addr: %w", err)
	}
	hs := &http.Server{Handler: debugHandler(), ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(stderr, "debug endpoint:", err)
		}
	}()
	return func() { hs.Close(); <-done }, nil
}
