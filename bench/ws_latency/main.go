// Command ws_latency measures the web server alone under many concurrent
// games on loopback: the latency of a move's acknowledgement (validate,
// commit to SQLite, send the new state; the engine is switched off with
// serve --no-engine) at p50/p99, and the memory each idle open game costs.
//
//	go run ./bench/ws_latency [-games 500] [-rounds 20] [-pause 100ms]
//	(or bash bench/ws_latency.sh)
//
// With -review it measures the reviews of finished games instead
// (review.go).
//
// It builds the real binary, starts `serve --no-engine` on a loopback port
// with a temporary database, creates the games over HTTP, then opens one
// WebSocket per game. Memory: the server's VmRSS (from /proc) with every
// game open and idle, minus its VmRSS before the sockets were opened,
// divided by the number of games. Latency: every game then plays
// -rounds rounds of "move e2e4, take it back", each message timed from just
// before it is written until the state at the new ply arrives, with a
// random pause of up to -pause between messages so the load is a crowd of
// players rather than a lock-step loop. Both the move and the take-back are
// a validated, committed, broadcast change, so both count as samples.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gorilla/websocket"
)

func main() {
	games := flag.Int("games", 500, "concurrent games (one WebSocket each)")
	rounds := flag.Int("rounds", 20, "move + take-back rounds per game")
	pause := flag.Duration("pause", 100*time.Millisecond, "longest random pause between a game's messages")
	review := flag.Bool("review", false, "measure the reviews of finished games instead (review.go): a 40-move game's review time, and what reviews on every core add to a level-1 reply")
	backlog := flag.Int("backlog", 5, "with -review: finished 40-move games whose reviews run while the replies are timed")
	replies := flag.Int("replies", 40, "with -review: level-1 replies timed without, then with, reviews running")
	flag.Parse()
	var err error
	if *review {
		err = runReview(*backlog, *replies)
	} else {
		err = run(*games, *rounds, *pause)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ws_latency:", err)
		os.Exit(1)
	}
}

// server is a running `knightwatch serve` on a loopback port.
type server struct {
	cmd  *exec.Cmd
	base string // http://127.0.0.1:port
	dir  string
}

// startServer builds the binary and starts it with a temporary database
// and the extra serve flags; stop ends it and removes its files.
func startServer(flags ...string) (*server, error) {
	dir, err := os.MkdirTemp("", "kw-wslat-")
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(dir, "knightwatch")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("go build: %v\n%s", err, out)
	}
	// No learning from the games: every run plays the same engine; every
	// client here shares the loopback address, so no per-address cap.
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "kw.db"), "--experience=false", "--max-conns-per-addr", "0"}, flags...)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "KNIGHTWATCH_SECRET=")
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s := &server{cmd: cmd, dir: dir}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		s.stop()
		return nil, fmt.Errorf("server did not start: %v", err)
	}
	base, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(line), "Knightwatch listening on "), " ")
	if !strings.HasPrefix(base, "http://") {
		s.stop()
		return nil, fmt.Errorf("unexpected server output %q", line)
	}
	s.base = base
	go func() { // keep the pipe drained
		b := make([]byte, 4096)
		for {
			if _, err := stdout.Read(b); err != nil {
				return
			}
		}
	}()
	return s, nil
}

func (s *server) stop() {
	s.cmd.Process.Signal(syscall.SIGTERM)
	s.cmd.Wait()
	os.RemoveAll(s.dir)
}

