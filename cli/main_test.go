package cli

import (
	"os"
	"testing"

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
