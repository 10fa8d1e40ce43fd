package main

// The benchmark: what the reviews of finished games (package review)
// cost. It starts the real server with the engine and reviews on, and
//
//  1. plays 1+backlog games of 40 moves against level 1 at once, the
//     person's moves chosen by a local level-3 engine (30 ms a move), so
//     the games look like games;
//  2. once no review runs (a game that ended early on the board is
//     reviewed at once; that is waited for), times level-1 replies in a
//     game of its own: from sending a move to the state with the
//     engine's reply (so the natural pause, the level's 150 ms at level 1,
//     is in every figure);
//  3. resigns the first game alone and times its review, from the
//     resignation to the analysis message that says it is done, with the
//     server's CPU time over the same span (the CPU a 40-move game's review
//     costs, which is also its time on one core);
//  4. resigns the other games at once, so that reviews run on every
//     searcher, and times level-1 replies again while they run.

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"knightwatch/engine"
	"knightwatch/game"
)

// reviewState is the part of the state message this mode reads.
type reviewState struct {
	Type     string `json:"type"`
	Ply      int    `json:"ply"`
	FEN      string `json:"fen"`
	Status   string `json:"status"`
	Thinking bool   `json:"thinking"`
	Legal    []struct {
		UCI string `json:"uci"`
	} `json:"legal"`
	// Of analysis messages.
	Plies []json.RawMessage `json:"plies"`
}

// benchGame is one visitor's game and its socket, read in the background.
type benchGame struct {
	id   string
	conn *websocket.Conn
	mu   sync.Mutex
	cond *sync.Cond
	st   *reviewState // the latest state
	// reviewed is when the analysis message saying "done" came, and
	// positions how many positions it had.
	reviewed  time.Time
	positions int
	err       error
}

// newBenchGame creates a level-1 game as a new visitor and opens its socket.
func newBenchGame(base string) (*benchGame, error) {
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.PostForm(base+"/games", url.Values{"color": {"white"}, "level": {"1"}, "variant": {"standard"}, "clock": {"none"}})
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		return nil, fmt.Errorf("POST /games: %s", resp.Status)
	}
	g := &benchGame{id: strings.TrimPrefix(resp.Header.Get("Location"), "/game/")}
	g.cond = sync.NewCond(&g.mu)
	d := websocket.Dialer{Jar: jar, HandshakeTimeout: 10 * time.Second}
	g.conn, _, err = d.Dial("ws"+strings.TrimPrefix(base, "http")+"/ws/game/"+g.id, nil)
	if err != nil {
		return nil, err
	}
	go g.read()
	return g, nil
}

