package engine

import (
	"math/rand/v2"
	"testing"

	"knightwatch/game"
)

// The filter may let through moves that do not check, but must never drop
// one that does: a dropped check is a tactic quiescence cannot see. Walk
// random games from varied positions and compare with the exact test on
// every legal move.
func TestCheckSquaresNeverMissACheck(t *testing.T) {
	fens := append([]string{
		// Discovered checks by a pawn, a knight, a king and a castling rook.
		"4k3/8/8/8/8/4P3/8/K3R3 w - - 0 1",
		"4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1",
		"7k/8/8/8/8/8/1K6/B7 w - - 0 1",
		"5k2/8/8/8/8/8/8/4K2R w K - 0 1",
		// En passant uncovering a rook's line, promotion to a checking piece.
		"8/8/8/R2pP2k/8/8/8/K7 w - d6 0 1",
		"3k4/1P6/8/8/8/8/8/K7 w - - 0 1",
	}, BenchFENs...)
	rng := rand.New(rand.NewPCG(1, 2))
	checked, candidates, checks := 0, 0, 0
	for _, fen := range fens {
		for g := 0; g < 20; g++ {
			p, err := game.ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; ply < 60; ply++ {
				if !p.InCheck() {
					var legal game.MoveList
					p.GenerateLegal(&legal)
					cs := newCheckSquares(p)
					for _, m := range legal.Moves[:legal.N] {
						checked++
						may := cs.mayCheck(p, m)
						if may {
							candidates++
						}
						if p.GivesCheck(m) {
							checks++
							if !may {
								t.Fatalf("%s: %s gives check but the filter dropped it", p.FEN(), m)
							}
						}
					}
				}
				var ml game.MoveList
				p.GenerateLegal(&ml)
				if ml.N == 0 {
					break
				}
				p.MakeMove(ml.Moves[rng.IntN(ml.N)])
			}
		}
	}
	if checks == 0 || candidates >= checked/2 {
		t.Fatalf("filter not exercised or not filtering: %d moves, %d candidates, %d checks", checked, candidates, checks)
	}
	t.Logf("%d moves, %d candidates, %d checks", checked, candidates, checks)
}
