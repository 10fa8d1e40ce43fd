package loadtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"knightwatch/e2e"
)

// server is the binary under test on loopback, with its database and log
// in a folder of its own and its goroutine count on a loopback debug
// address. Restarts (e2e.Server.Start) keep the address, the database and
// the debug address.
type server struct {
	*e2e.Server
	debugBase string // http://127.0.0.1:PORT of serve --debug-addr
}

// startServer starts bin's `serve` on free loopback ports with the
// database db (a SQLite path or a PostgreSQL URL; "": dir/kw.db, kept
// across restarts) and the log dir/server.log, with any more serve flags
// in args.
func startServer(bin, dir, db string, args ...string) (*server, error) {
	addr, err := e2e.FreeAddr()
	if err != nil {
		return nil, err
	}
	debug, err := e2e.FreeAddr()
	if err != nil {
		return nil, err
	}
	if err := checkLoopback("http://" + addr); err != nil {
		return nil, err
	}
	// Every player here shares the loopback address: no per-address cap
	// on connections, nor on new games where the binary has one.
	all := []string{"--debug-addr", debug, "--max-conns-per-addr", "0"}
	if out, _ := exec.Command(bin, "serve", "-h").CombinedOutput(); strings.Contains(string(out), "new-games-per-addr") {
		all = append(all, "--new-games-per-addr", "0")
	}
	all = append(all, args...)
	if db == "" {
		db = filepath.Join(dir, "kw.db")
	}
	s, err := e2e.StartServer(bin, db, addr, filepath.Join(dir, "server.log"), all...)
	if err != nil {
		return nil, err
	}
	return &server{Server: s, debugBase: "http://" + debug}, nil
}

// sample reads the running server's resources (a sample of -1s when it
// is not running).
func (s *server) sample() ProcSample {
	pid := s.PID()
	if pid == 0 {
		return ProcSample{RSSKiB: -1, Threads: -1, FDs: -1, Goroutines: -1}
	}
	return sampleProc(pid, s.debugBase)
}

// cpu is the CPU time the running server has used, in seconds (-1 when
// it is not running).
func (s *server) cpu() float64 {
	pid := s.PID()
	if pid == 0 {
		return -1
	}
	return cpuSeconds(pid)
}

// tempDir makes a folder for one run's binary, database and log.
func tempDir() (string, error) {
	dir, err := os.MkdirTemp("", "kw-loadtest-")
	if err != nil {
		return "", fmt.Errorf("loadtest: %w", err)
	}
	return dir, nil
}
