package store

import (
	"os"
	"path/filepath"
	"testing"

	"knightwatch/pgtest"
)

// The store's tests run on both databases, each test once per backend as
// a subtest (onBoth), except those about SQLite itself (its WAL, its
// files, migrating an old SQLite file), which say so. The PostgreSQL
// subtests share the test binary's throwaway cluster (pgtest), a fresh
// database each; they fail, not skip, when it cannot start.

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// backend is one of the databases the store runs on.
type backend struct {
	name string
	// dsn returns what Open takes for a fresh, empty database.
	dsn func(t *testing.T) string
}

var (
	sqliteDB   = backend{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "kw.db") }}
	postgresDB = backend{"postgres", func(t *testing.T) string { return pgtest.DB(t) }}
	backends   = []backend{sqliteDB, postgresDB}
)

// onBoth runs test as a subtest on each backend.
func onBoth(t *testing.T, test func(t *testing.T, b backend)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { test(t, b) })
	}
}

// openTemp opens a store on a fresh database of b, closed when the test
// ends, and returns it with its DSN (for a second handle, as a restarted
// server would open).
func openTemp(t *testing.T, b backend) (*Store, string) {
	t.Helper()
	dsn := b.dsn(t)
	s, err := Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, dsn
}
