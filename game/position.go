package game

// Position is a chess position: piece placement, side to move, castling
// rights, en passant square and move counters, with an incrementally
// updated Polyglot Zobrist key.
//
// Position is a plain value (about 170 bytes). Copying it is the way to keep
// an earlier state: the engine and the perft counter use copy-make
// (save := *p; p.MakeMove(m); ...; *p = save), which is both simple and fast.
type Position struct {
	board   [64]Piece
	byType  [7]Bitboard // index 0 holds every occupied square
	byColor [2]Bitboard
	// castleRook[c][side] is the square of the rook c may still castle
	// with on that side, or NoSquare. Storing the rook's square (rather
	// than a flag) is what makes Chess960 work with the same code.
	castleRook [2][2]Square
	// ep is the en passant target square, kept only when a pawn of the side
	// to move stands ready to capture there (the Polyglot convention).
	ep       Square
	side     Color
	chess960 bool
	halfmove int // plies since the last capture or pawn move
	fullmove int // starts at 1, incremented after Black moves
	hash     uint64
}

// StartFEN is the standard starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// NewPosition returns the standard starting position.
func NewPosition() *Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic("game: start position does not parse: " + err.Error())
	}
	return p
}

// Polyglot key offsets inside polyglotRandom.
const (
	keyCastle = 768
	keyEP     = 772
	keyTurn   = 780
)

func pieceKey(pc Piece, s Square) uint64 {
	kind := 2*int(pc.Type()-1) + 1 - int(pc.Color()) // black pawn 0, white pawn 1, ...
	return polyglotRandom[64*kind+int(s)]
}

func castleKey(c Color, side int) uint64 { return polyglotRandom[keyCastle+2*int(c)+side] }

// Side returns the colour to move.
func (p *Position) Side() Color { return p.side }

// PieceAt returns the piece on s, or NoPiece.
func (p *Position) PieceAt(s Square) Piece { return p.board[s] }

// Occupied returns every occupied square.
func (p *Position) Occupied() Bitboard { return p.byType[0] }

// ByColor returns the squares of c's pieces.
func (p *Position) ByColor(c Color) Bitboard { return p.byColor[c] }

// ByType returns the squares of pieces of type pt, both colours.
func (p *Position) ByType(pt PieceType) Bitboard { return p.byType[pt] }

// Pieces returns the squares of c's pieces of type pt.
func (p *Position) Pieces(c Color, pt PieceType) Bitboard { return p.byType[pt] & p.byColor[c] }

// KingSquare returns the square of c's king (NoSquare if c has none, which
// only positions built for Reconnaissance Chess can have).
func (p *Position) KingSquare(c Color) Square {
	k := p.Pieces(c, King)
	if k == 0 {
		return NoSquare
	}
	return k.First()
}

// EnPassant returns the en passant target square when an en passant capture
// is at least pseudo-legal, otherwise NoSquare.
func (p *Position) EnPassant() Square { return p.ep }

// HalfmoveClock returns the number of plies since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return p.halfmove }

// FullmoveNumber returns the FEN move number.
func (p *Position) FullmoveNumber() int { return p.fullmove }

// Ply returns the number of half-moves since move 1 with White to move.
func (p *Position) Ply() int { return 2*(p.fullmove-1) + int(p.side) }

// Hash returns the Polyglot Zobrist key of the position.
func (p *Position) Hash() uint64 { return p.hash }

// Chess960 reports whether the position is in Chess960 mode, which changes
// only how castling is written (king takes rook in UCI, X-FEN castling field).
func (p *Position) Chess960() bool { return p.chess960 }

// SetChess960 switches Chess960 notation on or off.
func (p *Position) SetChess960(on bool) { p.chess960 = on }

// CastlingRook returns the square of the rook c may castle with on side
// (KingSide or QueenSide), or NoSquare when that right is gone.
func (p *Position) CastlingRook(c Color, side int) Square { return p.castleRook[c][side] }

