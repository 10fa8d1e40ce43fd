package cli

import (
	"net"
	"path/filepath"
	"testing"
	"time"
)

// TestStopWithConnectionsHeld: SIGTERM stops the server cleanly (exit 0,
// "Knightwatch stopped") even while a client holds connections that never
// send a request, which the HTTP server's shutdown cannot wait out: they
// are cut after the grace. It exited 1 before.
func TestStopWithConnectionsHeld(t *testing.T) {
	srv := startChildServer(t, filepath.Join(t.TempDir(), "kw.db"))
	for range 3 {
		c, err := net.Dial("tcp", srv.Addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	// Stop returns an error when the process exits with anything but 0.
	if err := srv.Stop(shutdownGrace + 10*time.Second); err != nil {
		t.Fatal(err)
	}
}
