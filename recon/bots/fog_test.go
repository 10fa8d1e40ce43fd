package bots

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"knightwatch/game"
)

// quietCheckByMoves is quietCheck's definition played out: some
// pseudo-legal move of the side to move, neither a capture, castling, a
// promotion nor a king's move, after which the moved piece attacks the
// other king.
func quietCheckByMoves(p *game.Position) bool {
	them := p.Side().Other()
	var ml game.MoveList
	p.GeneratePseudoLegal(&ml)
	for _, m := range ml.Slice() {
		if m.IsCastling() || m.IsPromotion() || m.IsEnPassant() || p.PieceAt(m.To()) != game.NoPiece ||
			p.PieceAt(m.From()).Type() == game.King {
			continue
		}
		r := *p
		r.MakeMove(m)
		if k := r.KingSquare(them); k != game.NoSquare && r.AttackersTo(k, r.Occupied()).Has(m.To()) {
			return true
		}
	}
	return false
}

func TestQuietCheck(t *testing.T) {
	tests := []struct {
		name, fen string
		want      bool
	}{
		{"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
		{"knight to d6", "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", true},
		{"knight's squares taken: captures only", "4k3/8/3p1p2/8/4N3/8/8/4K3 w - - 0 1", false},
		{"bishop to b5", "4k3/8/8/8/2B5/8/8/4K3 w - - 0 1", true},
		{"bishop's line blocked", "4k3/3p1p2/8/8/8/8/8/B3K3 w - - 0 1", false},
		{"rook to the e-file", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", true},
		{"queen along the rank", "4k3/8/8/8/8/8/6Q1/K7 w - - 0 1", true},
		{"pawn push to d7", "4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", true},
		{"pawn push blocked", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", false},
		{"double push to d4", "8/8/8/8/4k3/8/3P4/4K3 w - - 0 1", true},
		{"double push, path blocked", "8/8/8/8/4k3/3p4/3P4/4K3 w - - 0 1", false},
		{"black knight to f3", "4k3/8/8/8/8/8/8/4K1n1 b - - 0 1", true},
		{"black double push to f5", "8/5p2/8/8/4K3/8/8/4k3 b - - 0 1", true},
		{"black pawn push to d2", "4k3/8/8/8/8/3p4/8/4K3 b - - 0 1", true},
		{"discovered checks are not counted", "4k3/8/8/8/8/8/4N3/K3R3 w - - 0 1", false},
		{"queen along a file onto the king's diagonal", "4k3/8/8/2Q5/8/8/8/4K3 w - - 0 1", true},
		{"bishop cannot check from a straight line", "3k4/8/8/8/8/8/8/3BK3 w - - 0 1", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := game.ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			if got := quietCheck(p); got != tc.want {
				t.Errorf("quietCheck = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestQuietCheckAgreesWithMoves compares quietCheck with the moves played
// out on positions of random games.
func TestQuietCheckAgreesWithMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	checked, found := 0, 0
	for range 300 {
		p, err := game.ParseFEN(game.StartFEN)
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 120; ply++ {
			moves := p.LegalMoves()
			if len(moves) == 0 {
				break
			}
			if quietCheckByMoves(p) != quietCheck(p) {
				t.Fatalf("%s: quietCheck %v, moves played out %v", p.FEN(), quietCheck(p), !quietCheck(p))
			}
			checked++
			if quietCheck(p) {
				found++
			}
			p.MakeMove(moves[rng.IntN(len(moves))])
		}
	}
	if found == 0 || found == checked {
		t.Fatalf("%d of %d positions have a quiet check: the comparison tells nothing", found, checked)
	}
}

func TestSneakyCheck(t *testing.T) {
	tests := []struct {
		name, fen, move string
		want            bool
	}{
		{"quiet knight check", "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", "e4d6", true},
		{"quiet move, no check", "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", "e4c3", false},
		{"check by capture", "4k3/8/3p4/8/4N3/8/8/4K3 w - - 0 1", "e4d6", false},
		{"discovered check", "4k3/8/8/8/4N3/8/8/K3R3 w - - 0 1", "e4c3", true},
		{"pass", "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", "0000", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := game.ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			a := game.NoMove
			if tc.move != "0000" {
				if a, err = b.ParseUCI(tc.move); err != nil {
					t.Fatal(err)
				}
			}
			r := afterRequest(b, a)
			if got := sneakyCheck(b, &r); got != tc.want {
				t.Errorf("sneakyCheck = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestScoreWeighsFog checks that the fog weights scale a board's winning
// chance exactly as documented, and only where a quiet check is there.
func TestScoreWeighsFog(t *testing.T) {
	tests := []struct {
		name, fen, move   string
		opponentCanCheck  bool
		requestGivesCheck bool
	}{
		// After Kd1 the black rook can go to the d-file quietly.
		{"opponent's rook can check", "4k2r/8/8/8/8/8/8/4K3 w - - 0 1", "e1d1", true, false},
		{"nothing checks", "k7/8/8/8/8/8/8/4K3 w - - 0 1", "e1d1", false, false},
		{"knight gives a quiet check", "6k1/8/8/8/4N3/8/8/K7 w - - 0 1", "e4f6", false, true},
	}
	const missed, sneak = 0.25, 0.4
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := game.ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			a, err := b.ParseUCI(tc.move)
			if err != nil {
				t.Fatal(err)
			}
			plain, fogged := newScorer(fogWeights{}), newScorer(fogWeights{missed: missed, sneak: sneak})
			plain.us, fogged.us = b.Side(), b.Side()
			p, _ := plain.score(context.Background(), b, a, 0)
			f, _ := fogged.score(context.Background(), b, a, 0)
			want := float64(p)
			if tc.opponentCanCheck {
				want *= 1 - missed
			}
			if tc.requestGivesCheck {
				want += (1 - want) * sneak
			}
			if math.Abs(float64(f)-want) > 1e-6 {
				t.Errorf("score with fog %.6f, want %.6f (without %.6f)", f, want, p)
			}
			if changed := tc.opponentCanCheck || tc.requestGivesCheck; changed == (f == p) {
				t.Errorf("score with fog %.6f, without %.6f: changed %v, want %v", f, p, f != p, changed)
			}
		})
	}
}
