package game

import (
	"strings"
	"testing"
)

func gameFrom(t *testing.T, fen, moves string) *Game {
	t.Helper()
	g, err := NewGameFromFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	playSAN(t, g, moves)
	return g
}

func TestOutcomes(t *testing.T) {
	shuffle := "Nf3 Nf6 Ng1 Ng8 "
	tests := []struct {
		name      string
		fen       string
		moves     string
		outcome   Outcome // automatic ending (Outcome)
		claimable Outcome // ClaimableDraw
	}{
		{"start", StartFEN, "", Outcome{NoResult, NotOver}, Outcome{NoResult, NotOver}},
		{"fool's mate", StartFEN, "f3 e5 g4 Qh4#", Outcome{BlackWins, Checkmate}, Outcome{NoResult, NotOver}},
		{"scholar's mate", StartFEN, "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#", Outcome{WhiteWins, Checkmate}, Outcome{NoResult, NotOver}},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "", Outcome{Draw, Stalemate}, Outcome{NoResult, NotOver}},
		{"stalemate by a move", "7k/3Q4/6K1/8/8/8/8/8 w - - 0 1", "Qf7", Outcome{Draw, Stalemate}, Outcome{NoResult, NotOver}},
		{"K v K", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "", Outcome{Draw, InsufficientMaterial}, Outcome{NoResult, NotOver}},
		{"K+B v K", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "", Outcome{Draw, InsufficientMaterial}, Outcome{NoResult, NotOver}},
		{"K+N v K", "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1", "", Outcome{Draw, InsufficientMaterial}, Outcome{NoResult, NotOver}},
		{"bishops all on light squares", "4kb2/8/8/8/8/8/8/2B1KB2 w - - 0 1", "", Outcome{NoResult, NotOver}, Outcome{NoResult, NotOver}},
		{"bishops on one colour", "4k3/8/8/8/8/8/8/B1B1K1b1 w - - 0 1", "", Outcome{Draw, InsufficientMaterial}, Outcome{NoResult, NotOver}},
		{"capture leaves K v K", "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", "Kxd2", Outcome{Draw, InsufficientMaterial}, Outcome{NoResult, NotOver}},
		{"K+N+N v K can mate", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "", Outcome{NoResult, NotOver}, Outcome{NoResult, NotOver}},
		{"opposite bishops can mate", "4kb2/8/8/8/8/8/8/4KB2 w - - 0 1", "", Outcome{NoResult, NotOver}, Outcome{NoResult, NotOver}},
		{"K+P v K", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "", Outcome{NoResult, NotOver}, Outcome{NoResult, NotOver}},
		{"fifty moves claimable", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "Ra2", Outcome{NoResult, NotOver}, Outcome{Draw, FiftyMoves}},
		{"49.5 moves not yet", "4k3/8/8/8/8/8/8/R3K3 w - - 98 80", "Ra2", Outcome{NoResult, NotOver}, Outcome{NoResult, NotOver}},
		{"pawn move resets the count", "4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80", "e3", Outcome{NoResult, NotOver}, Outcome{NoResult, NotOver}},
		{"seventy-five moves automatic", "4k3/8/8/8/8/8/8/R3K3 w - - 149 100", "Ra2", Outcome{Draw, SeventyFiveMoves}, Outcome{Draw, FiftyMoves}},
		{"mate on the 75th move wins", "k7/8/1K6/8/8/8/8/7R w - - 149 100", "Rh8#", Outcome{WhiteWins, Checkmate}, Outcome{Draw, FiftyMoves}},
		{"twofold", StartFEN, shuffle, Outcome{NoResult, NotOver}, Outcome{NoResult, NotOver}},
		{"threefold claimable", StartFEN, shuffle + shuffle, Outcome{NoResult, NotOver}, Outcome{Draw, ThreefoldRepetition}},
		{"fourfold still a claim", StartFEN, shuffle + shuffle + shuffle, Outcome{NoResult, NotOver}, Outcome{Draw, ThreefoldRepetition}},
		{"fivefold automatic", StartFEN, strings.Repeat(shuffle, 4), Outcome{Draw, FivefoldRepetition}, Outcome{Draw, ThreefoldRepetition}},
		// Losing castling rights makes the later positions different ones.
		{"castling rights differ", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "Ke2 Ke7 Ke1 Ke8 Ke2 Ke7 Ke1 Ke8", Outcome{NoResult, NotOver}, Outcome{NoResult, NotOver}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := gameFrom(t, tt.fen, tt.moves)
			if got := g.Outcome(); got != tt.outcome {
				t.Errorf("Outcome = %v, want %v", got, tt.outcome)
			}
			if got := g.ClaimableDraw(); got != tt.claimable {
				t.Errorf("ClaimableDraw = %v, want %v", got, tt.claimable)
			}
			want := tt.outcome
			if !want.Over() {
				want = tt.claimable
			}
			if got := g.OutcomeWithClaims(); got != want {
				t.Errorf("OutcomeWithClaims = %v, want %v", got, want)
			}
			if tt.outcome.Over() {
				if _, err := g.PlayMove("a3"); err != ErrGameOver {
					t.Errorf("move after the end: %v", err)
				}
			}
		})
	}
}

