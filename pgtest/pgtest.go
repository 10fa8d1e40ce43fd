// Package pgtest starts a throwaway PostgreSQL cluster for tests: initdb
// and pg_ctl in a temporary folder, listening on a free loopback TCP port
// (its unix socket inside the folder), fsync off, stopped with
// "pg_ctl stop -m immediate" and removed afterwards.
//
// The binaries are found in PATH, else in /usr/lib/postgresql/*/bin (the
// newest version), where Debian's postgresql package puts them
// (scripts/deps.sh installs it when initdb is missing). initdb refuses to
// run as root, so as root (CI) the cluster runs as the unprivileged
// "postgres" user Debian's package creates, or "nobody" without it.
//
// A test binary starts one cluster and gives each test a fresh database,
// which takes milliseconds where a cluster takes a second or two: its
// TestMain calls Main, and each test DB. A test that needs PostgreSQL
// fails, never skips, when the cluster cannot start: a run that passes
// has run every test.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Superuser is the cluster's superuser; every loopback connection is
// trusted, so a DSN needs no password.
const Superuser = "postgres"

// Cluster is a running throwaway PostgreSQL cluster.
type Cluster struct {
	dir  string // the temporary folder: data/, the socket, the log
	bin  string // the folder of initdb, pg_ctl and postgres
	port int
	// cred runs the binaries as an unprivileged user when the test runs
	// as root; nil otherwise.
	cred *syscall.Credential

	mu      sync.Mutex
	stopped bool
}

// Bin returns the folder holding initdb and pg_ctl: initdb's in PATH,
// else the newest /usr/lib/postgresql/VERSION/bin that has one.
func Bin() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	best, bestVersion := "", -1.0
	for _, p := range found {
		dir := filepath.Dir(p)
		// "15", "9.6": the folder's name is the major version.
		v, err := strconv.ParseFloat(filepath.Base(filepath.Dir(dir)), 64)
		if err != nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "pg_ctl")); err == nil && v > bestVersion {
			best, bestVersion = dir, v
		}
	}
	if best == "" {
		return "", errors.New("pgtest: no initdb in PATH nor in /usr/lib/postgresql/*/bin; install Debian's postgresql package (scripts/deps.sh does, as root)")
	}
	return best, nil
}

// Start initialises and starts a cluster in a new temporary folder under
// dir ("": the system's temporary folder). As root, dir must be one the
// unprivileged user can reach (the system's temporary folder is). Stop it
// with Stop.
func Start(dir string) (*Cluster, error) {
	bin, err := Bin()
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(dir, "kw-pg-")
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	c := &Cluster{dir: tmp, bin: bin}
	if err := c.start(); err != nil {
		c.Stop()
		return nil, err
	}
	return c, nil
}

func (c *Cluster) start() error {
	if os.Geteuid() == 0 {
		cred, err := unprivileged()
		if err != nil {
			return err
		}
		c.cred = cred
		if err := os.Chown(c.dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return fmt.Errorf("pgtest: giving %s to the cluster's user: %w", c.dir, err)
		}
	}
	data := filepath.Join(c.dir, "data")
	if out, err := c.run("initdb", "-D", data, "-U", Superuser, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"); err != nil {
		return fmt.Errorf("pgtest: initdb: %w\n%s", err, out)
	}
	// The port is free a moment before postgres binds it; another
	// program taking it then makes pg_ctl fail, and a new port is tried.
	var err error
	for try := 0; try < 3; try++ {
		if c.port, err = freePort(); err != nil {
			return fmt.Errorf("pgtest: %w", err)
		}
		opts := strings.Join([]string{
			"-p", strconv.Itoa(c.port), "-k", c.dir, "-c", "listen_addresses=127.0.0.1",
			// Nothing here outlives the test: no flushes to disk.
			"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
			"-c", "max_connections=200",
		}, " ")
		var out []byte
		out, err = c.run("pg_ctl", "start", "-w", "-t", "60", "-D", data, "-l", filepath.Join(c.dir, "log"), "-o", opts)
		if err == nil {
			return nil
		}
		log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		err = fmt.Errorf("pgtest: pg_ctl start: %w\n%s\n%s", err, out, log)
	}
	return err
}

