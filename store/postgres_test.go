package store

import (
	"testing"

	"knightwatch/pgtest"
)

// TestServersMigrateAtOnce: several servers started at once on a new
// database each migrate it, one after another, and all open; without the
// advisory lock two of them creating the same table fail.
func TestServersMigrateAtOnce(t *testing.T) {
	for round := range 3 {
		dsn := pgtest.DB(t)
		const servers = 4
		errs := make(chan error, servers)
		stores := make(chan *Store, servers)
		for range servers {
			go func() {
				s, err := Open(dsn)
				errs <- err
				stores <- s
			}()
		}
		for range servers {
			if err := <-errs; err != nil {
				t.Errorf("round %d: a server starting beside %d others: %v", round, servers-1, err)
			}
			if s := <-stores; s != nil {
				s.Close()
			}
		}
	}
}
