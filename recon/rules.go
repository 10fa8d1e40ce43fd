package recon

import (
	"errors"
	"fmt"
	"math/bits"

	"knightwatch/game"
)

// The rules in this file are written against python-chess's definitions as
// reconchess uses them (Board.is_pseudo_legal, generate_pseudo_legal_moves,
// generate_castling_moves, is_capture, and reconchess.utilities), so that
// every decision, including the order of move actions, is the reference's.

// ErrNotMoveAction is returned for a requested move that is not among the
// mover's move actions (after a missing promotion became a queen).
var ErrNotMoveAction = errors.New("not a move action")

// backRank returns the first rank of c.
func backRank(c game.Color) game.Bitboard {
	if c == game.White {
		return game.Rank1
	}
	return game.Rank8
}

// lastRank returns the rank on which c's pawns promote.
func lastRank(c game.Color) game.Bitboard { return backRank(c.Other()) }

// castlingKingTarget returns where the king lands when c castles on side in
// standard chess (g1/c1 or g8/c8).
func castlingKingTarget(c game.Color, side int) game.Square {
	s := game.G1
	if side == game.QueenSide {
		s = game.C1
	}
	if c == game.Black {
		s += 56
	}
	return s
}

// AppendMoveActions appends the move actions of the side to move in p, in
// the reference's order, and returns the extended slice: every pseudo-legal
// move of the mover's pieces on the board with the opponent's pieces
// removed (so castling needs only the right and no own piece in the way,
// and no attack is considered), then every pawn capture onto a diagonal
// square not held by an own piece, plain and with each promotion when it
// reaches the last rank. Passing is always allowed as well and is not listed.
func AppendMoveActions(dst []game.Move, p *game.Position) []game.Move {
	us := p.Side()
	own := p.ByColor(us)

	// Pieces other than pawns, highest square first (python-chess's
	// scan_reversed), each with its targets highest first.
	for b := own &^ p.Pieces(us, game.Pawn); b != 0; {
		from := highest(&b)
		var t game.Bitboard
		switch p.PieceAt(from).Type() {
		case game.Knight:
			t = game.KnightAttacks(from)
		case game.Bishop:
			t = game.BishopAttacks(from, own)
		case game.Rook:
			t = game.RookAttacks(from, own)
		case game.Queen:
			t = game.QueenAttacks(from, own)
		case game.King:
			t = game.KingAttacks(from)
		}
		for t &^= own; t != 0; {
			dst = append(dst, game.NewMove(from, highest(&t)))
		}
	}

	// Castling on the board without opponent pieces: the right and no own
	// piece between king and rook or on their targets.
	if k := p.Pieces(us, game.King) & backRank(us); k != 0 {
		king := k.First()
		for _, side := range [2]int{game.KingSide, game.QueenSide} {
			rook, ok := castlingRook(p, us, side, king)
			if !ok {
				continue
			}
			if game.Between(king, rook)&own == 0 {
				dst = append(dst, game.NewMove(king, castlingKingTarget(us, side)))
			}
		}
	}

	// Pawn pushes onto squares free of own pieces, targets highest first:
	// single steps (each promotion, queen first), then double steps.
	pawns := p.Pieces(us, game.Pawn)
	up := 8
	var single, double game.Bitboard
	if us == game.White {
		single = pawns << 8 &^ own
		double = single << 8 &^ own & game.Rank4
	} else {
		up = -8
		single = pawns >> 8 &^ own
		double = single >> 8 &^ own & game.Rank5
	}
	for t := single; t != 0; {
		to := highest(&t)
		from := game.Square(int(to) - up)
		if lastRank(us).Has(to) {
			for _, pt := range [4]game.PieceType{game.Queen, game.Rook, game.Bishop, game.Knight} {
				dst = append(dst, game.NewPromotion(from, to, pt))
			}
		} else {
			dst = append(dst, game.NewMove(from, to))
		}
	}
	for t := double; t != 0; {
		to := highest(&t)
		dst = append(dst, game.NewMove(game.Square(int(to)-2*up), to))
	}

	// reconchess's pawn_capture_moves_on: pawns lowest first, targets lowest
	// first, the plain move then knight, bishop, rook, queen promotions.
	for b := pawns; b != 0; {
		from := b.PopFirst()
		for t := game.PawnAttacks(us, from) &^ own; t != 0; {
			to := t.PopFirst()
			dst = append(dst, game.NewMove(from, to))
			if lastRank(us).Has(to) {
				for _, pt := range [4]game.PieceType{game.Knight, game.Bishop, game.Rook, game.Queen} {
					dst = append(dst, game.NewPromotion(from, to, pt))
				}
			}
		}
	}
	return dst
}

