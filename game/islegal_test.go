package game

import (
	"math/rand/v2"
	"testing"
)

// TestIsLegalMatchesGenerator checks IsLegal, which decides without
// generating, against the generator on every one of the 65,536 possible
// move encodings: in the perft positions (standard and Chess960), their
// children, and positions from random games (checks, pins, en passant and
// promotions all occur there).
func TestIsLegalMatchesGenerator(t *testing.T) {
	var positions []*Position
	for _, file := range []string{"testdata/perft.epd", "testdata/chess960.epd"} {
		seen := map[string]bool{}
		for _, c := range loadEPD(t, file) {
			if seen[c.fen] {
				continue
			}
			seen[c.fen] = true
			p, err := ParseFEN(c.fen)
			if err != nil {
				t.Fatalf("%s: %v", c.source, err)
			}
			positions = append(positions, p)
			var ml MoveList
			p.GenerateLegal(&ml)
			for _, m := range ml.Moves[:ml.N] {
				child := *p
				child.MakeMove(m)
				positions = append(positions, &child)
			}
		}
	}
	for i, fen := range playoutStarts {
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 160; ply++ {
			if ply%8 == 0 || p.InCheck() || p.EnPassant() != NoSquare {
				q := *p
				positions = append(positions, &q)
			}
			var ml MoveList
			p.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			p.MakeMove(ml.Moves[rng.IntN(ml.N)])
		}
	}
	if testing.Short() && len(positions) > 300 {
		positions = positions[:300]
	}
	var legal [1 << 16]bool
	for _, p := range positions {
		var ml MoveList
		p.GenerateLegal(&ml)
		for _, m := range ml.Moves[:ml.N] {
			legal[m] = true
		}
		for m := 0; m < 1<<16; m++ {
			if got := p.IsLegal(Move(m)); got != legal[m] {
				t.Fatalf("%s: IsLegal(%v, %#04x) = %v, generator says %v", p.FEN(), Move(m), m, got, legal[m])
			}
		}
		for _, m := range ml.Moves[:ml.N] {
			legal[m] = false
		}
	}
	t.Logf("%d positions", len(positions))
}
