package bots

import (
	"testing"

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
