package web

import (
	"strings"
	"testing"

	"knightwatch/game"
)

func TestChess960BackRank(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{518, "RNBQKBNR"}, // the ordinary start position
		{0, "BBQNNRKR"},
		{959, "RKRNNQBB"},
		{1, "BQNBNRKR"},
	}
	for _, tc := range tests {
		got, err := chess960BackRank(tc.n)
		if err != nil || got != tc.want {
			t.Errorf("chess960BackRank(%d) = %q, %v; want %q", tc.n, got, err, tc.want)
		}
	}
	for _, bad := range []int{-1, 960} {
		if _, err := chess960BackRank(bad); err == nil {
			t.Errorf("chess960BackRank(%d) accepted", bad)
		}
	}
}

// Every start position must be a legal Chess960 setup: distinct ranks,
// bishops on opposite colours, king between the rooks, and the FEN must
// parse with castling rights for both sides.
func TestChess960AllPositions(t *testing.T) {
	seen := map[string]bool{}
	for n := 0; n < 960; n++ {
		r, err := chess960BackRank(n)
		if err != nil {
			t.Fatal(err)
		}
		if seen[r] {
			t.Fatalf("position %d repeats %s", n, r)
		}
		seen[r] = true
		b1, b2 := strings.IndexByte(r, 'B'), strings.LastIndexByte(r, 'B')
		r1, r2, k := strings.IndexByte(r, 'R'), strings.LastIndexByte(r, 'R'), strings.IndexByte(r, 'K')
		if (b1+b2)%2 == 0 || !(r1 < k && k < r2) {
			t.Fatalf("position %d = %s is not a Chess960 setup", n, r)
		}
		fen, _ := chess960FEN(n)
		p, err := game.ParseFEN(fen)
		if err != nil {
			t.Fatalf("position %d: %v", n, err)
		}
		for c := game.White; c <= game.Black; c++ {
			for side := 0; side < 2; side++ {
				if p.CastlingRook(c, side) == game.NoSquare {
					t.Fatalf("position %d (%s) lost a castling right", n, fen)
				}
			}
		}
	}
}
