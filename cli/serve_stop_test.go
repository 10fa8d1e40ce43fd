package cli

import (
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"knightwatch/e2e"
)

// TestStopWithConnectionsHeld: SIGTERM stops the server cleanly (exit 0,
// "Knightwatch stopped") even while a client holds connections that never
// send a request, which the HTTP server's shutdown cannot wait out: they
// are cut after the grace. It exited 1 before.
func TestStopWithConnectionsHeld(t *testing.T) {
	addr, err := e2e.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(childEnv, "1") // the server is this binary (TestMain)
	srv, err := e2e.StartServer(exe, filepath.Join(t.TempDir(), "kw.db"), addr, filepath.Join(t.TempDir(), "server.log"), "--analysis-nodes", "0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Kill() })
	for range 3 {
		c, err := net.Dial("tcp", addr)
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
