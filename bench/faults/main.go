// Command faults is the long form of the fault test (web/fault_test.go):
// the real binary with its database on a tiny tmpfs that fills up and
// empties again at random moments, for minutes, while browsers play chess
// against the real engine (level 1) and Reconnaissance Chess against the
// random bot, each move at a random moment. At the end every game in the
// database is compared with what its player was last shown.
//
//	go run ./bench/faults [-seconds 120] [-games 8] [-bin PATH]
//	(or bash bench/faults.sh; needs root, to mount the tmpfs)
//
// It reports the fill cycles, the moves and senses acknowledged, the
// refusals and notices the players got, how long after the disk was freed
// each waiting save (the engine's or bot's step) was done (the server
// retries with backoff, up to 5 s apart), steps lost (want 0), games
// stored ahead of what was shown (want 0) and players whose game did not
// move in a last spell with room on the disk (want 0).
package main

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"database/sql"

	"github.com/gorilla/websocket"
	_ "github.com/mattn/go-sqlite3"

	"knightwatch/attack"
	"knightwatch/e2e"
)

func main() {
	seconds := flag.Int("seconds", 120, "how long to play with the disk filling and emptying")
	games := flag.Int("games", 8, "players at once, half chess and half Reconnaissance Chess")
	bin := flag.String("bin", "", "the knightwatch binary (default: build this tree)")
	flag.Parse()
	if err := run(*bin, time.Duration(*seconds)*time.Second, *games); err != nil {
		fmt.Fprintln(os.Stderr, "faults:", err)
		os.Exit(1)
	}
}

// counts are what the players saw.
type counts struct {
	acked, refused, notices, savedAgain, games atomic.Int64
	// freedAt is when the disk was last freed (Unix ns), 0 while it is
	// full; recoveries are the times from it to each "can save again".
	freedAt    atomic.Int64
	mu         sync.Mutex
	recoveries []time.Duration
}

func (c *counts) savedAgainNow() {
	c.savedAgain.Add(1)
	if at := c.freedAt.Load(); at != 0 {
		c.mu.Lock()
		c.recoveries = append(c.recoveries, time.Since(time.Unix(0, at)))
		c.mu.Unlock()
	}
}

