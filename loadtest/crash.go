package loadtest

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// CrashConfig is a crash test: players at once, the server killed with
// SIGKILL Kills times at random moments and restarted on the same
// database, every game checked after each kill and at the end.
type CrashConfig struct {
	Bin   string
	Kills int // 1..MaxKills
	Games int // players at once, 1..MaxActiveGames
	// Recon and Level8 are the shares of players in Reconnaissance Chess
	// and at level 8; the rest play level 1.
	Recon, Level8 float64
	ReconBot      string // default "random"
	// MinUp and MaxUp bound the random time from a restart to the next
	// kill.
	MinUp, MaxUp time.Duration
	Think        time.Duration // longest random pause before a player's action
	Seed         uint64
	// Progress bounds the wait, after the last restart, for every player
	// to have an action acknowledged again (default a minute).
	Progress time.Duration
	Log      io.Writer
	// Postgres, a PostgreSQL URL, runs the test on a site (site.go):
	// Servers servers and Workers engine workers on that database behind
	// a round-robin proxy that cuts each connection within ConnLife (0:
	// never), so that sockets come back to another server; each kill ends
	// a server or a worker in turn. Empty: one server on SQLite.
	Postgres         string
	Servers, Workers int
	ConnLife         time.Duration
}

func (c *CrashConfig) check() error {
	if c.Bin == "" {
		return fmt.Errorf("loadtest: no binary")
	}
	if err := checkCount("kills", c.Kills, MaxKills); err != nil {
		return err
	}
	if err := checkCount("games", c.Games, MaxActiveGames); err != nil {
		return err
	}
	if err := checkShares(c.Level8, c.Recon); err != nil {
		return err
	}
	if c.ReconBot == "" {
		c.ReconBot = "random"
	}
	if c.MinUp <= 0 || c.MaxUp < c.MinUp || c.MaxUp > time.Minute {
		return fmt.Errorf("loadtest: time between kills %v..%v: must be above 0, rising, at most 1m", c.MinUp, c.MaxUp)
	}
	if c.Postgres != "" && (c.Servers < 1 || c.Servers > 8 || c.Workers < 0 || c.Workers > 8) {
		return fmt.Errorf("loadtest: %d servers and %d workers: want 1..8 and 0..8", c.Servers, c.Workers)
	}
	if err := checkDuration("the whole run (kills × longest time up)", time.Duration(c.Kills)*c.MaxUp); err != nil {
		return err
	}
	return checkFDs(2*c.Games + 200)
}

// CrashReport is what a crash test found. Problems lists every lost,
// duplicated or invented move or action, every unreadable game, every
// state a reconnecting player got that contradicted what it had seen,
// every player that could not play on after the last restart, and any
// panic in the server's log; it is empty when all held.
type CrashReport struct {
	Config  CrashConfig
	Machine string
	Elapsed time.Duration
	Kills   int // done
	// At the end: games in the database, the acknowledged chess moves
	// (both sides) and recon actions (both sides) the players had seen,
	// all of them checked against the database.
	ChessGames, ReconGames   int
	AckedMoves, AckedActions int
	// Summed over every check (one after each kill, one at the end).
	CheckedMoves, CheckedActions int
	// Takebacks acknowledged (some of them racing the engine's reply).
	Takebacks int64
	// ClockGames counts the games whose clocks were compared across the
	// site's servers at the end (checkClocks: at most maxClockChecks of
	// them in play).
	ClockGames int
	// EngineAnswers counts the engine searches done as jobs by the
	// site's workers (0 on SQLite, where the server searches itself).
	EngineAnswers int
	Problems      []string
	Errors        map[string]int
}

// OK reports whether nothing was lost, duplicated or unreadable.
func (r *CrashReport) OK() bool { return len(r.Problems) == 0 }

