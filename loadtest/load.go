package loadtest

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// LoadConfig is one load run: Games players at once, each its own visitor
// playing game after game.
type LoadConfig struct {
	Bin      string        // the binary (Build); required
	Games    int           // players at once, 1..MaxActiveGames
	Warmup   time.Duration // not measured: games open, first moves
	Duration time.Duration // measured, after the warm-up
	// Level8 and Recon are the shares of players at level 8 and playing
	// Reconnaissance Chess; the rest play level 1.
	Level8, Recon float64
	ReconBot      string        // the recon opponent's spec; default "random"
	Clock         string        // the new-game form's clock; default "5+3"
	Think         time.Duration // longest random pause before each action
	Seed          uint64
	ServerArgs    []string // more serve flags
	// DB is the server's database: a SQLite path or a PostgreSQL URL of
	// an empty database ("": a SQLite file in the run's folder).
	DB string
	// Servers and Workers, with DB a PostgreSQL URL and Servers above 1
	// or Workers above 0, run a site (site.go): that many servers behind a
	// round-robin proxy, and engine workers taking every engine job (none:
	// the servers take them).
	Servers, Workers int
	Log              io.Writer // progress lines; nil: none
}

func (c *LoadConfig) check() error {
	if c.Bin == "" {
		return fmt.Errorf("loadtest: no binary")
	}
	if err := checkCount("games", c.Games, MaxActiveGames); err != nil {
		return err
	}
	if err := checkDuration("duration", c.Duration); err != nil {
		return err
	}
	if err := checkDuration("warm-up plus duration", c.Warmup+c.Duration); err != nil {
		return err
	}
	if err := checkShares(c.Level8, c.Recon); err != nil {
		return err
	}
	if c.ReconBot == "" {
		c.ReconBot = "random"
	}
	if c.Clock == "" {
		c.Clock = "5+3"
	}
	if c.Servers > 1 || c.Workers > 0 {
		if !strings.HasPrefix(c.DB, "postgres") {
			return fmt.Errorf("loadtest: several servers or workers need a PostgreSQL database")
		}
		if c.Servers < 1 || c.Servers > 8 || c.Workers > 8 {
			return fmt.Errorf("loadtest: %d servers and %d workers: want 1..8 and 0..8", c.Servers, c.Workers)
		}
	}
	if c.Think < 0 || c.Think > time.Minute {
		return fmt.Errorf("loadtest: think %v: must be from 0 to 1m", c.Think)
	}
	return checkFDs(2*c.Games + 200)
}

// LoadReport is what a load run measured.
type LoadReport struct {
	Config  LoadConfig
	Machine string  // at the start
	Fsync   Summary // 4 KiB writes synced in the database's folder, just before (fsyncLatency)
	LoadEnd string  // load average at the end
	Elapsed time.Duration
	// Latencies: the player's chess move acknowledged; the engine's reply
	// by level (from that acknowledgement to the engine's move arriving,
	// the natural pause of web/PROTOCOL.md included); a recon sense or
	// move acknowledged; the recon bot's turn.
	Ack, ReconAck, ReconBot Summary
	Engine                  map[int]Summary
	// Counts over the measured window.
	PlayerMoves, EngineMoves, ReconActions int64
	Errors                                 map[string]int
	Violations                             []string
	// The server's resources: after the warm-up, the highest of each
	// figure while measuring, and at the end.
	Start, Peak, End ProcSample
	// ServerCPU is the server's CPU time over the measured window divided
	// by its length: 2 would be both cores of this machine, all the time.
	// ClientCPU is the same for this process, the players, which share
	// the cores with the server.
	ServerCPU, ClientCPU float64
	// On a site: the workers' CPU (all of them), PostgreSQL's (every
	// postgres process of this machine), both as ServerCPU (which is
	// then every server's); and the engine's moves per second of a
	// worker's CPU, the moves and recon actions per second of a server's.
	WorkerCPU, DatabaseCPU float64
}

