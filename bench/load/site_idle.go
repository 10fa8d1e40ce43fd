package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"knightwatch/loadtest"
)

// runSiteIdle measures what a site on PostgreSQL costs with nobody
// playing: the transactions and table scans a second of its servers and
// workers (River's polling, leader election and maintenance, the alive
// marks, the sweeps), and each kind of process's CPU.
func runSiteIdle(args []string) error {
	fs := flag.NewFlagSet("site-idle", flag.ExitOnError)
	servers := fs.Int("servers", 1, "servers")
	workers := fs.Int("workers", 1, "engine workers")
	warmup := fs.Duration("warmup", 5*time.Second, "not measured: the processes start, migrate, elect River's leader")
	duration := fs.Duration("duration", 30*time.Second, "measured")
	bin := fs.String("bin", "", "the knightwatch binary (default: build this tree)")
	fs.Parse(args)
	dsn, stop, err := database("postgres")
	if err != nil {
		return err
	}
	defer stop()
	return withBinaryOr(*bin, func(bin string) (printer, error) {
		s, err := loadtest.StartSite(bin, dsn, *servers, *workers)
		if err != nil {
			return nil, err
		}
		defer s.Stop()
		time.Sleep(*warmup) // time itself is what is measured: a site at rest
		before, _, err := readPG(dsn)
		if err != nil {
			return nil, err
		}
		s0, w0, d0 := s.CPU()
		time.Sleep(*duration)
		after, _, err := readPG(dsn)
		if err != nil {
			return nil, err
		}
		s1, w1, d1 := s.CPU()
		secs := duration.Seconds()
		return printFunc(func(w io.Writer) {
			fmt.Fprintf(w, "machine: %s\n", loadtest.Machine())
			fmt.Fprintf(w, "a site at rest: %d servers, %d workers, %v measured\n", *servers, *workers, *duration)
			fmt.Fprintf(w, "postgresql per second: %.1f commits, %.1f table scans, %.0f bytes of write-ahead log\n",
				float64(after.commits-before.commits)/secs, float64(after.scans-before.scans)/secs, float64(after.walBytes-before.walBytes)/secs)
			fmt.Fprintf(w, "CPU per process: server %.2f%%, worker %.2f%% of a core; PostgreSQL %.2f%%\n",
				100*(s1-s0)/secs/float64(*servers), 100*(w1-w0)/secs/float64(max(*workers, 1)), 100*(d1-d0)/secs)
		}), nil
	})
}

// printFunc is a report that prints itself with a function.
type printFunc func(w io.Writer)

func (f printFunc) Print(w io.Writer) { f(w) }
