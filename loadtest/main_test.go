package loadtest

import (
	"os"
	"testing"

	"knightwatch/pgtest"
)

// The site's crash test needs PostgreSQL: a throwaway cluster for the
// package's tests.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