// MovesPerSecond is every acknowledged move and recon action per second:
// the player's, the engine's and the player's recon actions.
func (r *LoadReport) MovesPerSecond() float64 {
	return float64(r.PlayerMoves+r.EngineMoves+r.ReconActions) / r.Elapsed.Seconds()
}

// Run starts the server, plays cfg.Games games at once for the warm-up
// and the duration, and reports.
func Run(cfg LoadConfig) (*LoadReport, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	dir, err := tempDir()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	rep := &LoadReport{Config: cfg, Machine: Machine()}
	if rep.Fsync, err = fsyncLatency(dir, 200); err != nil {
		return nil, err
	}
	var srv interface {
		URL() string
		sample() ProcSample
		cpu() float64
	}
	workerCPU := func() float64 { return 0 }
	if cfg.Servers > 1 || cfg.Workers > 0 {
		s, err := startSite(cfg.Bin, dir, cfg.DB, cfg.Servers, cfg.Workers, 0, cfg.Seed, cfg.ServerArgs...)
		if err != nil {
			return nil, err
		}
		defer s.Stop(10 * time.Second)
		srv, workerCPU = s, s.workerCPU
	} else {
		one, err := startServer(cfg.Bin, dir, cfg.DB, cfg.ServerArgs...)
		if err != nil {
			return nil, err
		}
		defer one.Stop(10 * time.Second)
		srv = one
	}
	rec := newRecorder()
	ctx, cancel := context.WithCancel(context.Background())
	tmpl := playerConfig{clock: cfg.Clock, reconBot: cfg.ReconBot, think: cfg.Think}
	players, err := makePlayers(srv.URL(), cfg.Games, cfg.Level8, cfg.Recon, tmpl, cfg.Seed, rec, newLedger())
	if err != nil {
		cancel()
		return nil, err
	}
	var wg sync.WaitGroup
	for _, p := range players {
		wg.Add(1)
		go func() { defer wg.Done(); p.run(ctx) }()
	}
	logf(cfg.Log, "%d games: warming up for %v", cfg.Games, cfg.Warmup)
	sleep(ctx, cfg.Warmup)
	rep.Start = srv.sample()
	rep.Peak = rep.Start
	rec.on.Store(true)
	start, cpu0, self0, work0, db0 := time.Now(), srv.cpu(), cpuSeconds(os.Getpid()), workerCPU(), postgresCPU()
	tick := time.NewTicker(time.Second)
	for time.Since(start) < cfg.Duration {
		<-tick.C
		rep.Peak = peak(rep.Peak, srv.sample())
	}
	tick.Stop()
	rec.on.Store(false)
	rep.Elapsed = time.Since(start)
	rep.ServerCPU = (srv.cpu() - cpu0) / rep.Elapsed.Seconds()
	rep.ClientCPU = (cpuSeconds(os.Getpid()) - self0) / rep.Elapsed.Seconds()
	if cfg.Servers > 1 || cfg.Workers > 0 {
		rep.WorkerCPU = (workerCPU() - work0) / rep.Elapsed.Seconds()
		rep.DatabaseCPU = (postgresCPU() - db0) / rep.Elapsed.Seconds()
	}
	rep.End = srv.sample()
	rep.Peak = peak(rep.Peak, rep.End)
	rep.LoadEnd = LoadAverage()
	cancel()
	wg.Wait()
	rep.Ack, rep.ReconAck, rep.ReconBot = rec.ack.Summary(), rec.reconAck.Summary(), rec.reconBot.Summary()
	rep.Engine = map[int]Summary{}
	for level, l := range rec.engine {
		rep.Engine[level] = l.Summary()
	}
	rep.PlayerMoves, rep.EngineMoves, rep.ReconActions = rec.playerMoves.Load(), rec.engineMoves.Load(), rec.reconActions.Load()
	rep.Errors = rec.errors.Counts()
	rep.Violations = rec.violationList()
	return rep, nil
}

