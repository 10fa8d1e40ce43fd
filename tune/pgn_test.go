package tune

import (
	"math"
	"strings"
	"testing"

	"knightwatch/game"
)

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
			{FEN: fenAfter(2), Result: 0.5 + 0.5*Sigmoid(40, ScaleOfK(1)), Score: 40, Scored: true},
			{FEN: fenAfter(3), Result: 0.5 + 0.5*Sigmoid(30, ScaleOfK(1)), Score: 30, Scored: true},
			{FEN: fenAfter(4), Result: 0.5 + 0.5*Sigmoid(35, ScaleOfK(1)), Score: 35, Scored: true},
			{FEN: fenAfter(5), Result: 0.5 + 0.5*Sigmoid(25, ScaleOfK(1)), Score: 25, Scored: true}}},
	}
	for _, c := range cases {
		got, err := TrainingFromPGN(pgs[0], c.skip, c.lambda, ScaleOfK(1))
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
	if got, err := TrainingFromPGN(pgs[0], 0, 1, ScaleOfK(1)); got != nil || err != nil {
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
			ps, err := TrainingFromPGN(pg, skip, lambda, ScaleOfK(1.3))
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
