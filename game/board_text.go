package game

import "strings"

// String returns the board as eight lines of text, the eighth rank first,
// like python-chess's str(board): FEN letters separated by spaces and '.'
// for an empty square, lines joined by '\n' with no final newline:
//
//	r n b q k b n r
//	p p p p p p p p
//	. . . . . . . .
//	...
//	R N B Q K B N R
//
// Side to move, castling rights and counters are not shown; see FEN.
func (p *Position) String() string {
	return p.diagram(func(pc Piece) string { return string(pc.Letter()) }, ".")
}

// Unicode returns the board like String but with the Unicode chess symbols
// (♔♕♖♗♘♙ for White, ♚♛♜♝♞♟ for Black) and '⭘' for an empty square, like
// python-chess's board.unicode().
func (p *Position) Unicode() string {
	return p.diagram(func(pc Piece) string { return unicodePieces[pc] }, "⭘")
}

var unicodePieces = map[Piece]string{
	WhiteKing: "♔", WhiteQueen: "♕", WhiteRook: "♖", WhiteBishop: "♗", WhiteKnight: "♘", WhitePawn: "♙",
	BlackKing: "♚", BlackQueen: "♛", BlackRook: "♜", BlackBishop: "♝", BlackKnight: "♞", BlackPawn: "♟",
}

func (p *Position) diagram(symbol func(Piece) string, empty string) string {
	var sb strings.Builder
	for r := 7; r >= 0; r-- {
		for f := 0; f < 8; f++ {
			if f > 0 {
				sb.WriteByte(' ')
			}
			if pc := p.board[NewSquare(f, r)]; pc == NoPiece {
				sb.WriteString(empty)
			} else {
				sb.WriteString(symbol(pc))
			}
		}
		if r > 0 {
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// Pin returns the line along which the piece on sq is pinned to c's king:
// the whole rank, file or diagonal through the king and the pinning
// slider, edge to edge. When sq is not pinned (or c has no king) it returns
// every square, so the result can always be used as a mask on the moves of
// the piece, as python-chess's board.pin(color, square) does. A square
// counts as pinned when it is the only occupied or given square between
// c's king and an enemy slider moving along that line; the square may be
// empty or hold a piece of either colour, as in python-chess.
func (p *Position) Pin(c Color, sq Square) Bitboard {
	k := p.KingSquare(c)
	if k == NoSquare || sq < A1 || sq > H8 || sq == k {
		return ^Bitboard(0)
	}
	l := line[k][sq]
	if l == 0 {
		return ^Bitboard(0)
	}
	sliders := p.byType[Queen]
	if sq.File() == k.File() || sq.Rank() == k.Rank() {
		sliders |= p.byType[Rook]
	} else {
		sliders |= p.byType[Bishop]
	}
	mask := sq.Bitboard()
	// Only the ray from the king through sq matters: a sniper on the other
	// side of the king has the king itself in between.
	for snipers := l & sliders & p.byColor[c.Other()]; snipers != 0; {
		s := snipers.PopFirst()
		if between[k][s]&(p.byType[0]|mask) == mask {
			return l
		}
	}
	return ^Bitboard(0)
}

// IsPinned reports whether the piece on sq is pinned to c's king (see Pin),
// like python-chess's board.is_pinned(color, square).
func (p *Position) IsPinned(c Color, sq Square) bool { return p.Pin(c, sq) != ^Bitboard(0) }

// ShredderFEN returns the position in Shredder-FEN: FEN with the castling
// rights written as the files of the rooks, upper case for White and lower
// case for Black, each colour's in descending file order ("HAha" at the
// start of a standard game), as python-chess's board.shredder_fen() writes
// it. ParseFEN reads it back (in Chess960 mode). FEN returns X-FEN.
func (p *Position) ShredderFEN() string {
	f := strings.Fields(p.FEN())
	f[2] = p.CastlingShredderFEN()
	return strings.Join(f, " ")
}

// CastlingShredderFEN returns only the castling field of ShredderFEN ("-"
// when no castling right is left).
func (p *Position) CastlingShredderFEN() string {
	var sb strings.Builder
	for c := White; c <= Black; c++ {
		for _, side := range []int{KingSide, QueenSide} { // king side is the higher file
			if rook := p.castleRook[c][side]; rook != NoSquare {
				letter := byte('A' + rook.File())
				if c == Black {
					letter += 'a' - 'A'
				}
				sb.WriteByte(letter)
			}
		}
	}
	if sb.Len() == 0 {
		return "-"
	}
	return sb.String()
}