// MoveActions returns the move actions of the side to move in p (see
// AppendMoveActions).
func MoveActions(p *game.Position) []game.Move {
	return AppendMoveActions(make([]game.Move, 0, 64), p)
}

// highest removes and returns the highest square of a non-empty b.
func highest(b *game.Bitboard) game.Square {
	s := game.Square(63 - bits.LeadingZeros64(uint64(*b)))
	*b &^= s.Bitboard()
	return s
}

// castlingRook returns the rook c may castle with on side, given c's king
// on its back rank at king, when python-chess would count the right: the
// right is held, the rook stands in its corner and the king on the e-file.
func castlingRook(p *game.Position, c game.Color, side int, king game.Square) (game.Square, bool) {
	rook := p.CastlingRook(c, side)
	if rook == game.NoSquare || p.PieceAt(rook) != game.MakePiece(c, game.Rook) || king.File() != 4 {
		return game.NoSquare, false
	}
	if f := rook.File(); f != 0 && f != 7 {
		return game.NoSquare, false
	}
	return rook, true
}

// WithDefaultPromotion returns m promoted to a queen when it is a pawn's
// move to a back rank without a promotion piece (reconchess's
// add_pawn_queen_promotion), and m unchanged otherwise.
func WithDefaultPromotion(p *game.Position, m game.Move) game.Move {
	pc := p.PieceAt(m.From())
	if pc.Type() == game.Pawn && !m.IsPromotion() && (game.Rank1 | game.Rank8).Has(m.To()) {
		return game.NewPromotion(m.From(), m.To(), game.Queen)
	}
	return m
}

// IsMoveAction reports whether the plain move m is among the move actions
// of the side to move in p.
func IsMoveAction(p *game.Position, m game.Move) bool {
	var buf [128]game.Move
	for _, a := range AppendMoveActions(buf[:0], p) {
		if a == m {
			return true
		}
	}
	return false
}

// CheckMoveAction returns the move the arbiter plays for the request m: m
// with a missing queen promotion added, or an error when that is not a move
// action. game.NoMove (a pass) is always allowed.
func CheckMoveAction(p *game.Position, m game.Move) (game.Move, error) {
	if m == game.NoMove {
		return game.NoMove, nil
	}
	if !isPlain(m) {
		return game.NoMove, fmt.Errorf("%w: %s is not a plain move", ErrNotMoveAction, m)
	}
	move := WithDefaultPromotion(p, m)
	if !IsMoveAction(p, move) {
		return game.NoMove, fmt.Errorf("%w: %s", ErrNotMoveAction, UCI(m))
	}
	return move, nil
}

// isPlain reports whether m carries no castling or en passant marker:
// the form of every move at this package's boundary.
func isPlain(m game.Move) bool { return !m.IsCastling() && !m.IsEnPassant() }

