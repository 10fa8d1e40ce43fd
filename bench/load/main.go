// Command load drives the real knightwatch binary on loopback with many
// players at once (package loadtest): one load run, a step search for the
// most games held with the acknowledgement p99 under a target, the memory
// of idle open games, the acknowledgement benchmark with the engine off,
// and the crash test under kill -9.
//
//	go run ./bench/load run   [-games 100] [-duration 30s] [-level8 0.1] [-recon 0.1] [-bin PATH] ...
//	go run ./bench/load step  [-start 50] [-target 50ms] ...
//	go run ./bench/load idle  [-steps 1000,2000,4000] [-kind chess|recon]
//	go run ./bench/load ack   [-games 500] [-rounds 20] [-pause 100ms]
//	go run ./bench/load crash [-kills 50] [-games 40] ...
//
// (or bash bench/load.sh, bench/crash.sh, bench/ws_latency.sh). Every mode
// builds the binary from this module (run: or takes the one -bin names, an
// older build for a before/after) and starts it itself, on 127.0.0.1 with
// a temporary database; nothing else is ever loaded.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"

	"knightwatch/e2e"
	"knightwatch/loadtest"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	mode, args := os.Args[1], os.Args[2:]
	var err error
	switch mode {
	case "run":
		err = runLoad(args)
	case "step":
		err = runStep(args)
	case "idle":
		err = runIdle(args)
	case "ack":
		err = runAck(args)
	case "crash":
		err = runCrash(args)
	case "site-idle":
		err = runSiteIdle(args)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: go run ./bench/load run|step|idle|ack|crash|site-idle [flags] (each with -h)")
	os.Exit(2)
}

// loadFlags are the flags of a load run shared by run and step.
type loadFlags struct {
	duration, warmup, think *time.Duration
	level8, recon           *float64
	reconBot, clock         *string
	seed                    *uint64
}

func addLoadFlags(fs *flag.FlagSet) *loadFlags {
	return &loadFlags{
		duration: fs.Duration("duration", 30*time.Second, "measured time per run, after the warm-up"),
		warmup:   fs.Duration("warmup", 10*time.Second, "unmeasured time first: games open, first moves"),
		think:    fs.Duration("think", 2*time.Second, "longest random pause before each of a player's actions"),
		level8:   fs.Float64("level8", 0.1, "share of chess players against level 8 (the rest level 1)"),
		recon:    fs.Float64("recon", 0.1, "share of players in Reconnaissance Chess"),
		reconBot: fs.String("recon-bot", "random", "the recon opponent (a spec of the new-game form: random, attacker, knightwatch, knightwatch:level=1, ...)"),
		clock:    fs.String("clock", "5+3", "the new-game form's clock"),
		seed:     fs.Uint64("seed", 1, "seed of the players' random choices"),
	}
}

func (f *loadFlags) config(bin string, games int) loadtest.LoadConfig {
	return loadtest.LoadConfig{
		Bin: bin, Games: games, Warmup: *f.warmup, Duration: *f.duration,
		Level8: *f.level8, Recon: *f.recon, ReconBot: *f.reconBot, Clock: *f.clock,
		Think: *f.think, Seed: *f.seed, Log: os.Stderr,
	}
}

// printer is any of loadtest's reports.
type printer interface{ Print(w io.Writer) }

// withBinary compiles the binary into a temporary folder, runs run with
// it, prints the report run returns (even with an error, when there is
// one) and removes the folder.
func withBinary(run func(bin string) (printer, error)) error {
	return withBinaryOr("", run)
}

// withBinaryOr is withBinary with bin instead of a new build when bin is
// not "".
func withBinaryOr(bin string, run func(bin string) (printer, error)) error {
	if bin == "" {
		dir, err := os.MkdirTemp("", "kw-load-bin-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		if bin, err = e2e.BuildInto(dir); err != nil {
			return err
		}
	}
	rep, err := run(bin)
	// A report comes back as a typed pointer, nil when the run could not
	// start at all.
	if rep != nil && !reflect.ValueOf(rep).IsNil() {
		rep.Print(os.Stdout)
	}
	return err
}

func runLoad(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	games := fs.Int("games", 100, "players at once, each its own visitor")
	bin := fs.String("bin", "", "the knightwatch binary to load (default: build this tree)")
	db := fs.String("db", "", dbFlagHelp)
	servers := fs.Int("servers", 1, "with -db on PostgreSQL: servers, behind a round-robin proxy")
	workers := fs.Int("workers", 0, "with -db on PostgreSQL: engine workers (0: the servers take the engine jobs)")
	lf := addLoadFlags(fs)
	fs.Parse(args)
	return measureOn(*bin, *db, "move or recon action", func(bin, dsn string) (printer, int64, error) {
		cfg := lf.config(bin, *games)
		cfg.DB, cfg.Servers, cfg.Workers = dsn, *servers, *workers
		rep, err := loadtest.Run(cfg)
		if rep == nil {
			return nil, 0, err
		}
		return rep, rep.PlayerMoves + rep.EngineMoves + rep.ReconActions, err
	})
}

