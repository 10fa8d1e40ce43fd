// Package store keeps Knightwatch's games and settings in SQLite through
// gorm. It knows nothing of HTTP: the web package decides what a game means
// and calls store only to make it durable.
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
	"crypto/rand"
	"encoding/hex"
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

// Game is one game against the engine as it is stored: enough to rebuild it
// exactly (start position plus moves) and to resume its clocks.
type Game struct {
	ID       string `gorm:"primaryKey;size:40"`
	Owner    string `gorm:"index:idx_owner_status;size:64;not null"`
	Variant  string `gorm:"size:16;not null"` // VariantStandard or VariantChess960
	StartFEN string `gorm:"size:128;not null"`
	// Moves is the list of moves in UCI notation separated by single
	// spaces; UCI rather than SAN because it needs no position to parse.
	Moves string `gorm:"type:text;not null;default:''"`
	Human Color  `gorm:"size:8;not null"` // the person's colour
	Level int    `gorm:"not null"`
	// ClockInitialMS and ClockIncrementMS are zero for an untimed game.
	ClockInitialMS   int64 `gorm:"not null;default:0"`
	ClockIncrementMS int64 `gorm:"not null;default:0"`
	// WhiteMS and BlackMS are the remaining times as last committed. Time
	// while nobody is connected is never charged, so these plus the moves
	// are the whole clock state.
	WhiteMS    int64       `gorm:"not null;default:0"`
	BlackMS    int64       `gorm:"not null;default:0"`
	Status     Status      `gorm:"index:idx_owner_status;size:16;not null"`
	Result     string      `gorm:"size:8;not null;default:'*'"`
	Reason     Termination `gorm:"size:40;not null;default:''"`
	CreatedAt  time.Time
	UpdatedAt  time.Time
	FinishedAt *time.Time
	// WatchToken is the unguessable token of the game's read-only
	// spectator link (/watch/{token}), made on first use (EnsureWatchToken);
	// NULL until then, and in rows older than the column.
	WatchToken *string `gorm:"size:64;uniqueIndex:idx_games_watch_token"`
	// ExperienceNotes are the notes of the engine's moves that came from
	// experience, as JSON (Notes, SetNotes); empty when there are none.
	ExperienceNotes string `gorm:"type:text;not null;default:''"`
	// ClockSince is when the side to move's clock started running, WhiteMS
	// and BlackMS holding the times at that moment; NULL while no clock
	// runs. A server that stops cleanly stops the clocks (NULL), so a value
	// found at a start is a crash's, and the time from it to the crash is
	// charged (ClockCharge).
	ClockSince *time.Time
	// Opening is the opening the game ended in, in words, "B20 Sicilian
	// Defense" (ECO code and name), or "" when it reached no named
	// position; written when the game ends, so that the home page's list
	// of finished games need not replay every game on every load. NULL
	// while the game is played, and in rows older than the column until a
	// list shows them (SaveOpenings). It is the name the table gave when it
	// was written: a later table renames no stored game.
	Opening *string `gorm:"size:200"`
}

// MoveList returns the stored moves as a slice of UCI strings.
func (g *Game) MoveList() []string {
	if strings.TrimSpace(g.Moves) == "" {
		return nil
	}
	return strings.Fields(g.Moves)
}

// SetMoveList stores moves (UCI strings).
func (g *Game) SetMoveList(moves []string) { g.Moves = strings.Join(moves, " ") }

// Timed reports whether the game has a clock.
func (g *Game) Timed() bool { return g.ClockInitialMS > 0 }

// Setting is a key/value pair of server-wide state, such as the generated
// session secret.
type Setting struct {
	Key   string `gorm:"primaryKey;size:64"`
	Value string `gorm:"type:text;not null"`
}

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
	st.forgetCount()
	return st, nil
}

// models are the tables, migrated the same way on both databases.
var models = []any{&Game{}, &ReconGame{}, &Setting{}, &User{}, &APIGame{}, &Invitation{}, &Rating{}, &Experience{}, &ExperienceGame{}, &Analysis{}, &AnalysisPly{}}

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

// NewID returns a random game ID such as "g_3f9c0a1b2c3d4e5f6a7b".
func NewID() string {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("store: crypto/rand failed: " + err.Error())
	}
	return "g_" + hex.EncodeToString(b[:])
}

