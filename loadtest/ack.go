package loadtest

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// AckConfig is the acknowledgement benchmark of the web server alone (the
// engine switched off with serve --no-engine): Games games, each its own
// visitor, each playing Rounds rounds of "move e2e4, take it back".
type AckConfig struct {
	Bin    string
	Games  int
	Rounds int
	// Pause is the longest random pause between a game's messages, so
	// that the load is a crowd of players rather than a lock-step loop.
	Pause time.Duration
	// DB is the server's database: a SQLite path or a PostgreSQL URL of
	// an empty database ("": a SQLite file in the run's folder).
	DB string
}

// AckReport is what Ack measured: the latency of every acknowledged
// change (validate, commit, send the new state), and the memory each idle
// open game costs: the server's RSS with every game open and idle, minus
// its RSS before the sockets opened, over the number of games.
type AckReport struct {
	Config             AckConfig
	Machine            string
	Fsync              Summary // the disk, just before (fsyncLatency)
	Latency            Summary
	Elapsed            time.Duration
	RSSBefore, RSSIdle int // KiB
}

// Ack runs the benchmark (bench/ws_latency.sh).
func Ack(cfg AckConfig) (*AckReport, error) {
	if err := checkCount("games", cfg.Games, MaxActiveGames); err != nil {
		return nil, err
	}
	if err := checkCount("rounds", cfg.Rounds, 10000); err != nil {
		return nil, err
	}
	if err := checkFDs(2*cfg.Games + 200); err != nil {
		return nil, err
	}
	dir, err := tempDir()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	srv, err := startServer(cfg.Bin, dir, cfg.DB, "--no-engine")
	if err != nil {
		return nil, err
	}
	defer srv.Stop(10 * time.Second)
	rep := &AckReport{Config: cfg, Machine: Machine()}
	if rep.Fsync, err = fsyncLatency(dir, 200); err != nil {
		return nil, err
	}

	visitors := make([]*visitor, cfg.Games)
	ids := make([]string, cfg.Games)
	form := url.Values{"color": {"white"}, "level": {"1"}, "variant": {"standard"}, "clock": {"5+3"}}
	for i := range ids {
		if visitors[i], err = newVisitor(srv.URL()); err != nil {
			return nil, err
		}
		if ids[i], err = visitors[i].create(form); err != nil {
			return nil, err
		}
	}
	time.Sleep(500 * time.Millisecond)
	rep.RSSBefore = srv.sample().RSSKiB
	conns := make([]*websocket.Conn, cfg.Games)
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.Close()
			}
		}
	}()
	for i, id := range ids {
		c, err := visitors[i].dial(id)
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", i, err)
		}
		conns[i] = c
		if _, err := readPly(c); err != nil { // the state on connect
			return nil, err
		}
	}
	time.Sleep(2 * time.Second) // idle: let the server settle
	rep.RSSIdle = srv.sample().RSSKiB

	var lat Latencies
	var wg sync.WaitGroup
	errs := make(chan error, cfg.Games)
	start := time.Now()
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			for range cfg.Rounds {
				for _, msg := range []struct {
					text string
					ply  int
				}{{`{"type":"move","move":"e2e4","ply":0}`, 1}, {`{"type":"takeback","ply":1}`, 0}} {
					time.Sleep(time.Duration(rng.Int64N(int64(cfg.Pause) + 1)))
					t0 := time.Now()
					if err := c.WriteMessage(websocket.TextMessage, []byte(msg.text)); err != nil {
						errs <- err
						return
					}
					for {
						ply, err := readPly(c)
						if err != nil {
							errs <- err
							return
						}
						if ply == msg.ply {
							break
						}
					}
					lat.Add(time.Since(t0))
				}
			}
		}()
	}
	wg.Wait()
	rep.Elapsed = time.Since(start)
	close(errs)
	for err := range errs {
		return nil, err
	}
	rep.Latency = lat.Summary()
	return rep, nil
}

// readPly returns the ply of the next state message; an error message is
// fatal.
func readPly(c *websocket.Conn) (int, error) {
	for {
		c.SetReadDeadline(time.Now().Add(30 * time.Second))
		_, b, err := c.ReadMessage()
		if err != nil {
			return 0, err
		}
		var m wire
		if err := json.Unmarshal(b, &m); err != nil {
			return 0, err
		}
		switch m.Type {
		case "state":
			return m.Ply, nil
		case "error":
			return 0, fmt.Errorf("server error %s", b)
		}
	}
}

// KiBPerGame is the memory of one idle open game.
func (r *AckReport) KiBPerGame() float64 {
	return float64(r.RSSIdle-r.RSSBefore) / float64(r.Config.Games)
}

// Print writes the report as bench/ws_latency.sh always has.
func (r *AckReport) Print(w io.Writer) {
	c := r.Config
	fmt.Fprintf(w, "machine: %s\n", r.Machine)
	fmt.Fprintf(w, "disk: fsync of 4 KiB %s\n", r.Fsync)
	fmt.Fprintf(w, "games %d, rounds %d, pause up to %v, %d acknowledged changes in %.1fs (%.0f/s)\n",
		c.Games, c.Rounds, c.Pause, r.Latency.N, r.Elapsed.Seconds(), float64(r.Latency.N)/r.Elapsed.Seconds())
	fmt.Fprintf(w, "ack latency: %s\n", r.Latency)
	fmt.Fprintf(w, "server RSS: %d KiB before sockets, %d KiB with %d idle games open: %.1f KiB per idle open game\n",
		r.RSSBefore, r.RSSIdle, c.Games, r.KiBPerGame())
}
