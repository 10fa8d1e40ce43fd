package loadtest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"knightwatch/e2e"
)

// site is several servers and engine workers on one PostgreSQL database,
// behind a round-robin proxy: a Knightwatch site as several machines run
// it, on loopback. The servers leave every engine job to the workers
// (serve --engine-work=false), so that killing a worker loses engine work
// in flight.
type site struct {
	servers []*server
	workers []*e2e.Server
	proxy   *proxy
}

// process is a server or a worker the crash test kills and starts again.
type process interface {
	Kill() error
	Start() error
}

// startSite starts servers servers and workers workers of bin on the
// PostgreSQL database dsn, each logging in a folder of its own under dir,
// and the proxy in front of the servers (cutting each connection within
// life; 0: never).
//
// With no worker, the servers take the engine jobs themselves; args are
// more serve flags.
func startSite(bin, dir, dsn string, servers, workers int, life time.Duration, seed uint64, args ...string) (_ *site, err error) {
	s := &site{}
	defer func() {
		if err != nil {
			s.Stop(5 * time.Second)
		}
	}()
	var addrs []string
	for i := range servers {
		sub := filepath.Join(dir, fmt.Sprintf("server%d", i))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return nil, err
		}
		srv, err := startServer(bin, sub, dsn, append([]string{fmt.Sprintf("--engine-work=%v", workers == 0)}, args...)...)
		if err != nil {
			return nil, err
		}
		s.servers = append(s.servers, srv)
		addrs = append(addrs, srv.Addr)
	}
	for i := range workers {
		w, err := e2e.NewWorker(bin, dsn, filepath.Join(dir, fmt.Sprintf("worker%d.log", i)), "--searchers", "1")
		if err != nil {
			return nil, err
		}
		s.workers = append(s.workers, w)
	}
	if s.proxy, err = startProxy(addrs, life, seed); err != nil {
		return nil, err
	}
	return s, nil
}

// victim returns the process the crash test's kill k ends: a server on
// odd kills, a worker on even ones (a server when there is none), picked
// by pick (given how many there are to pick from); and its name.
func (s *site) victim(k int, pick func(n int) int) (process, string) {
	if k%2 == 0 && len(s.workers) > 0 {
		i := pick(len(s.workers))
		return s.workers[i], fmt.Sprintf("worker %d", i)
	}
	i := pick(len(s.servers))
	return s.servers[i], fmt.Sprintf("server %d", i)
}

// URL is the proxy's: what the players talk to.
func (s *site) URL() string { return s.proxy.URL() }

// sample reads the first server's resources.
func (s *site) sample() ProcSample { return s.servers[0].sample() }

// cpu is the CPU time every server has used, in seconds.
func (s *site) cpu() float64 {
	t := 0.0
	for _, srv := range s.servers {
		t += max(srv.cpu(), 0)
	}
	return t
}

// workerCPU is the CPU time every worker has used, in seconds.
func (s *site) workerCPU() float64 {
	t := 0.0
	for _, w := range s.workers {
		if pid := w.PID(); pid != 0 {
			t += max(cpuSeconds(pid), 0)
		}
	}
	return t
}

// postgresCPU is the CPU time of every process of this machine named
// postgres (the clusters' servers and backends), in seconds: what the
// database costs, when it runs here.
func postgresCPU() float64 {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	t := 0.0
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid)); err == nil && strings.TrimSpace(string(comm)) == "postgres" {
			t += max(cpuSeconds(pid), 0)
		}
	}
	return t
}

// Stop stops the proxy, then every server and worker, waiting up to
// grace for each.
func (s *site) Stop(grace time.Duration) error {
	var errs []error
	if s.proxy != nil {
		errs = append(errs, s.proxy.Close())
	}
	for _, srv := range s.servers {
		errs = append(errs, srv.Stop(grace))
	}
	for _, w := range s.workers {
		errs = append(errs, w.Stop(grace))
	}
	return errors.Join(errs...)
}

// Site is a site of several servers and workers on one PostgreSQL
// database, for the benchmarks that measure one at rest (bench/load
// site-idle).
type Site struct{ s *site }

// StartSite starts servers servers and workers workers of bin on the
// PostgreSQL database dsn, with nobody playing.
func StartSite(bin, dsn string, servers, workers int) (*Site, error) {
	dir, err := tempDir()
	if err != nil {
		return nil, err
	}
	s, err := startSite(bin, dir, dsn, servers, workers, 0, 1)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &Site{s}, nil
}

// CPU returns the CPU time, in seconds, that the servers, the workers and
// this machine's PostgreSQL processes have used so far.
func (s *Site) CPU() (servers, workers, database float64) {
	return s.s.cpu(), s.s.workerCPU(), postgresCPU()
}

// Stop stops every process of the site.
func (s *Site) Stop() error { return s.s.Stop(10 * time.Second) }
