package game

// Legal move generation works directly from pins and checks rather than by
// trying each move and testing for check afterwards: a pinned piece may only
// move along its pin line, and in single check every non-king move must land
// on the check mask (capture the checker or block). Only king moves, castling
// and en passant test attacks square by square. This keeps perft within reach
// of Stockfish's speed.

// genKind selects which legal moves a generator call produces.
type genKind uint8

const (
	genAll      genKind = iota
	genCaptures         // captures and all promotions (quiescence search)
	genQuiets           // everything genCaptures leaves out
)

// LegalMoves returns the legal moves of the position in a fresh slice.
func (p *Position) LegalMoves() []Move {
	var ml MoveList
	p.GenerateLegal(&ml)
	return append([]Move(nil), ml.Slice()...)
}

// GenerateLegal appends every legal move to ml (which it does not clear).
func (p *Position) GenerateLegal(ml *MoveList) { p.generate(ml, genAll) }

// GenerateCaptures appends the legal captures (en passant included) and all
// legal promotions to ml.
func (p *Position) GenerateCaptures(ml *MoveList) { p.generate(ml, genCaptures) }

// GenerateQuiets appends the legal moves that GenerateCaptures leaves out.
func (p *Position) GenerateQuiets(ml *MoveList) { p.generate(ml, genQuiets) }

// HasLegalMoves reports whether the side to move has any legal move.
func (p *Position) HasLegalMoves() bool {
	var ml MoveList
	p.generate(&ml, genAll)
	return ml.N > 0
}

// IsLegal reports whether m is a legal move in p.
func (p *Position) IsLegal(m Move) bool {
	if m == NoMove || m == NullMove {
		return false
	}
	us, them := p.side, p.side.Other()
	from, to := m.From(), m.To()
	pc := p.board[from]
	if pc == NoPiece || pc.Color() != us {
		return false
	}
	switch m & moveKindMask {
	case moveCastling, moveEnPassant:
		// Rare in practice and intricate (Chess960 castling, discovered
		// checks through the captured pawn): let the generator decide.
		return p.isGenerated(m)
	case moveNormal:
		if m>>12&3 != 0 {
			return false // promotion bits on a move that does not promote
		}
	}
	k := p.KingSquare(us)
	if k == NoSquare || p.byColor[us].Has(to) {
		return false
	}
	occ := p.byType[0]
	switch pc.Type() {
	case Pawn:
		if !p.pawnCanReach(us, from, to) || to.RelativeRank(us) == 7 != m.IsPromotion() {
			return false
		}
	case King:
		// A king move needs only a safe target, with the king lifted off
		// the board so that it cannot hide behind itself from a slider.
		return !m.IsPromotion() && kingAttacks[from].Has(to) &&
			!p.attackedWith(to, them, occ&^from.Bitboard())
	default:
		if m.IsPromotion() || !pieceAttacks(pc.Type(), from, occ).Has(to) {
			return false
		}
	}
	// Any other piece must answer a check and keep a pin.
	if checkers := p.AttackersTo(k, occ) & p.byColor[them]; checkers != 0 {
		if checkers.More() || !(between[k][checkers.First()] | checkers).Has(to) {
			return false
		}
	}
	return !p.pinnedPieces(us, k).Has(from) || line[k][from].Has(to)
}

// isGenerated reports whether the legal-move generator produces m.
func (p *Position) isGenerated(m Move) bool {
	var ml MoveList
	p.generate(&ml, genAll)
	return ml.Contains(m)
}

// pawnCanReach reports whether c's pawn on from may go to to, ignoring
// pins and checks: one step forward to an empty square, two from its
// starting rank over empty squares, or diagonally onto an enemy piece (en
// passant aside).
func (p *Position) pawnCanReach(c Color, from, to Square) bool {
	if pawnAttacks[c][from].Has(to) {
		return p.byColor[c.Other()].Has(to)
	}
	up := 8
	if c == Black {
		up = -8
	}
	occ := p.byType[0]
	one := int(from) + up
	if int(to) == one {
		return !occ.Has(to)
	}
	return int(to) == one+up && from.RelativeRank(c) == 1 && !occ.Has(Square(one)) && !occ.Has(to)
}

// pieceAttacks returns the squares a knight, bishop, rook or queen on s
// attacks with the board's occupancy occ.
func pieceAttacks(pt PieceType, s Square, occ Bitboard) Bitboard {
	switch pt {
	case Knight:
		return knightAttacks[s]
	case Bishop:
		return BishopAttacks(s, occ)
	case Rook:
		return RookAttacks(s, occ)
	case Queen:
		return QueenAttacks(s, occ)
	}
	return 0
}

