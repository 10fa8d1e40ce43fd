package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"knightwatch/game"
	"knightwatch/gaviota"
)

// openGaviota opens Debian's 3-piece tables, which scripts/deps.sh
// installs: their absence fails the test.
func openGaviota(t *testing.T) *gaviota.Tablebase {
	t.Helper()
	tb, err := gaviota.Open(gaviota.DebianPath)
	if err != nil || len(tb.Tables()) != 5 {
		t.Fatalf("Debian's Gaviota tables in %s: %v (scripts/deps.sh installs gaviotatb)", gaviota.DebianPath, err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

// TestGaviotaCommand runs the subcommand on positions of every table and
// both colours; its last line must carry the package's own answer (which
// TestTablesAgreeWithRetrograde checks) and the line before it the words.
func TestGaviotaCommand(t *testing.T) {
	tb := openGaviota(t)
	for _, fen := range []string{
		"7k/Q7/6K1/8/8/8/8/8 w - - 0 1",
		"8/8/8/8/8/8/8/K2kr3 w - - 0 1",
		"8/8/3k4/8/8/3P4/8/3K4 b - - 0 1",
		"8/8/8/3k4/8/8/8/3KN3 w - - 0 1",
		"8/4k3/8/B7/8/8/8/4K3 w - - 0 1",
		"7k/7Q/6K1/8/8/8/8/8 b - - 0 1",
		"8/4k3/8/8/8/8/8/4K3 b - - 0 1",
	} {
		p, err := game.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		wdl, dtm, err := tb.Probe(p)
		if err != nil {
			t.Fatal(err)
		}
		code, out, errOut := run(t, "gaviota", "--path", gaviota.DebianPath, "--fen", fen)
		want := fmt.Sprintf("wdl %d dtm %d", wdl, dtm)
		words := fmt.Sprintf("%s to move: %s", p.Side(), gaviota.MateWords(p.Side(), wdl, dtm))
		if code != 0 || lastLine(out) != want || !strings.Contains(out, words+"\n") {
			t.Errorf("%s: exit %d, output %q (stderr %q), want %q after %q", fen, code, out, errOut, want, words)
		}
	}
}

func TestGaviotaCommandErrors(t *testing.T) {
	only := t.TempDir()
	b, err := os.ReadFile(filepath.Join(gaviota.DebianPath, "krk.gtb.cp4"))
	if err != nil {
		t.Fatalf("%v (scripts/deps.sh installs gaviotatb)", err)
	}
	if err := os.WriteFile(filepath.Join(only, "krk.gtb.cp4"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no table for the material", []string{"--path", only, "--fen", "8/8/2Q5/8/1K6/8/5k2/8 w - - 0 1"}, "missing table kqk.gtb.cp4"},
		{"malformed FEN", []string{"--path", only, "--fen", "8/8/8/2R5/1K6/8/5k2 w - - 0 1"}, "invalid FEN"},
		{"too many pieces", []string{"--path", only, "--fen", "8/8/8/2R5/1K6/8/4pk2/8 w - - 0 1"}, "too many pieces"},
		{"castling", []string{"--path", only, "--fen", "4k2r/8/8/8/8/8/8/4K3 b k - 0 1"}, "castling"},
		{"no tables", []string{"--path", t.TempDir(), "--fen", "8/8/8/2R5/1K6/8/5k2/8 w - - 0 1"}, "no Gaviota tables"},
		{"missing directory", []string{"--path", filepath.Join(only, "nope"), "--fen", "8/8/8/2R5/1K6/8/5k2/8 w - - 0 1"}, "no such file"},
		{"no flags", nil, "--path and --fen"},
		{"extra argument", []string{"--path", only, "--fen", "8/8/8/2R5/1K6/8/5k2/8 w - - 0 1", "x"}, "unexpected arguments"},
	} {
		code, out, errOut := run(t, append([]string{"gaviota"}, c.args...)...)
		if code != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and %q", c.name, code, out, errOut, c.want)
		}
	}
}
