package cli

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"knightwatch/match/fakeuci"
	"knightwatch/tune"
)

// TestTuneLabelCommand scores positions with the fake engine's material
// count, through the command: Black-to-move scores must come out from
// White's view, and mate scores must be left out.
func TestTuneLabelCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	positions := strings.Join([]string{
		"4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1",                             // White a queen up, White to move: +900
		"4k3/8/8/8/8/8/8/3QK3 b - - 0 1;1",                             // the same, Black to move: Black says -900
		"4k3/8/8/8/8/8/3r4/4K3 w - - 0 1;0",                            // Black a rook up, White to move: -500
		"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1;0.5",                        // Ra8 mates: left out
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;0.5", // level: 0
	}, "\n")
	if err := os.WriteFile(in, []byte(positions), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.txt")
	var stdout, stderr bytes.Buffer
	args := []string{"tune", "label", "--in", in, "--engine", fakeEngineCommand(fakeuci.Material), "--nodes", "1",
		"--lambda", "0.5", "--scale", "300", "--concurrency", "2", "--out", out}
	if code := runMain(args, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := tune.ReadTrainingData(f)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{
		0.5 + 0.5*tune.Sigmoid(900, 300),
		0.5 + 0.5*tune.Sigmoid(900, 300),
		0.5 * tune.Sigmoid(-500, 300),
		0.25 + 0.5*0.5,
	}
	if len(got) != len(want) {
		t.Fatalf("%d positions, want %d: %+v\n%s", len(got), len(want), got, stderr.String())
	}
	for i := range want {
		if math.Abs(got[i].Result-want[i]) > 1e-9 {
			t.Errorf("position %d (%s) labelled %v, want %v", i, got[i].FEN, got[i].Result, want[i])
		}
	}
	if !strings.Contains(stderr.String(), "4 positions labelled, 1 left out") {
		t.Errorf("summary missing: %q", stderr.String())
	}

	for _, bad := range [][]string{
		{"tune", "label", "--in", in},
		{"tune", "label", "--in", in, "--engine", "x", "--lambda", "2"},
		{"tune", "label", "--in", in, "--engine", "x", "--nodes", "0"},
		{"tune", "label", "--in", filepath.Join(dir, "missing"), "--engine", "x"},
		{"tune", "label", "--in", in, "--engine", filepath.Join(dir, "no-such-engine")},
	} {
		stderr.Reset()
		if code := runMain(bad, nil, &stdout, &stderr); code == 0 || stderr.Len() == 0 {
			t.Errorf("%q: exit %d, stderr %q", bad, code, stderr.String())
		}
	}
}
