// Command starvation measures how long another player waits for a
// level-1 reply while others flood the engine (issue 35): alone, under 32
// sockets keeping full-strength (level-8) searches queued, and under 32
// sockets offering draws in a loop. The attack test (attack/) asserts the
// order of service under the same floods; this times it.
//
//	go run ./bench/starvation [-samples 10] [-bin PATH] [-owners 8] [-games 4]
//	(or bash bench/starvation.sh)
//
// It builds the real binary (or runs the one -bin names, say an older
// build, for a before/after) and starts `serve` on a loopback port with a
// temporary database, the engine at its defaults (one searcher per core,
// and one more kept for short requests, enginepool/pool.go). It prints the
// server's resident memory as it starts and after the floods.
//
// With -workers N, the same on a site (issue 44): a throwaway PostgreSQL,
// -servers servers (default 2) that leave every engine search to N
// `knightwatch worker` processes of one searcher each (and their quick
// lane's one); the floods on the first server, the samples on the last, so
// that what is measured is the fairness of the jobs across workers.
//
// With -api-bots N, only the API bots' condition beside the replies alone
// (issue 46): N remote bots play the built-in knightwatch over the
// reconchess HTTP API, each game on the server's clock (900 s + 5 s), the
// built-in bots spending it on the server's bot cores (serve
// --rbc-bot-cores, -serve-args to change it) and thinking on the remote
// bots' turns; the replies are timed at each of -levels.
//
// Each sample is a new browser's new level-1 game: 1. e4, timed until the
// engine's reply is on the board (the natural pause included: a reply is
// never sent sooner than 150 ms at level 1). Samples are taken one after
// another, the flood running throughout.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"knightwatch/attack"
	"knightwatch/e2e"
	"knightwatch/loadtest"
)

func main() {
	samples := flag.Int("samples", 10, "level-1 replies timed per condition")
	bin := flag.String("bin", "", "the knightwatch binary to measure (default: build this tree)")
	owners := flag.Int("owners", 8, "browsers in each flood")
	games := flag.Int("games", 4, "games (sockets) per flooding browser")
	servers := flag.Int("servers", 2, "with -workers: servers")
	workers := flag.Int("workers", 0, "engine workers of a site on a throwaway PostgreSQL (0: one server on SQLite)")
	flag.IntVar(&apiBots, "api-bots", 0, "remote bots playing the built-in knightwatch over the HTTP API: measure under them only (0: the engine floods)")
	flag.StringVar(&levelList, "levels", "1", "with -api-bots: the levels whose replies are timed, comma-separated")
	flag.StringVar(&serveArgs, "serve-args", "", "more flags for serve, space-separated (e.g. \"--rbc-bot-cores 0\")")
	flag.Parse()
	if err := run(*bin, *samples, *owners, *games, *servers, *workers); err != nil {
		fmt.Fprintln(os.Stderr, "starvation:", err)
		os.Exit(1)
	}
}

