package engine

import (
	"bytes"
	"context"
	"go/format"
	"strings"
	"testing"

	"knightwatch/game"
)

func TestReadTrainingData(t *testing.T) {
	cases := []struct {
		name string
		in   string
		n    int
		bad  bool
	}{
		{"two positions", "# comment\n" + "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;0.5\n\n4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1\n", 2, false},
		{"missing result", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1\n", 0, true},
		{"bad result", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;0.7\n", 0, true},
		{"bad fen", "4k3/8/8/8/8/8/8/3QKK2 w - - 0 1;1\n", 0, true},
		{"empty", "", 0, false},
	}
	for _, c := range cases {
		got, err := ReadTrainingData(strings.NewReader(c.in))
		if (err != nil) != c.bad || len(got) != c.n {
			t.Errorf("%s: %d positions, error %v", c.name, len(got), err)
		}
	}
	// Round trip through the writer.
	ps := []TrainingPosition{{"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 1}, {"4k3/8/8/8/8/8/8/3qK3 w - - 0 1", 0}}
	var buf bytes.Buffer
	if err := WriteTrainingData(&buf, ps); err != nil {
		t.Fatal(err)
	}
	back, err := ReadTrainingData(&buf)
	if err != nil || len(back) != 2 || back[0] != ps[0] || back[1] != ps[1] {
		t.Errorf("round trip: %v %v", back, err)
	}
}

func TestTuneReducesError(t *testing.T) {
	before := params
	// Positions where the side with the bishop pair won and the side with
	// the knight pair lost: tuning must not make the fit worse, and the
	// generated source must be valid Go.
	var data []TrainingPosition
	for _, f := range []string{
		"4k3/pppp4/8/8/8/8/PPPP4/2BBK3 w - - 0 1;1",
		"2bbk3/pppp4/8/8/8/8/PPPP4/2NNK3 w - - 0 1;0",
		"4k3/pppp4/8/8/8/8/PPPP4/2NBK3 w - - 0 1;0.5",
		"2nnk3/pppp4/8/8/8/8/PPPP4/2BBK3 b - - 0 1;1",
	} {
		ps, err := ReadTrainingData(strings.NewReader(f))
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, ps...)
	}
	res, err := Tune(context.Background(), data, TuneOptions{Epochs: 20}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.After > res.Before || res.Positions != 4 || res.Changed == 0 {
		t.Errorf("tuning: %+v", res)
	}
	var src bytes.Buffer
	if params != before {
		t.Error("Tune left the engine's weights changed")
	}
	if err := WriteTunedGo(&src, res); err != nil {
		t.Fatal(err)
	}
	if _, err := format.Source(src.Bytes()); err != nil || !strings.Contains(src.String(), "var tunedWeights = evalWeights{") {
		t.Errorf("generated source does not parse: %v\n%s", err, src.String())
	}
	if _, err := Tune(context.Background(), nil, TuneOptions{Epochs: 1}, nil); err == nil {
		t.Error("Tune accepted no data")
	}
}

func TestGenerateTrainingData(t *testing.T) {
	ps := GenerateTrainingData(context.Background(), SelfPlayOptions{Games: 2, Nodes: 300, RandomPlies: 2, MaxPlies: 40, Seed: 3}, nil)
	if len(ps) == 0 {
		t.Fatal("no positions")
	}
	for _, p := range ps {
		pos := mustFEN(t, p.FEN)
		if pos.InCheck() || (p.Result != 0 && p.Result != 0.5 && p.Result != 1) {
			t.Errorf("bad training position %+v", p)
		}
	}
}

// FuzzReadTrainingData: arbitrary files give positions or an error, never a panic.
func FuzzReadTrainingData(f *testing.F) {
	f.Add("4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1\n")
	f.Add("# x\n;;;\n")
	f.Add("8/8/8/8/8/8/8/8 w - - 0 1;0.5")
	f.Fuzz(func(t *testing.T, in string) {
		ps, err := ReadTrainingData(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, p := range ps {
			if p.Result != 0 && p.Result != 0.5 && p.Result != 1 {
				t.Fatalf("bad result %v", p.Result)
			}
		}
	})
}

// TestTraceMatchesEvaluate guards the tuner's model: the traced terms,
// weighted and scaled as Tune does, must give evaluate's score (up to the
// integer divisions evaluate makes). If a term is added to evaluate without
// going through evalAcc, this fails.
func TestTraceMatchesEvaluate(t *testing.T) {
	var w [2][]float64
	for ph := 0; ph < 2; ph++ {
		w[ph] = make([]float64, numTerms)
		for i := range numTerms {
			w[ph][i] = float64(params[ph][i])
		}
	}
	fens := append(append([]string{}, legalPositions...), BenchFENs...)
	fens = append(fens,
		"4k3/8/8/8/8/8/8/3NK3 w - - 0 1",                           // drawish scaling
		"4k3/pp3b2/8/8/8/8/PP6/2B1K3 w - - 0 1",                    // opposite-coloured bishops
		"r3k2r/ppq2ppp/2n5/3Np3/2B5/8/PPP2PPP/R2QK2R b KQkq - 0 1", // king danger
	)
	for _, fen := range fens {
		p := mustFEN(t, fen)
		var tr evalTrace
		got := evaluateTraced(p, &tr)
		if got != evaluate(p) {
			t.Fatalf("%s: tracing changed the score", fen)
		}
		s := sampleFromTrace(&tr, 0)
		white := got
		if p.Side() == game.Black {
			white = -got
		}
		if d := s.score(&w) - float64(white); d > 2 || d < -2 {
			t.Errorf("%s: linear model %.1f, evaluate %d", fen, s.score(&w), white)
		}
	}
}

// TestTermGroupsCoverAllTerms: tuned.go is written group by group, and a
// Go array literal with too few values silently zero-fills the rest, so
// the groups must tile the term layout exactly.
func TestTermGroupsCoverAllTerms(t *testing.T) {
	next := evalTerm(0)
	for _, g := range termGroups {
		if g.start != next {
			t.Fatalf("group %q starts at %d, want %d", g.name, g.start, next)
		}
		next += g.n
	}
	if next != numTerms {
		t.Fatalf("groups end at %d, want numTerms %d", next, numTerms)
	}
}
