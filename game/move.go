package game

// Move is a chess move packed into 16 bits, small enough for transposition
// tables: bits 0-5 the origin square, bits 6-11 the target square, bits 12-13
// the promotion piece (knight..queen) and bits 14-15 the kind.
//
// Castling is stored as "king takes own rook" (origin = king square, target =
// the castling rook's square). That one encoding serves standard chess and
// Chess960 alike; Position.UCI and Position.SAN translate it for display.
//
// The zero value, NoMove, is never a legal move.
type Move uint16

const (
	moveNormal    = 0
	movePromotion = 1 << 14
	moveEnPassant = 2 << 14
	moveCastling  = 3 << 14
	moveKindMask  = 3 << 14
)

// NoMove is the absence of a move. NullMove passes the turn (UCI "0000", SAN "--").
const (
	NoMove   Move = 0
	NullMove Move = Move(B1) | Move(B1)<<6 // never a real move: b1 to b1
)

// NewMove builds an ordinary move (including captures and double pushes).
func NewMove(from, to Square) Move { return Move(from) | Move(to)<<6 }

// NewPromotion builds a promotion to pt (Knight, Bishop, Rook or Queen).
func NewPromotion(from, to Square, pt PieceType) Move {
	return Move(from) | Move(to)<<6 | Move(pt-Knight)<<12 | movePromotion
}

// NewEnPassant builds an en passant capture; to is the empty target square.
func NewEnPassant(from, to Square) Move { return Move(from) | Move(to)<<6 | moveEnPassant }

// NewCastling builds a castling move from the king's square to its rook's square.
func NewCastling(king, rook Square) Move { return Move(king) | Move(rook)<<6 | moveCastling }

// From returns the origin square.
func (m Move) From() Square { return Square(m & 63) }

// To returns the target square (the rook's square for castling).
func (m Move) To() Square { return Square(m >> 6 & 63) }

// IsPromotion reports whether the move promotes a pawn.
func (m Move) IsPromotion() bool { return m&moveKindMask == movePromotion }

// IsEnPassant reports whether the move is an en passant capture.
func (m Move) IsEnPassant() bool { return m&moveKindMask == moveEnPassant }

// IsCastling reports whether the move castles.
func (m Move) IsCastling() bool { return m&moveKindMask == moveCastling }

// Promotion returns the promotion piece type, or NoPieceType.
func (m Move) Promotion() PieceType {
	if !m.IsPromotion() {
		return NoPieceType
	}
	return PieceType(m>>12&3) + Knight
}

// String returns the move in UCI notation, writing castling as king takes
// rook. Use Position.UCI for the form standard-chess programs expect.
func (m Move) String() string {
	switch m {
	case NoMove:
		return "(none)"
	case NullMove:
		return "0000"
	}
	s := m.From().String() + m.To().String()
	if m.IsPromotion() {
		s += m.Promotion().String()
	}
	return s
}

// MoveList is a fixed-capacity list of moves; no position has more than 218
// legal moves, and generation into a stack array avoids allocation.
type MoveList struct {
	Moves [256]Move
	N     int
}

// Slice returns the moves as a slice sharing the list's storage.
func (l *MoveList) Slice() []Move { return l.Moves[:l.N] }

func (l *MoveList) add(m Move) {
	l.Moves[l.N] = m
	l.N++
}

// Contains reports whether m is in the list.
func (l *MoveList) Contains(m Move) bool {
	for _, x := range l.Moves[:l.N] {
		if x == m {
			return true
		}
	}
	return false
}