// Crash runs the crash test. An error means the test could not run (the
// server did not start again, say); what it found is in the report.
func Crash(cfg CrashConfig) (*CrashReport, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.Progress <= 0 {
		cfg.Progress = time.Minute
	}
	dir, err := tempDir()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	rep := &CrashReport{Config: cfg, Machine: Machine()}
	start := time.Now()
	defer func() { rep.Elapsed = time.Since(start) }()
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6b696c6c))
	// What the players talk to, what the checks read, what a kill ends
	// and how all of it stops.
	var (
		base   string
		hold   = func() {} // the players' traffic, while the checks read
		resume = func() {}
		// clocks compares the clocks of the games in play on every server
		// (a site only), once the players are gone.
		clocks = func() []string { return nil }
		read   func() (*storedGames, error)
		victim func(k int) (process, string)
		stop   func() error
	)
	if cfg.Postgres == "" {
		srv, err := startServer(cfg.Bin, dir, "")
		if err != nil {
			return nil, err
		}
		defer srv.Stop(10 * time.Second)
		db, scratch := filepath.Join(dir, "kw.db"), filepath.Join(dir, "check")
		base = srv.URL()
		read = func() (*storedGames, error) { return readSnapshot(db, scratch) }
		victim = func(int) (process, string) { return srv, "the server" }
		stop = func() error { return srv.Stop(10 * time.Second) }
	} else {
		s, err := startSite(cfg.Bin, dir, cfg.Postgres, cfg.Servers, cfg.Workers, cfg.ConnLife, cfg.Seed)
		if err != nil {
			return nil, err
		}
		defer s.Stop(10 * time.Second)
		base = s.proxy.URL()
		// The other servers play on while one is dead: a check compares
		// what the players saw with the database only while they can
		// neither hear nor send anything more (proxy.Hold).
		hold, resume = s.proxy.Hold, s.proxy.Release
		clocks = func() []string {
			stored, err := readPostgres(cfg.Postgres)
			if err != nil {
				return []string{fmt.Sprintf("clocks: %v", err)}
			}
			var urls []string
			for _, srv := range s.servers {
				urls = append(urls, srv.URL())
			}
			n, problems := checkClocks(cfg.Postgres, urls, stored)
			rep.ClockGames = n
			return problems
		}
		read = func() (*storedGames, error) { return readPostgres(cfg.Postgres) }
		victim = func(k int) (process, string) { return s.victim(k, rng.IntN) }
		stop = func() error { return s.Stop(10 * time.Second) }
	}
	rec, led := newRecorder(), newLedger()
	tmpl := playerConfig{clock: "5+3", reconBot: cfg.ReconBot, think: cfg.Think, takebacks: true}
	players, err := makePlayers(base, cfg.Games, cfg.Level8, cfg.Recon, tmpl, cfg.Seed, rec, led)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, p := range players {
		wg.Add(1)
		go func() { defer wg.Done(); p.run(ctx) }()
	}
	stopPlayers := func() { cancel(); wg.Wait() }
	defer stopPlayers()

	check := func(when string) {
		hold()
		defer resume()
		cs, rs := led.snapshot()
		stored, err := read()
		if err != nil {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: the database is unreadable: %v", when, err))
			return
		}
		res := checkGames(stored, cs, rs)
		for _, p := range res.problems {
			rep.Problems = append(rep.Problems, when+": "+p)
		}
		rep.ChessGames, rep.ReconGames = res.chessGames, res.reconGames
		rep.AckedMoves, rep.AckedActions = res.ackedMoves, res.ackedActions
		rep.CheckedMoves += res.ackedMoves
		rep.CheckedActions += res.ackedActions
	}

	for k := 1; k <= cfg.Kills; k++ {
		up := cfg.MinUp + time.Duration(rng.Int64N(int64(cfg.MaxUp-cfg.MinUp)+1))
		time.Sleep(up)
		p, name := victim(k)
		if err := p.Kill(); err != nil {
			return rep, fmt.Errorf("kill %d (%s): %w", k, name, err)
		}
		rep.Kills = k
		check(fmt.Sprintf("after kill %d (%s)", k, name))
		if err := p.Start(); err != nil {
			return rep, fmt.Errorf("restart of %s after kill %d: %w", name, k, err)
		}
		logf(cfg.Log, "kill %d/%d (%s) after %v up: %d chess moves and %d recon actions acknowledged and checked, %d problems so far",
			k, cfg.Kills, name, up.Round(time.Millisecond), rep.AckedMoves, rep.AckedActions, len(rep.Problems))
	}

	// Play goes on after the last restart: every player has an action of
	// its own acknowledged again.
	before := make([]int64, len(players))
	for i, p := range players {
		before[i] = p.ownAcks.Load()
	}
	deadline := time.Now().Add(cfg.Progress)
	for {
		stuck := 0
		for i, p := range players {
			if p.ownAcks.Load() == before[i] {
				stuck++
			}
		}
		if stuck == 0 {
			break
		}
		if time.Now().After(deadline) {
			rep.Problems = append(rep.Problems, fmt.Sprintf("after the last restart, %d of %d players had nothing acknowledged within %v", stuck, len(players), cfg.Progress))
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	stopPlayers()
	rep.Problems = append(rep.Problems, clocks()...)
	if err := stop(); err != nil {
		rep.Problems = append(rep.Problems, fmt.Sprintf("stopping: %v", err))
	}
	check("at the end")
	if cfg.Postgres != "" {
		if rep.EngineAnswers, err = countEngineAnswers(cfg.Postgres); err != nil {
			rep.Problems = append(rep.Problems, fmt.Sprintf("counting the engine's answers: %v", err))
		}
	}
	rep.Problems = append(rep.Problems, rec.violationList()...)
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	more, _ := filepath.Glob(filepath.Join(dir, "*", "*.log"))
	for _, name := range append(logs, more...) {
		log, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(log), "\n") {
			if strings.Contains(l, "panic") {
				rep.Problems = append(rep.Problems, filepath.Base(name)+": "+l)
			}
		}
	}
	rep.Errors = rec.errors.Counts()
	rep.Takebacks = rec.takebacks.Load()
	return rep, nil
}

