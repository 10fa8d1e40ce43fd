// Package storetest holds test helpers around the store's SQLite file
// that more than one package's tests need. It imports no package of ours.
package storetest

import (
	"context"
	"database/sql"
	"sync"
	"testing"

	_ "github.com/mattn/go-sqlite3" // the "sqlite3" driver, for a second process's connection
)

// HoldWriteLock takes SQLite's write lock on the database at path from a
// connection of its own, the way another process (a sqlite3 shell, a
// backup) would: BEGIN IMMEDIATE plus an insert into settings, not
// committed. The lock is held until release is called (at most once) or
// the test ends.
func HoldWriteLock(t testing.TB, path string) (release func()) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "INSERT INTO settings (key, value) VALUES ('held', 'x')"); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			conn.ExecContext(ctx, "ROLLBACK")
			conn.Close()
			db.Close()
		})
	}
	t.Cleanup(release)
	return release
}
