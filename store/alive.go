package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// A server marks, every second or so, that it is running on this
// database. On SQLite the mark is the modification time of a small file
// beside it ("<database>-alive"), not a row, so that keeping it up never
// queues behind a commit, holds the one writer, or syncs the disk. On
// PostgreSQL, where there is no file beside the database, it is the
// setting aliveKey, written on a connection of its own with
// synchronous_commit off (postgres.go), for the same three reasons. After a
// kill -9 the next server reads when the last one was last alive: the
// clocks that were running then are charged up to that moment (the
// thinking before the crash), and not for the time the server was down.

// aliveKey is the setting that holds the alive mark on PostgreSQL.
const aliveKey = "server_alive"

// MarkAlive records that a server on this database is running at t.
func (s *Store) MarkAlive(t time.Time) error {
	if s.pg {
		err := s.alive.Exec("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
			aliveKey, t.UTC().Format(time.RFC3339Nano)).Error
		if err != nil {
			return fmt.Errorf("store: mark alive: %w", err)
		}
		return nil
	}
	err := os.Chtimes(s.alivePath, t, t)
	if errors.Is(err, fs.ErrNotExist) {
		var f *os.File
		if f, err = os.OpenFile(s.alivePath, os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			f.Close()
			err = os.Chtimes(s.alivePath, t, t)
		}
	}
	if err != nil {
		return fmt.Errorf("store: mark alive: %w", err)
	}
	return nil
}

// LastAlive returns when a server on this database was last marked alive,
// and false when none ever was (or the mark cannot be read).
func (s *Store) LastAlive() (time.Time, bool) {
	if s.pg {
		v, err := s.getSetting(aliveKey)
		if err != nil {
			return time.Time{}, false
		}
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			return time.Time{}, false
		}
		return t, true
	}
	fi, err := os.Stat(s.alivePath)
	if err != nil {
		return time.Time{}, false
	}
	return fi.ModTime(), true
}