// pinnedPieces returns c's pieces pinned to c's king at square k.
func (p *Position) pinnedPieces(c Color, k Square) Bitboard {
	them := p.byColor[c.Other()]
	snipers := (RookAttacks(k, 0)&(p.byType[Rook]|p.byType[Queen]) |
		BishopAttacks(k, 0)&(p.byType[Bishop]|p.byType[Queen])) & them
	occ := p.byType[0]
	var pinned Bitboard
	for snipers != 0 {
		s := snipers.PopFirst()
		b := between[k][s] & occ
		if b != 0 && !b.More() {
			pinned |= b & p.byColor[c]
		}
	}
	return pinned
}

func (p *Position) generate(ml *MoveList, kind genKind) {
	us, them := p.side, p.side.Other()
	k := p.KingSquare(us)
	if k == NoSquare {
		return
	}
	occ := p.byType[0]
	own := p.byColor[us]
	enemy := p.byColor[them]

	// Targets by generation kind.
	var targets Bitboard
	switch kind {
	case genAll:
		targets = ^own
	case genCaptures:
		targets = enemy
	case genQuiets:
		targets = ^occ
	}

	// King moves: every target square must be safe with the king lifted off
	// the board (so it cannot hide behind itself from a slider).
	occNoKing := occ &^ k.Bitboard()
	for b := kingAttacks[k] & targets; b != 0; {
		to := b.PopFirst()
		if !p.attackedWith(to, them, occNoKing) {
			ml.add(NewMove(k, to))
		}
	}

	checkers := p.AttackersTo(k, occ) & enemy
	if checkers.More() {
		return // double check: only the king may move
	}
	mask := ^Bitboard(0)
	if checkers != 0 {
		mask = between[k][checkers.First()] | checkers
	} else if kind != genCaptures {
		p.genCastling(ml, us, k)
	}
	pinned := p.pinnedPieces(us, k)

	// Knights: a pinned knight can never move.
	for b := p.Pieces(us, Knight) &^ pinned; b != 0; {
		from := b.PopFirst()
		for t := knightAttacks[from] & targets & mask; t != 0; {
			ml.add(NewMove(from, t.PopFirst()))
		}
	}
	diag := p.byType[Bishop] | p.byType[Queen]
	for b := diag & own; b != 0; {
		from := b.PopFirst()
		t := BishopAttacks(from, occ) & targets & mask
		if pinned.Has(from) {
			t &= line[k][from]
		}
		for t != 0 {
			ml.add(NewMove(from, t.PopFirst()))
		}
	}
	orth := p.byType[Rook] | p.byType[Queen]
	for b := orth & own; b != 0; {
		from := b.PopFirst()
		t := RookAttacks(from, occ) & targets & mask
		if pinned.Has(from) {
			t &= line[k][from]
		}
		for t != 0 {
			ml.add(NewMove(from, t.PopFirst()))
		}
	}
	p.genPawns(ml, kind, us, k, mask, pinned)
}

// addPawnMoves emits the moves of the pawns whose targets are in set, each
// reached from target-delta, filtering pinned pawns that leave their line.
func addPawnMoves(ml *MoveList, set Bitboard, delta int, pinned Bitboard, k Square, promo bool, kind genKind) {
	for set != 0 {
		to := set.PopFirst()
		from := Square(int(to) - delta)
		if pinned.Has(from) && !line[k][from].Has(to) {
			continue
		}
		if !promo {
			ml.add(NewMove(from, to))
			continue
		}
		// Every promotion counts as a "capture" for generation purposes,
		// so genQuiets leaves them all to genCaptures.
		if kind == genQuiets {
			continue
		}
		ml.add(NewPromotion(from, to, Queen))
		ml.add(NewPromotion(from, to, Knight))
		ml.add(NewPromotion(from, to, Rook))
		ml.add(NewPromotion(from, to, Bishop))
	}
}

func (p *Position) genPawns(ml *MoveList, kind genKind, us Color, k Square, mask, pinned Bitboard) {
	occ := p.byType[0]
	enemy := p.byColor[us.Other()]
	pawns := p.Pieces(us, Pawn)
	var up int
	var lastRank, thirdRank Bitboard
	var push, pushTwice, capLeft, capRight Bitboard
	if us == White {
		up, lastRank, thirdRank = 8, Rank8, Rank3
		push = pawns << 8 &^ occ
		pushTwice = (push & thirdRank) << 8 &^ occ
		capLeft = (pawns &^ FileA) << 7 & enemy
		capRight = (pawns &^ FileH) << 9 & enemy
	} else {
		up, lastRank, thirdRank = -8, Rank1, Rank6
		push = pawns >> 8 &^ occ
		pushTwice = (push & thirdRank) >> 8 &^ occ
		capLeft = (pawns &^ FileA) >> 9 & enemy
		capRight = (pawns &^ FileH) >> 7 & enemy
	}
	push &= mask
	pushTwice &= mask
	capLeft &= mask
	capRight &= mask
	leftDelta, rightDelta := up-1, up+1

	// Promotions (pushes and captures) belong to genCaptures and genAll.
	if kind != genQuiets {
		addPawnMoves(ml, push&lastRank, up, pinned, k, true, kind)
		addPawnMoves(ml, capLeft&lastRank, leftDelta, pinned, k, true, kind)
		addPawnMoves(ml, capRight&lastRank, rightDelta, pinned, k, true, kind)
	}
	if kind != genCaptures {
		addPawnMoves(ml, push&^lastRank, up, pinned, k, false, kind)
		addPawnMoves(ml, pushTwice, 2*up, pinned, k, false, kind)
	}
	if kind != genQuiets {
		addPawnMoves(ml, capLeft&^lastRank, leftDelta, pinned, k, false, kind)
		addPawnMoves(ml, capRight&^lastRank, rightDelta, pinned, k, false, kind)
		if p.ep != NoSquare {
			p.genEnPassant(ml, us, k)
		}
	}
}

