// Package store keeps Knightwatch's games and settings in SQLite through
// gorm. It knows nothing of HTTP: the web package decides what a game means
// and calls store only to make it durable.
//
// # Facets
//
// A Store is the shared core: it opens and closes the connections, keeps
// the settings (settings.go) and the alive mark (alive.go), runs the
// write hooks and the transactions. What is kept for each concern is a
// facet of it, a small type that holds the Store, so that every facet
// reads and writes through the same connections, hooks and one writer:
//
//   - Store.Games: the games people play in the browser, chess against
//     the engine (games.go, watch.go, openings.go) and Reconnaissance
//     Chess (recon.go), with the unfinished and untouched games of both
//     (unfinished.go, untouched.go); used by play, web, experience and
//     review (a game by its ID);
//   - Store.API: the HTTP API's accounts (users.go), games and
//     invitations (apigames.go) and ratings (ratings.go); used by rbcapi
//     and web;
//   - Store.Learning: the engine's experience (experience.go,
//     experience_notes.go); used by experience and web;
//   - Store.Reviews: the reviews of finished games (analysis.go); used
//     by review and web;
//   - Store.Presence and Store.Leases: one server's presence in the
//     games played in person and its leases of the API's games, on a site
//     of several servers (presence.go); used by play and rbcapi.
//
// A consumer names only the facets it uses, and no type carries every
// table's methods. The game rows' reading, writing and ownership are
// written once for all three kinds (rows.go).
//
// # PostgreSQL
//
// Open also takes a PostgreSQL URL (postgres://… or postgresql://…; the
// database must exist) instead of a SQLite file's path, and then keeps
// the same tables there, made by the same AutoMigrate of the same
// structs (postgres.go). What differs: the few statements of each that
// test Store.pg (the untouched games, the alive mark, which is a row of
// settings there instead of a file); times, which PostgreSQL keeps to the
// microsecond, so the times the store writes itself are cut to it, and a
// time a caller writes reads back cut to it; and the pools, of the same
// shape for now (one writer, serialised in the process; ReadConns
// read-only readers), which several servers on one database will need
// more than. The tests run on both (backends_test.go), PostgreSQL on a
// throwaway cluster (package pgtest); see docs/scale.md.
package store

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// ErrNotFound is returned when a game does not exist (or belongs to someone else).
var ErrNotFound = errors.New("store: not found")

// ErrConflict is wrapped by a game record's save made from a revision the
// database no longer has: another server committed the game first, and
// nothing was written.
var ErrConflict = errors.New("store: the game was committed elsewhere since it was read")

// Store is the database handle. It is safe for concurrent use.
//
// It holds two pools on the same database: db, a single read-write
// connection for every write and read-modify-write transaction, and rd,
// several read-only connections for the plain reads (home page lists, game
// pages, PGN, replays, API listings). In SQLite's WAL mode, as in
// PostgreSQL, readers never wait for a writer, so a page load is not
// queued behind a move's commit or behind a write lock held by another
// process (a sqlite3 shell, a backup). On PostgreSQL the alive marks have
// a connection of their own besides (openPostgres).
type Store struct {
	db *gorm.DB // the writer: one connection
	rd *gorm.DB // the readers: read-only connections
	// expCap is the experience table's row cap (SetExperienceCap).
	expCap experienceCap
	// pg is set on PostgreSQL (postgres.go), where a few statements
	// differ.
	pg bool
	// alivePath is the file whose time says when a server last ran on a
	// SQLite database; on PostgreSQL alive is the connection that writes
	// that moment into settings instead (alive.go).
	alivePath string
	alive     *gorm.DB
	// hooks are Options.Hooks.
	hooks Hooks
}

// ReadConns is the number of read-only connections a Store keeps.
const ReadConns = 4

// SynchronousEnv names the environment variable that overrides the
// synchronous pragma (FULL or NORMAL) for benchmarking; see SynchronousMode.
const SynchronousEnv = "KNIGHTWATCH_SQLITE_SYNCHRONOUS"

