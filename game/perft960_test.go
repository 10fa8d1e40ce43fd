package game

import (
	"strings"
	"testing"
)

// toXFEN rewrites a Shredder-FEN castling field (rook files) into X-FEN,
// where the outermost rook on each side is written K/Q and only an inner
// rook keeps its file letter. Both spellings must describe the same position.
func toXFEN(t *testing.T, fen string) string {
	t.Helper()
	fields := strings.Fields(fen)
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	if fields[2] == "-" {
		return fen
	}
	var sb strings.Builder
	for i := 0; i < len(fields[2]); i++ {
		c := fields[2][i]
		color, upper := White, c
		if c >= 'a' {
			color, upper = Black, c-('a'-'A')
		}
		rook := NewSquare(int(upper-'A'), 0)
		if color == Black {
			rook += 56
		}
		side := KingSide
		if rook < p.KingSquare(color) {
			side = QueenSide
		}
		letter := upper
		if p.isOutermostRook(color, side, rook) {
			letter = "KQ"[side]
		}
		if color == Black {
			letter += 'a' - 'A'
		}
		sb.WriteByte(letter)
	}
	fields[2] = sb.String()
	return strings.Join(fields, " ")
}

func TestPerftChess960(t *testing.T) {
	for _, c := range loadEPD(t, "testdata/chess960.epd") {
		if c.nodes > perftLimit() {
			continue
		}
		for _, fen := range []string{c.fen, toXFEN(t, c.fen)} {
			p, err := ParseFEN(fen)
			if err != nil {
				t.Fatalf("%s: %v", c.source, err)
			}
			if !p.Chess960() {
				t.Errorf("%s: %s did not switch to Chess960 mode", c.source, fen)
			}
			if got := Perft(p, c.depth); got != c.nodes {
				t.Errorf("%s: perft(%d) of %s = %d, want %d", c.source, c.depth, fen, got, c.nodes)
			}
		}
	}
}

// TestChess960CastlingFields checks that Shredder-FEN and X-FEN spellings of
// the same rights parse to the same position, and that FEN() writes X-FEN.
func TestChess960CastlingFields(t *testing.T) {
	for _, c := range loadEPD(t, "testdata/chess960.epd") {
		if c.depth != 1 {
			continue
		}
		shredder, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		xfen := toXFEN(t, c.fen)
		x, err := ParseFEN(xfen)
		if err != nil {
			t.Fatal(err)
		}
		if shredder.Hash() != x.Hash() || shredder.castleRook != x.castleRook {
			t.Errorf("%s: Shredder %q and X-FEN %q differ", c.source, c.fen, xfen)
		}
		if got := shredder.FEN(); got != xfen {
			t.Errorf("%s: FEN() = %q, want X-FEN %q", c.source, got, xfen)
		}
	}
}

func TestChess960CastlingNotation(t *testing.T) {
	tests := []struct {
		fen      string
		uci, san string
		want     string // the king-takes-rook move
	}{
		// King b1, rook a1: O-O-O leaves the king on c1 and the rook on d1.
		{"4k3/8/8/8/8/8/8/RK5R w HA - 0 1", "b1a1", "O-O-O", "b1a1"},
		{"4k3/8/8/8/8/8/8/RK5R w HA - 0 1", "b1h1", "O-O", "b1h1"},
		// King already on g1: castling moves only the rook.
		{"4k3/8/8/8/8/8/8/R5KR w HA - 0 1", "g1h1", "O-O", "g1h1"},
	}
	for _, tt := range tests {
		p, err := ParseFEN(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseUCI(tt.uci)
		if err != nil {
			t.Fatalf("%s: ParseUCI(%s): %v", tt.fen, tt.uci, err)
		}
		if !m.IsCastling() || m.String() != tt.want {
			t.Errorf("%s: %s parsed to %v, want castling %s", tt.fen, tt.uci, m, tt.want)
		}
		if got := p.UCI(m); got != tt.want {
			t.Errorf("%s: UCI = %s, want %s", tt.fen, got, tt.want)
		}
		if got := p.SAN(m); got != tt.san {
			t.Errorf("%s: SAN = %s, want %s", tt.fen, got, tt.san)
		}
		if m2, err := p.ParseSAN(tt.san); err != nil || m2 != m {
			t.Errorf("%s: ParseSAN(%s) = %v, %v; want %v", tt.fen, tt.san, m2, err, m)
		}
	}
}

// TestChess960CastlingIllegal lists castlings the generator must refuse.
func TestChess960CastlingIllegal(t *testing.T) {
	tests := []struct{ fen, uci, why string }{
		{"2r1k3/8/8/8/8/8/8/RK5R w HA - 0 1", "b1a1", "king's target c1 attacked"},
		{"1r2k3/8/8/8/8/8/8/RK5R w HA - 0 1", "b1h1", "king in check"},
		{"4k3/8/8/8/8/8/8/RKN4R w HA - 0 1", "b1h1", "knight on the king's path"},
		{"4k3/8/8/8/8/8/8/RK3N1R w HA - 0 1", "b1h1", "knight on f1, the rook's target"},
		// The castling rook itself shields g1 from the h1 rook until it moves.
		{"4k3/8/8/8/8/8/8/5KRr w G - 0 1", "f1g1", "rook on g1 was the king's shield"},
	}
	for _, tt := range tests {
		p, err := ParseFEN(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		if m, err := p.ParseUCI(tt.uci); err == nil {
			t.Errorf("%s: %s (%s) accepted as %v", tt.fen, tt.uci, tt.why, m)
		}
	}
}
