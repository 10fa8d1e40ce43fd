package cli

import (
	"os"
	"path/filepath"
	"testing"

	"knightwatch/e2e"
	"knightwatch/pgtest"
)

// childEnv, set to 1, makes the test binary run the command line its
// arguments give (Run) instead of the tests: the end-to-end tests start
// it as `serve`, a process of its own that they can kill -9 and start
// again, without building the binary.
const childEnv = "KNIGHTWATCH_CLI_TEST_CHILD"

// TestMain runs the child when asked to, else the tests, on a throwaway
// PostgreSQL cluster started by the first test that needs one.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(Run(repoAssets, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(pgtest.Main(m))
}

// startChildServer starts this test binary as `serve` (TestMain) on
// database db and a free loopback port, with the reviews off; it is
// killed when the test ends.
func startChildServer(t *testing.T, db string, extra ...string) *e2e.Server {
	t.Helper()
	addr, err := e2e.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(childEnv, "1")
	srv, err := e2e.StartServer(exe, db, addr, filepath.Join(t.TempDir(), "server.log"), append([]string{"--analysis-nodes", "0"}, extra...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Kill() })
	return srv
}
