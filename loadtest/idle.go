package loadtest

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// IdleConfig is a measurement of idle open games: games created first,
// then their sockets opened in steps, the server's resources read after
// each step once it has settled.
type IdleConfig struct {
	Bin string
	// Steps are the numbers of open games after each step, rising, at
	// most MaxIdleGames.
	Steps []int
	// Recon opens Reconnaissance Chess games against ReconBot instead of
	// chess games against level 1. The person plays White either way, so
	// nobody's engine or bot has anything to do.
	Recon    bool
	ReconBot string
	Clock    string
	Log      io.Writer
}

// IdleStep is the server's resources with Games games open and idle.
type IdleStep struct {
	Games  int
	Sample ProcSample
}

// IdleReport is what Idle measured, with the cost per open game fitted
// over the steps (least squares through the sample before any socket).
type IdleReport struct {
	Config  IdleConfig
	Machine string
	Before  ProcSample // every game created, no socket open
	Steps   []IdleStep
	// Per open game: resident KiB, goroutines, descriptors.
	KiBPerGame, GoroutinesPerGame, FDsPerGame float64
}

// settle is how long the server is left alone before a sample.
const settle = 3 * time.Second

// Idle creates the largest step's games, then opens them step by step.
func Idle(cfg IdleConfig) (*IdleReport, error) {
	if len(cfg.Steps) == 0 {
		return nil, fmt.Errorf("loadtest: no steps")
	}
	for i, n := range cfg.Steps {
		if err := checkCount("open games", n, MaxIdleGames); err != nil {
			return nil, err
		}
		if i > 0 && n <= cfg.Steps[i-1] {
			return nil, fmt.Errorf("loadtest: steps must rise: %v", cfg.Steps)
		}
	}
	total := cfg.Steps[len(cfg.Steps)-1]
	if err := checkFDs(total + 200); err != nil {
		return nil, err
	}
	dir, err := tempDir()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	srv, err := startServer(cfg.Bin, dir, "")
	if err != nil {
		return nil, err
	}
	defer srv.Stop(30 * time.Second)
	rep := &IdleReport{Config: cfg, Machine: Machine()}

	form := url.Values{"variant": {"standard"}, "color": {"white"}, "level": {"1"}, "clock": {cfg.Clock}}
	if cfg.Recon {
		form = url.Values{"variant": {"recon"}, "opponent": {cfg.ReconBot}, "color": {"white"}, "clock": {cfg.Clock}}
	}
	visitors := make([]*visitor, total)
	ids := make([]string, total)
	logf(cfg.Log, "creating %d games", total)
	if err := parallel(total, 8, func(i int) error {
		v, err := newVisitor(srv.URL())
		if err != nil {
			return err
		}
		visitors[i] = v
		ids[i], err = v.create(form)
		return err
	}); err != nil {
		return nil, err
	}
	time.Sleep(settle)
	rep.Before = srv.sample()

	conns := make([]*websocket.Conn, total)
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.Close()
			}
		}
	}()
	opened := 0
	for _, n := range cfg.Steps {
		logf(cfg.Log, "opening games %d to %d", opened+1, n)
		if err := parallel(n-opened, 16, func(i int) error {
			k := opened + i
			c, err := visitors[k].dial(ids[k])
			if err != nil {
				return err
			}
			c.SetReadDeadline(time.Now().Add(30 * time.Second))
			if _, _, err := c.ReadMessage(); err != nil { // the state on connect
				c.Close()
				return err
			}
			c.SetReadDeadline(time.Time{})
			conns[k] = c
			go drain(c) // answers the server's pings
			return nil
		}); err != nil {
			return nil, err
		}
		opened = n
		time.Sleep(settle)
		rep.Steps = append(rep.Steps, IdleStep{Games: n, Sample: srv.sample()})
	}
	xs := []float64{0}
	rss, gs, fds := []float64{float64(rep.Before.RSSKiB)}, []float64{float64(rep.Before.Goroutines)}, []float64{float64(rep.Before.FDs)}
	for _, s := range rep.Steps {
		xs = append(xs, float64(s.Games))
		rss = append(rss, float64(s.Sample.RSSKiB))
		gs = append(gs, float64(s.Sample.Goroutines))
		fds = append(fds, float64(s.Sample.FDs))
	}
	rep.KiBPerGame, rep.GoroutinesPerGame, rep.FDsPerGame = slope(xs, rss), slope(xs, gs), slope(xs, fds)
	return rep, nil
}

// drain reads and drops everything until the connection closes.
func drain(c *websocket.Conn) {
	for {
		if _, _, err := c.ReadMessage(); err != nil {
			return
		}
	}
}

// parallel runs f(0..n-1) on workers goroutines and returns the first error.
func parallel(n, workers int, f func(i int) error) error {
	var next atomic.Int64
	var once sync.Once
	var first error
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := f(i); err != nil {
					once.Do(func() { first = err; cancel() })
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// slope is the least-squares slope of ys over xs.
func slope(xs, ys []float64) float64 {
	n := float64(len(xs))
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
		sxx += xs[i] * xs[i]
		sxy += xs[i] * ys[i]
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / d
}

// GamesPerGiB extrapolates from the fitted cost how many idle open games
// fit in 1 GiB of resident memory, the server's own base (its RSS before
// any socket) included.
func (r *IdleReport) GamesPerGiB() int {
	if r.KiBPerGame <= 0 {
		return 0
	}
	return int(float64(1<<20-r.Before.RSSKiB) / r.KiBPerGame)
}

// Print writes the steps as a Markdown table and the fitted costs.
func (r *IdleReport) Print(w io.Writer) {
	kind := "chess games against level 1"
	if r.Config.Recon {
		kind = "Reconnaissance Chess games against " + r.Config.ReconBot
	}
	fmt.Fprintf(w, "machine: %s\n", r.Machine)
	fmt.Fprintf(w, "idle open %s (the person White, nobody to move but the person), clock %s\n", kind, r.Config.Clock)
	fmt.Fprintln(w, "| open games | server RSS | goroutines | fds |")
	fmt.Fprintln(w, "|---|---|---|---|")
	fmt.Fprintf(w, "| 0 (%d created) | %.1f MiB | %d | %d |\n", r.Config.Steps[len(r.Config.Steps)-1], float64(r.Before.RSSKiB)/1024, r.Before.Goroutines, r.Before.FDs)
	for _, s := range r.Steps {
		fmt.Fprintf(w, "| %d | %.1f MiB | %d | %d |\n", s.Games, float64(s.Sample.RSSKiB)/1024, s.Sample.Goroutines, s.Sample.FDs)
	}
	fmt.Fprintf(w, "per open game: %.1f KiB, %.2f goroutines, %.2f fds\n", r.KiBPerGame, r.GoroutinesPerGame, r.FDsPerGame)
	last := r.Steps[len(r.Steps)-1]
	fmt.Fprintf(w, "1 GiB of server RSS holds about %d idle open games (extrapolated from the fit; the largest step measured %d games in %.0f MiB)\n",
		r.GamesPerGiB(), last.Games, float64(last.Sample.RSSKiB)/1024)
}
