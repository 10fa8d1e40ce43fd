package store

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
	"gorm.io/gorm/migrator"
	"gorm.io/gorm/schema"
)

// PostgreSQL (issue 44): the same tables, migrated by the same AutoMigrate
// of the same structs, through gorm's postgres driver (pgx underneath).
// What differs from SQLite is here and in the few statements that test
// s.pg: the untouched games' SQL (untouched.go) and the alive mark
// (alive.go).

// IsPostgres reports whether dsn is a PostgreSQL URL (postgres://… or
// postgresql://…) rather than a SQLite file's path.
func IsPostgres(dsn string) bool {
	l := strings.ToLower(dsn)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// Describe names the database dsn names for a log line or an error: a
// SQLite path as it is, a PostgreSQL URL without its password.
func Describe(dsn string) string {
	if !IsPostgres(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "a PostgreSQL URL that does not parse"
	}
	return u.Redacted()
}

// withParams returns the URL dsn with the connection parameters kv (name,
// value, ...) set: pgx sends the ones it does not know itself to the
// server as settings of the session.
func withParams(dsn string, kv ...string) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		// Without the URL, which may hold a password.
		if ue := (*url.Error)(nil); errors.As(err, &ue) {
			err = ue.Err
		}
		return "", fmt.Errorf("the URL does not parse: %w", err)
	}
	q := u.Query()
	for i := 0; i+1 < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// pgConfig is the gorm configuration on PostgreSQL: sqliteConfig's,
// except that the times gorm fills in keep the microseconds PostgreSQL
// keeps, and that pgx caches each connection's prepared statements itself.
func pgConfig() *gorm.Config {
	return &gorm.Config{
		Logger:                 logger.Discard,
		SkipDefaultTransaction: true,
		NowFunc:                func() time.Time { return time.Now().Local().Truncate(time.Microsecond) },
	}
}

// openPostgres opens the PostgreSQL database at the URL dsn.
//
// The shape is SQLite's for now: one writer connection, so that this
// process's writes are serialised as they are on SQLite (what the live
// games' commit order relies on), and ReadConns readers whose sessions
// are read-only (default_transaction_read_only), so that nothing can
// write through them. Several servers on one database need more than
// this (their ply and turn checks against each other's writes): a later
// step of issue 44.
func openPostgres(dsn string) (*Store, error) {
	name := Describe(dsn)
	// synchronous_commit on, whatever the server's default: a commit
	// returns once it is on disk, so that an acknowledged move survives a
	// crash of the database's machine (SQLite's synchronous=FULL).
	wDSN, err := withParams(dsn, "synchronous_commit", "on")
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", name, err)
	}
	db, err := gorm.Open(pgOpen(wDSN), pgConfig())
	if err != nil {
		if db != nil { // the pool gorm made, whose first connection failed
			if sqlDB, err := db.DB(); err == nil {
				sqlDB.Close()
			}
		}
		return nil, fmt.Errorf("store: open %s: %w", name, err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	sqlDB.SetMaxOpenConns(1)
	if err := migratePostgres(db); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("store: migrate %s: %w", name, err)
	}
	st := &Store{db: db, pg: true}
	fail := func(what string, err error) (*Store, error) {
		st.Close()
		return nil, fmt.Errorf("store: open %s %s: %w", name, what, err)
	}
	rdDSN, err := withParams(dsn, "default_transaction_read_only", "on")
	if err != nil {
		return fail("read-only", err)
	}
	if st.rd, err = gorm.Open(pgOpen(rdDSN), pgConfig()); err != nil {
		return fail("read-only", err)
	}
	if err := readPool(st.rd); err != nil {
		st.rd = nil
		return fail("read-only", err)
	}
	// The alive marks' own connection (alive.go): a mark never waits for
	// the writer nor for a flush of the WAL (a mark lost in a crash of
	// the database is a second's).
	aliveDSN, err := withParams(dsn, "synchronous_commit", "off")
	if err != nil {
		return fail("for the alive marks", err)
	}
	if st.alive, err = gorm.Open(pgOpen(aliveDSN), pgConfig()); err != nil {
		return fail("for the alive marks", err)
	}
	aliveDB, err := st.alive.DB()
	if err != nil {
		return fail("for the alive marks", err)
	}
	aliveDB.SetMaxOpenConns(1)
	return st, nil
}

// migrateLockKey is the advisory lock the servers of one database take
// while they migrate it: several starting at once would otherwise each
// create the same tables and types and all but one fail.
const migrateLockKey = 0x6b6e6967687477 // "knightw"

// migratePostgres migrates the schema under the advisory lock, on db's
// one connection (the lock is the session's).
func migratePostgres(db *gorm.DB) (err error) {
	if err := db.Exec("SELECT pg_advisory_lock(?)", migrateLockKey).Error; err != nil {
		return err
	}
	defer func() {
		if uerr := db.Exec("SELECT pg_advisory_unlock(?)", migrateLockKey).Error; err == nil {
			err = uerr
		}
	}()
	if err := db.AutoMigrate(models...); err != nil {
		return err
	}
	return db.Exec(pgJSONArrayLength).Error
}

// pgJSONArrayLength is SQLite's json_array_length(doc, path) on
// PostgreSQL, which has no function that reads JSON without failing the
// whole statement on a malformed document: NULL when doc is not JSON or
// has nothing at path (given as keys), 0 when what is there is not an
// array. The untouched games' SQL (untouched.go) reads the senses of a
// Reconnaissance Chess record with it.
const pgJSONArrayLength = `CREATE OR REPLACE FUNCTION knightwatch_json_array_length(doc text, VARIADIC path text[])
RETURNS integer LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE v jsonb;
BEGIN
	BEGIN
		v := doc::jsonb #> path;
	EXCEPTION WHEN others THEN
		RETURN NULL;
	END;
	IF v IS NULL THEN
		RETURN NULL;
	ELSIF jsonb_typeof(v) = 'array' THEN
		RETURN jsonb_array_length(v);
	END IF;
	RETURN 0;
END $$`

// pgOpen is the dialector of the database at the URL dsn.
func pgOpen(dsn string) gorm.Dialector {
	return pgDialector{postgres.Dialector{Config: &postgres.Config{DSN: dsn}}}
}

// pgDialector is gorm's postgres dialector with one column type changed:
// a float64 is a double precision, as it is a REAL (8 bytes) on SQLite,
// rather than gorm's default numeric, whose decimal arithmetic and
// conversions the sums of the experience table and the ratings do not
// want.
type pgDialector struct{ postgres.Dialector }

// DataTypeOf implements gorm.Dialector.
func (d pgDialector) DataTypeOf(f *schema.Field) string {
	if f.DataType == schema.Float && f.Precision == 0 {
		return "double precision"
	}
	return d.Dialector.DataTypeOf(f)
}

// Migrator implements gorm.Dialector: postgres.Dialector's, with d as
// the dialector it asks for column types. (Its GetRows, which reads a
// table's columns, then runs on the extended protocol rather than the
// simple one, as it would through database/sql's pgx driver: the
// statement it prepares, SELECT * FROM the table, is not run again.)
func (d pgDialector) Migrator(db *gorm.DB) gorm.Migrator {
	return postgres.Migrator{Migrator: migrator.Migrator{Config: migrator.Config{
		DB:                          db,
		Dialector:                   d,
		CreateIndexAfterCreateTable: true,
	}}}
}
