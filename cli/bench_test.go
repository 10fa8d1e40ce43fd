package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"knightwatch/engine"
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

func TestTuneCommandRoundTrip(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "pos.txt")
	var out, errb bytes.Buffer
	if code := runMain([]string{"tune", "gen", "--games", "1", "--nodes", "200", "--out", data}, nil, &out, &errb); code != 0 {
		t.Fatalf("gen: exit %d: %s", code, errb.String())
	}
	tuned := filepath.Join(dir, "tuned.go")
	out.Reset()
	if code := runMain([]string{"tune", "texel", "--in", data, "--epochs", "2", "--write", tuned}, nil, &out, &errb); code != 0 {
		t.Fatalf("texel: exit %d: %s", code, errb.String())
	}
	src, err := os.ReadFile(tuned)
	if err != nil || !strings.Contains(string(src), "var tunedWeights = evalWeights{") || !strings.Contains(out.String(), "positions ") {
		t.Errorf("tuned.go: %v\n%s\nstdout %s", err, src, out.String())
	}
}

// tune gen writes scored positions, tune nnue trains a network on them,
// and bench searches with it.
func TestTuneNNUERoundTrip(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "pos.txt")
	var out, errb bytes.Buffer
	if code := runMain([]string{"tune", "gen", "--games", "2", "--nodes", "200", "--out", data}, nil, &out, &errb); code != 0 {
		t.Fatalf("gen: exit %d: %s", code, errb.String())
	}
	f, err := os.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := engine.ReadTrainingData(f)
	f.Close()
	if err != nil || len(ps) == 0 || !ps[0].Scored {
		t.Fatalf("gen wrote %d positions (first scored: %v): %v", len(ps), len(ps) > 0 && ps[0].Scored, err)
	}
	net := filepath.Join(dir, "net.nnue")
	errb.Reset()
	if code := runMain([]string{"tune", "nnue", "--in", data, "--out", net, "--epochs", "2", "--batch", "64"}, nil, &out, &errb); code != 0 {
		t.Fatalf("nnue: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "epoch 2: error ") {
		t.Errorf("no progress lines: %q", errb.String())
	}
	out.Reset()
	if code := runMain([]string{"bench", "--depth", "3", "--evalfile", net}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "nodes ") {
		t.Fatalf("bench with the network: exit %d: %s %s", code, out.String(), errb.String())
	}
}

// tune pgn reads gzipped match games (16 games of `go run . match` between
// levels 2 and 1, with the engines' scores in comments) and writes positions
// the texel mode accepts.
func TestTunePGNFromMatchResults(t *testing.T) {
	src := []string{"testdata/level2-vs-level1-16games.pgn.gz"}
	dir := t.TempDir()
	data := filepath.Join(dir, "pos.txt")
	var out, errb bytes.Buffer
	if code := runMain([]string{"tune", "pgn", "--in", src[0], "--lambda", "0.75", "--out", data}, nil, &out, &errb); code != 0 {
		t.Fatalf("pgn: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), " positions from ") {
		t.Errorf("no summary line: %q", errb.String())
	}
	f, err := os.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ps, err := engine.ReadTrainingData(f)
	if err != nil || len(ps) < 1000 {
		t.Fatalf("%d positions from %s: %v", len(ps), src[0], err)
	}
	blended := 0
	for _, p := range ps {
		if p.Result != 0 && p.Result != 0.5 && p.Result != 1 {
			blended++
		}
	}
	if blended < len(ps)/2 {
		t.Errorf("only %d of %d labels blended with a search score", blended, len(ps))
	}
	// A gzip name on a plain file is an error, not a crash.
	bad := filepath.Join(dir, "plain.pgn.gz")
	os.WriteFile(bad, []byte("1. e4 e5 1/2-1/2"), 0o644)
	if code := runMain([]string{"tune", "pgn", "--in", bad}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), "gzip") {
		t.Errorf("plain file named .gz: exit %d, %q", code, errb.String())
	}
}