// HasCastlingRights reports whether any castling right remains.
func (p *Position) HasCastlingRights() bool {
	return p.castleRook[0][0] != NoSquare || p.castleRook[0][1] != NoSquare ||
		p.castleRook[1][0] != NoSquare || p.castleRook[1][1] != NoSquare
}

func (p *Position) putPiece(pc Piece, s Square) {
	b := s.Bitboard()
	p.board[s] = pc
	p.byType[0] |= b
	p.byType[pc.Type()] |= b
	p.byColor[pc.Color()] |= b
	p.hash ^= pieceKey(pc, s)
}

func (p *Position) removePiece(s Square) {
	pc := p.board[s]
	b := s.Bitboard()
	p.board[s] = NoPiece
	p.byType[0] &^= b
	p.byType[pc.Type()] &^= b
	p.byColor[pc.Color()] &^= b
	p.hash ^= pieceKey(pc, s)
}

func (p *Position) movePiece(from, to Square) {
	pc := p.board[from]
	b := from.Bitboard() | to.Bitboard()
	p.board[from] = NoPiece
	p.board[to] = pc
	p.byType[0] ^= b
	p.byType[pc.Type()] ^= b
	p.byColor[pc.Color()] ^= b
	p.hash ^= pieceKey(pc, from) ^ pieceKey(pc, to)
}

func (p *Position) clearCastle(c Color, side int) {
	if p.castleRook[c][side] != NoSquare {
		p.castleRook[c][side] = NoSquare
		p.hash ^= castleKey(c, side)
	}
}

// castlingTargets returns where king and rook end up when c castles on side.
func castlingTargets(c Color, side int) (kingTo, rookTo Square) {
	kingTo, rookTo = G1, F1
	if side == QueenSide {
		kingTo, rookTo = C1, D1
	}
	if c == Black {
		kingTo += 56
		rookTo += 56
	}
	return
}

// setEnPassant records the en passant square after a double push to s when
// an enemy pawn stands beside s to capture (the Polyglot rule).
func (p *Position) setEnPassant(target Square, capturer Color) {
	if PawnAttacks(capturer.Other(), target)&p.Pieces(capturer, Pawn) != 0 {
		p.ep = target
		p.hash ^= polyglotRandom[keyEP+target.File()]
	}
}

// MakeMove plays m, which must be legal (or at least pseudo-legal) in p.
// It updates the key incrementally. To take the move back, keep a copy of
// the position from before the call.
func (p *Position) MakeMove(m Move) {
	us, them := p.side, p.side.Other()
	from, to := m.From(), m.To()
	pc := p.board[from]

	if p.ep != NoSquare {
		p.hash ^= polyglotRandom[keyEP+p.ep.File()]
		p.ep = NoSquare
	}
	p.halfmove++
	if us == Black {
		p.fullmove++
	}

	switch {
	case m.IsCastling():
		side := KingSide
		if to < from {
			side = QueenSide
		}
		kingTo, rookTo := castlingTargets(us, side)
		rook := p.board[to]
		p.removePiece(from)
		p.removePiece(to)
		p.putPiece(pc, kingTo)
		p.putPiece(rook, rookTo)
		p.clearCastle(us, KingSide)
		p.clearCastle(us, QueenSide)
	case m.IsEnPassant():
		p.removePiece(to ^ 8) // the captured pawn is behind the target square
		p.movePiece(from, to)
		p.halfmove = 0
	default:
		if captured := p.board[to]; captured != NoPiece {
			p.removePiece(to)
			p.halfmove = 0
			if captured.Type() == Rook {
				for side := 0; side < 2; side++ {
					if p.castleRook[them][side] == to {
						p.clearCastle(them, side)
					}
				}
			}
		}
		p.movePiece(from, to)
		switch pc.Type() {
		case Pawn:
			p.halfmove = 0
			if int(to)-int(from) == 16 || int(from)-int(to) == 16 {
				p.setEnPassant((from+to)/2, them)
			} else if m.IsPromotion() {
				p.removePiece(to)
				p.putPiece(MakePiece(us, m.Promotion()), to)
			}
		case King:
			p.clearCastle(us, KingSide)
			p.clearCastle(us, QueenSide)
		case Rook:
			for side := 0; side < 2; side++ {
				if p.castleRook[us][side] == from {
					p.clearCastle(us, side)
				}
			}
		}
	}
	p.side = them
	p.hash ^= polyglotRandom[keyTurn]
}