func run(bin string, samples, owners, games, servers, workers int) error {
	dir, err := os.MkdirTemp("", "knightwatch-starvation-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if bin == "" {
		if bin, err = e2e.BuildInto(dir); err != nil {
			return err
		}
	}
	addr, err := e2e.FreeAddr()
	if err != nil {
		return err
	}
	// No cap on connections per address: every browser here is on loopback.
	srv, err := e2e.StartServer(bin, filepath.Join(dir, "kw.db"), addr, filepath.Join(dir, "server.log"), append(maxConnsFlag(bin), strings.Fields(serveArgs)...)...)
	if err != nil {
		return err
	}
	defer srv.Stop(15 * time.Second)
	base, floodBase := srv.URL(), srv.URL()
	if workers > 0 {
		// Stops the SQLite server; the site's servers take its place.
		if base, floodBase, err = startSite(bin, dir, servers, workers); err != nil {
			return err
		}
		srv.Stop(15 * time.Second)
		defer stopSite()
		fmt.Printf("a site: %d servers (floods on the first, samples on the last), %d workers of one searcher each, PostgreSQL on this machine\n", servers, workers)
	}
	fmt.Printf("machine: %s; server %s; flood %d browsers x %d games\n", loadtest.Machine(), bin, owners, games)
	// Resident memory as it starts (no search yet) and after the floods
	// (every searcher has searched: each engine's hash table is in use).
	rss := func(when string) {
		if workers > 0 {
			return // the site's processes: see bench/load run -servers -workers
		}
		fmt.Printf("server RSS %s: %.1f MiB\n", when, float64(loadtest.SampleProc(srv.PID()).RSSKiB)/1024)
	}
	rss("at start")
	fmt.Printf("%-34s %8s %10s %10s %10s  %s\n", "condition", "samples", "p50", "p90", "max", "flood")

	measureAt := func(level int, name string, note func() string) error {
		var ds []time.Duration
		for range samples {
			d, _, _, err := attack.Reply(base, level, 5*time.Minute, nil)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			ds = append(ds, d)
		}
		slices.Sort(ds)
		q := func(p float64) time.Duration { return ds[int(p*float64(len(ds)-1))].Round(time.Millisecond) }
		fmt.Printf("%-34s %8d %10s %10s %10s  %s\n", name, len(ds), q(0.5), q(0.9), ds[len(ds)-1].Round(time.Millisecond), note())
		return nil
	}
	measure := func(name string, note func() string) error { return measureAt(1, name, note) }
	if apiBots > 0 {
		return runAPIBots(base, measureAt)
	}
	if err := measure("alone", func() string { return "" }); err != nil {
		return err
	}
	f, err := attack.StartSearchFlood(floodBase, owners, games, 8)
	if err != nil {
		return err
	}
	time.Sleep(time.Second)
	err = measure("level-8 searches, 1 move each", func() string { return fmt.Sprintf("%d replies to the flood", f.Replies()) })
	f.Stop()
	if err != nil {
		return err
	}
	d, err := attack.StartDrawFlood(floodBase, owners, games, 8, 100*time.Millisecond)
	if err != nil {
		return err
	}
	time.Sleep(time.Second)
	err = measure("draw offers, 10 a second each", func() string {
		return fmt.Sprintf("%d offers weighed, %d refused as too soon", d.DrawVerdicts(), d.DrawsTooSoon())
	})
	d.Stop()
	rss("after the floods")
	return err
}

// maxConnsFlag lifts the per-address caps on connections and on new
// games, for a binary that has them (older builds have neither the caps
// nor the flags): every visitor here shares the loopback address.
func maxConnsFlag(bin string) []string {
	out, _ := execOutput(bin, "serve", "-h")
	var flags []string
	if strings.Contains(out, "max-conns-per-addr") {
		flags = append(flags, "--max-conns-per-addr", "0")
	}
	if strings.Contains(out, "new-games-per-addr") {
		flags = append(flags, "--new-games-per-addr", "0")
	}
	return flags
}

// The -api-bots run's flags.
var (
	apiBots   int
	levelList string
	serveArgs string
)

// runAPIBots times the replies at each of -levels alone, then with
// -api-bots remote bots playing the built-in knightwatch.
func runAPIBots(base string, measureAt func(level int, name string, note func() string) error) error {
	var levels []int
	for _, f := range strings.Split(levelList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 8 {
			return fmt.Errorf("-levels: %q is not a level from 1 to 8", f)
		}
		levels = append(levels, n)
	}
	fmt.Printf("serve flags: %q\n", serveArgs)
	for _, l := range levels {
		if err := measureAt(l, fmt.Sprintf("level %d, alone", l), func() string { return "" }); err != nil {
			return err
		}
	}
	f, err := startAPIBotFlood(base, apiBots)
	if err != nil {
		return err
	}
	defer f.Stop()
	time.Sleep(5 * time.Second) // the built-in bots' first turns under way
	for _, l := range levels {
		if err := measureAt(l, fmt.Sprintf("level %d, %d API bots", l, apiBots), f.Note); err != nil {
			return err
		}
	}
	return nil
}