func run(bin string, dur time.Duration, players int) error {
	dir, err := os.MkdirTemp("", "knightwatch-faults-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if bin == "" {
		if bin, err = e2e.BuildInto(dir); err != nil {
			return err
		}
	}
	disk := filepath.Join(dir, "disk")
	if err := os.Mkdir(disk, 0o755); err != nil {
		return err
	}
	if err := syscall.Mount("tmpfs", disk, "tmpfs", 0, "size=16m,mode=0755"); err != nil {
		return fmt.Errorf("mount a tmpfs (run as root): %w", err)
	}
	defer syscall.Unmount(disk, syscall.MNT_DETACH)
	addr, err := e2e.FreeAddr()
	if err != nil {
		return err
	}
	db := filepath.Join(disk, "kw.db")
	// Every player shares the loopback address: no per-address caps.
	srv, err := e2e.StartServer(bin, db, addr, filepath.Join(dir, "server.log"), "--max-conns-per-addr", "0", "--new-games-per-addr", "0")
	if err != nil {
		return err
	}
	base := srv.URL()
	fmt.Printf("machine: %d cores; %d players for %v; database on a 16 MB tmpfs\n", runtimeCPUs(), players, dur)

	var c counts
	var mu sync.Mutex
	shown := map[string]int{} // game ID: moves (chess) or actions (recon) last shown
	var final atomic.Bool     // the last spell, with room on the disk, has begun
	lateSteps := make([]atomic.Int64, players)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			play(base, i%2 == 1, rng, stop, &c, func(id string, n int) {
				mu.Lock()
				shown[id] = n
				mu.Unlock()
				if final.Load() {
					lateSteps[i].Add(1)
				}
			})
		}()
	}

	// The disk fills and empties at random moments.
	filler := filepath.Join(disk, "filler")
	rng := rand.New(rand.NewPCG(1, 2))
	var cycles int
	c.freedAt.Store(time.Now().UnixNano())
	end := time.Now().Add(dur)
	for time.Now().Before(end) {
		time.Sleep(time.Duration(500+rng.IntN(2500)) * time.Millisecond)
		c.freedAt.Store(0)
		if err := fill(filler); err != nil {
			return err
		}
		cycles++
		time.Sleep(time.Duration(300+rng.IntN(3000)) * time.Millisecond)
		if err := os.Remove(filler); err != nil {
			return err
		}
		c.freedAt.Store(time.Now().UnixNano())
	}
	// A last spell with room to spare: every player's game must move on.
	time.Sleep(6 * time.Second) // the longest retry backoff, 5 s, and a little
	final.Store(true)
	time.Sleep(3 * time.Second)
	close(stop)
	wg.Wait()
	idle := 0
	for i := range lateSteps {
		if lateSteps[i].Load() == 0 {
			idle++
		}
	}
	if err := srv.Stop(15 * time.Second); err != nil {
		return err
	}

	lost, behind, err := compare(db, shown)
	if err != nil {
		return err
	}
	recoveries := c.recoveries
	slices.Sort(recoveries)
	q := func(p float64) time.Duration {
		if len(recoveries) == 0 {
			return 0
		}
		return recoveries[int(p*float64(len(recoveries)-1))].Round(time.Millisecond)
	}
	fmt.Printf("fill cycles %d; games %d; moves and senses acknowledged %d; refusals in words %d; notices of waiting saves %d, of saving again %d\n",
		cycles, c.games.Load(), c.acked.Load(), c.refused.Load(), c.notices.Load(), c.savedAgain.Load())
	fmt.Printf("a waiting save done, after the disk was freed: p50 %v, p90 %v, max %v (%d)\n", q(0.5), q(0.9), q(1), len(recoveries))
	fmt.Printf("steps lost: %d; games stored ahead of what was shown: %d; players stuck at the end: %d of %d\n", lost, behind, idle, players)
	if lost > 0 || behind > 0 || idle > 0 {
		return errors.New("the database and the players disagree, or a game is stuck")
	}
	return nil
}

// fill writes a file until the disk is full.
func fill(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	for _, n := range []int{1 << 20, 4 << 10, 1} {
		buf := make([]byte, n)
		for {
			if _, err := f.Write(buf); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					return err
				}
				break
			}
		}
	}
	return nil
}

// play is one player: games one after another until stop, each step at a
// random moment; a refused step is tried again a little later.
func play(base string, reconKind bool, rng *rand.Rand, stop chan struct{}, c *counts, record func(id string, n int)) {
	b := attack.NewBrowser(base)
	for {
		select {
		case <-stop:
			return
		default:
		}
		form := attack.ChessForm(1, "")
		if reconKind {
			form = map[string][]string{"variant": {"recon"}, "color": {"white"}, "opponent": {"random"}, "clock": {"none"}}
		}
		id, err := b.NewGame(form)
		if err != nil {
			time.Sleep(500 * time.Millisecond) // a full disk, or the creation limit
			continue
		}
		c.games.Add(1)
		conn, _, err := b.Dial(id)
		if err != nil {
			time.Sleep(500 * time.Millisecond)
			continue
		}
		if reconKind {
			playRecon(conn, id, rng, stop, c, record)
		} else {
			playChess(conn, id, rng, stop, c, record)
		}
		conn.Close()
	}
}

// heard counts a notice about saving or a refusal because the server
// could not save, and reports whether the message was one; after a
// refusal it asks for the state again, to try the step once more.
func (c *counts) heard(conn *websocket.Conn, typ, code, text string) bool {
	switch {
	case typ == "notice" && text == "The server can save again; the game goes on.":
		c.savedAgainNow()
	case typ == "notice" && strings.HasPrefix(text, "The server cannot save right now"):
		c.notices.Add(1)
	case typ == "error" && code == "server":
		c.refused.Add(1)
		time.Sleep(200 * time.Millisecond)
		conn.WriteJSON(map[string]string{"type": "sync"})
	default:
		return false
	}
	return true
}

