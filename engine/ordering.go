// Move ordering: the scores that order a node's moves, and picking the
// best remaining one.

package engine

import "knightwatch/game"

// Move ordering scores.
const (
	orderHash    = 1 << 30
	orderGoodCap = 1 << 28
	orderKiller  = 1 << 27
	orderCounter = 1 << 26
	orderBadCap  = -(1 << 26)
	// orderQuietUnscored holds a quiet move's place until its history
	// score is needed: below the counter-move, above every history score.
	orderQuietUnscored = orderCounter - 1
)

func mvvLva(p *game.Position, m game.Move) int {
	v := seeValue[p.CapturedPiece(m).Type()]
	if m.IsPromotion() {
		v += seeValue[m.Promotion()]
	}
	return v*16 - int(p.PieceAt(m.From()).Type())
}

// scoreMoves assigns ordering scores to the moves in ml.
func (t *thread) scoreMoves(p *game.Position, ml *game.MoveList, scores *[256]int, ttMove game.Move, ply int) {
	var counter game.Move
	if ply > 0 {
		if prev := t.stack[ply-1].move; prev != game.NoMove && prev != game.NullMove {
			counter = t.counter[prev.From()][prev.To()]
		}
	}
	for i, m := range ml.Moves[:ml.N] {
		switch {
		case m == ttMove:
			scores[i] = orderHash
		case p.IsCapture(m) || m.IsPromotion():
			s := mvvLva(p, m) + *t.capEntry(p, m)/16
			if m.Promotion() == game.Queen || seeGE(p, m, 0) {
				scores[i] = orderGoodCap + s
			} else {
				scores[i] = orderBadCap + s
			}
		case m == t.killers[ply][0]:
			scores[i] = orderKiller + 1
		case m == t.killers[ply][1]:
			scores[i] = orderKiller
		case m == counter:
			scores[i] = orderCounter
		default:
			// Scored when first reached: a capture, killer or the
			// counter-move often refutes the position before then.
			scores[i] = orderQuietUnscored
		}
	}
}

// scoreQuiets gives the not yet scored quiet moves of ml, from index from
// on, their history scores.
func (t *thread) scoreQuiets(p *game.Position, ml *game.MoveList, scores *[256]int, from, ply int) {
	for j := from; j < ml.N; j++ {
		if scores[j] == orderQuietUnscored {
			scores[j] = t.quietScore(p, ml.Moves[j], ply)
		}
	}
}

// dropPrunedQuiets removes from ml, from index from on, the quiet moves
// that cannot give check, keeping the others and their scores in order,
// and returns how many it removed.
func dropPrunedQuiets(p *game.Position, ml *game.MoveList, scores *[256]int, from int, cs *checkSquares) int {
	n := from
	for j := from; j < ml.N; j++ {
		m := ml.Moves[j]
		if !p.IsCapture(m) && !m.IsPromotion() && !cs.mayCheck(p, m) {
			continue
		}
		ml.Moves[n], scores[n] = m, scores[j]
		n++
	}
	removed := ml.N - n
	ml.N = n
	return removed
}

// pickMove swaps the best-scored remaining move to position i.
func pickMove(ml *game.MoveList, scores *[256]int, i int) game.Move {
	best := i
	for j := i + 1; j < ml.N; j++ {
		if scores[j] > scores[best] {
			best = j
		}
	}
	ml.Moves[i], ml.Moves[best] = ml.Moves[best], ml.Moves[i]
	scores[i], scores[best] = scores[best], scores[i]
	return ml.Moves[i]
}
