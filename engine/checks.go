package engine

import "knightwatch/game"

// checkSquares finds, cheaply, the moves that may give check, so that
// quiescence runs the exact and costly Position.GivesCheck (a copy and a
// make) on a handful of moves instead of on every quiet move, and the main
// search can drop a pruned move without making it when it cannot check.
type checkSquares struct {
	// direct[pt] holds the squares from which a piece of type pt would
	// attack the enemy king.
	direct [7]game.Bitboard
	// discoverers are our pieces that alone block one of our sliders'
	// lines to the enemy king: moving them off the line checks.
	discoverers game.Bitboard
	// all is set when the enemy king is missing (a Reconnaissance Chess
	// board): every move is then a candidate.
	all bool
}

func newCheckSquares(p *game.Position) checkSquares {
	var cs checkSquares
	us := p.Side()
	them := us.Other()
	k := p.KingSquare(them)
	if k == game.NoSquare {
		cs.all = true
		return cs
	}
	occ := p.Occupied()
	cs.direct[game.Pawn] = game.PawnAttacks(them, k)
	cs.direct[game.Knight] = game.KnightAttacks(k)
	cs.direct[game.Bishop] = game.BishopAttacks(k, occ)
	cs.direct[game.Rook] = game.RookAttacks(k, occ)
	cs.direct[game.Queen] = cs.direct[game.Bishop] | cs.direct[game.Rook]
	queens := p.Pieces(us, game.Queen)
	snipers := game.RookAttacks(k, 0)&(p.Pieces(us, game.Rook)|queens) |
		game.BishopAttacks(k, 0)&(p.Pieces(us, game.Bishop)|queens)
	for snipers != 0 {
		between := game.Between(snipers.PopFirst(), k) & occ
		if between != 0 && !between.More() && between&p.ByColor(us) != 0 {
			cs.discoverers |= between
		}
	}
	return cs
}

// mayCheck reports whether the legal move m might give check: false means
// it surely does not. Castling (the rook may check), promotions (the new
// piece may) and en passant (the captured pawn may uncover a line) are
// always candidates.
func (cs *checkSquares) mayCheck(p *game.Position, m game.Move) bool {
	return cs.all || m.IsCastling() || m.IsPromotion() || m.IsEnPassant() || cs.discoverers.Has(m.From()) ||
		cs.direct[p.PieceAt(m.From()).Type()].Has(m.To())
}
