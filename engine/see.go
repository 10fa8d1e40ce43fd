package engine

import "knightwatch/game"

// seeValue is the piece value used by static exchange evaluation and
// MVV-LVA ordering (indexed by game.PieceType).
var seeValue = [7]int{0, 100, 320, 330, 500, 950, 20000}

// see returns the static exchange evaluation of m: the material balance
// for the mover after the best sequence of recaptures on the target square,
// each side free to stop capturing. It considers x-ray attackers behind the
// pieces that have already captured.
func see(p *game.Position, m game.Move) int {
	if m.IsCastling() {
		return 0
	}
	from, to := m.From(), m.To()
	var gain [32]int
	captured := p.CapturedPiece(m)
	gain[0] = seeValue[captured.Type()]
	attackerType := p.PieceAt(from).Type()
	if m.IsPromotion() {
		gain[0] += seeValue[m.Promotion()] - seeValue[game.Pawn]
		attackerType = m.Promotion()
	}
	occ := p.Occupied() &^ from.Bitboard()
	if m.IsEnPassant() {
		occ &^= (to ^ 8).Bitboard()
	}
	bishops := p.ByType(game.Bishop) | p.ByType(game.Queen)
	rooks := p.ByType(game.Rook) | p.ByType(game.Queen)
	attackers := p.AttackersTo(to, occ) & occ
	side := p.Side().Other()
	d := 0
	for {
		// Least valuable attacker of side.
		own := attackers & p.ByColor(side)
		if own == 0 || d+1 >= len(gain) {
			break
		}
		var pt game.PieceType
		var sq game.Square
		for pt = game.Pawn; pt <= game.King; pt++ {
			if b := own & p.ByType(pt); b != 0 {
				sq = b.First()
				break
			}
		}
		if pt == game.King && attackers&p.ByColor(side.Other())&^own != 0 {
			break // the king may not capture into a defended square
		}
		d++
		gain[d] = seeValue[attackerType] - gain[d-1]
		attackerType = pt
		occ &^= sq.Bitboard()
		// Reveal x-ray attackers behind the piece that just captured.
		attackers |= game.BishopAttacks(to, occ)&bishops | game.RookAttacks(to, occ)&rooks
		attackers &= occ
		side = side.Other()
	}
	for ; d > 0; d-- {
		gain[d-1] = -max(-gain[d-1], gain[d])
	}
	return gain[0]
}

// seeGE reports whether see(p, m) >= threshold. Most calls are settled
// by two bounds without walking the exchange: the mover gains at most what
// it takes (the opponent may stop recapturing), and loses at most the
// piece it moved (it may stop too).
func seeGE(p *game.Position, m game.Move, threshold int) bool {
	if m.IsCastling() {
		return threshold <= 0
	}
	gain := seeValue[p.CapturedPiece(m).Type()]
	risked := seeValue[p.PieceAt(m.From()).Type()]
	if m.IsPromotion() {
		gain += seeValue[m.Promotion()] - seeValue[game.Pawn]
		risked = seeValue[m.Promotion()]
	}
	if gain < threshold {
		return false
	}
	if gain-risked >= threshold {
		return true
	}
	return see(p, m) >= threshold
}