// TestRepetitionKeyEnPassant: an en passant square makes a position
// different only when the capture is really legal (FIDE 9.2.2).
func TestRepetitionKeyEnPassant(t *testing.T) {
	tests := []struct {
		name, fen, move, sameWithout string
		epCounts                     bool
	}{
		// The c4 pawn is pinned to g8 by the a2 bishop: cxd3 is illegal.
		{"pinned capturer", "6k1/8/8/8/2p5/8/B2P4/4K3 w - - 0 1", "d4", "6k1/8/8/8/2pP4/8/B7/4K3 b - - 0 1", false},
		{"legal capture", "6k1/8/8/8/2p5/8/3P4/4K3 w - - 0 1", "d4", "6k1/8/8/8/2pP4/8/8/4K3 b - - 0 1", true},
		// Capturing would expose the king along the rank (b4 king, h4 rook).
		{"rank pin", "8/8/8/8/1k1p3R/8/4P3/4K3 w - - 0 1", "e4", "8/8/8/8/1k1pP2R/8/8/4K3 b - - 0 1", false},
		{"no capturer", StartFEN, "e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := gameFrom(t, tt.fen, tt.move)
			p := g.Position()
			without := mustFEN(t, tt.sameWithout)
			if same := p.RepetitionKey() == without.RepetitionKey(); same == tt.epCounts {
				t.Errorf("repetition keys equal = %v, want %v", same, !tt.epCounts)
			}
			if p.hasLegalEnPassant() != tt.epCounts {
				t.Errorf("legal en passant = %v", !tt.epCounts)
			}
		})
	}

	// In a game: the position after d4 (capture illegal) recurs twice more
	// without an en passant square, and that makes three.
	g := gameFrom(t, "6k1/8/8/8/2p5/8/B2P4/4K3 w - - 0 1", "d4 Kh8 Kd1 Kg8 Ke1 Kh8 Kd1 Kg8 Ke1")
	if got := g.ClaimableDraw(); got != (Outcome{Draw, ThreefoldRepetition}) {
		t.Errorf("pinned en passant repetition: %v, want threefold", got)
	}
	g = gameFrom(t, "6k1/8/8/8/2p5/8/3P4/4K3 w - - 0 1", "d4 Kh8 Kd1 Kg8 Ke1 Kh8 Kd1 Kg8 Ke1")
	if got := g.ClaimableDraw(); got.Over() {
		t.Errorf("legal en passant counted as the same position: %v", got)
	}
}

func TestResultsAndUndo(t *testing.T) {
	g := gameFrom(t, StartFEN, "e4")
	g.Resign(White)
	if o := g.Outcome(); o != (Outcome{BlackWins, Resignation}) || o.String() != "0-1 (resignation)" {
		t.Errorf("resign: %v", o)
	}
	if w, ok := g.Outcome().Winner(); !ok || w != Black {
		t.Errorf("winner %v %v", w, ok)
	}
	if _, err := g.PlayMove("e5"); err != ErrGameOver {
		t.Errorf("move after resignation: %v", err)
	}
	if m, ok := g.Undo(); !ok || m != NewMove(E2, E4) || g.Outcome().Over() {
		t.Errorf("undo: %v %v %v", m, ok, g.Outcome())
	}
	g.AgreeDraw()
	if _, ok := g.Outcome().Winner(); ok || g.Outcome().Result != Draw {
		t.Errorf("draw: %v", g.Outcome())
	}
	if (Outcome{}).String() != "*" {
		t.Errorf("unfinished outcome prints %q", Outcome{}.String())
	}
}
