package cli

import (
	"bytes"
	"strings"
	"testing"
)

func TestEngineCommands(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		stdin string
		code  int
		want  string // substring of stdout (or stderr when code != 0)
	}{
		{"bench", []string{"bench", "--depth", "4"}, "", 0, "nodes "},
		{"bench bad depth", []string{"bench", "--depth", "0"}, "", 1, "--depth must be"},
		{"uci session", []string{"uci"}, "uci\nisready\nposition startpos moves e2e4\ngo depth 3\nquit\n", 0, "readyok"},
		{"uci extra args", []string{"uci", "extra"}, "", 1, "unexpected arguments"},
		{"tune without mode", []string{"tune"}, "", 2, "usage: knightwatch tune"},
		{"tune texel without input", []string{"tune", "texel"}, "", 1, "--in is required"},
		{"tune pgn without input", []string{"tune", "pgn"}, "", 1, "--in is required"},
		{"tune pgn bad lambda", []string{"tune", "pgn", "--in", "x.pgn", "--lambda", "2"}, "", 1, "--lambda must be"},
		{"tune pgn missing file", []string{"tune", "pgn", "--in", "no-such-file.pgn"}, "", 1, "no such file"},
		{"tune nnue without input", []string{"tune", "nnue", "--out", "x.nnue"}, "", 1, "--in and --out are required"},
		{"tune nnue bad lambda", []string{"tune", "nnue", "--in", "x.txt", "--out", "x.nnue", "--lambda", "-1"}, "", 1, "--lambda must be"},
		{"bench missing network", []string{"bench", "--depth", "2", "--evalfile", "no-such.nnue"}, "", 1, "no such file"},
		{"bench bad network", []string{"bench", "--depth", "2", "--evalfile", "bench_test.go"}, "", 1, "malformed network"},
		{"bench hand-written", []string{"bench", "--depth", "4", "--hand-written"}, "", 0, "nodes "},
		{"bench two evaluations", []string{"bench", "--depth", "2", "--hand-written", "--evalfile", "x.nnue"}, "", 1, "exclude each other"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := runMain(c.args, strings.NewReader(c.stdin), &out, &errb)
		text := out.String()
		if c.code != 0 {
			text = errb.String()
		}
		if code != c.code || !strings.Contains(text, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", c.name, code, out.String(), errb.String())
		}
	}
}

func TestBenchIsDeterministic(t *testing.T) {
	nodes := func() string {
		var out bytes.Buffer
		if code := runMain([]string{"bench", "--depth", "5"}, nil, &out, &out); code != 0 {
			t.Fatalf("bench exit %d: %s", code, out.String())
		}
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.HasPrefix(l, "nodes ") {
				return l
			}
		}
		t.Fatalf("no nodes line in %q", out.String())
		return ""
	}
	if a, b := nodes(), nodes(); a != b {
		t.Errorf("bench not deterministic: %q vs %q", a, b)
	}
}