// chessState is the part of a chess state the player reads.
type chessState struct {
	Type, Code, Text, Turn, Human, Status string
	Ply                                   int
	Moves                                 []struct{ UCI string }
	Legal                                 []struct{ UCI string }
}

func playChess(conn *websocket.Conn, id string, rng *rand.Rand, stop chan struct{}, c *counts, record func(string, int)) {
	last := -1
	for {
		var m chessState
		conn.SetReadDeadline(time.Now().Add(time.Minute))
		if err := conn.ReadJSON(&m); err != nil {
			return
		}
		switch {
		case c.heard(conn, m.Type, m.Code, m.Text):
		case m.Type == "state":
			if len(m.Moves) > last {
				if last >= 0 {
					c.acked.Add(int64(len(m.Moves) - last))
				}
				last = len(m.Moves)
				record(id, last)
			}
			select {
			case <-stop:
				return
			default:
			}
			if m.Status != "playing" {
				return
			}
			if m.Turn == m.Human && len(m.Legal) > 0 {
				time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
				conn.WriteJSON(map[string]any{"type": "move", "move": m.Legal[rng.IntN(len(m.Legal))].UCI, "ply": m.Ply})
			}
		}
	}
}

// reconState is the part of a recon state the player reads.
type reconState struct {
	Type, Code, Text, Phase, Status string
	Seq                             int
	MoveActions                     []struct{ UCI string }
}

func playRecon(conn *websocket.Conn, id string, rng *rand.Rand, stop chan struct{}, c *counts, record func(string, int)) {
	last := -1
	for {
		var m reconState
		conn.SetReadDeadline(time.Now().Add(time.Minute))
		if err := conn.ReadJSON(&m); err != nil {
			return
		}
		switch {
		case c.heard(conn, m.Type, m.Code, m.Text):
		case m.Type == "recon_state":
			if m.Seq > last {
				if last >= 0 {
					c.acked.Add(int64(m.Seq - last))
				}
				last = m.Seq
				record(id, last)
			}
			select {
			case <-stop:
				return
			default:
			}
			if m.Status != "playing" {
				return
			}
			time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
			switch m.Phase {
			case "sense":
				conn.WriteJSON(map[string]any{"type": "sense", "square": string(rune('a'+rng.IntN(8))) + string(rune('1'+rng.IntN(8))), "seq": m.Seq})
			case "move":
				move := "pass"
				if len(m.MoveActions) > 0 && rng.IntN(10) > 0 {
					move = m.MoveActions[rng.IntN(len(m.MoveActions))].UCI
				}
				conn.WriteJSON(map[string]any{"type": "move", "move": move, "seq": m.Seq})
			}
		}
	}
}

// compare reads every game the players were shown and counts the steps
// the stored record is behind what was shown (lost), and the games stored
// more than the opponent's one reply ahead of it (the player missed
// states).
func compare(path string, shown map[string]int) (lost, stuck int, err error) {
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		return 0, 0, err
	}
	defer db.Close()
	for id, n := range shown {
		var stored int
		if id[0] == 'r' {
			var h sql.NullString
			if err := db.QueryRow("SELECT history FROM recon_games WHERE id = ?", id).Scan(&h); err != nil {
				return 0, 0, fmt.Errorf("%s: %w", id, err)
			}
			stored = reconActions(h.String)
		} else {
			var moves string
			if err := db.QueryRow("SELECT moves FROM games WHERE id = ?", id).Scan(&moves); err != nil {
				return 0, 0, fmt.Errorf("%s: %w", id, err)
			}
			stored = len(fieldsOf(moves))
		}
		switch {
		case stored < n:
			lost += n - stored
		case stored > n+2:
			stuck++
		}
	}
	return lost, stuck, nil
}
