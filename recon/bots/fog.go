package bots

import "knightwatch/game"

// The engine judges a board as if both sides saw it. Under fog a check
// is worth more than that: the side in check must first find it. Over
// 160 games against StrangeFish (bench/results/rbc), knightwatch left 8%
// of the checks it was given unanswered and StrangeFish 31% of
// knightwatch's. The two helpers below find the checks a judgement
// weighs for that: the quiet ones, which no capture square gives away.

// quietCheck reports whether the side to move in p has a move that
// captures nothing and attacks the other side's king with the piece
// moved: a knight, bishop, rook or queen reaching a square that attacks
// the king, or a pawn pushed onto one. Discovered checks, castling
// checks and promotions are not counted: they are rare, and each needs
// a move made to be seen.
func quietCheck(p *game.Position) bool {
	by := p.Side()
	k := p.KingSquare(by.Other())
	if k == game.NoSquare {
		return false
	}
	occ := p.Occupied()
	empty := ^occ
	if targets := game.KnightAttacks(k) & empty; targets != 0 {
		for n := p.Pieces(by, game.Knight); n != 0; n &= n - 1 {
			if game.KnightAttacks(n.First())&targets != 0 {
				return true
			}
		}
	}
	diagonal := game.BishopAttacks(k, occ) & empty
	straight := game.RookAttacks(k, occ) & empty
	for s := p.Pieces(by, game.Bishop); s != 0; s &= s - 1 {
		if game.BishopAttacks(s.First(), occ)&diagonal != 0 {
			return true
		}
	}
	for s := p.Pieces(by, game.Rook); s != 0; s &= s - 1 {
		if game.RookAttacks(s.First(), occ)&straight != 0 {
			return true
		}
	}
	for s := p.Pieces(by, game.Queen); s != 0; s &= s - 1 {
		if game.QueenAttacks(s.First(), occ)&(diagonal|straight) != 0 {
			return true
		}
	}
	// A pawn of colour by on t attacks k exactly when a pawn of the other
	// colour on k attacks t.
	targets := game.PawnAttacks(by.Other(), k) & empty
	pawns := p.Pieces(by, game.Pawn)
	if by == game.White {
		single := targets >> 8 & pawns
		double := (targets & game.Rank4) >> 16 & pawns & game.Rank2 & (empty >> 8)
		return single|double != 0
	}
	single := targets << 8 & pawns
	double := (targets & game.Rank5) << 16 & pawns & game.Rank7 & (empty << 8)
	return single|double != 0
}

// sneakyCheck reports whether board r, the result of the side that
// moved on b (the other side now to move in r), attacks the mover's
// opponent's king without having captured anything: a check the
// opponent learns of only by sensing it.
func sneakyCheck(b, r *game.Position) bool {
	them := r.Side()
	k := r.KingSquare(them)
	if k == game.NoSquare || r.ByColor(them) != b.ByColor(them) {
		return false
	}
	return r.AttackersTo(k, r.Occupied())&r.ByColor(them.Other()) != 0
}