func run(games, rounds int, pause time.Duration) error {
	srv, err := startServer("--no-engine")
	if err != nil {
		return err
	}
	defer srv.stop()
	cmd, base := srv.cmd, srv.base

	// Each game is its own visitor (its own cookie), as players are: the
	// server caps sockets, unfinished games and game creation per visitor.
	ids := make([]string, games)
	jars := make([]http.CookieJar, games)
	for i := range ids {
		jar, _ := cookiejar.New(nil)
		jars[i] = jar
		hc := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := hc.PostForm(base+"/games", url.Values{"color": {"white"}, "level": {"1"}, "variant": {"standard"}, "clock": {"5+3"}})
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther {
			return fmt.Errorf("POST /games: %s", resp.Status)
		}
		ids[i] = strings.TrimPrefix(resp.Header.Get("Location"), "/game/")
	}
	time.Sleep(500 * time.Millisecond)
	rssBefore, err := rssKB(cmd.Process.Pid)
	if err != nil {
		return err
	}

	wsBase := "ws" + strings.TrimPrefix(base, "http") + "/ws/game/"
	conns := make([]*websocket.Conn, games)
	for i, id := range ids {
		dialer := websocket.Dialer{Jar: jars[i], HandshakeTimeout: 10 * time.Second}
		c, _, err := dialer.Dial(wsBase+id, nil)
		if err != nil {
			return fmt.Errorf("dial game %d: %v", i, err)
		}
		if _, err := readState(c); err != nil { // the state on connect
			return err
		}
		conns[i] = c
	}
	time.Sleep(2 * time.Second) // idle: let the server settle
	rssIdle, err := rssKB(cmd.Process.Pid)
	if err != nil {
		return err
	}

	var mu sync.Mutex
	var samples []time.Duration
	var wg sync.WaitGroup
	errs := make(chan error, games)
	start := time.Now()
	for _, c := range conns {
		wg.Add(1)
		go func(c *websocket.Conn) {
			defer wg.Done()
			local := make([]time.Duration, 0, 2*rounds)
			for r := 0; r < rounds; r++ {
				for _, msg := range []struct {
					text string
					ply  int
				}{{`{"type":"move","move":"e2e4","ply":0}`, 1}, {`{"type":"takeback","ply":1}`, 0}} {
					time.Sleep(time.Duration(rand.Int64N(int64(pause) + 1)))
					t0 := time.Now()
					if err := c.WriteMessage(websocket.TextMessage, []byte(msg.text)); err != nil {
						errs <- err
						return
					}
					for {
						st, err := readState(c)
						if err != nil {
							errs <- err
							return
						}
						if st.Ply == msg.ply {
							break
						}
					}
					local = append(local, time.Since(t0))
				}
			}
			mu.Lock()
			samples = append(samples, local...)
			mu.Unlock()
		}(c)
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(errs)
	for err := range errs {
		return err
	}
	for _, c := range conns {
		c.Close()
	}
	slices.Sort(samples)
	pct := func(p float64) time.Duration { return samples[min(len(samples)-1, int(p*float64(len(samples))))] }
	fmt.Printf("machine: %d cores, %s, %s\n", runtime.NumCPU(), cpuModel(), runtime.Version())
	fmt.Printf("games %d, rounds %d, pause up to %v, %d acknowledged changes in %.1fs (%.0f/s)\n",
		games, rounds, pause, len(samples), elapsed.Seconds(), float64(len(samples))/elapsed.Seconds())
	fmt.Printf("ack latency: p50 %s  p90 %s  p99 %s  max %s\n",
		ms(pct(0.50)), ms(pct(0.90)), ms(pct(0.99)), ms(samples[len(samples)-1]))
	fmt.Printf("server RSS: %d KiB before sockets, %d KiB with %d idle games open: %.1f KiB per idle open game\n",
		rssBefore, rssIdle, games, float64(rssIdle-rssBefore)/float64(games))
	return nil
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 2, 64) + " ms"
}

type state struct {
	Type string `json:"type"`
	Ply  int    `json:"ply"`
	Code string `json:"code"`
}

// readState returns the next state message; an error message is fatal.
func readState(c *websocket.Conn) (*state, error) {
	for {
		c.SetReadDeadline(time.Now().Add(30 * time.Second))
		_, b, err := c.ReadMessage()
		if err != nil {
			return nil, err
		}
		var s state
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, err
		}
		switch s.Type {
		case "state":
			return &s, nil
		case "error":
			return nil, fmt.Errorf("server error %s", b)
		}
	}
}

func rssKB(pid int) (int, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			return strconv.Atoi(strings.Fields(l)[1])
		}
	}
	return 0, fmt.Errorf("no VmRSS for pid %d", pid)
}

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "model name") {
			_, v, _ := strings.Cut(l, ":")
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}
