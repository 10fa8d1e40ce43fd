// The quiescence search: captures, check evasions and, at its first ply,
// quiet checks, until the position is quiet.

package engine

import "knightwatch/game"

// qsearch resolves captures (and check evasions) until the position is
// quiet. With checks (its first ply below the main search) it also tries
// quiet checking moves: without them a null-move search that drops into
// quiescence cannot see a threatened mate such as Qh7#, and a sacrifice
// that sets one up looks like a blunder.
func (t *thread) qsearch(p *game.Position, alpha, beta, ply int, checks bool) int {
	t.nnEnter(ply)
	t.nodes++
	if t.checkStop() {
		return 0
	}
	if ply > t.seldepth {
		t.seldepth = ply
	}
	if ply >= maxPly {
		return t.evaluate(p, ply)
	}
	inCheck := p.InCheck()
	key := p.Hash()
	tte, hit := t.tt.probe(key)
	if hit {
		s := scoreFromTT(tte.score, ply)
		if tte.bound == boundExact || tte.bound == boundLower && s >= beta || tte.bound == boundUpper && s <= alpha {
			return s
		}
	}
	bestScore := -infinity
	eval, rawEval := 0, 0
	if !inCheck {
		if hit {
			rawEval = tte.eval
		} else {
			rawEval = t.evaluate(p, ply)
		}
		eval = t.correct(p, rawEval)
		if eval >= beta {
			return eval
		}
		if eval > alpha {
			alpha = eval
		}
		bestScore = eval
	}
	buf := &t.qbuf[ply]
	ml, scores := &buf.moves, &buf.scores
	ml.N = 0
	if inCheck {
		p.GenerateLegal(ml)
		if ml.N == 0 {
			return -mateValue + ply
		}
	} else {
		p.GenerateCaptures(ml)
	}
	for i, m := range ml.Moves[:ml.N] {
		if p.IsCapture(m) || m.IsPromotion() {
			scores[i] = orderGoodCap + mvvLva(p, m)
		} else {
			scores[i] = t.history[p.Side()][m.From()][m.To()]
		}
	}
	origAlpha := alpha
	bestMove := game.NoMove
	// One loop searches the moves of two sources in turn: the captures
	// (or evasions), best first; then, with checks, the quiet moves that
	// give check without losing material, in generation order, in the
	// same buffer.
	var cs checkSquares
	for _, quietChecks := range [2]bool{false, true} {
		if quietChecks {
			if !checks || inCheck || bestScore >= beta {
				break
			}
			ml.N = 0
			p.GenerateQuiets(ml)
			cs = newCheckSquares(p)
		}
		for i := 0; i < ml.N; i++ {
			var m game.Move
			if quietChecks {
				m = ml.Moves[i]
				if m.IsPromotion() || !cs.mayCheck(p, m) || !p.GivesCheck(m) || !seeGE(p, m, 0) {
					continue
				}
			} else {
				m = pickMove(ml, scores, i)
				if !inCheck {
					if m.IsPromotion() && m.Promotion() != game.Queen {
						continue
					}
					// Delta pruning: even winning the piece cannot reach alpha.
					if !m.IsPromotion() && eval+seeValue[p.CapturedPiece(m).Type()]+200 <= alpha {
						continue
					}
					if !seeGE(p, m, 0) {
						continue
					}
				}
			}
			save := *p
			p.MakeMove(m)
			s := -t.qsearch(p, -beta, -alpha, ply+1, false)
			*p = save
			if t.stopped() {
				return 0
			}
			if s > bestScore {
				bestScore = s
				if s > alpha {
					alpha = s
					bestMove = m
					if s >= beta {
						break
					}
				}
			}
		}
	}
	bound := boundUpper
	switch {
	case bestScore >= beta:
		bound = boundLower
	case bestScore > origAlpha:
		bound = boundExact
	}
	t.tt.store(key, bestMove, scoreToTT(bestScore, ply), rawEval, 0, bound, hit && tte.pv)
	return bestScore
}
