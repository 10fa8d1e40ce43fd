package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/jackc/pgx/v5"

	"knightwatch/pgtest"
)

// dbFlagHelp is the -db flag's help, for the modes that take it.
const dbFlagHelp = `the server's database: "" (a SQLite file in the run's folder), a PostgreSQL URL of an empty database, or "postgres" (a throwaway cluster started here, with fsync off: the figures are the server's and the database's work, not a disk's)`

// database resolves -db: the value to hand the server, and a function
// that stops what was started for it.
func database(db string) (dsn string, stop func(), err error) {
	if db != "postgres" {
		return db, func() {}, nil
	}
	c, err := pgtest.Start("")
	if err != nil {
		return "", nil, err
	}
	dsn, err = c.NewDatabase("kw_bench")
	if err != nil {
		c.Stop()
		return "", nil, err
	}
	return dsn, func() { c.Stop() }, nil
}

// pgCounters are PostgreSQL's counters of one database, and the
// notifications its servers sent, counted from the rows that send them:
// each revision of a game is one commit with its change-feed
// notification, each engine answer one with its own.
type pgCounters struct {
	commits, inserted, updated, deleted, fetched int64
	// scans are the tables' sequential and index scans: about one per
	// statement that reads a table.
	scans, notifies int64
	// walBytes is the write-ahead log the whole cluster wrote
	// (pg_stat_wal): what a move costs the disk and the replicas.
	walBytes int64
	// jobs counts the engine jobs (River's rows; completed ones are kept
	// an hour).
	jobs int64
}

// readPG reads the database's counters (pg_stat_database), after asking
// the statistics collector for its latest; ok is false for a database
// that is not PostgreSQL.
func readPG(dsn string) (c pgCounters, ok bool, err error) {
	if !strings.HasPrefix(dsn, "postgres://") && !strings.HasPrefix(dsn, "postgresql://") {
		return c, false, nil
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return c, true, err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "SELECT pg_stat_clear_snapshot()"); err != nil {
		return c, true, err
	}
	err = conn.QueryRow(ctx, `SELECT xact_commit, tup_inserted, tup_updated, tup_deleted, tup_fetched
FROM pg_stat_database WHERE datname = current_database()`).Scan(&c.commits, &c.inserted, &c.updated, &c.deleted, &c.fetched)
	if err != nil {
		return c, true, err
	}
	if err := conn.QueryRow(ctx, "SELECT COALESCE(sum(seq_scan + COALESCE(idx_scan, 0)), 0) FROM pg_stat_user_tables").Scan(&c.scans); err != nil {
		return c, true, err
	}
	if err := conn.QueryRow(ctx, "SELECT wal_bytes::bigint FROM pg_stat_wal").Scan(&c.walBytes); err != nil {
		return c, true, err
	}
	var hasJobs bool
	if err := conn.QueryRow(ctx, "SELECT to_regclass('river_job') IS NOT NULL").Scan(&hasJobs); err != nil {
		return c, true, err
	}
	if hasJobs {
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM river_job").Scan(&c.jobs); err != nil {
			return c, true, err
		}
	}
	for _, q := range []string{"SELECT COALESCE(sum(revision), 0) FROM %s", "SELECT count(*) FROM %s"} {
		tables := []string{"games", "recon_games", "api_games"}
		if strings.HasPrefix(q, "SELECT count") {
			tables = []string{"engine_answers"}
		}
		for _, t := range tables {
			var exists bool
			if err := conn.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL", t).Scan(&exists); err != nil || !exists {
				continue
			}
			var n int64
			if err := conn.QueryRow(ctx, fmt.Sprintf(q, t)).Scan(&n); err != nil {
				return c, true, err
			}
			c.notifies += n
		}
	}
	return c, true, nil
}

// printPG prints what the database did between before and after, in all
// and per unit (an acknowledged change, a move), when the run was on
// PostgreSQL. The counters include the statistics' own few reads, and the
// server's work outside the measured span (its start, the warm-up).
func printPG(w io.Writer, before, after pgCounters, units int64, unit string) {
	d := pgCounters{after.commits - before.commits, after.inserted - before.inserted, after.updated - before.updated,
		after.deleted - before.deleted, after.fetched - before.fetched, after.scans - before.scans, after.notifies - before.notifies, after.walBytes - before.walBytes, after.jobs - before.jobs}
	fmt.Fprintf(w, "postgresql (the whole run): %d commits, %d table scans, %d notifications, %d rows inserted, %d updated, %d deleted, %d fetched\n",
		d.commits, d.scans, d.notifies, d.inserted, d.updated, d.deleted, d.fetched)
	if units > 0 {
		per := func(n int64) float64 { return float64(n) / float64(units) }
		fmt.Fprintf(w, "postgresql per %s (%d): %.2f commits, %.2f table scans, %.2f notifications, %.2f rows inserted, %.2f updated, %.2f fetched\n",
			unit, units, per(d.commits), per(d.scans), per(d.notifies), per(d.inserted), per(d.updated), per(d.fetched))
		fmt.Fprintf(w, "postgresql write-ahead log per %s: %.0f bytes (the cluster's, over the whole run); engine jobs per %s: %.2f\n", unit, per(d.walBytes), unit, per(d.jobs))
	}
}

// measureOn runs run (a measurement and how many units it counted) with
// the binary bin (withBinaryOr) on the database -db names, and on
// PostgreSQL follows its report with what the database did per unit.
func measureOn(bin, db, unit string, run func(bin, dsn string) (rep printer, units int64, err error)) error {
	dsn, stop, err := database(db)
	if err != nil {
		return err
	}
	defer stop()
	return withBinaryOr(bin, func(bin string) (printer, error) {
		before, pg, err := readPG(dsn)
		if err != nil {
			return nil, err
		}
		rep, units, err := run(bin, dsn)
		if pg && rep != nil {
			return withPG(rep, dsn, before, units, unit), err
		}
		return rep, err
	})
}

// pgReport is a run's report followed by what PostgreSQL did meanwhile.
type pgReport struct {
	rep   printer
	lines func(w io.Writer)
}

func (r *pgReport) Print(w io.Writer) {
	r.rep.Print(w)
	r.lines(w)
}

// withPG reads the database's counters now, at the end of a run begun
// at before, and returns rep with them.
func withPG(rep printer, dsn string, before pgCounters, units int64, unit string) *pgReport {
	after, _, err := readPG(dsn)
	return &pgReport{rep, func(w io.Writer) {
		if err != nil {
			fmt.Fprintf(w, "postgresql: %v\n", err)
			return
		}
		printPG(w, before, after, units, unit)
	}}
}
