// Command jobs measures what one engine job costs PostgreSQL and how long
// it takes from the ask to the answer (package enginejobs), with 1 to
// -workers (default 3) worker processes of the real binary on a throwaway cluster: searches
// asked one after another by this process (a server that takes no job),
// each a tiny search (1,000 nodes) so that the queue's own work shows.
//
//	go run ./bench/jobs [-jobs 300] [-bin PATH]
//
// It prints, per number of workers: the database's committed transactions
// per job (those of the workers at rest subtracted, measured just before
// over the same span), and the ask-to-answer time's p50 and p99.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"knightwatch/e2e"
	"knightwatch/enginejobs"
	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/loadtest"
	"knightwatch/pgtest"
)

func main() {
	jobs := flag.Int("jobs", 300, "searches asked per number of workers")
	maxWorkers := flag.Int("workers", 3, "measure with 1 to this many workers")
	bin := flag.String("bin", "", "the knightwatch binary (default: build this tree)")
	flag.Parse()
	if err := run(*bin, *jobs, *maxWorkers); err != nil {
		fmt.Fprintln(os.Stderr, "jobs:", err)
		os.Exit(1)
	}
}

func run(bin string, n, maxWorkers int) error {
	dir, err := os.MkdirTemp("", "knightwatch-jobs-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if bin == "" {
		if bin, err = e2e.BuildInto(dir); err != nil {
			return err
		}
	}
	c, err := pgtest.Start("")
	if err != nil {
		return err
	}
	defer c.Stop()
	fmt.Printf("machine: %s\n", loadtest.Machine())
	fmt.Printf("| workers | transactions per job | at rest, per second | ask to answer p50 / p99 ms |\n|---|---|---|---|\n")
	for workers := 1; workers <= maxWorkers; workers++ {
		dsn, err := c.NewDatabase(fmt.Sprintf("kw_jobs_%d", workers))
		if err != nil {
			return err
		}
		if err := measure(bin, dir, dsn, workers, n); err != nil {
			return err
		}
	}
	return nil
}

func measure(bin, dir, dsn string, workers, n int) error {
	pool, err := enginepool.New(enginepool.Config{Searchers: 1})
	if err != nil {
		return err
	}
	asker, err := enginejobs.Start(context.Background(), enginejobs.Config{DSN: dsn, Pool: pool})
	if err != nil {
		return err
	}
	defer asker.Close()
	for i := range workers {
		w, err := e2e.NewWorker(bin, dsn, filepath.Join(dir, fmt.Sprintf("worker%d-%d.log", workers, i)), "--searchers", "1")
		if err != nil {
			return err
		}
		defer w.Stop(10 * time.Second)
	}
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	commits := func() (int64, error) {
		// A backend reports its counts at most once a second: wait for
		// them (time itself is what is measured here).
		time.Sleep(1500 * time.Millisecond)
		var v int64
		if _, err := conn.Exec(context.Background(), "SELECT pg_stat_clear_snapshot()"); err != nil {
			return 0, err
		}
		err := conn.QueryRow(context.Background(), "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()").Scan(&v)
		return v, err
	}
	// At rest, as long as the jobs will take (about).
	c0, err := commits()
	if err != nil {
		return err
	}
	restStart := time.Now()
	time.Sleep(5 * time.Second)
	c1, err := commits()
	if err != nil {
		return err
	}
	rest := float64(c1-c0) / time.Since(restStart).Seconds()
	pos, err := game.ParseFEN(game.StartFEN)
	if err != nil {
		return err
	}
	var took []time.Duration
	start := time.Now()
	for i := range n {
		t0 := time.Now()
		req := enginepool.SearchRequest{Level: 1, Nodes: 1000, MoveTime: 50 * time.Millisecond, Turn: fmt.Sprintf("bench %d", i)}
		if _, ok := asker.Search(context.Background(), "bench", "g", pos, nil, req); !ok {
			return fmt.Errorf("job %d: no answer", i)
		}
		took = append(took, time.Since(t0))
	}
	c2, err := commits()
	if err != nil {
		return err
	}
	span := time.Since(start).Seconds()
	perJob := (float64(c2-c1) - rest*span) / float64(n)
	slices.Sort(took)
	q := func(p float64) float64 { return float64(took[int(p*float64(len(took)-1))].Microseconds()) / 1000 }
	fmt.Printf("| %d | %.1f | %.1f | %.1f / %.1f |\n", workers, perJob, rest, q(0.5), q(0.99))
	return nil
}
