package bots

import (
	"math"
	"testing"

	"knightwatch/engine"
	"knightwatch/game"
	"knightwatch/recon"
)

// TestOutcomeWeight checks the opponent model's weight of single outcomes:
// a check counts threat times, a piece moved where the player wins it counts
// hangWeight, trades and safe moves count once.
func TestOutcomeWeight(t *testing.T) {
	const threat = 4
	if hangWeight <= 0 || hangWeight >= 1 {
		t.Fatalf("hangWeight %v: a hanging piece must count less than a sound move, and still count", hangWeight)
	}
	tests := []struct {
		name string
		fen  string // the opponent (Black) to move
		req  string // its request; "" passes
		want float64
	}{
		{"pass", "4k3/8/8/8/8/8/8/4K3 b - - 0 1", "", 1},
		{"check from a safe square", "4k3/8/8/8/8/8/7K/q7 b - - 0 1", "a1a2", threat},
		{"safe quiet move", "4k3/8/8/8/8/8/7K/q7 b - - 0 1", "a1a5", 1},
		{"queen onto a square a pawn attacks", "4k3/8/8/8/8/8/1P5K/q7 b - - 0 1", "a1a3", hangWeight},
		{"knight onto a square only the king attacks", "4k3/8/8/8/8/8/8/1n2KR2 b - - 0 1", "b1d2", hangWeight},
		{"defended knight attacked by a rook", "4k3/8/8/8/1n2p3/8/8/3R3K b - - 0 1", "b4d3", 1},
		{"defended knight attacked by a pawn", "4k3/8/8/8/1n2p3/8/2P5/7K b - - 0 1", "b4d3", hangWeight},
		{"defended knight attacked by a pawn, giving check", "4k3/8/8/8/1n2p3/8/2P5/4K3 b - - 0 1", "b4d3", hangWeight * threat},
		{"queen takes a defended queen: a trade", "3qk3/8/8/8/3Q4/4P3/8/7K b - - 0 1", "d8d4", 1},
		{"queen takes a defended pawn", "3qk3/8/8/8/3P4/4P3/8/7K b - - 0 1", "d8d4", hangWeight},
		{"king steps where a rook attacks", "8/8/8/4k3/8/8/8/3RK3 b - - 0 1", "e5d5", hangWeight},
		{"slide stops at the first piece and takes it", "4k3/8/8/8/8/8/4K3/r1N5 b - - 0 1", "a1e1", 1},
		{"pawn takes en passant, attacked by a pawn", "4k3/8/8/8/3Pp3/8/2P5/7K b - d3 0 1", "e4d3", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent, err := game.ParseFEN(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			req := game.NoMove
			if tt.req != "" {
				if req, err = recon.ParseMove(tt.req); err != nil {
					t.Fatal(err)
				}
			}
			_, enc := recon.Revise(parent, req)
			child := *parent
			recon.Apply(&child, enc)
			if got := outcomeWeight(parent, enc, &child, threat); got != tt.want {
				t.Errorf("weight %v, want %v", got, tt.want)
			}
		})
	}
}

// TestScoreShortfalls checks how far below the parent's best outcome each
// outcome's score falls, as the model counts it: floored at evalFloor and
// 0 for a check.
func TestScoreShortfalls(t *testing.T) {
	tests := []struct {
		name   string
		scores []float64
		checks []bool
		want   []float64
	}{
		{"best is 0", []float64{0.5, 0.25, -0.5}, []bool{false, false, false}, []float64{0, -0.25, -1}},
		{"floored", []float64{3, -10, 2}, []bool{false, false, false}, []float64{0, evalFloor, -1}},
		{"a check is not judged", []float64{1, -4, 0.5}, []bool{false, true, false}, []float64{0, 0, -0.5}},
		{"a check can be the best", []float64{-1, 2, 1}, []bool{false, true, false}, []float64{evalFloor, 0, -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := append([]float64{}, tt.scores...)
			scoreShortfalls(got, tt.checks)
			for i := range got {
				if math.Abs(got[i]-tt.want[i]) > 1e-12 {
					t.Fatalf("shortfalls %v, want %v", got, tt.want)
				}
			}
		})
	}
}

// TestExpansionWeighsScores checks that the expansion gives each child of
// a board the weight of its traits (outcomeWeight) times perPawn to the
// power of its shortfall (scoreShortfalls over the mover's quiescence
// scores), normalised among the children that show the same capture, and
// that the score factor moves weight to the opponent's best outcome.
func TestExpansionWeighsScores(t *testing.T) {
	m := opponentModel{threat: 4, perPawn: 6}
	ev := engine.NewEvaluator(engine.Options{})
	for _, fen := range []string{
		"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3",
		"4k3/8/8/8/1n2p3/8/2P5/4K1Bq b - - 0 1",
		"r3k2r/ppp2ppp/2n5/3qp3/8/2N5/PPP2PPP/R2QK2R b KQkq - 0 1",
	} {
		parent, err := game.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		// The outcomes and their weights, worked out one by one.
		type kid struct {
			capture                   game.Square
			weight, traits, shortfall float64
			check                     bool
		}
		kids := map[uint64]*kid{}
		var order []uint64
		var scores []float64
		var checks []bool
		for _, req := range append(opponentRequests(nil, parent), game.NoMove) {
			_, enc := recon.Revise(parent, req)
			child := *parent
			recon.Apply(&child, enc)
			if child.KingSquare(child.Side()) == game.NoSquare || kids[child.Hash()] != nil {
				continue
			}
			kids[child.Hash()] = &kid{capture: recon.CaptureSquare(parent, enc), traits: outcomeWeight(parent, enc, &child, m.threat), check: checksKing(&child)}
			order = append(order, child.Hash())
			scores = append(scores, moverScore(ev, &child))
			checks = append(checks, checksKing(&child))
		}
		scoreShortfalls(scores, checks)
		sums := map[game.Square]float64{}
		shortOfBest := false
		for i, h := range order {
			k := kids[h]
			k.shortfall = scores[i]
			k.weight = k.traits * math.Pow(m.perPawn, k.shortfall)
			sums[k.capture] += k.weight
			shortOfBest = shortOfBest || k.shortfall < 0
		}
		if !shortOfBest {
			t.Fatalf("%s: no outcome falls short of the best: the test shows nothing", fen)
		}
		s := &belief{boards: []game.Position{*parent}, weights: []float64{1}, exact: true}
		plain := opponentModel{threat: m.threat}
		for capture, sum := range sums {
			got := s.expanded(capture, m, 1)
			without := s.expanded(capture, plain, 1)
			for i := range got.boards {
				k := kids[got.boards[i].Hash()]
				if k == nil || k.capture != capture {
					t.Fatalf("%s: child %s is not an outcome showing capture %v", fen, got.boards[i].FEN(), capture)
				}
				if want := k.weight / sum; math.Abs(got.weights[i]-want) > 1e-12 {
					t.Errorf("%s: child %s weighs %v, want %v", fen, got.boards[i].FEN(), got.weights[i], want)
				}
				// A child at the best score gains weight from the factor
				// whenever a sibling showing the same capture falls short.
				if k.shortfall == 0 && !k.check && got.weights[i] < without.weights[i]-1e-12 {
					t.Errorf("%s: best child %s weighs %v with the score factor, %v without", fen, got.boards[i].FEN(), got.weights[i], without.weights[i])
				}
			}
			n := 0
			for _, k := range kids {
				if k.capture == capture {
					n++
				}
			}
			if len(got.boards) != n {
				t.Errorf("%s: %d children show capture %v, want %d", fen, len(got.boards), capture, n)
			}
		}
	}
}