// Revise returns the move taken on the true board p when its mover requests
// the move action m (already given its default promotion), as reconchess's
// revise_move decides: m itself when it is pseudo-legal or a castling whose
// right holds and whose path between king and rook is empty (check does not
// matter); for a pawn, rook, bishop or queen stopped on the way, the longest
// pseudo-legal move along its path, which captures the first opponent piece
// in the way or turns a blocked double step into a single one; otherwise
// game.NoMove, which leaves the board unchanged. The second result is the
// taken move in game's encoding, ready for Position.MakeMove.
func Revise(p *game.Position, m game.Move) (taken, encoded game.Move) {
	if m == game.NoMove {
		return game.NoMove, game.NoMove
	}
	if enc, ok := pseudoLegal(p, m); ok {
		return m, enc
	}
	from, to := m.From(), m.To()
	pc := p.PieceAt(from)
	if pc.Type() == game.King && isCastlingRequest(from, to) {
		if enc, ok := rbcCastle(p, from, to); ok {
			return m, enc
		}
		return game.NoMove, game.NoMove
	}
	switch pc.Type() {
	case game.Pawn, game.Rook, game.Bishop, game.Queen:
		// From the far end of the path back towards the piece, the first
		// pseudo-legal stop (python's slide_move). The requested target
		// itself has already failed.
		path := game.Between(from, to)
		for path != 0 {
			var s game.Square
			if to > from {
				s = highest(&path)
			} else {
				s = path.PopFirst()
			}
			revised := game.NewMove(from, s)
			if m.IsPromotion() {
				revised = game.NewPromotion(from, s, m.Promotion())
			}
			if enc, ok := pseudoLegal(p, revised); ok {
				return revised, enc
			}
		}
	}
	return game.NoMove, game.NoMove
}

// isCastlingRequest reports whether a king's move from from to to is a
// castling in python-chess's sense (it crosses more than one file).
func isCastlingRequest(from, to game.Square) bool {
	d := from.File() - to.File()
	return d > 1 || d < -1
}

// rbcCastle decides a castling request under Reconnaissance Chess rules:
// it happens when the right holds and every square between king and rook
// is empty, attacked or not (reconchess's is_illegal_castle).
func rbcCastle(p *game.Position, from, to game.Square) (game.Move, bool) {
	us := p.Side()
	if !backRank(us).Has(from) || from.Rank() != to.Rank() {
		return game.NoMove, false
	}
	side := game.KingSide
	if to < from {
		side = game.QueenSide
	}
	rook, ok := castlingRook(p, us, side, from)
	if !ok || game.Between(from, rook)&p.Occupied() != 0 {
		return game.NoMove, false
	}
	return game.NewCastling(from, rook), true
}

// standardCastle decides whether the king's move from from to to is a
// castling python-chess generates as pseudo-legal: right held, path empty,
// and neither the king's square, the squares it crosses nor its target
// attacked (generate_castling_moves).
func standardCastle(p *game.Position, from, to game.Square) (game.Move, bool) {
	us := p.Side()
	k := p.Pieces(us, game.King) & backRank(us)
	if k == 0 || k.First() != from {
		return game.NoMove, false
	}
	for _, side := range [2]int{game.KingSide, game.QueenSide} {
		kingTo := castlingKingTarget(us, side)
		if kingTo != to {
			continue
		}
		rook, ok := castlingRook(p, us, side, from)
		if !ok {
			return game.NoMove, false
		}
		rookTo := game.F1
		if side == game.QueenSide {
			rookTo = game.D1
		}
		if us == game.Black {
			rookTo += 56
		}
		kingBB, rookBB := from.Bitboard(), rook.Bitboard()
		path := game.Between(from, kingTo) | game.Between(rook, rookTo) | kingTo.Bitboard() | rookTo.Bitboard()
		occ := p.Occupied()
		if (occ^kingBB^rookBB)&path != 0 {
			return game.NoMove, false
		}
		if attackedAny(p, game.Between(from, kingTo)|kingBB, occ^kingBB) ||
			attackedAny(p, kingTo.Bitboard(), occ^kingBB^rookBB^rookTo.Bitboard()) {
			return game.NoMove, false
		}
		return game.NewCastling(from, rook), true
	}
	return game.NoMove, false
}