// makePlayers makes n players like tmpl, each a visitor of its own: the
// first recon·n play Reconnaissance Chess, the next level8·n level 8, the
// rest level 1 (rounded to the nearest player).
func makePlayers(base string, n int, level8, reconShare float64, tmpl playerConfig, seed uint64, rec *recorder, led *ledger) ([]*player, error) {
	nRecon := int(reconShare*float64(n) + 0.5)
	n8 := int(level8*float64(n) + 0.5)
	out := make([]*player, n)
	for i := range out {
		v, err := newVisitor(base)
		if err != nil {
			return nil, err
		}
		cfg := tmpl
		cfg.kind, cfg.level = kindChess, 1
		switch {
		case i < nRecon:
			cfg.kind = kindRecon
		case i < nRecon+n8:
			cfg.level = 8
		}
		out[i] = &player{v: v, cfg: cfg, rec: rec, led: led, rng: rand.New(rand.NewPCG(seed, uint64(i)))}
	}
	return out, nil
}

func peak(a, b ProcSample) ProcSample {
	return ProcSample{RSSKiB: max(a.RSSKiB, b.RSSKiB), Threads: max(a.Threads, b.Threads), FDs: max(a.FDs, b.FDs), Goroutines: max(a.Goroutines, b.Goroutines)}
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}

// Print writes the report as the bench tools show it.
func (r *LoadReport) Print(w io.Writer) {
	c := r.Config
	fmt.Fprintf(w, "machine: %s\n", r.Machine)
	fmt.Fprintf(w, "disk: fsync of 4 KiB %s\n", r.Fsync)
	fmt.Fprintf(w, "games %d (level 8 %.0f%%, recon %.0f%% against %s), clock %s, think up to %v, warm-up %v, measured %.1fs, load average at the end %s\n",
		c.Games, 100*c.Level8, 100*c.Recon, c.ReconBot, c.Clock, c.Think, c.Warmup, r.Elapsed.Seconds(), r.LoadEnd)
	fmt.Fprintf(w, "moves/s %.1f (player %d, engine %d, recon actions %d)\n", r.MovesPerSecond(), r.PlayerMoves, r.EngineMoves, r.ReconActions)
	fmt.Fprintf(w, "ack of the player's move: %s\n", r.Ack)
	levels := make([]int, 0, len(r.Engine))
	for l := range r.Engine {
		levels = append(levels, l)
	}
	sort.Ints(levels)
	for _, l := range levels {
		fmt.Fprintf(w, "engine reply, level %d: %s\n", l, r.Engine[l])
	}
	fmt.Fprintf(w, "recon ack: %s\n", r.ReconAck)
	fmt.Fprintf(w, "recon bot's turn: %s\n", r.ReconBot)
	t := Tally{m: r.Errors}
	fmt.Fprintf(w, "errors: %s\n", t.String())
	if len(r.Violations) > 0 {
		fmt.Fprintf(w, "VIOLATIONS: %s\n", strings.Join(r.Violations, "; "))
	}
	fmt.Fprintf(w, "players (this process): CPU %.2f cores\n", r.ClientCPU)
	if c.Servers > 1 || c.Workers > 0 {
		secs := r.Elapsed.Seconds()
		fmt.Fprintf(w, "site: %d servers, %d workers; CPU of the servers %.2f cores, of the workers %.2f, of PostgreSQL %.2f\n",
			c.Servers, c.Workers, r.ServerCPU, r.WorkerCPU, r.DatabaseCPU)
		if r.ServerCPU > 0 {
			fmt.Fprintf(w, "per server CPU-second: %.0f moves and recon actions\n", r.MovesPerSecond()/r.ServerCPU)
		}
		if r.WorkerCPU > 0 {
			fmt.Fprintf(w, "per worker CPU-second: %.1f engine moves\n", float64(r.EngineMoves)/secs/r.WorkerCPU)
		}
		fmt.Fprintf(w, "first server: after warm-up %s; peak %s; end %s\n", r.Start, r.Peak, r.End)
		return
	}
	fmt.Fprintf(w, "server: CPU %.2f cores; after warm-up %s; peak %s; end %s\n", r.ServerCPU, r.Start, r.Peak, r.End)
}
