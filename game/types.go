// Package game is Knightwatch's rules library: bitboards, legal and
// pseudo-legal move generation (standard chess and Chess960), FEN (with
// X-FEN and Shredder-FEN), EPD with operations, SAN, UCI, PGN (read whole
// or streamed game by game, with per-game errors and a header-only scan),
// text diagrams, pins, Polyglot Zobrist keys and game outcomes (checkmate,
// stalemate, insufficient material, the 50/75-move rules and 3/5-fold
// repetition).
//
// It imports nothing from the rest of the project.
package game

import "fmt"

// Color is a side: White or Black.
type Color uint8

// The two colours. White is zero so that arrays indexed by Color start with White.
const (
	White Color = iota
	Black
)

// Other returns the opposing colour.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// PieceType is a kind of piece without colour.
type PieceType uint8

// Piece types. NoPieceType is zero so that an empty mailbox square reads as nothing.
const (
	NoPieceType PieceType = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// pieceTypeLetters maps a PieceType to its lower-case letter.
const pieceTypeLetters = " pnbrqk"

// Letter returns the lower-case letter of the piece type ('p', 'n', ...).
func (pt PieceType) Letter() byte { return pieceTypeLetters[pt] }

// String returns the lower-case letter of the piece type.
func (pt PieceType) String() string { return string(pt.Letter()) }

// Piece is a coloured piece: the colour in bit 3 and the type in bits 0-2.
// NoPiece (zero) marks an empty square.
type Piece uint8

// NoPiece is the value of an empty square.
const NoPiece Piece = 0

// Concrete pieces, handy in tests and tables.
const (
	WhitePawn   = Piece(Pawn)
	WhiteKnight = Piece(Knight)
	WhiteBishop = Piece(Bishop)
	WhiteRook   = Piece(Rook)
	WhiteQueen  = Piece(Queen)
	WhiteKing   = Piece(King)
	BlackPawn   = Piece(8 | Pawn)
	BlackKnight = Piece(8 | Knight)
	BlackBishop = Piece(8 | Bishop)
	BlackRook   = Piece(8 | Rook)
	BlackQueen  = Piece(8 | Queen)
	BlackKing   = Piece(8 | King)
)

// MakePiece combines a colour and a type.
func MakePiece(c Color, pt PieceType) Piece { return Piece(c)<<3 | Piece(pt) }

// Type returns the piece's type.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// Color returns the piece's colour. It is meaningless for NoPiece.
func (p Piece) Color() Color { return Color(p >> 3) }

// Letter returns the FEN letter: upper case for White, lower case for Black,
// and '.' for NoPiece.
func (p Piece) Letter() byte {
	if p == NoPiece {
		return '.'
	}
	l := p.Type().Letter()
	if p.Color() == White {
		l -= 'a' - 'A'
	}
	return l
}

// String returns the FEN letter of the piece.
func (p Piece) String() string { return string(p.Letter()) }

// PieceFromLetter parses a FEN letter ("PNBRQK" for White, "pnbrqk" for Black).
func PieceFromLetter(b byte) (Piece, bool) {
	switch b {
	case 'P':
		return WhitePawn, true
	case 'N':
		return WhiteKnight, true
	case 'B':
		return WhiteBishop, true
	case 'R':
		return WhiteRook, true
	case 'Q':
		return WhiteQueen, true
	case 'K':
		return WhiteKing, true
	case 'p':
		return BlackPawn, true
	case 'n':
		return BlackKnight, true
	case 'b':
		return BlackBishop, true
	case 'r':
		return BlackRook, true
	case 'q':
		return BlackQueen, true
	case 'k':
		return BlackKing, true
	}
	return NoPiece, false
}

// Square is a board square, A1 = 0, B1 = 1, ..., H8 = 63.
type Square int8

// NoSquare marks the absence of a square (no en passant target, no castling rook).
const NoSquare Square = -1

// Named squares.
const (
	A1 Square = iota
	B1
	C1
	D1
	E1
	F1
	G1
	H1
	A2
	B2
	C2
	D2
	E2
	F2
	G2
	H2
	A3
	B3
	C3
	D3
	E3
	F3
	G3
	H3
	A4
	B4
	C4
	D4
	E4
	F4
	G4
	H4
	A5
	B5
	C5
	D5
	E5
	F5
	G5
	H5
	A6
	B6
	C6
	D6
	E6
	F6
	G6
	H6
	A7
	B7
	C7
	D7
	E7
	F7
	G7
	H7
	A8
	B8
	C8
	D8
	E8
	F8
	G8
	H8
)

// NewSquare builds a square from a file (0 = a) and a rank (0 = first rank).
func NewSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns 0 for the a-file through 7 for the h-file.
func (s Square) File() int { return int(s) & 7 }

// Rank returns 0 for the first rank through 7 for the eighth.
func (s Square) Rank() int { return int(s) >> 3 }

// RelativeRank returns the rank as seen from c's side (0 = c's back rank).
func (s Square) RelativeRank(c Color) int {
	if c == White {
		return s.Rank()
	}
	return 7 - s.Rank()
}

// Bitboard returns the one-square bitboard of s.
func (s Square) Bitboard() Bitboard { return Bitboard(1) << uint(s) }

// String returns the square's name ("e4"), or "-" for NoSquare.
func (s Square) String() string {
	if s < 0 || s > 63 {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare parses a square name such as "e4".
func ParseSquare(name string) (Square, error) {
	if len(name) != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8' {
		return NoSquare, fmt.Errorf("invalid square %q", name)
	}
	return NewSquare(int(name[0]-'a'), int(name[1]-'1')), nil
}

// Castling sides, used to index castling rights.
const (
	KingSide  = 0 // towards the h-file (O-O)
	QueenSide = 1 // towards the a-file (O-O-O)
)