// CreateGame inserts g, giving it an ID when it has none.
func (s *Store) CreateGame(g *Game) error {
	if g.ID == "" {
		g.ID = NewID()
	}
	if g.Owner == "" {
		return errors.New("store: game without owner")
	}
	if g.Status == StatusUnset {
		g.Status = StatusPlaying
	}
	if g.Result == "" {
		g.Result = "*"
	}
	if g.WatchToken == nil {
		// Made now so that opening the game page never writes; older
		// rows get theirs on first use (EnsureWatchToken).
		tok := NewWatchToken()
		g.WatchToken = &tok
	}
	if err := s.db.Create(g).Error; err != nil {
		return fmt.Errorf("store: create game: %w", err)
	}
	return nil
}

// mutableColumns are the columns a game changes after creation; the rest
// (owner, variant, start, colours, level, clock settings) are fixed, and
// leaving them out keeps the per-move UPDATE small and its indexes untouched.
var mutableColumns = []string{"moves", "white_ms", "black_ms", "status", "result", "reason", "updated_at", "finished_at", "experience_notes", "opening", "clock_since"}

// SaveGame writes the changing fields of g (which must exist): moves,
// remaining times, status, result, reason, timestamps, experience notes
// and opening. A game's host commits it before telling any browser about a
// change.
func (s *Store) SaveGame(g *Game) error {
	g.UpdatedAt = s.now()
	return saveRow(s.db, "game", g.ID, g, mutableColumns)
}

// GetGame loads a game by ID.
func (s *Store) GetGame(id string) (*Game, error) { return getRow[Game](s.rd, "game", id) }

// GetOwnedGame loads a game only if it belongs to owner; otherwise it
// reports ErrNotFound, so that callers cannot tell someone else's game from
// a missing one.
func (s *Store) GetOwnedGame(id, owner string) (*Game, error) {
	return getOwnedRow[Game](s.rd, "game", id, owner)
}

// LatestUnfinished returns the owner's most recently updated game still
// being played, or ErrNotFound.
func (s *Store) LatestUnfinished(owner string) (*Game, error) {
	var g Game
	err := s.rd.Where("owner = ? AND status = ?", owner, StatusPlaying).
		Order("updated_at DESC").Take(&g).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: latest unfinished: %w", err)
	}
	return &g, nil
}

// FinishedGames returns up to limit of the owner's finished games, newest first.
func (s *Store) FinishedGames(owner string, limit int) ([]Game, error) {
	var gs []Game
	// NULLS LAST, as SQLite orders them by itself (PostgreSQL puts them
	// first): an old row without its finishing time.
	err := s.rd.Where("owner = ? AND status = ?", owner, StatusOver).
		Order("finished_at DESC NULLS LAST").Limit(limit).Find(&gs).Error
	if err != nil {
		return nil, fmt.Errorf("store: finished games: %w", err)
	}
	return gs, nil
}

// GetSetting returns a setting's value, or ErrNotFound.
func (s *Store) GetSetting(key string) (string, error) {
	var st Setting
	err := s.rd.Where("key = ?", key).Take(&st).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("store: get setting %s: %w", key, err)
	}
	return st.Value, nil
}

// SetSetting stores a setting, replacing any earlier value.
func (s *Store) SetSetting(key, value string) error {
	err := s.db.Save(&Setting{Key: key, Value: value}).Error
	if err != nil {
		return fmt.Errorf("store: set setting %s: %w", key, err)
	}
	return nil
}

// Secret returns the server's session secret, generating and storing a
// random one on first use so that restarts keep everyone's sessions.
func (s *Store) Secret() ([]byte, error) {
	v, err := s.GetSetting("session_secret")
	if err == nil {
		b, derr := hex.DecodeString(v)
		if derr == nil && len(b) >= 32 {
			return b, nil
		}
	} else if !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	b := make([]byte, 64)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("store: random secret: %w", err)
	}
	// Insert only if still absent, so that two servers starting on the
	// same file agree on one secret; then read back whatever won.
	err = s.db.Exec("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING",
		"session_secret", hex.EncodeToString(b)).Error
	if err != nil {
		return nil, fmt.Errorf("store: save secret: %w", err)
	}
	v, err = s.GetSetting("session_secret")
	if err != nil {
		return nil, err
	}
	b, err = hex.DecodeString(v)
	if err != nil || len(b) < 32 {
		// A corrupt stored value: replace it rather than run without sessions.
		b = make([]byte, 64)
		if _, err := rand.Read(b); err != nil {
			return nil, fmt.Errorf("store: random secret: %w", err)
		}
		if err := s.SetSetting("session_secret", hex.EncodeToString(b)); err != nil {
			return nil, err
		}
	}
	return b, nil
}