func (g *benchGame) read() {
	for {
		_, b, err := g.conn.ReadMessage()
		var m reviewState
		if err == nil {
			err = json.Unmarshal(b, &m)
		}
		g.mu.Lock()
		switch {
		case err != nil:
			g.err = err
		case m.Type == "state":
			g.st = &m
		case m.Type == "analysis" && strings.Contains(string(b), `"status":"done"`):
			g.reviewed, g.positions = time.Now(), len(m.Plies)
		case m.Type == "error":
			g.err = fmt.Errorf("server error %s", b)
		}
		g.cond.Broadcast()
		g.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// wait waits until ok holds (under g.mu) or the socket fails.
func (g *benchGame) wait(ok func() bool) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	for !ok() && g.err == nil {
		g.cond.Wait()
	}
	return g.err
}

// state returns the latest state once the engine is not thinking.
func (g *benchGame) state() (*reviewState, error) {
	var st *reviewState
	err := g.wait(func() bool { st = g.st; return st != nil && !st.Thinking })
	return st, err
}

// play sends uci and waits for the engine's reply (or the game's end);
// it returns the time from sending to the reply's state.
func (g *benchGame) play(uci string, ply int) (time.Duration, error) {
	t0 := time.Now()
	msg, _ := json.Marshal(map[string]any{"type": "move", "move": uci, "ply": ply})
	g.mu.Lock()
	err := g.conn.WriteMessage(websocket.TextMessage, msg)
	g.mu.Unlock()
	if err != nil {
		return 0, err
	}
	err = g.wait(func() bool {
		return g.st != nil && ((g.st.Ply >= ply+2 && !g.st.Thinking) || (g.st.Ply > ply && g.st.Status == "over"))
	})
	return time.Since(t0), err
}

func (g *benchGame) resign(ply int) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"resign","ply":`+strconv.Itoa(ply)+`}`))
}

// playForty plays up to 40 of the person's moves with a local engine.
func (g *benchGame) playForty() error {
	e := engine.New(engine.Options{HashMB: 8, Threads: 1, Level: 3})
	for n := 0; n < 40; n++ {
		st, err := g.state()
		if err != nil {
			return err
		}
		if st.Status == "over" {
			return nil
		}
		pos, err := game.ParseFEN(st.FEN)
		if err != nil {
			return err
		}
		r := e.Search(context.Background(), pos, nil, engine.Limits{MoveTime: 30 * time.Millisecond}, nil)
		if _, err := g.play(pos.UCI(r.Move), st.Ply); err != nil {
			return err
		}
	}
	return nil
}

// timeReplies times n level-1 replies to random legal moves in game g,
// starting a new game when it ends; while keep reports false, it stops.
func timeReplies(base string, n int, keep func() bool) ([]time.Duration, error) {
	var out []time.Duration
	var g *benchGame
	for len(out) < n && keep() {
		if g == nil {
			var err error
			if g, err = newBenchGame(base); err != nil {
				return nil, err
			}
		}
		st, err := g.state()
		if err != nil {
			return nil, err
		}
		if st.Status == "over" || len(st.Legal) == 0 {
			g.conn.Close()
			g = nil
			continue
		}
		time.Sleep(200 * time.Millisecond) // the person thinks
		d, err := g.play(st.Legal[rand.IntN(len(st.Legal))].UCI, st.Ply)
		if err != nil {
			return nil, err
		}
		if keep() {
			out = append(out, d)
		}
	}
	if g != nil {
		g.conn.Close()
	}
	return out, nil
}

// cpuSeconds is a process's user + system CPU time so far.
func cpuSeconds(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command name (which may hold spaces).
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	ut, err1 := strconv.ParseFloat(f[11], 64)
	st, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("bad /proc/%d/stat", pid)
	}
	return (ut + st) / 100, nil // USER_HZ is 100 on Linux
}

func summary(ds []time.Duration) string {
	if len(ds) == 0 {
		return "no samples"
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	pct := func(p float64) time.Duration { return s[min(len(s)-1, int(p*float64(len(s))))] }
	return fmt.Sprintf("p50 %s  p90 %s  max %s  (%d replies)", ms(pct(0.5)), ms(pct(0.9)), ms(s[len(s)-1]), len(s))
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func runReview(backlog, replies int) error {
	srv, err := startServer()
	if err != nil {
		return err
	}
	defer srv.stop()
	pid := srv.PID()
	fmt.Printf("machine: %d cores, %s, %s\n", runtime.NumCPU(), cpuModel(), runtime.Version())

	// 1. The games.
	games := make([]*benchGame, 1+backlog)
	errs := make(chan error, len(games))
	for i := range games {
		if games[i], err = newBenchGame(srv.base); err != nil {
			return err
		}
		go func(g *benchGame) { errs <- g.playForty() }(games[i])
	}
	for range games {
		if err := <-errs; err != nil {
			return err
		}
	}
	// 2. No review running: those of games that ended early are done.
	for _, g := range games {
		if err := g.wait(func() bool { return g.st.Status != "over" || !g.reviewed.IsZero() }); err != nil {
			return err
		}
	}
	idle, err := timeReplies(srv.base, replies, func() bool { return true })
	if err != nil {
		return err
	}

	// 3. One game's review alone: the first game still on (resigned now).
	var first *benchGame
	for i, g := range games {
		if st, err := g.state(); err != nil {
			return err
		} else if st.Status != "over" {
			first = g
			games = append(games[:i:i], games[i+1:]...)
			break
		}
	}
	if first == nil {
		return fmt.Errorf("every game ended on the board before 40 moves; run again")
	}
	st, _ := first.state()
	cpu0, _ := cpuSeconds(pid)
	t0 := time.Now()
	if err := first.resign(st.Ply); err != nil {
		return err
	}
	if err := first.wait(func() bool { return !first.reviewed.IsZero() }); err != nil {
		return err
	}
	cpu1, _ := cpuSeconds(pid)
	wall, cpu := first.reviewed.Sub(t0), cpu1-cpu0
	fmt.Printf("one game reviewed alone: %d positions in %.1f s wall; server CPU %.1f s, %.0f ms a position, %.1f s for 81 positions (a 40-move game) on one core\n",
		first.positions, wall.Seconds(), cpu, 1000*cpu/float64(first.positions), 81*cpu/float64(first.positions))

	// 4. The backlog on every searcher, and replies meanwhile.
	positions, backlogged := 0, 0
	for _, g := range games {
		st, err := g.state()
		if err != nil {
			return err
		}
		if st.Status != "over" {
			positions += st.Ply + 1
			backlogged++
			if err := g.resign(st.Ply); err != nil {
				return err
			}
		}
	}
	running := func() bool {
		for _, g := range games {
			g.mu.Lock()
			over := !g.reviewed.IsZero()
			g.mu.Unlock()
			if !over {
				return true
			}
		}
		return false
	}
	t0 = time.Now()
	loaded, err := timeReplies(srv.base, replies, running)
	if err != nil {
		return err
	}
	for _, g := range games {
		if err := g.wait(func() bool { return !g.reviewed.IsZero() }); err != nil {
			return err
		}
	}
	fmt.Printf("backlog: %d games (of %d; the others ended on the board and were reviewed earlier), %d positions reviewed in %.1f s while replies were timed\n",
		backlogged, backlog, positions, time.Since(t0).Seconds())
	fmt.Printf("level-1 reply (move sent to reply received; the natural pause, 150 ms at level 1, included):\n")
	fmt.Printf("  no review running:           %s\n", summary(idle))
	fmt.Printf("  reviews on every searcher:   %s\n", summary(loaded))
	if len(idle) > 0 && len(loaded) > 0 {
		fmt.Printf("  added at the median: %s\n", ms(median(loaded)-median(idle)))
	}
	return nil
}
