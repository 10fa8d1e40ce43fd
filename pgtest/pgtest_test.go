package pgtest

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

func query(t *testing.T, dsn, sql string) string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var v string
	if err := conn.QueryRow(ctx, sql).Scan(&v); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return v
}

// Each DB is a database of its own on the one cluster, with the settings
// a throwaway cluster wants.
func TestDB(t *testing.T) {
	a, b := DB(t), DB(t)
	if a == b {
		t.Fatalf("two calls gave the same database %s", a)
	}
	for _, tc := range []struct{ sql, want string }{
		{"SHOW fsync", "off"},
		{"SHOW listen_addresses", "127.0.0.1"},
		{"SELECT current_user", Superuser},
		{"SELECT pg_encoding_to_char(encoding) FROM pg_database WHERE datname = current_database()", "UTF8"},
	} {
		if got := query(t, a, tc.sql); got != tc.want {
			t.Errorf("%s = %q, want %q", tc.sql, got, tc.want)
		}
	}
	if got := query(t, a, "SELECT current_database()"); got == query(t, b, "SELECT current_database()") {
		t.Errorf("both DSNs name database %s", got)
	}
	if shared.c.cred != nil {
		t.Logf("running as root: the cluster runs as uid %d", shared.c.cred.Uid)
	}
}

// A cluster of its own starts in its folder under dir, answers, and once
// stopped is gone: its folder removed, its port closed.
func TestStartStop(t *testing.T) {
	dir := ""
	if os.Geteuid() != 0 {
		// As root the folder must be reachable by the cluster's user,
		// which t.TempDir's (mode 0700, root's) is not.
		dir = t.TempDir()
	}
	c, err := Start(dir)
	if err != nil {
		t.Fatalf("PostgreSQL is needed and could not start: %v", err)
	}
	t.Cleanup(func() { c.Stop() })
	if dir != "" && filepath.Dir(c.dir) != dir {
		t.Errorf("cluster in %s, want it under %s", c.dir, dir)
	}
	dsn, err := c.NewDatabase("one")
	if err != nil {
		t.Fatal(err)
	}
	if got := query(t, dsn, "SELECT current_database()"); got != "one" {
		t.Errorf("current_database() = %q", got)
	}
	if _, err := c.NewDatabase("one"); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("the same database twice: %v", err)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(c.dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("folder %s after Stop: %v", c.dir, err)
	}
	if conn, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(c.port))); err == nil {
		conn.Close()
		t.Errorf("port %d still answers after Stop", c.port)
	}
	if err := c.Stop(); err != nil {
		t.Errorf("a second Stop: %v", err)
	}
}

// NewDatabase takes only names that need no quoting.
func TestNewDatabaseNames(t *testing.T) {
	c := &Cluster{}
	for _, name := range []string{"", "1abc", "a-b", "Caps", "a b", "x; DROP DATABASE postgres", strings.Repeat("a", 64)} {
		if _, err := c.NewDatabase(name); err == nil || !strings.Contains(err.Error(), "database name") {
			t.Errorf("NewDatabase(%q) = %v, want the name refused", name, err)
		}
	}
}
