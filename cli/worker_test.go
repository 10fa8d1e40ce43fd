package cli

import (
	"strings"
	"testing"
)

// A worker refuses what it cannot serve, with words and exit 1 (2 for a
// bad flag), before it connects anywhere.
func TestWorkerRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no database", []string{"worker"}, 1, "--db must name a PostgreSQL database"},
		{"SQLite", []string{"worker", "--db", "knightwatch.db"}, 1, "--db must name a PostgreSQL database"},
		{"negative searchers", []string{"worker", "--db", "postgres://127.0.0.1:1/x", "--searchers", "-1"}, 1, "--searchers: -1 is negative"},
		{"stray argument", []string{"worker", "--db", "postgres://127.0.0.1:1/x", "extra"}, 1, "unexpected arguments"},
		{"unknown flag", []string{"worker", "--nope"}, 2, "flag provided but not defined"},
		{"negative bot cores", []string{"worker", "--db", "postgres://127.0.0.1:1/x", "--rbc-bot-cores", "-1"}, 1, "--rbc-bot-cores: -1 is not from 0"},
		{"bot cores beyond 4 a core", []string{"worker", "--db", "postgres://127.0.0.1:1/x", "--rbc-bot-cores", "100000"}, 1, "--rbc-bot-cores: 100000 is not from 0"},
		{"bot cores not a number", []string{"worker", "--rbc-bot-cores", "half"}, 2, "invalid value \"half\" for flag -rbc-bot-cores"},
		{"missing Gaviota folder", []string{"worker", "--db", "postgres://127.0.0.1:1/x", "--gaviota", "/nonexistent/gtb"}, 1, "Gaviota tables \"/nonexistent/gtb\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("KNIGHTWATCH_DB", "")
			code, _, stderr := run(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d and %q", code, stderr, tc.code, tc.want)
			}
		})
	}
}
