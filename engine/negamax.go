// The main search: negamax (principal-variation alpha-beta with its
// pruning, reductions and extensions), ProbCut and the late-move reduction
// table.

package engine

import (
	"math"

	"knightwatch/game"
)

// lmrTable[d][n] is the late-move reduction at depth d for the n-th move.
var lmrTable [64][64]int

func init() {
	for d := 1; d < 64; d++ {
		for n := 1; n < 64; n++ {
			lmrTable[d][n] = int(0.75 + math.Log(float64(d))*math.Log(float64(n))/2.25)
		}
	}
}

func hasNonPawnMaterial(p *game.Position, c game.Color) bool {
	return p.ByColor(c)&^(p.ByType(game.Pawn)|p.ByType(game.King)) != 0
}

// negamax is the principal-variation alpha-beta search.
func (t *thread) negamax(p *game.Position, alpha, beta, depth, ply int, cutNode bool) int {
	pvNode := beta-alpha > 1
	t.pvLen[ply] = 0
	if depth <= 0 {
		return t.qsearch(p, alpha, beta, ply, true)
	}
	t.nnEnter(ply)
	t.nodes++
	if t.checkStop() {
		return 0
	}
	if ply > t.seldepth {
		t.seldepth = ply
	}
	key := p.Hash()
	if ply > 0 {
		if t.isDraw(p) {
			return 0
		}
		if ply >= maxPly {
			return t.evaluate(p, ply)
		}
		// Mate distance pruning: no line here can beat a shorter mate.
		alpha = max(alpha, -mateValue+ply)
		beta = min(beta, mateValue-ply-1)
		if alpha >= beta {
			return alpha
		}
	}
	inCheck := p.InCheck()

	excluded := t.stack[ply].excluded
	tte, hit := t.tt.probe(key)
	ttMove := game.NoMove
	ttScore := 0
	if hit {
		ttMove = tte.move
		ttScore = scoreFromTT(tte.score, ply)
		if !pvNode && ply > 0 && excluded == game.NoMove && !t.fullWidth && tte.depth >= depth &&
			(tte.bound == boundExact ||
				tte.bound == boundLower && ttScore >= beta ||
				tte.bound == boundUpper && ttScore <= alpha) {
			return ttScore
		}
	}
	// Tablebases: a win or loss the tables prove, or a draw, ends the
	// search here when its bound allows; otherwise, at a PV node, the
	// tables' value bounds the node's score.
	tbFloor, tbCap := -infinity, infinity
	if ply > 0 && excluded == game.NoMove && t.st.tbCard > 0 {
		if s, b, ok := t.probeTB(p, depth, ply); ok {
			if b == boundExact || b == boundLower && s >= beta || b == boundUpper && s <= alpha {
				ev := tte.eval
				if !hit {
					ev = t.evaluate(p, ply)
				}
				t.tt.store(key, game.NoMove, scoreToTT(s, ply), ev, min(depth+6, maxPly-1), b, ttPvOf(pvNode, hit, tte))
				return s
			}
			if pvNode {
				if b == boundLower {
					tbFloor = s
					alpha = max(alpha, s)
				} else {
					tbCap = s
				}
			}
		}
	}
	if ply == 0 && t.rootBestMove != game.NoMove {
		ttMove = t.rootBestMove
	}
	// A position that is or was on a principal variation: its score
	// matters more than a side line's, so its late moves are reduced less.
	ttPv := ttPvOf(pvNode, hit, tte)

	eval, staticEval, corrEval := -infinity, 0, 0
	if !inCheck {
		if hit {
			staticEval = tte.eval
		} else {
			staticEval = t.evaluate(p, ply)
		}
		corrEval = t.correct(p, staticEval)
		eval = corrEval
		// The stored score is a better estimate when its bound allows.
		if hit && (tte.bound == boundExact || tte.bound == boundLower && ttScore > eval || tte.bound == boundUpper && ttScore < eval) {
			eval = ttScore
		}
	}
	t.stack[ply].eval = eval
	improving := !inCheck && ply >= 2 && eval > t.stack[ply-2].eval
	us := p.Side()

	if !pvNode && !inCheck && ply > 0 && excluded == game.NoMove && !t.fullWidth {
		// Razoring: hopelessly below alpha near the leaves, check with
		// quiescence whether any capture rescues the position.
		if depth <= 2 && eval+250*depth <= alpha {
			if s := t.qsearch(p, alpha, alpha+1, ply, true); s <= alpha {
				return s
			}
		}
		// Reverse futility: far above beta at low depth, assume it holds.
		if depth <= 7 && eval < mateBound && eval-70*depth+boolInt(improving)*20 >= beta {
			return eval
		}
		// Null move: give the opponent a free move; if we still beat beta
		// a real move surely does (not in zugzwang-prone pawn endings).
		if depth >= 3 && eval >= beta && t.stack[ply-1].move != game.NullMove && hasNonPawnMaterial(p, us) {
			r := 3 + depth/4 + min((eval-beta)/200, 3)
			save := *p
			p.MakeNullMove()
			t.stack[ply].move = game.NullMove
			t.keys = append(t.keys, p.Hash())
			s := -t.negamax(p, -beta, -beta+1, depth-1-r, ply+1, !cutNode)
			t.keys = t.keys[:len(t.keys)-1]
			*p = save
			if t.stopped() {
				return 0
			}
			if s >= beta {
				if s >= tbBound {
					s = beta
				}
				return s
			}
		}
	}
	// ProbCut: when a good capture, searched a few plies shallower, beats
	// beta by a clear margin, the full-depth search almost surely beats
	// beta too. A hash entry deep enough to say otherwise skips the try.
	probBeta := beta + 200 - 50*boolInt(improving)
	if !pvNode && !inCheck && ply > 0 && depth >= 5 && excluded == game.NoMove && !t.fullWidth &&
		beta > -mateBound && beta < mateBound &&
		!(hit && tte.depth >= depth-3 && ttScore < probBeta) {
		if s, m, ok := t.probCut(p, probBeta, corrEval, depth, ply, cutNode); ok {
			t.tt.store(key, m, scoreToTT(s, ply), staticEval, depth-3, boundLower, ttPv)
			return s
		}
		if t.stopped() {
			return 0
		}
	}
	// Internal iterative reduction: without a hash move the ordering is
	// poor, so search a little shallower.
	if ttMove == game.NoMove && depth >= 6 && (pvNode || cutNode) {
		depth--
	}

	// The singular-extension search runs at this same ply while this
	// node's list is in use, so it has a buffer of its own.
	buf := &t.nbuf[ply][boolInt(excluded != game.NoMove)]
	ml, scores := &buf.moves, &buf.scores
	ml.N = 0
	// A legal hash move is searched before the other moves are generated
	// and scored: it often refutes the position on its own.
	staged := ply > 0 && ttMove != game.NoMove && ttMove != excluded && p.IsLegal(ttMove)
	if !staged {
		p.GenerateLegal(ml)
		if ml.N == 0 {
			if inCheck {
				return -mateValue + ply
			}
			return 0
		}
		if ply == 0 && t.rootRestricted() {
			// The caller guarantees at least one move remains.
			t.filterRoot(ml)
		}
		t.scoreMoves(p, ml, scores, ttMove, ply)
	}
	ttCapture := ttMove != game.NoMove && (p.IsCapture(ttMove) || ttMove.IsPromotion())

	// Singular extension: when the hash move is much better than every
	// alternative (searched shallower without it), extend it; when even
	// the alternatives beat beta, cut off at once (multi-cut).
	singular := false
	if ply > 0 && depth >= 8 && excluded == game.NoMove && hit && ttMove != game.NoMove &&
		tte.depth >= depth-3 && tte.bound&boundLower != 0 && ttScore < mateBound && ttScore > -mateBound {
		sBeta := ttScore - 2*depth
		t.stack[ply].excluded = ttMove
		s := t.negamax(p, sBeta-1, sBeta, (depth-1)/2, ply, cutNode)
		t.stack[ply].excluded = game.NoMove
		if t.stopped() {
			return 0
		}
		if s < sBeta {
			singular = true
		} else if sBeta >= beta {
			return sBeta
		}
	}

	origAlpha := alpha
	bestScore := tbFloor
	bestMove := game.NoMove
	quiets, captures := &buf.quiets, &buf.captures
	nQuiets, nCaptures := 0, 0
	t.killers[ply+1] = [2]game.Move{}
	// Pruning spares checking moves; cs tells, without making the move,
	// which pruned moves cannot check. Built on first use.
	var cs checkSquares
	csReady := false
	// dropped counts the quiet moves removed unsearched from the list once
	// every later quiet move was known to be pruned; they still count
	// towards later moves' move numbers, as if picked and pruned.
	dropped := 0
	quietsDropped := false

	for i := 0; ; i++ {
		if staged && i == 1 {
			staged = false
			p.GenerateLegal(ml)
			t.scoreMoves(p, ml, scores, ttMove, ply)
			pickMove(ml, scores, 0) // the hash move, searched already
		}
		var m game.Move
		if staged {
			m, scores[0] = ttMove, orderHash
		} else {
			if i >= ml.N {
				break
			}
			m = pickMove(ml, scores, i)
			if scores[i] == orderQuietUnscored {
				t.scoreQuiets(p, ml, scores, i, ply)
				m = pickMove(ml, scores, i)
			}
		}
		if m == excluded {
			continue
		}
		isTactical := p.IsCapture(m) || m.IsPromotion()
		moveCount := i + 1 + dropped

		// Decide pruning before making the move; checks are exempt.
		prune := false
		if ply > 0 && !inCheck && bestScore > -mateBound && !t.fullWidth {
			if !isTactical {
				// The first three reasons hold for every later quiet move
				// too: the move count only grows, alpha only rises, and the
				// list is picked in falling history order.
				pruneRest := false
				if depth <= 5 && nQuiets >= (3+depth*depth)/(2-boolInt(improving)) {
					pruneRest = true // late move pruning
				} else if depth <= 6 && eval+100+90*depth <= alpha {
					pruneRest = true // futility
				} else if depth <= 3 && scores[i] < -3000*depth {
					pruneRest = true // history: this move keeps failing here
				}
				if pruneRest {
					prune = true
					if !quietsDropped {
						// Picking the best of the rest is quadratic in the
						// list's length; drop now the quiet moves that
						// would be pruned anyway (those that cannot check).
						quietsDropped = true
						if !csReady {
							cs, csReady = newCheckSquares(p), true
						}
						dropped += dropPrunedQuiets(p, ml, scores, i+1, &cs)
					}
				} else if depth <= 8 && !seeGE(p, m, -25*depth*depth) {
					prune = true // the moved piece is simply lost
				}
			} else if depth <= 6 && scores[i] < orderGoodCap && !seeGE(p, m, -90*depth) {
				prune = true
			}
		}

		if prune {
			if !csReady {
				cs, csReady = newCheckSquares(p), true
			}
			if !cs.mayCheck(p, m) {
				continue
			}
		}
		save := *p
		t.stack[ply].piece = p.PieceAt(m.From())
		p.MakeMove(m)
		givesCheck := p.InCheck()
		if prune && !givesCheck {
			*p = save
			continue
		}
		t.stack[ply].move = m
		t.keys = append(t.keys, p.Hash())
		nodesBefore := t.nodes
		newDepth := depth - 1
		if givesCheck || singular && m == ttMove {
			newDepth++ // check and singular extensions
		}
		// At the root, experience adjusts the move's score by bias
		// (experience.go): its subtree is searched against the window
		// shifted by the bias, and the bias is added to its score after.
		bias, bestSeen := 0, bestScore
		if ply == 0 {
			bias = biasIn(t.st.bias, m, alpha, beta)
			alpha, beta = alpha-bias, beta-bias
			if bestSeen != -infinity {
				bestSeen -= bias
			}
		}

		var s int
		if depth >= 3 && moveCount > 1+boolInt(pvNode) && (!isTactical || scores[i] < orderCounter) && !inCheck && !t.fullWidth {
			r := lmrTable[min(depth, 63)][min(moveCount, 63)]
			if isTactical {
				r = r / 2 // a losing capture: reduce, but less than a quiet move
			}
			if pvNode {
				r--
			}
			if ttPv && !pvNode {
				r--
			}
			if !improving {
				r++
			}
			if cutNode {
				r++
			}
			if givesCheck {
				r--
			}
			if !isTactical {
				r -= scores[i] / 8000
				if ttCapture {
					r++ // the best move found so far wins material; quiet ones rarely beat it
				}
			}
			if scores[i] >= orderCounter {
				// Killers and the counter-move (only quiet moves score this
				// high here) are searched unreduced: each has refuted a
				// closely related position.
				r = 0
			}
			r = max(0, min(r, newDepth-1))
			reduced := newDepth - r
			s = -t.negamax(p, -alpha-1, -alpha, reduced, ply+1, true)
			if s > alpha && r > 0 {
				newDepth = researchDepth(s, bestSeen, newDepth)
				if newDepth > reduced {
					s = -t.negamax(p, -alpha-1, -alpha, newDepth, ply+1, !cutNode)
				}
			}
		} else if !pvNode || moveCount > 1 {
			s = -t.negamax(p, -alpha-1, -alpha, newDepth, ply+1, !cutNode)
		}
		if pvNode && (moveCount == 1 || s > alpha && s < beta) {
			s = -t.negamax(p, -beta, -alpha, newDepth, ply+1, false)
		}
		t.keys = t.keys[:len(t.keys)-1]
		*p = save
		if ply == 0 {
			t.rootNodes[m.From()][m.To()] += t.nodes - nodesBefore
			alpha, beta = alpha+bias, beta+bias
			s = withBias(s, bias)
		}
		if t.stopped() {
			return 0
		}

		if s > bestScore {
			bestScore = s
			if s > alpha {
				bestMove = m
				alpha = s
				t.pv[ply][0] = m
				n := t.pvLen[ply+1]
				copy(t.pv[ply][1:], t.pv[ply+1][:n])
				t.pvLen[ply] = n + 1
				if ply == 0 {
					t.rootBestMove = m
					t.rootBestScore = s
					t.rootPV = append(t.rootPV[:0], t.pv[0][:t.pvLen[0]]...)
				}
				if s >= beta {
					break
				}
			}
		}
		if !isTactical && nQuiets < len(quiets) {
			quiets[nQuiets] = m
			nQuiets++
		} else if isTactical && nCaptures < len(captures) {
			captures[nCaptures] = m
			nCaptures++
		}
	}

	bestScore = min(bestScore, tbCap)
	if excluded != game.NoMove {
		if bestScore == -infinity {
			return alpha // the excluded move was the only one
		}
		return bestScore
	}
	if bestScore >= beta && bestMove != game.NoMove {
		bonus := min(depth*depth*8, 1600)
		// The loop stopped at the cutoff, so the lists hold only the
		// moves that failed before it.
		if p.IsCapture(bestMove) || bestMove.IsPromotion() {
			t.updateCapHist(p, bestMove, bonus)
		}
		for _, c := range captures[:nCaptures] {
			t.updateCapHist(p, c, -bonus)
		}
	}
	if bestScore >= beta && bestMove != game.NoMove && !p.IsCapture(bestMove) && !bestMove.IsPromotion() {
		if t.killers[ply][0] != bestMove {
			t.killers[ply][1] = t.killers[ply][0]
			t.killers[ply][0] = bestMove
		}
		bonus := min(depth*depth*8, 1600)
		t.updateHistory(p, bestMove, ply, bonus)
		for _, q := range quiets[:nQuiets] {
			if q != bestMove {
				t.updateHistory(p, q, ply, -bonus)
			}
		}
		if ply > 0 {
			if prev := t.stack[ply-1].move; prev != game.NoMove && prev != game.NullMove {
				t.counter[prev.From()][prev.To()] = bestMove
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
	// Teach the correction table how far the static evaluation was off,
	// when the search result says so: a quiet best move (a capture's gain
	// is not the evaluation's fault) and a bound on the right side.
	if !inCheck && (bestMove == game.NoMove || !p.IsCapture(bestMove) && !bestMove.IsPromotion()) &&
		bestScore > -tbBound && bestScore < tbBound &&
		!(bound == boundLower && bestScore <= corrEval) && !(bound == boundUpper && bestScore >= corrEval) {
		t.updateCorrection(p, bestScore-corrEval, depth)
	}
	// A root searched over some of its moves, or with its moves' scores
	// adjusted by experience, has not found the position's value; keep it
	// out of the table.
	if ply > 0 || !t.rootRestricted() && len(t.st.bias) == 0 {
		t.tt.store(key, bestMove, scoreToTT(bestScore, ply), staticEval, depth, bound, ttPv)
	}
	return bestScore
}

// ttPvOf says whether a node is or was on a principal variation: a PV
// node, or one whose hash entry says so.
func ttPvOf(pvNode, hit bool, tte ttEntry) bool { return pvNode || hit && tte.pv }

// researchDepth is the depth at which a move whose reduced search scored
// s, above alpha, is searched again at full width. By a wide margin over
// the best score so far the move deserves a ply more than planned;
// barely above it, a ply less is enough to confirm it. Before any move
// has a score (the first move was excluded) the plan stands.
func researchDepth(s, bestScore, newDepth int) int {
	switch {
	case bestScore == -infinity:
		return newDepth
	case s > bestScore+50+2*newDepth:
		return newDepth + 1
	case s < bestScore+10:
		return newDepth - 1
	}
	return newDepth
}

// probCut tries the captures whose exchange alone could lift the static
// evaluation to probBeta: a quiescence search first (cheap, usually
// refutes), then a search four plies shallower. It returns the score and
// the capture when one holds probBeta.
func (t *thread) probCut(p *game.Position, probBeta, eval, depth, ply int, cutNode bool) (int, game.Move, bool) {
	var ml game.MoveList
	p.GenerateCaptures(&ml)
	var scores [256]int
	for i, m := range ml.Moves[:ml.N] {
		scores[i] = mvvLva(p, m)
	}
	for i := 0; i < ml.N; i++ {
		m := pickMove(&ml, &scores, i)
		if m.IsPromotion() && m.Promotion() != game.Queen || !seeGE(p, m, probBeta-eval) {
			continue
		}
		save := *p
		t.stack[ply].piece = p.PieceAt(m.From())
		p.MakeMove(m)
		t.stack[ply].move = m
		t.keys = append(t.keys, p.Hash())
		s := -t.qsearch(p, -probBeta, -probBeta+1, ply+1, false)
		if s >= probBeta {
			s = -t.negamax(p, -probBeta, -probBeta+1, depth-4, ply+1, !cutNode)
		}
		t.keys = t.keys[:len(t.keys)-1]
		*p = save
		if t.stopped() {
			return 0, game.NoMove, false
		}
		if s >= probBeta {
			return s, m, true
		}
	}
	return 0, game.NoMove, false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
