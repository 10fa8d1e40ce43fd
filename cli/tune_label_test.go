package cli

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"knightwatch/engine"
	"knightwatch/match/fakeuci"
)

func TestFitScaleRecoversTheScale(t *testing.T) {
	for _, want := range []float64{60, 150, 400} {
		var data []engine.TrainingPosition
		var scores []whiteScore
		for cp := -600; cp <= 600; cp += 25 {
			data = append(data, engine.TrainingPosition{Result: scoreSigmoid(cp, want)})
			scores = append(scores, whiteScore{cp: cp, ok: true})
		}
		// A mate score says nothing about the scale; a wild label on it
		// must not pull the fit.
		data = append(data, engine.TrainingPosition{Result: 0})
		scores = append(scores, whiteScore{cp: 5000, ok: false})
		if got := fitScale(data, scores); math.Abs(got-want) > 1 {
			t.Errorf("fitScale for labels made with %v = %v", want, got)
		}
	}
}

func TestBlendLabels(t *testing.T) {
	data := []engine.TrainingPosition{{FEN: "a", Result: 1}, {FEN: "b", Result: 0}, {FEN: "c", Result: 0.5}, {FEN: "d", Result: 1}}
	scores := []whiteScore{{cp: 0, ok: true}, {cp: 100, ok: true}, {cp: -100, ok: true}, {cp: 0, ok: false}}
	s := 1 / (1 + math.Exp(-1.0)) // sigmoid(100/100)
	tests := []struct {
		lambda float64
		want   []float64
	}{
		{1, []float64{1, 0, 0.5}},
		{0, []float64{0.5, s, 1 - s}},
		{0.25, []float64{0.25 + 0.75*0.5, 0.75 * s, 0.125 + 0.75*(1-s)}},
	}
	for _, tc := range tests {
		got := blendLabels(data, scores, 100, tc.lambda)
		if len(got) != 3 {
			t.Fatalf("lambda %v: %d positions, want 3 (the mate score left out)", tc.lambda, len(got))
		}
		for i, p := range got {
			if p.FEN != data[i].FEN || math.Abs(p.Result-tc.want[i]) > 1e-12 {
				t.Errorf("lambda %v: position %d = %+v, want %s;%v", tc.lambda, i, p, data[i].FEN, tc.want[i])
			}
		}
	}
}

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
	got, err := engine.ReadTrainingData(f)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{
		0.5 + 0.5*scoreSigmoid(900, 300),
		0.5 + 0.5*scoreSigmoid(900, 300),
		0.5 * scoreSigmoid(-500, 300),
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
