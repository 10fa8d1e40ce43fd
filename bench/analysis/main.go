// Command analysis measures the analysis board (issue 47) against the real
// binary on loopback:
//
//   - first line: the time from a position sent on the analysis socket to
//     the engine's first line for it (what the page puts on the screen as
//     it arrives; the page's own drawing, a few milliseconds, not
//     counted), over a session of -positions positions along a Ruy Lopez,
//     -dwell apart;
//
//   - engine seconds: the server's CPU time (user + system, /proc) over
//     that session, per minute of it: what one person analysing costs;
//
//   - 20 people analysing at once (-analysts), each moving on every
//     -dwell: another player's level-1 reply, against the same alone.
//
//     go run ./bench/analysis [-positions 20] [-dwell 3s] [-analysts 20] [-samples 10] [-bin PATH]
//     (or bash bench/analysis.sh)
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"knightwatch/attack"
	"knightwatch/e2e"
	"knightwatch/loadtest"
)

// line is the main line of the session: a Ruy Lopez, Closed.
var line = strings.Fields("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8 h2h3 c6a5 b3c2 c7c5")

func main() {
	positions := flag.Int("positions", 20, "positions in the timed session (at most 20)")
	dwell := flag.Duration("dwell", 3*time.Second, "time on each position")
	analysts := flag.Int("analysts", 20, "people analysing at once while level-1 replies are timed")
	samples := flag.Int("samples", 10, "level-1 replies timed per condition")
	bin := flag.String("bin", "", "the knightwatch binary to measure (default: build this tree)")
	flag.Parse()
	if err := run(*bin, min(*positions, len(line)), *dwell, *analysts, *samples); err != nil {
		fmt.Fprintln(os.Stderr, "analysis:", err)
		os.Exit(1)
	}
}

func run(bin string, positions int, dwell time.Duration, analysts, samples int) error {
	dir, err := os.MkdirTemp("", "knightwatch-analysis-")
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
	srv, err := e2e.StartServer(bin, filepath.Join(dir, "kw.db"), addr, filepath.Join(dir, "server.log"), "--max-conns-per-addr", "0", "--new-games-per-addr", "0")
	if err != nil {
		return err
	}
	defer srv.Stop(15 * time.Second)
	base := srv.URL()
	fmt.Printf("machine: %s; server %s\n", loadtest.Machine(), bin)

	// 1. One person's session: first line per position, engine seconds.
	a, err := dialAnalyst(base)
	if err != nil {
		return err
	}
	cpu0 := cpuTime(srv.PID())
	start := time.Now()
	var firsts []time.Duration
	for i := 1; i <= positions; i++ {
		d, err := a.firstLine(line[:i], dwell)
		if err != nil {
			return fmt.Errorf("position %d: %w", i, err)
		}
		firsts = append(firsts, d)
	}
	a.stop()
	session := time.Since(start)
	cpu := cpuTime(srv.PID()) - cpu0
	a.close()
	fmt.Printf("first line after a position change: p50 %s, p90 %s, max %s (%d positions)\n", q(firsts, .5), q(firsts, .9), q(firsts, 1), len(firsts))
	fmt.Printf("a session of %d positions, %s each (%s): %.1f engine seconds (server CPU), %.1f per minute\n",
		positions, dwell, session.Round(time.Second), cpu.Seconds(), cpu.Seconds()/session.Minutes())

	// 2. Level-1 replies alone, then with analysts at once.
	alone, err := replies(base, samples)
	if err != nil {
		return err
	}
	fmt.Printf("level-1 reply alone: p50 %s, p90 %s, max %s\n", q(alone, .5), q(alone, .9), q(alone, 1))
	var stop atomic.Bool
	var wg sync.WaitGroup
	var lines, refused atomic.Int64
	errs := make(chan error, analysts)
	for k := range analysts {
		an, err := dialAnalyst(base)
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer an.close()
			for i := 0; !stop.Load(); i++ {
				n, r, err := an.dwellOn(line[:1+(i+k)%len(line)], dwell)
				if err != nil {
					errs <- err
					return
				}
				lines.Add(int64(n))
				refused.Add(int64(r))
			}
		}()
	}
	time.Sleep(2 * time.Second)
	loaded, err := replies(base, samples)
	stop.Store(true)
	wg.Wait()
	if err != nil {
		return err
	}
	select {
	case err := <-errs:
		return err
	default:
	}
	fmt.Printf("level-1 reply with %d people analysing: p50 %s, p90 %s, max %s (%d line messages to them, %d analyses refused)\n",
		analysts, q(loaded, .5), q(loaded, .9), q(loaded, 1), lines.Load(), refused.Load())
	return nil
}