func runStep(args []string) error {
	fs := flag.NewFlagSet("step", flag.ExitOnError)
	start := fs.Int("start", 50, "games of the first step; doubled while the p99 stays under the target, halved while it does not, then bisected")
	maxGames := fs.Int("max", loadtest.MaxActiveGames, "never more games than this")
	target := fs.Duration("target", 50*time.Millisecond, "the acknowledgement p99 to stay under")
	bin := fs.String("bin", "", "the knightwatch binary to load (default: build this tree)")
	lf := addLoadFlags(fs)
	fs.Parse(args)
	return withBinaryOr(*bin, func(bin string) (printer, error) {
		return loadtest.StepSearch(lf.config(bin, *start), *maxGames, *target, os.Stdout)
	})
}

func runIdle(args []string) error {
	fs := flag.NewFlagSet("idle", flag.ExitOnError)
	steps := fs.String("steps", "1000,2000,4000,8000", "open games after each step, comma-separated, rising")
	kind := fs.String("kind", "chess", "chess or recon")
	reconBot := fs.String("recon-bot", "random", "the recon opponent")
	clock := fs.String("clock", "5+3", "the new-game form's clock")
	fs.Parse(args)
	var ns []int
	for _, f := range strings.Split(*steps, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("bad step %q", f)
		}
		ns = append(ns, n)
	}
	return withBinary(func(bin string) (printer, error) {
		return loadtest.Idle(loadtest.IdleConfig{Bin: bin, Steps: ns, Recon: *kind == "recon", ReconBot: *reconBot, Clock: *clock, Log: os.Stderr})
	})
}

func runAck(args []string) error {
	fs := flag.NewFlagSet("ack", flag.ExitOnError)
	games := fs.Int("games", 500, "concurrent games (one WebSocket each, each its own visitor)")
	rounds := fs.Int("rounds", 20, "move + take-back rounds per game")
	pause := fs.Duration("pause", 100*time.Millisecond, "longest random pause between a game's messages")
	bin := fs.String("bin", "", "the knightwatch binary to measure (default: build this tree)")
	db := fs.String("db", "", dbFlagHelp)
	fs.Parse(args)
	return measureOn(*bin, *db, "acknowledged change", func(bin, dsn string) (printer, int64, error) {
		rep, err := loadtest.Ack(loadtest.AckConfig{Bin: bin, Games: *games, Rounds: *rounds, Pause: *pause, DB: dsn})
		if rep == nil {
			return nil, 0, err
		}
		return rep, int64(rep.Latency.N), err
	})
}

func runCrash(args []string) error {
	fs := flag.NewFlagSet("crash", flag.ExitOnError)
	kills := fs.Int("kills", 50, "kill -9s of the server")
	games := fs.Int("games", 40, "players at once")
	recon := fs.Float64("recon", 0.25, "share of players in Reconnaissance Chess")
	level8 := fs.Float64("level8", 0, "share of chess players against level 8")
	reconBot := fs.String("recon-bot", "random", "the recon opponent")
	minUp := fs.Duration("min-up", time.Second, "shortest time between a restart and the next kill")
	maxUp := fs.Duration("max-up", 4*time.Second, "longest time between a restart and the next kill")
	think := fs.Duration("think", 200*time.Millisecond, "longest random pause before each of a player's actions")
	seed := fs.Uint64("seed", uint64(time.Now().UnixNano()), "seed of the kill moments and the players' choices")
	site := fs.Bool("site", false, "a site on a throwaway PostgreSQL: -servers servers and -workers engine workers behind a round-robin proxy; kills alternate servers and workers")
	servers := fs.Int("servers", 3, "with -site: servers")
	workers := fs.Int("workers", 2, "with -site: engine workers")
	connLife := fs.Duration("conn-life", 2*time.Second, "with -site: the proxy cuts each connection within this, so sockets come back to another server")
	fs.Parse(args)
	return withBinary(func(bin string) (printer, error) {
		cfg := loadtest.CrashConfig{
			Bin: bin, Kills: *kills, Games: *games, Recon: *recon, Level8: *level8, ReconBot: *reconBot,
			MinUp: *minUp, MaxUp: *maxUp, Think: *think, Seed: *seed, Log: os.Stderr,
		}
		if *site {
			dsn, stop, err := database("postgres")
			if err != nil {
				return nil, err
			}
			defer stop()
			cfg.Postgres, cfg.Servers, cfg.Workers, cfg.ConnLife = dsn, *servers, *workers, *connLife
		}
		rep, err := loadtest.Crash(cfg)
		if err == nil && !rep.OK() {
			err = fmt.Errorf("the crash test found %d problems", len(rep.Problems))
		}
		return rep, err
	})
}
