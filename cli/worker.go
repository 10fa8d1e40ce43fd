package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"knightwatch/enginejobs"
	"knightwatch/enginepool"
	"knightwatch/recon/bots"
	"knightwatch/store"
)

func init() {
	register(command{
		name:    "worker",
		summary: "engine work of a site on PostgreSQL: takes engine jobs (replies, reviews, bot steps), no HTTP",
		run:     runWorker,
	})
}

// runWorker takes engine jobs from the site's database until SIGINT or
// SIGTERM, then stops taking them and finishes those it holds.
func runWorker(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("worker", "--db postgres://... [--searchers N] [--rbc-bot-cores N] [--syzygy DIRS] [--gaviota DIRS]", stderr)
	database := fs.String("db", os.Getenv("KNIGHTWATCH_DB"), "the site's PostgreSQL database, a postgres:// URL (env KNIGHTWATCH_DB)")
	searchers := fs.Int("searchers", 0, "searches at once, besides the quick lane's one (default: one per core)")
	syzygyPath := fs.String("syzygy", os.Getenv("KNIGHTWATCH_SYZYGY"), "Syzygy tablebase directories, ':'-separated (env KNIGHTWATCH_SYZYGY)")
	gaviotaPath := fs.String("gaviota", os.Getenv("KNIGHTWATCH_GAVIOTA"), "Gaviota tablebase directories, ':'-separated (env KNIGHTWATCH_GAVIOTA)")
	// The bot cores of the clocked steps this worker takes (an API game's
	// bot spending its clock), as serve's for its own games.
	rbcBotCores := fs.Int("rbc-bot-cores", enginepool.DefaultBotCores(runtime.NumCPU()), rbcBotCoresUsage)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if !store.IsPostgres(*database) {
		return errors.New("--db must name a PostgreSQL database (postgres://...): a worker serves a site of several servers; with SQLite the server searches itself")
	}
	if *searchers < 0 {
		return fmt.Errorf("--searchers: %d is negative", *searchers)
	}
	if err := checkBotCores(*rbcBotCores); err != nil {
		return err
	}
	pool, err := enginepool.New(enginepool.Config{Searchers: *searchers, SyzygyPath: *syzygyPath, GaviotaPath: *gaviotaPath, BotCores: botCoresConfig(*rbcBotCores)})
	if err != nil {
		return err
	}
	defer pool.Close()
	logger := log.New(stderr, "", log.LstdFlags)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	jobs, err := enginejobs.Start(ctx, enginejobs.Config{DSN: *database, Pool: pool, Work: true, WorkOnly: true, NewBot: bots.NewOneThread, Logf: logger.Printf})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Knightwatch worker: %d searchers, %d bot cores, database %s\n", pool.Searchers(), pool.BotCores(), store.Describe(*database))
	<-ctx.Done()
	jobs.Close()
	return nil
}
