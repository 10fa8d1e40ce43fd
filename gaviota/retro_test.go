package gaviota

// A retrograde solver of the 3-piece endings, of its own, that never reads
// the tables: the oracle of TestTablesAgreeWithRetrograde.

import (
	"knightwatch/game"
)

// A state of a 3-piece ending with White the stronger side: White's king
// wk, Black's king bk, White's piece on x, the side to move.
func stateIndex(stm, wk, bk, x int) int { return ((stm*64+wk)*64+bk)*64 + x }

func stateSquares(s int) (stm, wk, bk, x int) {
	return s >> 18, s >> 12 & 63, s >> 6 & 63, s & 63
}

const numStates = 2 * 64 * 64 * 64

// solved holds one ending's values: dtm[s] for each legal state, in
// python-chess's convention (plies; positive when the side to move mates,
// negative when mated, 0 for a draw and for a side already mated), and
// legal[s], and known[s]: whether the state is won or lost (a mated side
// has DTM 0 but is known).
type solved struct {
	piece        game.PieceType
	legal, known []bool
	dtm          []int16
}

func abs(n int) int { return max(n, -n) }

// pieceAttacks is what White's piece on x attacks with the board occupied
// by occ.
func pieceAttacks(pt game.PieceType, x int, occ game.Bitboard) game.Bitboard {
	s := game.Square(x)
	switch pt {
	case game.Queen:
		return game.QueenAttacks(s, occ)
	case game.Rook:
		return game.RookAttacks(s, occ)
	case game.Bishop:
		return game.BishopAttacks(s, occ)
	case game.Knight:
		return game.KnightAttacks(s)
	}
	return game.PawnAttacks(game.White, s)
}

func bb(s int) game.Bitboard { return game.Square(s).Bitboard() }

// legalState: three distinct squares, kings apart, no pawn on the first or
// last rank, the side not to move not in check (only Black's king can be).
func legalState(pt game.PieceType, stm, wk, bk, x int) bool {
	if wk == bk || wk == x || bk == x || game.KingAttacks(game.Square(wk)).Has(game.Square(bk)) {
		return false
	}
	if pt == game.Pawn && (x < 8 || x >= 56) {
		return false
	}
	if stm == 0 && pieceAttacks(pt, x, bb(wk)|bb(bk)|bb(x)).Has(game.Square(bk)) {
		return false
	}
	return true
}

// successor is one move's result: another state of the same ending
// (state >= 0), or a position of another ending resolved at distance d
// (a promotion: state -1), or a draw (a capture leaving two kings, or a
// promotion into a drawn position).
type successor struct {
	state int
	d     int
	draw  bool
}

// successors lists the moves of a legal state; promoted holds the
// solved endings a pawn promotes into.
func successors(pt game.PieceType, s int, promoted map[game.PieceType]*solved) []successor {
	stm, wk, bk, x := stateSquares(s)
	var out []successor
	occ := bb(wk) | bb(bk) | bb(x)
	if stm == 1 {
		// Black's king: not next to White's, not onto a square the piece
		// attacks with Black's king gone from its square; taking the piece
		// when White's king does not guard it leaves a draw.
		attacked := game.KingAttacks(game.Square(wk)) | pieceAttacks(pt, x, occ&^bb(bk))
		for to := game.KingAttacks(game.Square(bk)) &^ attacked; to != 0; {
			t := int(to.PopFirst())
			if t == x {
				out = append(out, successor{draw: true})
				continue
			}
			out = append(out, successor{state: stateIndex(0, wk, t, x)})
		}
		return out
	}
	for to := game.KingAttacks(game.Square(wk)) &^ game.KingAttacks(game.Square(bk)) &^ bb(x); to != 0; {
		out = append(out, successor{state: stateIndex(1, int(to.PopFirst()), bk, x)})
	}
	if pt != game.Pawn {
		for to := pieceAttacks(pt, x, occ) &^ bb(wk) &^ bb(bk); to != 0; {
			out = append(out, successor{state: stateIndex(1, wk, bk, int(to.PopFirst()))})
		}
		return out
	}
	if occ.Has(game.Square(x + 8)) {
		return out
	}
	if x+8 >= 56 {
		for _, q := range []game.PieceType{game.Queen, game.Rook, game.Bishop, game.Knight} {
			e, t := promoted[q], stateIndex(1, wk, bk, x+8)
			if !e.known[t] {
				out = append(out, successor{draw: true})
				continue
			}
			out = append(out, successor{state: -1, d: abs(int(e.dtm[t]))})
		}
		return out
	}
	out = append(out, successor{state: stateIndex(1, wk, bk, x+8)})
	if x < 16 && !occ.Has(game.Square(x+16)) {
		out = append(out, successor{state: stateIndex(1, wk, bk, x+16)})
	}
	return out
}

// solve computes an ending's values by retrograde analysis: positions
// resolved in order of their distance d in plies (a side to move with d
// even is mated in d, with d odd mates in d), each telling the positions
// that move into it: a predecessor of a loss in d wins in d+1 (the first
// found is the shortest), a predecessor all of whose moves reach wins for
// the opponent loses in d+1 (the last found is the longest). Moves out of
// the ending enter at their own distance; captures and stalemates are
// draws and tell no one.
func solve(pt game.PieceType, promoted map[game.PieceType]*solved) *solved {
	r := &solved{piece: pt, legal: make([]bool, numStates), known: make([]bool, numStates), dtm: make([]int16, numStates)}
	known := r.known
	const maxPlies = 256
	layers := make([][]int, maxPlies+1)   // states resolved at d
	external := make([][]int, maxPlies+1) // states with a move out of the ending resolved at d
	left := make([]int16, numStates)      // moves not yet known to reach an opponent's win
	preds := make([][]int32, numStates)
	for s := range numStates {
		stm, wk, bk, x := stateSquares(s)
		if !legalState(pt, stm, wk, bk, x) {
			continue
		}
		r.legal[s] = true
		succ := successors(pt, s, promoted)
		left[s] = int16(len(succ))
		if len(succ) == 0 {
			if stm == 1 && pieceAttacks(pt, x, bb(wk)|bb(bk)|bb(x)).Has(game.Square(bk)) {
				known[s] = true
				layers[0] = append(layers[0], s) // mated
			}
			continue // else stalemate: a draw
		}
		for _, m := range succ {
			switch {
			case m.draw:
			case m.state >= 0:
				preds[m.state] = append(preds[m.state], int32(s))
			default:
				external[m.d] = append(external[m.d], s)
			}
		}
	}
	// tell applies "a successor of p is resolved at d" to p.
	tell := func(p, d int) {
		if known[p] {
			return
		}
		if d%2 == 0 { // the successor's side to move is mated in d
			known[p] = true
			r.dtm[p] = int16(d + 1)
			layers[d+1] = append(layers[d+1], p)
			return
		}
		left[p]--
		if left[p] == 0 {
			known[p] = true
			r.dtm[p] = int16(-(d + 1))
			layers[d+1] = append(layers[d+1], p)
		}
	}
	for d := 0; d < maxPlies; d++ {
		for _, p := range external[d] {
			tell(p, d)
		}
		for _, s := range layers[d] {
			for _, p := range preds[s] {
				tell(int(p), d)
			}
		}
	}
	return r
}
