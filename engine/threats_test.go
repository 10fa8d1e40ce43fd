package engine

import "testing"

// Quiet moves are ordered by the threats around them: a piece attacked by
// something cheaper is moved to safety first, and a piece is not moved to
// where something cheaper attacks it; pawns and kings are left to history.
func TestThreatEscape(t *testing.T) {
	for _, tc := range []struct {
		name, fen, move string
		want            int
	}{
		{"queen attacked by a knight escapes", "4k3/8/8/8/8/4n3/8/3QK3 w - - 0 1", "d1d4", 16000},
		{"queen attacked by a knight stays in reach", "4k3/8/8/8/8/4n3/8/3QK3 w - - 0 1", "d1d5", 0},
		{"safe queen steps into a pawn's reach", "4k3/8/8/2p5/8/8/8/3QK3 w - - 0 1", "d1d4", -16000},
		{"safe queen to a safe square", "4k3/8/8/2p5/8/8/8/3QK3 w - - 0 1", "d1d3", 0},
		{"rook attacked by a bishop escapes", "4k3/8/8/8/8/8/1b6/R3K3 w - - 0 1", "a1a5", 8000},
		{"rook attacked by a bishop stays in reach", "4k3/8/8/8/8/8/1b6/R3K3 w - - 0 1", "a1a3", 0},
		{"safe rook steps into a knight's reach", "4k3/8/8/8/8/2n5/8/R3K3 w - - 0 1", "a1a4", -8000},
		{"knight attacked by a pawn escapes", "4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1", "e4f6", 5000},
		{"knight attacked by a rook is not cheaply threatened", "4k3/8/8/8/4N2r/8/8/4K3 w - - 0 1", "e4f6", 0},
		{"black bishop steps into a pawn's reach", "4k3/8/2b5/8/8/3P4/8/4K3 b - - 0 1", "c6e4", -5000},
		{"pawn moves are left alone", "4k3/8/8/2p5/8/8/3P4/4K3 w - - 0 1", "d2d4", 0},
		{"king moves are left alone", "4k3/8/8/8/8/4n3/8/4K3 w - - 0 1", "e1d2", 0},
	} {
		p := mustFEN(t, tc.fen)
		m, err := p.ParseUCI(tc.move)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		th := newThreats(p)
		if got := th.escape(p, m); got != tc.want {
			t.Errorf("%s: %s scored %d, want %d", tc.name, tc.move, got, tc.want)
		}
	}
}
