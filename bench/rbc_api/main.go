// Command rbc_api measures the Reconnaissance Chess server of the HTTP API
// alone on loopback: whole games between random bots played through the
// API, at rising numbers of games at once, reporting for each level the
// games refereed per second and the p50/p99 latency of an API call, and
// at the end the most concurrent games held with p99 under 50 ms.
//
//	go run ./bench/rbc_api [-levels 1,4,16,64,128,256] [-seconds 15]
//	(or bash bench/rbc_api.sh)
//
// It builds the real binary and starts `serve --no-engine` on a loopback
// port with a temporary database. Each game's two players are clients of
// their own that call as reconchess's RemoteGame does, except that they
// poll game_status every 10 ms instead of every 500 ms (so that the
// server, not the client's sleep, sets the pace): per turn move_actions,
// opponent_move_results, sense (a random square), move (a random move
// action, now and then a pass) and end_turn. Every call is timed from
// before the request is written until its body has been read. The clients
// run on the same machine as the server and take their share of its cores.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	levels := flag.String("levels", "1,4,16,64,128,256", "numbers of concurrent games, comma-separated")
	seconds := flag.Int("seconds", 15, "seconds per level (games in progress then finish)")
	flag.Parse()
	var ns []int
	for _, f := range strings.Split(*levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "rbc_api: bad level %q\n", f)
			os.Exit(2)
		}
		ns = append(ns, n)
	}
	if err := run(ns, time.Duration(*seconds)*time.Second); err != nil {
		fmt.Fprintln(os.Stderr, "rbc_api:", err)
		os.Exit(1)
	}
}

// client is one user's HTTP client, timing every call into its recorder.
type client struct {
	base, user, pass string
	hc               *http.Client
	rec              *recorder
}

type recorder struct {
	mu      sync.Mutex
	samples []time.Duration
	errors  atomic.Int64
}

func (r *recorder) add(d time.Duration) {
	r.mu.Lock()
	r.samples = append(r.samples, d)
	r.mu.Unlock()
}

func (c *client) call(method, path string, body any, out any) error {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return err
	}
	req.SetBasicAuth(c.user, c.pass)
	start := time.Now()
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if c.rec != nil {
		c.rec.add(time.Since(start))
	}
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		if c.rec != nil {
			c.rec.errors.Add(1)
		}
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, data)
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

func newHTTPClient(local string) *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second}
	if local != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(local)}
	}
	return &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4}}
}

func run(levels []int, per time.Duration) error {
	dir, err := os.MkdirTemp("", "kw-rbcapi-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "knightwatch")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "kw.db"), "--no-engine",
		"--max-conns-per-addr", "0") // every client here shares the loopback address
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return fmt.Errorf("server did not start: %v", err)
	}
	base, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(line), "Knightwatch listening on "), " ")
	go io.Copy(io.Discard, stdout)

	// One pair of users per 32 games at once (a user may have 100 open).
	// The server allows ten registrations per address at once, so they
	// come from different loopback addresses.
	most := slices.Max(levels)
	pairs := (most + 31) / 32
	users := make([]*client, 2*pairs)
	for i := range users {
		reg := &client{base: base, hc: newHTTPClient(fmt.Sprintf("127.0.0.%d", 2+i/8))}
		u := &client{base: base, user: fmt.Sprintf("bench%d", i), pass: "bench password", hc: newHTTPClient("")}
		err := reg.call("POST", "/api/users/", map[string]string{"username": u.user, "email": "", "affiliation": "", "password": u.pass}, nil)
		if err != nil {
			return fmt.Errorf("register: %v", err)
		}
		users[i] = u
	}
	fmt.Printf("machine: %d cores, %s; server and clients on the same machine\n", runtimeCPUs(), cpuModel())
	fmt.Printf("%8s %10s %10s %10s %10s %10s %8s\n", "games", "finished", "games/s", "calls/s", "p50", "p99", "errors")
	best := 0
	for _, n := range levels {
		rec := &recorder{}
		var finished atomic.Int64
		ctx, cancel := context.WithTimeout(context.Background(), per)
		var wg sync.WaitGroup
		start := time.Now()
		for slot := 0; slot < n; slot++ {
			a, b := users[2*(slot/32)], users[2*(slot/32)+1]
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(slot), uint64(n)))
				for ctx.Err() == nil {
					if err := playGame(a, b, rec, rng); err != nil {
						fmt.Fprintln(os.Stderr, "rbc_api: game:", err)
						return
					}
					finished.Add(1)
				}
			}()
		}
		wg.Wait()
		cancel()
		elapsed := time.Since(start)
		slices.Sort(rec.samples)
		p := func(q float64) time.Duration {
			if len(rec.samples) == 0 {
				return 0
			}
			return rec.samples[int(q*float64(len(rec.samples)-1))]
		}
		fmt.Printf("%8d %10d %10.2f %10.0f %10s %10s %8d\n", n, finished.Load(), float64(finished.Load())/elapsed.Seconds(),
			float64(len(rec.samples))/elapsed.Seconds(), p(0.5).Round(10*time.Microsecond), p(0.99).Round(10*time.Microsecond), rec.errors.Load())
		if p(0.99) < 50*time.Millisecond && rec.errors.Load() == 0 {
			best = n
		}
	}
	fmt.Printf("most concurrent games with p99 under 50 ms: %d (of the levels tried)\n", best)
	return nil
}