// Print writes the report.
func (r *CrashReport) Print(w io.Writer) {
	c := r.Config
	fmt.Fprintf(w, "machine: %s\n", r.Machine)
	if c.Postgres != "" {
		fmt.Fprintf(w, "a site: %d servers, %d workers on PostgreSQL behind a round-robin proxy cutting connections within %v; kills alternate servers and workers\n", c.Servers, c.Workers, c.ConnLife)
	}
	fmt.Fprintf(w, "%d kills of %d, %d players (recon %.0f%% against %s, level 8 %.0f%%), up %v..%v between kills, think up to %v, seed %d, %.0fs\n",
		r.Kills, c.Kills, c.Games, 100*c.Recon, c.ReconBot, 100*c.Level8, c.MinUp, c.MaxUp, c.Think, c.Seed, r.Elapsed.Seconds())
	fmt.Fprintf(w, "at the end: %d chess games, %d recon games in the database; %d chess moves and %d recon actions seen acknowledged, all checked\n",
		r.ChessGames, r.ReconGames, r.AckedMoves, r.AckedActions)
	if c.Postgres != "" {
		fmt.Fprintf(w, "%d engine searches done as jobs by the workers; the clocks of %d games in play compared on every server at the end\n", r.EngineAnswers, r.ClockGames)
	}
	fmt.Fprintf(w, "over all %d checks: %d acknowledged chess moves and %d recon actions compared; %d takebacks acknowledged\n", r.Kills+1, r.CheckedMoves, r.CheckedActions, r.Takebacks)
	t := Tally{m: r.Errors}
	fmt.Fprintf(w, "errors (dial and read failures are the kills): %s\n", t.String())
	if r.OK() {
		fmt.Fprintln(w, "nothing lost, nothing duplicated, every game readable, play went on after the last restart")
		return
	}
	fmt.Fprintf(w, "%d PROBLEMS:\n", len(r.Problems))
	for _, p := range r.Problems {
		fmt.Fprintln(w, "  "+p)
	}
}
