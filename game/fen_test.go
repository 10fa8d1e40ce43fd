package game

import (
	"errors"
	"strings"
	"testing"
)

func TestParseFENErrors(t *testing.T) {
	tests := []struct {
		name, fen, field, msg string
	}{
		{"empty", "", "position", "fields"},
		{"too few fields", "8/8/8/8/8/8/8/8 w", "position", "fields"},
		{"too many fields", StartFEN + " 7", "position", "fields"},
		{"bad piece letter", "rnbqkbnx/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement", "bad piece letter 'x'"},
		{"digit 9", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement", "'9'"},
		{"rank with 9 squares", "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement", "more than 8 squares"},
		{"rank with 7 squares", "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement", "7 squares"},
		{"7 ranks", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement", "got 7"},
		{"9 ranks", "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement", "got 9"},
		{"no white king", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "position", "no white king"},
		{"two kings", "knbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "position", "2 black kings"},
		{"pawn on first rank", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNP w Qkq - 0 1", "position", "first or last rank"},
		{"pawn on last rank", "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", "position", "first or last rank"},
		{"nine pawns", "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", "position", "9 pawns"},
		{"bad side", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move", "'w' or 'b'"},
		{"bad castling letter", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1", "castling", "bad castling letter"},
		{"castling without rook", "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "castling", "no black rook"},
		{"castling king off back rank", "rnbq1bnr/ppppkppp/8/8/8/8/PPPPPPPP/RNBQKBNR w k - 0 1", "castling", "not on its back rank"},
		{"castling right twice", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", "castling", "twice"},
		{"en passant not a square", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en passant", "not a square"},
		{"en passant wrong rank", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1", "en passant", "impossible"},
		{"en passant without pushed pawn", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "en passant", "impossible"},
		{"negative halfmove clock", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "halfmove clock", "non-negative"},
		{"halfmove not a number", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock", "non-negative"},
		{"zero fullmove", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove number", "positive"},
		{"negative fullmove", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3", "fullmove number", "positive"},
		{"side not to move in check", "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "position", "black king is in check with white to move"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseFEN(tt.fen)
			var fe *FENError
			if !errors.As(err, &fe) {
				t.Fatalf("ParseFEN(%q) = %v, %v; want a *FENError", tt.fen, p, err)
			}
			if fe.Field != tt.field {
				t.Errorf("field %q, want %q (%v)", fe.Field, tt.field, err)
			}
			if !strings.Contains(err.Error(), tt.field+": ") || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q should name %q and say %q", err, tt.field, tt.msg)
			}
		})
	}
}

func TestFENRoundTrip(t *testing.T) {
	tests := []struct{ in, out string }{
		{StartFEN, StartFEN},
		{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", ""},
		// EPD: clocks default to 0 and 1.
		{"4k3/8/8/8/8/8/8/4K3 b - -", "4k3/8/8/8/8/8/8/4K3 b - - 0 1"},
		// The en passant square is kept only when a pawn can capture there.
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", ""},
		// Shredder-FEN in, X-FEN out.
		{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"},
		// An inner rook keeps its file letter in X-FEN.
		{"4k3/8/8/8/8/8/8/4KR1R w F - 0 1", ""},
		{"4k3/8/8/8/8/8/8/R3KR1R w HA - 0 1", "4k3/8/8/8/8/8/8/R3KR1R w KQ - 0 1"},
	}
	for _, tt := range tests {
		want := tt.out
		if want == "" {
			want = tt.in
		}
		p, err := ParseFEN(tt.in)
		if err != nil {
			t.Fatalf("%s: %v", tt.in, err)
		}
		if got := p.FEN(); got != want {
			t.Errorf("ParseFEN(%q).FEN() = %q, want %q", tt.in, got, want)
		}
		q, err := ParseFEN(p.FEN())
		if err != nil || q.Hash() != p.Hash() || q.FEN() != p.FEN() {
			t.Errorf("%s: second round trip gave %v, %v", tt.in, q, err)
		}
		if epd := p.EPD(); !strings.HasPrefix(want, epd+" ") || strings.Count(epd, " ") != 3 {
			t.Errorf("EPD %q is not the first four fields of %q", epd, want)
		}
	}
}

func TestParseBoardFENAllowsImplausibleBoards(t *testing.T) {
	for _, fen := range []string{
		"8/8/8/8/8/8/8/8 w - - 0 1",
		"4k3/8/8/8/8/8/8/PPPPKPPP w - - 0 1",
		"kk6/8/8/8/8/8/8/8 b - - 0 1",
	} {
		if _, err := ParseFEN(fen); err == nil {
			t.Errorf("ParseFEN(%q) accepted an impossible position", fen)
		}
		p, err := ParseBoardFEN(fen)
		if err != nil {
			t.Errorf("ParseBoardFEN(%q): %v", fen, err)
			continue
		}
		var ml MoveList
		p.GenerateLegal(&ml) // must not panic without kings
		p.GeneratePseudoLegal(&ml)
	}
}