// replies times n level-1 replies of new browsers, one after another.
func replies(base string, n int) ([]time.Duration, error) {
	var ds []time.Duration
	for range n {
		d, _, _, err := attack.Reply(base, 1, 2*time.Minute, nil)
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	return ds, nil
}

// q is the p-quantile of ds, rounded to the millisecond.
func q(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[int(p*float64(len(s)-1))].Round(time.Millisecond)
}

// analyst is one browser on the analysis page: its cookie, its socket.
type analyst struct {
	conn *websocket.Conn
	id   int
	// in receives the socket's messages, read by one goroutine (a read
	// deadline would leave a gorilla connection unusable); closed with
	// the socket.
	in chan msg
}

func dialAnalyst(base string) (*analyst, error) {
	b := attack.NewBrowser(base)
	resp, err := b.HC.Get(base + "/analysis")
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	d := websocket.Dialer{Jar: b.HC.Jar, HandshakeTimeout: 10 * time.Second}
	conn, _, err := d.Dial("ws"+strings.TrimPrefix(base, "http")+"/ws/analysis", map[string][]string{"Origin": {base}})
	if err != nil {
		return nil, err
	}
	a := &analyst{conn: conn, in: make(chan msg, 256)}
	go func() {
		defer close(a.in)
		for {
			_, b, err := conn.ReadMessage()
			if err != nil {
				return
			}
			var m msg
			if json.Unmarshal(b, &m) == nil {
				a.in <- m
			}
		}
	}()
	return a, nil
}

type msg struct {
	Type  string `json:"type"`
	ID    int    `json:"id"`
	State string `json:"state"`
	Text  string `json:"text"`
}

func (a *analyst) send(moves []string) error {
	a.id++
	b, _ := json.Marshal(map[string]any{"type": "position", "id": a.id, "moves": moves, "engine": true, "multipv": 3})
	return a.conn.WriteMessage(websocket.TextMessage, b)
}

// firstLine sends the position and returns the time to its first line,
// then stays on it for the rest of dwell.
func (a *analyst) firstLine(moves []string, dwell time.Duration) (time.Duration, error) {
	t0 := time.Now()
	if err := a.send(moves); err != nil {
		return 0, err
	}
	var first time.Duration
	for first == 0 {
		m, err := a.read(t0.Add(time.Minute))
		if err != nil {
			return 0, err
		}
		if m.ID == a.id && m.Type == "lines" {
			first = time.Since(t0)
		}
		if m.ID == a.id && m.Type == "engine" && m.State == "refused" {
			return 0, fmt.Errorf("refused: %s", m.Text)
		}
	}
	_, _, err := a.drain(t0.Add(dwell))
	return first, err
}

// dwellOn sends the position and reads until dwell is over: the lines
// that came and whether the analysis was refused.
func (a *analyst) dwellOn(moves []string, dwell time.Duration) (lines, refused int, err error) {
	t0 := time.Now()
	if err := a.send(moves); err != nil {
		return 0, 0, err
	}
	return a.drain(t0.Add(dwell))
}

func (a *analyst) drain(until time.Time) (lines, refused int, err error) {
	for {
		m, err := a.read(until)
		if err == errTimeout {
			return lines, refused, nil
		}
		if err != nil {
			return lines, refused, err
		}
		switch {
		case m.Type == "lines":
			lines++
		case m.Type == "engine" && m.State == "refused":
			refused++
		}
	}
}

var errTimeout = fmt.Errorf("timed out")

// read returns the next message, or errTimeout at deadline.
func (a *analyst) read(deadline time.Time) (msg, error) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case m, ok := <-a.in:
		if !ok {
			return msg{}, fmt.Errorf("the socket closed")
		}
		return m, nil
	case <-t.C:
		return msg{}, errTimeout
	}
}

func (a *analyst) stop() { a.conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"stop"}`)) }

func (a *analyst) close() { a.conn.Close() }

// cpuTime is process pid's user and system CPU time so far.
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command's closing parenthesis: state is 3rd,
	// utime the 14th and stime the 15th of the whole line.
	rest := string(b[strings.LastIndexByte(string(b), ')')+2:])
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / time.Duration(clockTicks())
}

// clockTicks is the kernel's clock ticks a second (getconf CLK_TCK; 100
// when it cannot say).
func clockTicks() int64 {
	out, err := exec.Command("getconf", "CLK_TCK").Output()
	if n, perr := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64); err == nil && perr == nil && n > 0 {
		return n
	}
	return 100
}