// unprivileged returns the credentials of the user a root test runs the
// cluster as: "postgres", else "nobody".
func unprivileged() (*syscall.Credential, error) {
	var errs []error
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
		gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
		if err1 != nil || err2 != nil {
			errs = append(errs, fmt.Errorf("user %s: uid %q, gid %q", name, u.Uid, u.Gid))
			continue
		}
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
	}
	return nil, fmt.Errorf("pgtest: running as root, and initdb refuses root, but no user to run it as: %w", errors.Join(errs...))
}

// run runs one of the cluster's binaries in its folder, as its user.
func (c *Cluster) run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(c.bin, name), args...)
	// In the cluster's folder: the user it runs as may not be allowed
	// into the test's working directory.
	cmd.Dir = c.dir
	// PGDATA, PGPORT and the like of whoever runs the tests must not
	// point pg_ctl elsewhere; LC_ALL keeps its messages in English.
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "PG") || strings.HasPrefix(kv, "LC_") })
	cmd.Env = append(env, "LC_ALL=C")
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	return cmd.CombinedOutput()
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// DSN returns the URL of database name on the cluster, as the superuser.
func (c *Cluster) DSN(name string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable", Superuser, c.port, name)
}

// validName is what NewDatabase accepts, so that a name needs no quoting
// in a URL or in SQL.
var validName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// NewDatabase creates the empty database name and returns its DSN.
func (c *Cluster) NewDatabase(name string) (string, error) {
	if !validName.MatchString(name) {
		return "", fmt.Errorf("pgtest: database name %q: want 1 to 63 of a-z, 0-9 and _, not starting with a digit", name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.DSN("postgres"))
	if err != nil {
		return "", fmt.Errorf("pgtest: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("pgtest: create database %s: %w", name, err)
	}
	return c.DSN(name), nil
}

// Stop stops the cluster at once (pg_ctl stop -m immediate: nothing in it
// is kept) and removes its folder. It may be called more than once.
func (c *Cluster) Stop() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return nil
	}
	c.stopped = true
	var errs []error
	data := filepath.Join(c.dir, "data")
	if _, err := os.Stat(filepath.Join(data, "postmaster.pid")); err == nil {
		if out, err := c.run("pg_ctl", "stop", "-w", "-m", "immediate", "-D", data); err != nil {
			errs = append(errs, fmt.Errorf("pgtest: pg_ctl stop: %w\n%s", err, out))
		}
	}
	if err := os.RemoveAll(c.dir); err != nil {
		errs = append(errs, fmt.Errorf("pgtest: %w", err))
	}
	return errors.Join(errs...)
}

// shared is the test binary's cluster, started by the first DB and
// stopped by Main.
var shared struct {
	sync.Mutex
	inMain  bool // Main is running the tests
	started bool
	c       *Cluster
	err     error
	n       int // databases made, for their names
}

// Main runs the tests of a package that uses DB, then stops the cluster
// if a test started it; a TestMain calls it:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
func Main(m *testing.M) int {
	shared.Lock()
	shared.inMain = true
	shared.Unlock()
	code := m.Run()
	shared.Lock()
	defer shared.Unlock()
	shared.inMain = false
	if shared.c != nil {
		if err := shared.c.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}

// DB returns the DSN of a fresh, empty database on the test binary's
// cluster, starting the cluster on first use. It fails the test (never
// skips it) when the cluster cannot start, and when the package's TestMain
// does not run Main, which stops the cluster at the end.
func DB(t testing.TB) string {
	t.Helper()
	shared.Lock()
	defer shared.Unlock()
	if !shared.inMain {
		t.Fatal("pgtest.DB: the package's TestMain must run pgtest.Main, which stops the cluster after the tests")
	}
	if !shared.started {
		shared.started = true
		start := time.Now()
		shared.c, shared.err = Start("")
		if shared.err == nil {
			t.Logf("pgtest: cluster started in %v", time.Since(start).Round(time.Millisecond))
		}
	}
	if shared.err != nil {
		t.Fatalf("PostgreSQL is needed and could not start: %v", shared.err)
	}
	shared.n++
	dsn, err := shared.c.NewDatabase(fmt.Sprintf("kw_%d", shared.n))
	if err != nil {
		t.Fatal(err)
	}
	return dsn
}
