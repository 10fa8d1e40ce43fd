package changefeed

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"knightwatch/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// recorder is a Handler that hands on what it is told.
type recorder struct {
	changes chan Change
	resyncs chan struct{}
}

func newRecorder() *recorder {
	return &recorder{changes: make(chan Change, 64), resyncs: make(chan struct{}, 64)}
}

func (r *recorder) Changed(c Change) { r.changes <- c }
func (r *recorder) Resync()          { r.resyncs <- struct{}{} }

// next waits for the next change; the deadline only bounds a failing test.
func (r *recorder) next(t *testing.T, what string) Change {
	t.Helper()
	select {
	case c := <-r.changes:
		return c
	case <-time.After(10 * time.Second):
		t.Fatalf("no change heard: %s", what)
		return Change{}
	}
}

// publisher commits changes the way the store does: NotifySQL inside the
// committing transaction.
type publisher struct {
	t    *testing.T
	conn *pgx.Conn
}

func newPublisher(t *testing.T, dsn string) *publisher {
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return &publisher{t, conn}
}

// commit sends payload in a transaction that commits, or rolls back.
func (p *publisher) commit(payload string, rollback bool) {
	p.t.Helper()
	ctx := context.Background()
	tx, err := p.conn.Begin(ctx)
	if err != nil {
		p.t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, NotifySQL, Channel, payload); err != nil {
		p.t.Fatal(err)
	}
	if rollback {
		err = tx.Rollback(ctx)
	} else {
		err = tx.Commit(ctx)
	}
	if err != nil {
		p.t.Fatal(err)
	}
}

// TestListenerHearsCommittedChanges: a change reaches the handler once
// its transaction commits, a rolled-back one never, a malformed payload
// is logged and skipped, and a notification on another channel is not
// the feed's.
func TestListenerHearsCommittedChanges(t *testing.T) {
	dsn := pgtest.DB(t)
	rec := newRecorder()
	var mu sync.Mutex
	var logged []string
	l, err := Listen(context.Background(), dsn, rec, Options{Logf: func(f string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, f)
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	pub := newPublisher(t, dsn)

	pub.commit(Change{"g_one", 1}.Payload(), false)
	if c := rec.next(t, "the first commit"); c != (Change{"g_one", 1}) {
		t.Errorf("heard %+v, want g_one at 1", c)
	}
	pub.commit(Change{"g_rolled", 2}.Payload(), true)
	pub.commit("not a change", false)
	if _, err := pub.conn.Exec(context.Background(), "SELECT pg_notify('another_channel', 'g_other 3')"); err != nil {
		t.Fatal(err)
	}
	pub.commit(Change{"g_two", 5}.Payload(), false)
	// Notifications arrive in commit order: whatever the rolled-back,
	// malformed or foreign ones did, it is done by the time g_two arrives.
	if c := rec.next(t, "the commit after a rollback and a malformed payload"); c != (Change{"g_two", 5}) {
		t.Errorf("heard %+v, want g_two at 5 (a rolled-back or malformed change was handed on)", c)
	}
	mu.Lock()
	n := len(logged)
	mu.Unlock()
	if n != 1 {
		t.Errorf("logged %d lines, want 1 (the malformed payload)", n)
	}
}

// TestListenerResyncsAfterACut: when the database ends the listener's
// connection, the listener connects again, says Resync, and hears changes
// again.
func TestListenerResyncsAfterACut(t *testing.T) {
	dsn := pgtest.DB(t)
	rec := newRecorder()
	l, err := Listen(context.Background(), dsn, rec, Options{MinBackoff: time.Millisecond, MaxBackoff: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	pub := newPublisher(t, dsn)
	var cut int
	err = pub.conn.QueryRow(context.Background(),
		`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE 'LISTEN%'`).Scan(&cut)
	if err != nil || cut != 1 {
		t.Fatalf("ending the listener's connection: %d ended, %v", cut, err)
	}
	select {
	case <-rec.resyncs:
	case <-time.After(10 * time.Second):
		t.Fatal("no Resync after the connection was ended")
	}
	pub.commit(Change{"g_after", 9}.Payload(), false)
	if c := rec.next(t, "a commit after the reconnection"); c != (Change{"g_after", 9}) {
		t.Errorf("heard %+v, want g_after at 9", c)
	}
}

// TestListenFailsWithoutADatabase: Listen says why when it cannot
// connect, rather than listening to nothing.
func TestListenFailsWithoutADatabase(t *testing.T) {
	dsn := pgtest.DB(t)
	bad := strings.Replace(dsn, "/kw_", "/no_such_", 1)
	if _, err := Listen(context.Background(), bad, newRecorder(), Options{}); err == nil || !strings.Contains(err.Error(), "changefeed: connect") {
		t.Fatalf("Listen on %s: %v, want a connect error", bad, err)
	}
}

// TestCloseStopsListening: Close returns once the goroutine has ended,
// also while it is waiting to connect again.
func TestCloseStopsListening(t *testing.T) {
	dsn := pgtest.DB(t)
	rec := newRecorder()
	l, err := Listen(context.Background(), dsn, rec, Options{MinBackoff: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	pub := newPublisher(t, dsn)
	if _, err := pub.conn.Exec(context.Background(),
		`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE 'LISTEN%'`); err != nil {
		t.Fatal(err)
	}
	l.Close() // waiting an hour to connect again: Close must not wait for it
	select {
	case <-rec.resyncs:
		t.Error("Resync after Close")
	default:
	}
}