// playGame plays one whole game between a (White, the inviter) and b.
func playGame(a, b *client, rec *recorder, rng *rand.Rand) error {
	ca, cb := *a, *b
	ca.rec, cb.rec = rec, rec
	var created struct {
		GameID int64 `json:"game_id"`
	}
	if err := ca.call("POST", "/api/invitations/", map[string]any{"opponent": b.user, "color": true}, &created); err != nil {
		return err
	}
	var inv struct {
		Invitations []int64 `json:"invitations"`
	}
	if err := cb.call("GET", "/api/invitations/", nil, &inv); err != nil {
		return err
	}
	// Accept every pending one: other slots' games too, which another slot
	// may accept first (a 400, not timed, not an error of the server's).
	quiet := *b
	for _, id := range inv.Invitations {
		_ = quiet.call("POST", fmt.Sprintf("/api/invitations/%d", id), nil, nil)
	}
	g := fmt.Sprintf("/api/games/%d/", created.GameID)
	errs := make(chan error, 2)
	for i, c := range []*client{&ca, &cb} {
		seed := rng.Uint64()
		go func() { errs <- playSide(c, g, rand.New(rand.NewPCG(seed, uint64(i)))) }()
	}
	err1, err2 := <-errs, <-errs
	if err1 != nil {
		return err1
	}
	return err2
}

func playSide(c *client, g string, rng *rand.Rand) error {
	if err := c.call("POST", g+"ready", map[string]any{}, nil); err != nil {
		return err
	}
	for {
		var st struct {
			IsMyTurn bool `json:"is_my_turn"`
			IsOver   bool `json:"is_over"`
		}
		if err := c.call("GET", g+"game_status", nil, &st); err != nil {
			return err
		}
		if st.IsOver {
			return nil
		}
		if !st.IsMyTurn {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		var ma struct {
			MoveActions []json.RawMessage `json:"move_actions"`
		}
		if err := c.call("GET", g+"move_actions", nil, &ma); err != nil {
			return err
		}
		if err := c.call("GET", g+"opponent_move_results", nil, nil); err != nil {
			return err
		}
		if err := c.call("POST", g+"sense", map[string]any{"square": rng.IntN(64)}, nil); err != nil {
			return err
		}
		var m json.RawMessage = []byte("null")
		if len(ma.MoveActions) > 0 && rng.IntN(10) > 0 {
			m = ma.MoveActions[rng.IntN(len(ma.MoveActions))]
		}
		if err := c.call("POST", g+"move", map[string]json.RawMessage{"requested_move": m}, nil); err != nil {
			return err
		}
		if err := c.call("POST", g+"end_turn", nil, nil); err != nil {
			return err
		}
	}
}

func runtimeCPUs() int {
	n := 0
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		n = strings.Count(string(b), "processor\t:")
	}
	return n
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "model name") {
			_, v, _ := strings.Cut(l, ":")
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}