// SynchronousMode is the synchronous pragma the store uses: FULL, unless
// SynchronousEnv says NORMAL. In WAL mode NORMAL does not sync the WAL on
// each commit, so a power cut can lose the last commits, that is moves
// already acknowledged to the player; FULL syncs the WAL before a commit
// returns. NORMAL exists only so the ack latency benchmark can compare.
func SynchronousMode() string {
	if strings.EqualFold(os.Getenv(SynchronousEnv), "NORMAL") {
		return "NORMAL"
	}
	return "FULL"
}

// Options configure OpenWith; the zero value is Open's.
type Options struct {
	// Hooks let tests see the store's writes; nil fields do nothing.
	Hooks Hooks
}

// Hooks are what tests see of the store's writes, so that they wait for a
// write rather than for time. Each runs in the writing goroutine, with no
// lock of the store's held (a caller's may be: a game's host commits under
// its own); it must return at once and must not write to the store.
type Hooks struct {
	// Writing runs as a write statement is about to go to the database,
	// where it may wait for SQLite's write lock (held by another process)
	// or for the store's one writer connection.
	Writing func()
	// Wrote runs after each write statement with its error (nil: done),
	// and after each transaction with the transaction's: once it has run
	// with nil, what was written can be read.
	Wrote func(err error)
}

// Open opens the database dsn names, migrates its schema and opens the
// read-only pool: a SQLite file's path (created if needed, switched to WAL
// with a busy timeout and synchronous=FULL), or a PostgreSQL URL,
// postgres://… or postgresql://… (IsPostgres; the database must exist).
func Open(dsn string) (*Store, error) { return OpenWith(dsn, Options{}) }

// OpenWith is Open with o.
func OpenWith(dsn string, o Options) (*Store, error) {
	if dsn == "" {
		return nil, errors.New("store: empty database path")
	}
	open := openSQLite
	if IsPostgres(dsn) {
		open = openPostgres
	}
	st, err := open(dsn)
	if err != nil {
		return nil, err
	}
	st.hooks = o.Hooks
	if err := st.registerHooks(); err != nil {
		st.Close()
		return nil, fmt.Errorf("store: %w", err)
	}
	st.Learning().forgetCount()
	return st, nil
}

// models are the tables, migrated the same way on both databases.
var models = []any{&Game{}, &ReconGame{}, &Setting{}, &User{}, &Session{}, &APIGame{}, &Invitation{}, &Rating{}, &Experience{}, &ExperienceGame{}, &Analysis{}, &AnalysisPly{}, &PresenceRow{}, &LeaseRow{}, &LearnSession{}, &Puzzle{}, &PuzzleAttempt{}, &PuzzlePlayer{}, &PuzzleScan{}, &SavedAnalysis{}}

// openSQLite opens the SQLite database at path.
func openSQLite(path string) (*Store, error) {
	// WAL lets page loads read while a move commits; synchronous=FULL
	// makes every acknowledged commit survive a power cut as well as a
	// killed process.
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_busy_timeout", "5000")
	q.Set("_synchronous", SynchronousMode())
	q.Set("_foreign_keys", "1")
	db, err := gorm.Open(sqlite.Open("file:"+path+"?"+q.Encode()), sqliteConfig())
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	// SQLite has one writer at a time anyway. Queueing in database/sql is
	// fair and immediate, whereas SQLite's busy handler sleeps in steps of
	// up to 100 ms, which would show as latency spikes under load. The busy
	// timeout still covers other processes (a sqlite3 shell, a second server).
	sqlDB.SetMaxOpenConns(1)
	var mode string
	if err := db.Raw("PRAGMA journal_mode").Scan(&mode).Error; err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("store: %w", err)
	}
	if !strings.EqualFold(mode, "wal") {
		sqlDB.Close()
		return nil, fmt.Errorf("store: %s: journal mode is %q, want wal", path, mode)
	}
	if err := db.AutoMigrate(models...); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("store: migrate: %w", err)
	}
	// The readers: mode=ro and query_only, so nothing can write through
	// them; the same busy timeout (a reader waits only while a checkpoint
	// or recovery holds the file, never for a writer); the same
	// synchronous setting, which matters only if a reader is the last
	// connection to close and checkpoints.
	rq := url.Values{}
	rq.Set("mode", "ro")
	rq.Set("_query_only", "1")
	rq.Set("_busy_timeout", "5000")
	rq.Set("_synchronous", SynchronousMode())
	rq.Set("_foreign_keys", "1")
	rd, err := gorm.Open(sqlite.Open("file:"+path+"?"+rq.Encode()), sqliteConfig())
	if err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("store: open %s read-only: %w", path, err)
	}
	if err := readPool(rd); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("store: open %s read-only: %w", path, err)
	}
	return &Store{db: db, rd: rd, alivePath: path + "-alive"}, nil
}