// attackedAny reports whether the opponent of the side to move attacks any
// square of squares, with occupancy occ.
func attackedAny(p *game.Position, squares, occ game.Bitboard) bool {
	them := p.ByColor(p.Side().Other())
	for b := squares; b != 0; {
		if p.AttackersTo(b.PopFirst(), occ)&them != 0 {
			return true
		}
	}
	return false
}

// pseudoLegal reports whether the plain move m is pseudo-legal in p as
// python-chess's Board.is_pseudo_legal decides, and returns it in game's
// encoding (castling as king takes rook, en passant marked).
func pseudoLegal(p *game.Position, m game.Move) (game.Move, bool) {
	us := p.Side()
	from, to := m.From(), m.To()
	pc := p.PieceAt(from)
	if pc == game.NoPiece || pc.Color() != us || from == to {
		return game.NoMove, false
	}
	if m.IsPromotion() && (pc.Type() != game.Pawn || !lastRank(us).Has(to)) {
		return game.NoMove, false
	}
	if pc.Type() == game.King {
		if enc, ok := standardCastle(p, from, to); ok {
			return enc, true
		}
	}
	own := p.ByColor(us)
	if own.Has(to) {
		return game.NoMove, false
	}
	switch pc.Type() {
	case game.Pawn:
		return pawnPseudoLegal(p, m)
	case game.Knight:
		return m, game.KnightAttacks(from).Has(to)
	case game.Bishop:
		return m, game.BishopAttacks(from, p.Occupied()).Has(to)
	case game.Rook:
		return m, game.RookAttacks(from, p.Occupied()).Has(to)
	case game.Queen:
		return m, game.QueenAttacks(from, p.Occupied()).Has(to)
	case game.King:
		return m, game.KingAttacks(from).Has(to)
	}
	return game.NoMove, false
}

// pawnPseudoLegal decides a pawn's move the way python-chess generates
// pawn moves: captures onto opponent pieces, en passant onto the en passant
// square, single and double pushes onto empty squares, and a promotion
// piece exactly when the last rank is reached.
func pawnPseudoLegal(p *game.Position, m game.Move) (game.Move, bool) {
	us := p.Side()
	from, to := m.From(), m.To()
	occ := p.Occupied()
	if lastRank(us).Has(to) != m.IsPromotion() {
		return game.NoMove, false
	}
	if game.PawnAttacks(us, from).Has(to) {
		if p.ByColor(us.Other()).Has(to) {
			return m, true
		}
		// game keeps the en passant square only while a pawn can capture
		// there, which is python-chess's condition for generating it.
		if to == p.EnPassant() && !occ.Has(to) {
			return game.NewEnPassant(from, to), true
		}
		return game.NoMove, false
	}
	up := 8
	if us == game.Black {
		up = -8
	}
	one := game.Square(int(from) + up)
	if to == one {
		return m, !occ.Has(to)
	}
	if int(to) == int(one)+up && from.RelativeRank(us) == 1 {
		return m, !occ.Has(one) && !occ.Has(to)
	}
	return game.NoMove, false
}

// CaptureSquare returns the square where the taken move captures an
// opponent piece on p, before it is made (the passed pawn's square for en
// passant), or game.NoSquare.
func CaptureSquare(p *game.Position, encoded game.Move) game.Square {
	switch {
	case encoded == game.NoMove || encoded.IsCastling():
		return game.NoSquare
	case encoded.IsEnPassant():
		return encoded.To() ^ 8
	case p.ByColor(p.Side().Other()).Has(encoded.To()):
		return encoded.To()
	}
	return game.NoSquare
}

// Apply makes the encoded taken move on p, or passes when it is
// game.NoMove (a pass and an illegal request both advance the counters
// exactly as a move without capture or pawn move would).
func Apply(p *game.Position, encoded game.Move) {
	if encoded == game.NoMove {
		p.MakeNullMove()
		return
	}
	p.MakeMove(encoded)
}
