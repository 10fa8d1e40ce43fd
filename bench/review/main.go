// Command review measures what the reviews of finished games
// (package review) cost: a 40-move game's review time, and what reviews
// running on every searcher add to another player's level-1 reply
// (review.go says how).
//
//	go run ./bench/review [-backlog 5] [-replies 40]
//	(or bash bench/review.sh)
//
// It builds the real binary and starts `serve` on a loopback port with a
// temporary database, the engine and its reviews on, and the experience
// off (every run plays the same engine).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"knightwatch/e2e"
)

func main() {
	backlog := flag.Int("backlog", 5, "finished 40-move games whose reviews run while the replies are timed")
	replies := flag.Int("replies", 40, "level-1 replies timed without, then with, reviews running")
	flag.Parse()
	if err := runReview(*backlog, *replies); err != nil {
		fmt.Fprintln(os.Stderr, "review:", err)
		os.Exit(1)
	}
}

// server is a running `knightwatch serve` on a loopback port.
type server struct {
	*e2e.Server
	base string // http://127.0.0.1:port
	dir  string
}

// startServer builds the binary and starts it with a temporary database;
// stop ends it and removes its files.
func startServer() (*server, error) {
	dir, err := os.MkdirTemp("", "kw-review-")
	if err != nil {
		return nil, err
	}
	bin, err := e2e.BuildInto(dir)
	var addr string
	if err == nil {
		addr, err = e2e.FreeAddr()
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s, err := e2e.StartServer(bin, filepath.Join(dir, "kw.db"), addr, filepath.Join(dir, "server.log"),
		"--experience=false", "--max-conns-per-addr", "0")
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &server{Server: s, base: s.URL(), dir: dir}, nil
}

func (s *server) stop() {
	s.Stop(10 * time.Second)
	os.RemoveAll(s.dir)
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 2, 64) + " ms"
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
