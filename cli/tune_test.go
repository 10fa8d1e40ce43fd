package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"knightwatch/tune"
)

// The tune modes through the command line; package tune tests the logic.

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
	ps, err := tune.ReadTrainingData(f)
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
	ps, err := tune.ReadTrainingData(f)
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
