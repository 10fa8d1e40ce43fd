package game

import (
	"errors"
	"testing"
)

func mustFEN(t *testing.T, fen string) *Position {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return p
}

const (
	knightsOnFiles = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"     // b1 and f1 both reach d2
	knightsOnFile  = "4k3/8/8/8/8/1N6/8/1N2K3 w - - 0 1"    // b1 and b3 both reach d2
	rooksOnFile    = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1"      // a1 and a5 both reach a3
	threeQueens    = "2k5/8/8/8/4Q2Q/8/8/K6Q w - - 0 1"     // e4, h4 and h1 all reach e1
	castlingBoth   = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1" // every castling possible
	epReady        = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"    // exd6 en passant
	promoteA8      = "1n5k/P7/8/8/8/8/8/K7 w - - 0 1"       // a8 push and axb8 capture
	scholarsMate   = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
)

func TestSANWrite(t *testing.T) {
	tests := []struct{ fen, uci, san string }{
		{StartFEN, "g1f3", "Nf3"},
		{StartFEN, "e2e4", "e4"},
		{knightsOnFiles, "b1d2", "Nbd2"},
		{knightsOnFiles, "f1d2", "Nfd2"},
		{knightsOnFile, "b1d2", "N1d2"},
		{knightsOnFile, "b3d2", "N3d2"},
		{knightsOnFile, "b3c5", "Nc5"},
		{rooksOnFile, "a1a3", "R1a3"},
		{rooksOnFile, "a5a3", "R5a3"},
		{threeQueens, "h4e1", "Qh4e1"},
		{threeQueens, "e4e1", "Qee1"},
		{threeQueens, "h1e1", "Q1e1"},
		{castlingBoth, "e1g1", "O-O"},
		{castlingBoth, "e1c1", "O-O-O"},
		{castlingBoth, "a1a8", "Rxa8+"},
		{epReady, "e5d6", "exd6"},
		{promoteA8, "a7a8q", "a8=Q"},
		{promoteA8, "a7a8n", "a8=N"},
		{promoteA8, "a7b8r", "axb8=R+"},
		{scholarsMate, "h5f7", "Qxf7#"},
		{StartFEN, "0000", "--"},
	}
	for _, tt := range tests {
		p := mustFEN(t, tt.fen)
		m, err := p.ParseUCI(tt.uci)
		if err != nil {
			t.Fatalf("%s: ParseUCI(%s): %v", tt.fen, tt.uci, err)
		}
		if got := p.SAN(m); got != tt.san {
			t.Errorf("%s: SAN(%s) = %q, want %q", tt.fen, tt.uci, got, tt.san)
		}
	}
}

