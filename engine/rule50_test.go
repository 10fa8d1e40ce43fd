package engine

import "testing"

// The search's static evaluation shrinks as the fifty-move count grows, so
// that a line which makes progress beats shuffling with the same material.
func TestEvaluationFadesWithFiftyMoveCount(t *testing.T) {
	th := &thread{pawns: new(pawnCache)}
	for _, tc := range []struct {
		name  string
		clock string
		num   int // expected evaluation = fresh × num / 200
	}{
		{"fresh", "0", 200},
		{"twenty moves of shuffling", "40", 160},
		{"about to be drawn", "99", 101},
	} {
		fresh := evaluate(mustFEN(t, "4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1"))
		if fresh < 400 {
			t.Fatalf("a rook and a pawn up scores %d", fresh)
		}
		got := th.evaluate(mustFEN(t, "4k3/8/8/8/8/8/4P3/R3K3 w - - "+tc.clock+" 60"))
		if want := fresh * tc.num / 200; got != want {
			t.Errorf("%s: evaluation %d, want %d (%d × %d/200)", tc.name, got, want, fresh, tc.num)
		}
	}
}
