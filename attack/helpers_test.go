package attack

import (
	"database/sql"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3" // reading the server's database, read-only

	"knightwatch/e2e"
)

// bin is the knightwatch binary under `ulimit -n 1024`: a shell script
// that lowers the limit and execs the binary built by TestMain (or the one
// BinEnv names).
var bin string

// BinEnv names an environment variable that, when set, is the binary to
// attack instead of one built from this tree: to see how an older build
// fares (the tests then fail where it falls short).
const BinEnv = "KNIGHTWATCH_ATTACK_BIN"

// fdLimit is the server's open-file limit in every test, as in issue 35.
const fdLimit = 1024

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "knightwatch-attack-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	real := os.Getenv(BinEnv)
	if real == "" {
		if real, err = e2e.BuildInto(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	bin = filepath.Join(dir, "knightwatch-limited")
	// Where the hard limit is lower already, that lower one.
	script := fmt.Sprintf("#!/bin/sh\nulimit -n %d 2>/dev/null || ulimit -n \"$(ulimit -H -n)\" || exit 1\nexec %q \"$@\"\n", fdLimit, real)
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

// server is one running knightwatch serve.
type server struct {
	*e2e.Server
	t *testing.T
}

// startServer starts the binary with a fresh database and any more serve
// flags; it is stopped (and must stop cleanly) when the test ends, and its
// log is shown when the test failed.
func startServer(t *testing.T, args ...string) *server {
	t.Helper()
	dir := t.TempDir()
	addr, err := e2e.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	s, err := e2e.StartServer(bin, filepath.Join(dir, "kw.db"), addr, filepath.Join(dir, "server.log"), args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Stop(15 * time.Second); err != nil {
			t.Errorf("server stop: %v", err)
		}
		if t.Failed() {
			b, _ := os.ReadFile(s.Log)
			t.Logf("server log:\n%s", tail(string(b), 4000))
		}
	})
	return &server{Server: s, t: t}
}

// manyGamesFromOneAddr is the serve flags for a test whose visitors
// start more games at once than one client address may (the engine
// floods' 32): every visitor here shares the loopback address. None for
// a binary without the per-address limit (BinEnv naming an older build).
func manyGamesFromOneAddr(t *testing.T) []string {
	t.Helper()
	out, _ := exec.Command(bin, "serve", "-h").CombinedOutput()
	if strings.Contains(string(out), "new-games-per-addr") {
		return []string{"--new-games-per-addr", "0"}
	}
	return nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// log returns the server's log so far.
func (s *server) log() string {
	b, _ := os.ReadFile(s.Log)
	return string(b)
}

// count counts the rows of a table of the server's database, read-only
// (WAL: the server's writes never wait for it).
func (s *server) count(table string) int {
	s.t.Helper()
	db, err := sql.Open("sqlite3", "file:"+s.DB+"?mode=ro&_busy_timeout=5000")
	if err != nil {
		s.t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM " + table).Scan(&n); err != nil {
		s.t.Fatal(err)
	}
	return n
}

// query runs a one-value query on the server's database, read-only, and
// returns the value as text.
func (s *server) query(q string) string {
	s.t.Helper()
	db, err := sql.Open("sqlite3", "file:"+s.DB+"?mode=ro&_busy_timeout=5000")
	if err != nil {
		s.t.Fatal(err)
	}
	defer db.Close()
	var v sql.NullString
	if err := db.QueryRow(q).Scan(&v); err != nil {
		s.t.Fatal(err)
	}
	return v.String
}

// visitor is one browser (Browser) whose failures fail the test.
type visitor struct {
	*Browser
	t *testing.T
}

func newVisitor(t *testing.T, s *server) *visitor {
	return &visitor{Browser: NewBrowser(s.URL()), t: t}
}

// get fetches path: status and body.
func (v *visitor) get(path string) (int, string, error) {
	resp, err := v.HC.Get(v.Base + path)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// newGame creates a game and returns its ID, failing the test otherwise.
func (v *visitor) newGame(form url.Values) string {
	v.t.Helper()
	id, err := v.NewGame(form)
	if err != nil {
		v.t.Fatal(err)
	}
	return id
}

// cookie is the visitor's Cookie header.
func (v *visitor) cookie() string {
	u, _ := url.Parse(v.Base)
	var h string
	for _, c := range v.HC.Jar.Cookies(u) {
		h += c.Name + "=" + c.Value + "; "
	}
	return h
}
