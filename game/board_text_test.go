package game

import "testing"

func TestPositionString(t *testing.T) {
	tests := []struct{ fen, str, uni string }{
		{StartFEN,
			"r n b q k b n r\np p p p p p p p\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\nP P P P P P P P\nR N B Q K B N R",
			"♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜\n♟ ♟ ♟ ♟ ♟ ♟ ♟ ♟\n⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘\n⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘\n⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘\n⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘\n♙ ♙ ♙ ♙ ♙ ♙ ♙ ♙\n♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖"},
		{"4k3/8/8/3pP3/8/8/8/R3K2q w Q d6 0 1",
			". . . . k . . .\n. . . . . . . .\n. . . . . . . .\n. . . p P . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\nR . . . K . . q",
			"⭘ ⭘ ⭘ ⭘ ♚ ⭘ ⭘ ⭘\n⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘\n⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘\n⭘ ⭘ ⭘ ♟ ♙ ⭘ ⭘ ⭘\n⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘\n⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘\n⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘\n♖ ⭘ ⭘ ⭘ ♔ ⭘ ⭘ ♛"},
	}
	for _, tt := range tests {
		p, err := ParseFEN(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.String(); got != tt.str {
			t.Errorf("%s: String()\n%s\nwant\n%s", tt.fen, got, tt.str)
		}
		if got := p.Unicode(); got != tt.uni {
			t.Errorf("%s: Unicode()\n%s\nwant\n%s", tt.fen, got, tt.uni)
		}
	}
}

func TestPin(t *testing.T) {
	const all = ^Bitboard(0)
	tests := []struct {
		name, fen string
		c         Color
		sq        Square
		want      Bitboard
	}{
		// python-chess's documentation example: the knight on c3 is pinned
		// by the bishop on b4 along the a5-e1 diagonal.
		{"python-chess example", "rnb1k2r/ppp2ppp/5n2/3q4/1b1P4/2N5/PP3PPP/R1BQKBNR w KQkq - 3 7", White, C3, Line(B4, E1)},
		{"not pinned", "rnb1k2r/ppp2ppp/5n2/3q4/1b1P4/2N5/PP3PPP/R1BQKBNR w KQkq - 3 7", White, D4, all},
		{"piece with a piece behind it", "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3", Black, 42 /* c6 */, all},
		{"rook pins on file", "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", White, E2, FileMask(4)},
		{"queen pins on rank", "4k3/8/8/8/8/8/8/q2NK3 w - - 0 1", White, D1, RankMask(0)},
		{"bishop does not pin on a file", "4k3/4b3/8/8/8/8/4N3/4K3 w - - 0 1", White, E2, all},
		{"rook does not pin on a diagonal", "4k3/8/8/7r/8/8/5N2/4K3 w - - 0 1", White, F2, all},
		{"two pieces between: no pin", "4k3/4r3/8/8/4P3/8/4N3/4K3 w - - 0 1", White, E2, all},
		{"own slider does not pin", "k7/8/8/8/4R3/8/4N3/4K3 w - - 0 1", White, E2, all},
		{"empty square on the ray", "4k3/4r3/8/8/8/8/8/4K3 w - - 0 1", White, E4, FileMask(4)},
		{"enemy piece between counts", "4k3/4r3/8/8/8/8/4n3/4K3 w - - 0 1", White, E2, FileMask(4)},
		{"the king's own square", "4k3/4r3/8/8/8/8/8/4K3 w - - 0 1", White, E1, all},
		{"sniper behind the king", "4k3/8/8/8/8/8/4N3/4K3 w - - 0 1", White, E2, all},
		{"black piece pinned", "4k3/8/2b5/8/B7/8/8/4K3 w - - 0 1", Black, 42 /* c6 */, Line(A4, E8)},
		{"white bishop is not pinned by its own side", "4k3/8/2b5/8/B7/8/8/4K3 w - - 0 1", White, A4, all},
		{"black bishop pinned by a4", "4k3/3b4/8/8/B7/8/8/4K3 w - - 0 1", Black, 51 /* d7 */, Line(A4, E8)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseFEN(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Pin(tt.c, tt.sq); got != tt.want {
				t.Errorf("Pin(%v, %v) =\n%v\nwant\n%v", tt.c, tt.sq, got, tt.want)
			}
			if got := p.IsPinned(tt.c, tt.sq); got != (tt.want != all) {
				t.Errorf("IsPinned(%v, %v) = %v", tt.c, tt.sq, got)
			}
		})
	}
}

// TestPinAgreesWithMoveGeneration checks Pin against the generator's own
// pin detection on the perft positions.
func TestPinAgreesWithMoveGeneration(t *testing.T) {
	for _, fen := range fuzzPositions {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		for c := White; c <= Black; c++ {
			pinned := p.pinnedPieces(c, p.KingSquare(c))
			for s := A1; s <= H8; s++ {
				if p.board[s] == NoPiece || p.board[s].Color() != c {
					continue
				}
				if p.IsPinned(c, s) != pinned.Has(s) {
					t.Errorf("%s: IsPinned(%v, %v) = %v, generator says %v", fen, c, s, p.IsPinned(c, s), pinned.Has(s))
				}
			}
		}
	}
}

func TestShredderFEN(t *testing.T) {
	tests := []struct{ fen, shredder, castling string }{
		{StartFEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", "HAha"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b Kq - 5 40", "r3k2r/8/8/8/8/8/8/R3K2R b Ha - 5 40", "Ha"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "-"},
		{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", "HFhf"},
		// X-FEN with K/Q for the outermost rooks of a Chess960 position.
		{"1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1", "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", "GBgb"},
		// An inner rook named by its file in X-FEN.
		{"rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1", "rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1", "Bb"},
	}
	for _, tt := range tests {
		p, err := ParseFEN(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.ShredderFEN(); got != tt.shredder {
			t.Errorf("%s: ShredderFEN() = %q, want %q", tt.fen, got, tt.shredder)
		}
		if got := p.CastlingShredderFEN(); got != tt.castling {
			t.Errorf("%s: CastlingShredderFEN() = %q, want %q", tt.fen, got, tt.castling)
		}
		q, err := ParseFEN(tt.shredder)
		if err != nil {
			t.Fatalf("Shredder-FEN %q does not read back: %v", tt.shredder, err)
		}
		for c := White; c <= Black; c++ {
			for side := KingSide; side <= QueenSide; side++ {
				if q.CastlingRook(c, side) != p.CastlingRook(c, side) {
					t.Errorf("%q: castling rook %v/%d read back as %v, want %v", tt.shredder, c, side, q.CastlingRook(c, side), p.CastlingRook(c, side))
				}
			}
		}
		q.SetChess960(p.Chess960())
		if q.FEN() != p.FEN() || Perft(q, 2) != Perft(p, 2) {
			t.Errorf("%q read back as %q", tt.shredder, q.FEN())
		}
	}
}