// readPool sizes rd, the read-only pool, and checks that it connects;
// it closes rd when it does not.
func readPool(rd *gorm.DB) error {
	rdDB, err := rd.DB()
	if err != nil {
		return err
	}
	rdDB.SetMaxOpenConns(ReadConns)
	rdDB.SetMaxIdleConns(ReadConns)
	if err := rdDB.Ping(); err != nil {
		rdDB.Close()
		return err
	}
	return nil
}

// registerHooks has the writer's statements run Hooks.Writing before and
// Hooks.Wrote after them (gorm's callbacks of every kind that writes:
// Exec is Raw's).
func (s *Store) registerHooks() error {
	if s.hooks.Writing == nil && s.hooks.Wrote == nil {
		return nil
	}
	writing := func(*gorm.DB) {
		if s.hooks.Writing != nil {
			s.hooks.Writing()
		}
	}
	wrote := func(db *gorm.DB) {
		if s.hooks.Wrote != nil {
			s.hooks.Wrote(db.Error)
		}
	}
	const before, after = "knightwatch:writing", "knightwatch:wrote"
	cb := s.db.Callback()
	return errors.Join(
		cb.Create().Before("*").Register(before, writing), cb.Create().After("*").Register(after, wrote),
		cb.Update().Before("*").Register(before, writing), cb.Update().After("*").Register(after, wrote),
		cb.Delete().Before("*").Register(before, writing), cb.Delete().After("*").Register(after, wrote),
		cb.Raw().Before("*").Register(before, writing), cb.Raw().After("*").Register(after, wrote),
	)
}

// transaction runs fn in a transaction of the writer, and Hooks.Wrote
// after it: the statements' own calls came before the commit.
func (s *Store) transaction(fn func(tx *gorm.DB) error) error {
	err := s.db.Transaction(fn)
	if s.hooks.Wrote != nil {
		s.hooks.Wrote(err)
	}
	return err
}

func sqliteConfig() *gorm.Config {
	return &gorm.Config{
		Logger: logger.Discard,
		// Every write here is a single statement, atomic by itself; the
		// default wrapping transaction would only add a round trip.
		SkipDefaultTransaction: true,
		// Moves are committed one statement at a time; reusing prepared
		// statements saves SQLite a parse per move.
		PrepareStmt: true,
	}
}

// now is the time the store writes for "now": as precise as the database
// keeps it (microseconds on PostgreSQL), so that a row's time read back
// equals the one its writer holds.
func (s *Store) now() time.Time { return s.db.NowFunc() }

// Close closes the database (readers first, so that the writer, closing
// last, checkpoints SQLite's WAL).
func (s *Store) Close() error {
	var errs []error
	for _, db := range []*gorm.DB{s.rd, s.alive, s.db} {
		if db == nil {
			continue
		}
		if sqlDB, err := db.DB(); err != nil {
			errs = append(errs, err)
		} else {
			errs = append(errs, sqlDB.Close())
		}
	}
	return errors.Join(errs...)
}