// genEnPassant tests each en passant capture by replaying it on the
// occupancy: this covers the rare case where removing both pawns from a rank
// uncovers a rook or queen on the king, and evasions of a pawn check.
func (p *Position) genEnPassant(ml *MoveList, us Color, k Square) {
	them := us.Other()
	to := p.ep
	captured := to ^ 8
	for b := pawnAttacks[them][to] & p.Pieces(us, Pawn); b != 0; {
		from := b.PopFirst()
		occ := p.byType[0] ^ from.Bitboard() ^ captured.Bitboard() | to.Bitboard()
		attackers := p.AttackersTo(k, occ) & p.byColor[them] &^ captured.Bitboard()
		if attackers == 0 {
			ml.add(NewEnPassant(from, to))
		}
	}
}

// genCastling adds the legal castling moves; the caller has checked that the
// king is not in check. Written for Chess960: king and rook may start
// anywhere on the back rank, and either may already stand on its target.
func (p *Position) genCastling(ml *MoveList, us Color, k Square) {
	them := us.Other()
	for side := 0; side < 2; side++ {
		rook := p.castleRook[us][side]
		if rook == NoSquare {
			continue
		}
		kingTo, rookTo := castlingTargets(us, side)
		kingBB, rookBB := k.Bitboard(), rook.Bitboard()
		path := between[k][kingTo] | kingTo.Bitboard() | between[rook][rookTo] | rookTo.Bitboard()
		if p.byType[0]&^kingBB&^rookBB&path != 0 {
			continue
		}
		occ := p.byType[0] ^ kingBB
		safe := true
		for b := between[k][kingTo]; b != 0; {
			if p.attackedWith(b.PopFirst(), them, occ) {
				safe = false
				break
			}
		}
		// The final square is checked with the rook moved: in Chess960 the
		// castling rook can be the piece that was shielding that square.
		if safe && !p.attackedWith(kingTo, them, occ^rookBB|rookTo.Bitboard()) {
			ml.add(NewCastling(k, rook))
		}
	}
}

// GeneratePseudoLegal appends the pseudo-legal moves: moves that obey how
// pieces move but may leave the own king in check, and castling whenever the
// squares between king, rook and their targets are empty (attacks are not
// considered). Reconnaissance Chess, where kings are captured, plays these.
func (p *Position) GeneratePseudoLegal(ml *MoveList) {
	us := p.side
	occ := p.byType[0]
	own := p.byColor[us]
	for b := own &^ p.byType[Pawn]; b != 0; {
		from := b.PopFirst()
		var t Bitboard
		switch p.board[from].Type() {
		case Knight:
			t = knightAttacks[from]
		case Bishop:
			t = BishopAttacks(from, occ)
		case Rook:
			t = RookAttacks(from, occ)
		case Queen:
			t = QueenAttacks(from, occ)
		case King:
			t = kingAttacks[from]
		}
		for t &^= own; t != 0; {
			ml.add(NewMove(from, t.PopFirst()))
		}
	}
	// Pawns reuse the legal generator's code with no pins and no check mask.
	if k := p.KingSquare(us); k != NoSquare || p.Pieces(us, Pawn) != 0 {
		kk := k
		if kk == NoSquare {
			kk = A1 // unused: with no pinned pawns the king square is never read
		}
		p.genPawns(ml, genAll, us, kk, ^Bitboard(0), 0)
		if p.ep != NoSquare {
			// genPawns tested en passant for legality; add the illegal ones too.
			for b := pawnAttacks[us.Other()][p.ep] & p.Pieces(us, Pawn); b != 0; {
				m := NewEnPassant(b.PopFirst(), p.ep)
				if !ml.Contains(m) {
					ml.add(m)
				}
			}
		}
	}
	if k := p.KingSquare(us); k != NoSquare {
		for side := 0; side < 2; side++ {
			rook := p.castleRook[us][side]
			if rook == NoSquare || p.board[rook] != MakePiece(us, Rook) {
				continue
			}
			kingTo, rookTo := castlingTargets(us, side)
			path := between[k][kingTo] | kingTo.Bitboard() | between[rook][rookTo] | rookTo.Bitboard()
			if occ&^k.Bitboard()&^rook.Bitboard()&path == 0 {
				ml.add(NewCastling(k, rook))
			}
		}
	}
}
