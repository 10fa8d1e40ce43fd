package store

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"knightwatch/store/storetest"
)

// TestReadsDoNotWaitForWriteLock: while another connection holds the write
// lock and one of the store's own writes is waiting for it (on SQLite up
// to the busy timeout, 5 s), the read methods still answer at once. With
// a single connection they queued behind the waiting write for seconds
// (issue 35).
func TestReadsDoNotWaitForWriteLock(t *testing.T) { onBoth(t, testReadsDoNotWaitForWriteLock) }

// holdWriteLock has another connection hold what blocks the store's
// writes to settings until the test ends: SQLite's write lock, or on
// PostgreSQL the settings table locked in EXCLUSIVE mode, which lets
// reads through.
func holdWriteLock(t *testing.T, bk backend, dsn string) {
	t.Helper()
	if bk.name == sqliteDB.name {
		storetest.HoldWriteLock(t, dsn)
		return
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) }) // ends the transaction: the lock goes
	if _, err := conn.Exec(ctx, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "LOCK TABLE settings IN EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
}

func testReadsDoNotWaitForWriteLock(t *testing.T, bk backend) {
	writing := make(chan struct{}, 1)
	path := bk.dsn(t)
	s, err := OpenWith(path, Options{Hooks: Hooks{Writing: func() {
		select {
		case writing <- struct{}{}:
		default:
		}
	}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	g := &Game{Owner: "o", Variant: "standard", StartFEN: "f", Human: White, Level: 1}
	if err := s.Games().CreateGame(g); err != nil {
		t.Fatal(err)
	}
	over := &Game{Owner: "o", Variant: "standard", StartFEN: "f", Human: Black, Level: 1, Status: StatusOver, Result: "1-0"}
	if err := s.Games().CreateGame(over); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSetting("k", "v"); err != nil {
		t.Fatal(err)
	}
	holdWriteLock(t, bk, path)
	for len(writing) > 0 {
		<-writing // the writes above
	}
	// A write of our own, waiting for the lock on the writer connection.
	wrote := make(chan error, 1)
	go func() { wrote <- s.SetSetting("k", "w") }()
	<-writing // it has the connection, or is about to take it

	const bound = time.Second // well under the 5 s busy timeout
	reads := []struct {
		name string
		fn   func() error
	}{
		{"GetGame", func() error { _, err := s.Games().GetGame(g.ID); return err }},
		{"GetOwnedGame", func() error { _, err := s.Games().GetOwnedGame(g.ID, "o"); return err }},
		{"LatestUnfinished", func() error { _, err := s.Games().LatestUnfinished("o"); return err }},
		{"FinishedGames", func() error { _, err := s.Games().FinishedGames("o", 10); return err }},
		{"UnfinishedGames", func() error { _, _, err := s.Games().UnfinishedGames("o", 10); return err }},
		{"getSetting", func() error { _, err := s.getSetting("k"); return err }},
		{"Users", func() error { _, err := s.API().Users(time.Time{}); return err }},
		{"RecentAPIGames", func() error { _, err := s.API().RecentAPIGames(StatusOver, 10); return err }},
		{"Leaderboard", func() error { _, err := s.API().Leaderboard(10); return err }},
	}
	for _, r := range reads {
		start := time.Now()
		err := r.fn()
		if d := time.Since(start); d > bound {
			t.Errorf("%s took %v with the write lock held elsewhere, want under %v", r.name, d, bound)
		}
		if err != nil {
			t.Errorf("%s: %v", r.name, err)
		}
	}
	select {
	case err := <-wrote:
		t.Logf("the waiting write ended early: %v", err)
	default:
	}
}

// TestReadersAreReadOnly: the read pool cannot write.
func TestReadersAreReadOnly(t *testing.T) { onBoth(t, testReadersAreReadOnly) }

func testReadersAreReadOnly(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	if err := s.rd.Exec("INSERT INTO settings (key, value) VALUES ('x', 'y')").Error; err == nil {
		t.Fatal("a write through the read pool succeeded")
	}
}

// TestSynchronousFull: every connection the store opens, the writer and
// each reader, runs with synchronous=FULL (2), so that an acknowledged
// commit survives a power cut. SQLite only (a pragma of SQLite's);
// TestPostgresSessions is PostgreSQL's.
func TestSynchronousFull(t *testing.T) {
	t.Setenv(SynchronousEnv, "")
	s, _ := openTemp(t, sqliteDB)
	ctx := context.Background()
	check := func(name string, conn *sql.Conn) {
		t.Helper()
		var v int
		if err := conn.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if v != 2 {
			t.Errorf("%s: PRAGMA synchronous = %d, want 2 (FULL)", name, v)
		}
	}
	w, err := s.db.DB()
	if err != nil {
		t.Fatal(err)
	}
	wc, err := w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	check("writer", wc)
	wc.Close()
	r, err := s.rd.DB()
	if err != nil {
		t.Fatal(err)
	}
	// Hold ReadConns connections at once so that each is a distinct one.
	var held []*sql.Conn
	for i := 0; i < ReadConns; i++ {
		c, err := r.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		check("reader", c)
	}
	for _, c := range held {
		c.Close()
	}
	if n := r.Stats().OpenConnections; n != ReadConns {
		t.Errorf("read pool has %d connections, want %d", n, ReadConns)
	}
}

// TestPostgresSessions: on PostgreSQL the writer commits with
// synchronous_commit on (a commit returns once it is on disk, so that an
// acknowledged move survives a crash of the database's machine), and
// every reader's session is read-only.
func TestPostgresSessions(t *testing.T) {
	s, _ := openTemp(t, postgresDB)
	ctx := context.Background()
	show := func(conn *sql.Conn, setting string) string {
		t.Helper()
		var v string
		if err := conn.QueryRowContext(ctx, "SHOW "+setting).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	w, err := s.db.DB()
	if err != nil {
		t.Fatal(err)
	}
	wc, err := w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := show(wc, "synchronous_commit"); got != "on" {
		t.Errorf("writer: synchronous_commit = %s, want on", got)
	}
	if got := show(wc, "default_transaction_read_only"); got != "off" {
		t.Errorf("writer: default_transaction_read_only = %s, want off", got)
	}
	wc.Close()
	r, err := s.rd.DB()
	if err != nil {
		t.Fatal(err)
	}
	// Hold ReadConns connections at once so that each is a distinct one.
	var held []*sql.Conn
	for i := 0; i < ReadConns; i++ {
		c, err := r.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		if got := show(c, "default_transaction_read_only"); got != "on" {
			t.Errorf("reader %d: default_transaction_read_only = %s, want on", i, got)
		}
	}
	for _, c := range held {
		c.Close()
	}
}