// MakeNullMove passes the turn: the side to move changes, the en passant
// square is cleared and the halfmove clock advances. Used by the engine's
// null-move pruning and by Reconnaissance Chess's pass.
func (p *Position) MakeNullMove() {
	if p.ep != NoSquare {
		p.hash ^= polyglotRandom[keyEP+p.ep.File()]
		p.ep = NoSquare
	}
	p.halfmove++
	if p.side == Black {
		p.fullmove++
	}
	p.side = p.side.Other()
	p.hash ^= polyglotRandom[keyTurn]
}

// computeHash builds the key from scratch; the incremental key must always equal it.
func (p *Position) computeHash() uint64 {
	var h uint64
	for b := p.byType[0]; b != 0; {
		s := b.PopFirst()
		h ^= pieceKey(p.board[s], s)
	}
	for c := White; c <= Black; c++ {
		for side := 0; side < 2; side++ {
			if p.castleRook[c][side] != NoSquare {
				h ^= castleKey(c, side)
			}
		}
	}
	if p.ep != NoSquare {
		h ^= polyglotRandom[keyEP+p.ep.File()]
	}
	if p.side == White {
		h ^= polyglotRandom[keyTurn]
	}
	return h
}

// AttackersTo returns the pieces of both colours attacking s, given the
// occupancy occ (pass p.Occupied() for the position as it stands).
func (p *Position) AttackersTo(s Square, occ Bitboard) Bitboard {
	return pawnAttacks[Black][s]&p.Pieces(White, Pawn) |
		pawnAttacks[White][s]&p.Pieces(Black, Pawn) |
		knightAttacks[s]&p.byType[Knight] |
		kingAttacks[s]&p.byType[King] |
		BishopAttacks(s, occ)&(p.byType[Bishop]|p.byType[Queen]) |
		RookAttacks(s, occ)&(p.byType[Rook]|p.byType[Queen])
}

// IsAttacked reports whether any piece of colour by attacks s.
func (p *Position) IsAttacked(s Square, by Color) bool {
	return p.attackedWith(s, by, p.byType[0])
}

func (p *Position) attackedWith(s Square, by Color, occ Bitboard) bool {
	them := p.byColor[by]
	return pawnAttacks[by.Other()][s]&p.byType[Pawn]&them != 0 ||
		knightAttacks[s]&p.byType[Knight]&them != 0 ||
		kingAttacks[s]&p.byType[King]&them != 0 ||
		BishopAttacks(s, occ)&(p.byType[Bishop]|p.byType[Queen])&them != 0 ||
		RookAttacks(s, occ)&(p.byType[Rook]|p.byType[Queen])&them != 0
}

// Checkers returns the enemy pieces giving check to the side to move.
func (p *Position) Checkers() Bitboard {
	k := p.KingSquare(p.side)
	if k == NoSquare {
		return 0
	}
	return p.AttackersTo(k, p.byType[0]) & p.byColor[p.side.Other()]
}

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool { return p.Checkers() != 0 }

// IsCapture reports whether m captures something (en passant included;
// castling, which "takes" its own rook in this encoding, is not a capture).
func (p *Position) IsCapture(m Move) bool {
	return m.IsEnPassant() || (!m.IsCastling() && p.board[m.To()] != NoPiece)
}

// CapturedPiece returns the piece m captures, or NoPiece.
func (p *Position) CapturedPiece(m Move) Piece {
	switch {
	case m.IsEnPassant():
		return MakePiece(p.side.Other(), Pawn)
	case m.IsCastling():
		return NoPiece
	}
	return p.board[m.To()]
}

// GivesCheck reports whether m, a legal move, checks the opponent.
func (p *Position) GivesCheck(m Move) bool {
	q := *p
	q.MakeMove(m)
	return q.InCheck()
}
