package engine

import (
	"bytes"
	"context"
	"go/format"
	"math"
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
		{"blended label", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;0.7\n", 1, false},
		{"result above 1", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1.5\n", 0, true},
		{"negative result", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;-0\n", 1, false},
		{"not a number", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;NaN\n", 0, true},
		{"bad fen", "4k3/8/8/8/8/8/8/3QKK2 w - - 0 1;1\n", 0, true},
		{"scored", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1;-35\n", 1, false},
		{"score not a number", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1;0.5\n", 0, true},
		{"score too large", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1;1000000\n", 0, true},
		{"empty", "", 0, false},
	}
	for _, c := range cases {
		got, err := ReadTrainingData(strings.NewReader(c.in))
		if (err != nil) != c.bad || len(got) != c.n {
			t.Errorf("%s: %d positions, error %v", c.name, len(got), err)
		}
	}
	// Round trip through the writer.
	ps := []TrainingPosition{{FEN: "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", Result: 1},
		{FEN: "4k3/8/8/8/8/8/8/3qK3 w - - 0 1", Result: 0, Score: -870, Scored: true}}
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
			if !(p.Result >= 0 && p.Result <= 1) {
				t.Fatalf("bad result %v", p.Result)
			}
		}
	})
}

// A short match game as match writes it: book moves without comments,
// then each move with the mover's score and depth.
const trainingPGN = `[Event "Knightwatch match"]
[White "new"]
[Black "old"]
[Result "1-0"]

1. e4 e5 2. Nf3 {+0.40/12 0.1s} 2... Nc6 {-0.30/12 0.1s} 3. Bb5 {+0.35/13 0.1s}
3... a6 {-0.25/12} 4. Bxc6 {+0.30/12} 4... dxc6 {-0.20/12} 5. O-O {+M9/20} 5... f6 {-M8/20} 1-0
`

func TestTrainingFromPGN(t *testing.T) {
	pgs, err := game.ReadPGN(strings.NewReader(trainingPGN))
	if err != nil || len(pgs) != 1 {
		t.Fatal(pgs, err)
	}
	fenAfter := func(moves int) string {
		p := game.NewPosition()
		for _, m := range pgs[0].MainlineMoves()[:moves] {
			p.MakeMove(m)
		}
		return p.FEN()
	}
	cases := []struct {
		name   string
		skip   int
		lambda float64
		want   []TrainingPosition
	}{
		// Plies 2-9 from skip 2; Bxc6 and dxc6 are captures, 5. O-O and
		// 5... f6 carry mate scores: left out.
		// Each keeps the mover's score turned to White's view: 1. Nf3
		// +0.40 for White, 2... Nc6 -0.30 for Black is +0.30.
		{"results", 2, 1, []TrainingPosition{{FEN: fenAfter(2), Result: 1, Score: 40, Scored: true},
			{FEN: fenAfter(3), Result: 1, Score: 30, Scored: true}, {FEN: fenAfter(4), Result: 1, Score: 35, Scored: true},
			{FEN: fenAfter(5), Result: 1, Score: 25, Scored: true}}},
		{"skip the opening", 4, 1, []TrainingPosition{{FEN: fenAfter(4), Result: 1, Score: 35, Scored: true},
			{FEN: fenAfter(5), Result: 1, Score: 25, Scored: true}}},
		// Half result, half sigmoid of the mover's score.
		{"blended", 2, 0.5, []TrainingPosition{
			{FEN: fenAfter(2), Result: 0.5 + 0.5*sigmoid(1, 40), Score: 40, Scored: true},
			{FEN: fenAfter(3), Result: 0.5 + 0.5*sigmoid(1, 30), Score: 30, Scored: true},
			{FEN: fenAfter(4), Result: 0.5 + 0.5*sigmoid(1, 35), Score: 35, Scored: true},
			{FEN: fenAfter(5), Result: 0.5 + 0.5*sigmoid(1, 25), Score: 25, Scored: true}}},
	}
	for _, c := range cases {
		got, err := TrainingFromPGN(pgs[0], c.skip, c.lambda, 1)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(got) != len(c.want) {
			t.Fatalf("%s: got %v, want %v", c.name, got, c.want)
		}
		for i := range got {
			if got[i].FEN != c.want[i].FEN || math.Abs(got[i].Result-c.want[i].Result) > 1e-9 ||
				got[i].Score != c.want[i].Score || got[i].Scored != c.want[i].Scored {
				t.Errorf("%s: position %d: got %v, want %v", c.name, i, got[i], c.want[i])
			}
		}
	}
	// A game without a result teaches nothing.
	pgs[0].Result = game.NoResult
	pgs[0].Tags = nil
	if got, err := TrainingFromPGN(pgs[0], 0, 1, 1); got != nil || err != nil {
		t.Errorf("unfinished game: %v %v", got, err)
	}
}

func TestCommentScore(t *testing.T) {
	cases := []struct {
		in       string
		cp       int
		mate, ok bool
	}{
		{"+0.35/14 0.120s", 35, false, true},
		{"-1.07/9", -107, false, true},
		{"+M5/20 0.3s", 0, true, true},
		{"-M3", 0, true, true},
		{"book", 0, false, false},
		{"", 0, false, false},
		{"+Inf/3", 0, false, false},
		{"+M/3", 0, true, false},
	}
	for _, c := range cases {
		cp, mate, ok := commentScore(c.in)
		if cp != c.cp || mate != c.mate || ok != c.ok {
			t.Errorf("commentScore(%q) = %d %v %v, want %d %v %v", c.in, cp, mate, ok, c.cp, c.mate, c.ok)
		}
	}
}

// FuzzTrainingFromPGN: any PGN the reader accepts gives positions with
// labels from 0 to 1 that are legal and not in check, or an error; never a
// panic.
func FuzzTrainingFromPGN(f *testing.F) {
	f.Add(trainingPGN, 0, 0.5)
	f.Add("1. f3 e5 2. g4 {+9.9/1} Qh4# 0-1", 1, 0.0)
	f.Add("[FEN \"4k3/8/8/8/8/8/8/3QK3 w - - 0 1\"]\n1. Qd7+ {+M2/3} Kxd7 1/2-1/2", 0, 1.0)
	f.Fuzz(func(t *testing.T, in string, skip int, lambda float64) {
		if !(lambda >= 0 && lambda <= 1) {
			return
		}
		pgs, err := game.ReadPGN(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, pg := range pgs {
			ps, err := TrainingFromPGN(pg, skip, lambda, 1.3)
			if err != nil {
				continue
			}
			for _, p := range ps {
				pos, err := game.ParseFEN(p.FEN)
				if err != nil || pos.InCheck() || !(p.Result >= 0 && p.Result <= 1) {
					t.Fatalf("bad training position %+v (%v)", p, err)
				}
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
