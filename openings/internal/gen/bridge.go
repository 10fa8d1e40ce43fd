package main

import (
	"knightwatch/game"
)

// target is a named position that step 1 did not reach, with what the lower
// bound needs of it.
type target struct {
	key    uint64
	board  [64]game.Piece
	side   game.Color
	counts [2][7]int
	rights [2][2]bool
	index  int      // in the target list
	back   *backMap // boards a few unmoves before the targets
}

func newTarget(p *game.Position) *target {
	t := &target{key: p.RepetitionKey(), side: p.Side()}
	for s := game.Square(0); s < 64; s++ {
		pc := p.PieceAt(s)
		t.board[s] = pc
		if pc != game.NoPiece {
			t.counts[pc.Color()][pc.Type()]++
		}
	}
	for c := game.White; c <= game.Black; c++ {
		for side := 0; side < 2; side++ {
			t.rights[c][side] = p.CastlingRook(c, side) != game.NoSquare
		}
	}
	return t
}

// impossible is larger than any line searched.
const impossible = 1 << 20

// lowerBound is a lower bound on the plies from p to t, or impossible when
// no sequence of moves without promotions gets there. A move puts at most one
// piece of its side on a new square (castling two); a piece of one side that
// t lacks must be captured by the other; a pawn never goes back, so each pawn
// of t needs a pawn of p behind it within its capture cone; castling rights
// once lost stay lost.
func lowerBound(p *game.Position, t *target) int {
	var counts [2][7]int
	var need [2]int
	for s := game.Square(0); s < 64; s++ {
		pc := p.PieceAt(s)
		if pc != game.NoPiece {
			counts[pc.Color()][pc.Type()]++
		}
		if tp := t.board[s]; tp != game.NoPiece && tp != pc {
			need[tp.Color()]++
		}
	}
	var moves [2]int
	for c := game.White; c <= game.Black; c++ {
		extra := 0
		for pt := game.Pawn; pt <= game.King; pt++ {
			d := counts[c][pt] - t.counts[c][pt]
			if d < 0 {
				return impossible
			}
			extra += d
		}
		canCastle := false
		for side := 0; side < 2; side++ {
			has := p.CastlingRook(c, side) != game.NoSquare
			if t.rights[c][side] && !has {
				return impossible
			}
			canCastle = canCastle || has
		}
		m := need[c]
		if canCastle && m > 0 {
			m--
		}
		moves[c] = max(moves[c], m)
		o := c.Other()
		moves[o] = max(moves[o], extra)
		if !pawnsCanReach(p, t, c) {
			return impossible
		}
	}
	us, them := p.Side(), p.Side().Other()
	n := max(2*moves[us]-1, 2*moves[them], 0)
	if (n%2 == 1) != (us != t.side) {
		n++
	}
	return n
}

// pawnsCanReach reports whether every pawn of colour c in t has a pawn of c
// in p that could still walk (and capture) to its square.
func pawnsCanReach(p *game.Position, t *target, c game.Color) bool {
	pawns := p.Pieces(c, game.Pawn)
	for s := game.Square(0); s < 64; s++ {
		if t.board[s] != game.MakePiece(c, game.Pawn) {
			continue
		}
		ok := false
		for b := pawns; b != 0; {
			from := b.PopFirst()
			ahead := s.RelativeRank(c) - from.RelativeRank(c)
			df := s.File() - from.File()
			if df < 0 {
				df = -df
			}
			if ahead >= 0 && df <= ahead {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// bridge searches for a line from p (reached by line) to t of at most
// bound more plies (iterative deepening on the lower bound), visiting at
// most budget nodes, and stops early on meeting a board a few unmoves
// before t. It returns the whole line from the start, checked, or nil.
func bridge(p *game.Position, line []game.Move, t *target, bound, budget int) []game.Move {
	path := append([]game.Move(nil), line...)
	nodes := 0
	var found []game.Move
	var dfs func(p *game.Position, g int) bool
	dfs = func(p *game.Position, g int) bool {
		nodes++
		if p.RepetitionKey() == t.key {
			found = append([]game.Move(nil), path...)
			return true
		}
		for tl := range t.back.from(positionBoardKey(p)) {
			if int(tl.target) != t.index {
				continue
			}
			full := append(append([]game.Move(nil), path...), tl.line()...)
			if end, ok := replayLegal(full); ok && end.RepetitionKey() == t.key {
				found = full
				return true
			}
		}
		if nodes > budget || g+lowerBound(p, t) > bound {
			return false
		}
		for _, m := range p.LegalMoves() {
			child := *p
			child.MakeMove(m)
			path = append(path, m)
			if dfs(&child, g+1) {
				return true
			}
			path = path[:len(path)-1]
		}
		return false
	}
	dfs(p, 0)
	return found
}