func TestSANParse(t *testing.T) {
	tests := []struct {
		name, fen, san string
		uci            string // the expected move, or "" when err is set
		err            error
	}{
		{"plain", StartFEN, "Nf3", "g1f3", nil},
		{"hyphenated long form", StartFEN, "Ng1-f3", "g1f3", nil},
		{"over-disambiguated", StartFEN, "Ng1f3", "g1f3", nil},
		{"annotation suffix", StartFEN, "e4!?", "e2e4", nil},
		{"disambiguated by file", knightsOnFiles, "Nbd2", "b1d2", nil},
		{"disambiguated by rank where file suffices", knightsOnFiles, "N1d2", "", ErrAmbiguousMove},
		{"needs disambiguation", knightsOnFiles, "Nd2", "", ErrAmbiguousMove},
		{"disambiguated by rank", knightsOnFile, "N3d2", "b3d2", nil},
		{"file does not disambiguate", knightsOnFile, "Nbd2", "", ErrAmbiguousMove},
		{"rook by rank", rooksOnFile, "R5a3", "a5a3", nil},
		{"by square", threeQueens, "Qh4e1", "h4e1", nil},
		{"by square needed", threeQueens, "Qhe1", "", ErrAmbiguousMove},
		{"O-O", castlingBoth, "O-O", "e1g1", nil},
		{"O-O-O", castlingBoth, "O-O-O", "e1c1", nil},
		{"zeros", castlingBoth, "0-0", "e1g1", nil},
		{"zeros long", castlingBoth, "0-0-0+", "e1c1", nil},
		{"check suffix", castlingBoth, "Rxa8+", "a1a8", nil},
		{"missing check suffix", castlingBoth, "Rxa8", "a1a8", nil},
		{"en passant", epReady, "exd6", "e5d6", nil},
		{"en passant suffix", epReady, "exd6e.p.", "e5d6", nil},
		{"en passant short suffix", epReady, "exd6ep", "e5d6", nil},
		{"promotion =Q", promoteA8, "a8=Q", "a7a8q", nil},
		{"promotion Q", promoteA8, "a8Q", "a7a8q", nil},
		{"promotion lower case", promoteA8, "a8q", "a7a8q", nil},
		{"capture promotion", promoteA8, "axb8=N", "a7b8n", nil},
		{"promotion piece missing", promoteA8, "a8", "", ErrInvalidMove},
		{"mate", scholarsMate, "Qxf7#", "h5f7", nil},
		{"illegal king move", scholarsMate, "Ke3", "", ErrIllegalMove},
		{"no such piece", knightsOnFiles, "Bd3", "", ErrIllegalMove},
		{"castling not allowed", knightsOnFiles, "O-O", "", ErrIllegalMove},
		{"capture of nothing", StartFEN, "Nxf3", "", ErrIllegalMove},
		{"garbage", StartFEN, "hello", "", ErrInvalidMove},
		{"empty", StartFEN, "", "", ErrInvalidMove},
		{"off the board", StartFEN, "Ni9", "", ErrInvalidMove},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			before := *p
			m, err := p.ParseSAN(tt.san)
			if *p != before {
				t.Fatal("ParseSAN changed the position")
			}
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Errorf("ParseSAN(%q) = %v, %v; want %v", tt.san, m, err, tt.err)
				}
				return
			}
			if err != nil || p.UCI(m) != tt.uci {
				t.Errorf("ParseSAN(%q) = %v, %v; want %s", tt.san, p.UCI(m), err, tt.uci)
			}
		})
	}
}

func TestUCIParse(t *testing.T) {
	tests := []struct {
		name, fen, in string
		want          string // Move.String() (castling is king takes rook), or ""
		err           error
	}{
		{"plain", StartFEN, "e2e4", "e2e4", nil},
		{"castle as king two squares", castlingBoth, "e1g1", "e1h1", nil},
		{"castle as king takes rook", castlingBoth, "e1h1", "e1h1", nil},
		{"long castle", castlingBoth, "e1c1", "e1a1", nil},
		{"promotion", promoteA8, "a7a8q", "a7a8q", nil},
		{"upper-case promotion", promoteA8, "a7a8N", "a7a8n", nil},
		{"promotion letter missing", promoteA8, "a7a8", "", ErrIllegalMove},
		{"bad promotion letter", promoteA8, "a7a8k", "", ErrInvalidMove},
		{"promotion on a non-promotion", StartFEN, "e2e4q", "", ErrIllegalMove},
		{"illegal", StartFEN, "e2e5", "", ErrIllegalMove},
		{"too short", StartFEN, "e2e", "", ErrInvalidMove},
		{"off the board", StartFEN, "i2i4", "", ErrInvalidMove},
		{"null", StartFEN, "0000", "0000", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			m, err := p.ParseUCI(tt.in)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Errorf("ParseUCI(%q) = %v, %v; want %v", tt.in, m, err, tt.err)
				}
				return
			}
			if err != nil || m.String() != tt.want {
				t.Errorf("ParseUCI(%q) = %v, %v; want %s", tt.in, m, err, tt.want)
			}
		})
	}
	// In Chess960 mode castling is only king takes rook.
	p := mustFEN(t, castlingBoth)
	p.SetChess960(true)
	if _, err := p.ParseUCI("e1g1"); err == nil {
		t.Error("Chess960 accepted e1g1 as castling")
	}
	if m, err := p.ParseUCI("e1h1"); err != nil || p.UCI(m) != "e1h1" {
		t.Errorf("Chess960 e1h1 = %v, %v", m, err)
	}
}

func TestParseMoveAcceptsBoth(t *testing.T) {
	p := NewPosition()
	for _, in := range []string{"Nf3", "g1f3", " Nf3 ", "g1f3+"} {
		if m, err := p.ParseMove(in); err != nil || m != NewMove(G1, F3) {
			t.Errorf("ParseMove(%q) = %v, %v", in, m, err)
		}
	}
	if _, err := p.ParseMove("e2e5"); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("ParseMove(e2e5) error %v, want illegal", err)
	}
}
