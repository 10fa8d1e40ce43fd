package engine

import "testing"

// The correction table must learn the sign and size of the evaluation's
// error for one pawn structure, stay within its cap, and leave other
// pawn structures and the other side to move alone.
func TestCorrectionLearnsWithinCap(t *testing.T) {
	p := mustFEN(t, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	other := mustFEN(t, "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1")
	if pawnIndex(p) == pawnIndex(other) {
		t.Fatal("test positions share a correction slot; pick others")
	}
	th := &thread{}
	for _, tc := range []struct {
		name          string
		diff, depth   int
		rounds        int
		wantMin, want int // after the rounds, want correction in [wantMin, want]
	}{
		{"one search nudges, by its weight", 40, 15, 1, 2, 2},
		{"repeated deep searches converge", 40, 12, 200, 39, 40},
		{"a huge error is capped", 5000, 15, 200, corrMax - 1, corrMax},
		{"and the cap holds downwards", -5000, 15, 400, -corrMax, -corrMax + 1},
	} {
		th.corr = [2][corrSize]int32{}
		for range tc.rounds {
			th.updateCorrection(p, tc.diff-(th.correct(p, 0)), tc.depth)
		}
		got := th.correct(p, 0)
		if got < tc.wantMin || got > tc.want {
			t.Errorf("%s: correction %d, want %d..%d", tc.name, got, tc.wantMin, tc.want)
		}
		if c := th.correct(other, 0); c != 0 {
			t.Errorf("%s: another pawn structure corrected by %d", tc.name, c)
		}
		p.MakeNullMove()
		if c := th.correct(p, 0); c != 0 {
			t.Errorf("%s: the other side to move corrected by %d", tc.name, c)
		}
		p.MakeNullMove()
	}
	// A corrected evaluation never reaches the mate range.
	th.corr[p.Side()][pawnIndex(p)] = corrMax * corrGrain
	if got := th.correct(p, mateBound-1); got >= mateBound {
		t.Errorf("corrected %d into the mate range", got)
	}
}
