package engine

import (
	"context"
	"sort"
	"time"

	"knightwatch/game"
)

// weakenedChoice implements the lower levels' "choose among near-best
// moves": every root move is searched again to the completed depth with a
// window from best-margin to best, and one of the moves inside the window is
// drawn at random, better moves being likelier. Moves worse than the margin
// (such as leaving the queen en prise) are never chosen. The scores, best
// and the window include the experience's adjustments (experience.go), so
// a move that lost before falls out of the window as it would out of the
// search's choice; the returned score is adjusted too. ok is false when
// the choice cannot be made (mate scores, time ran out).
func (e *Engine) weakenedChoice(ctx context.Context, pos *game.Position, t *thread, res Result, budget time.Duration) (game.Move, int, bool) {
	best := t.rootBestScore
	if best >= mateBound || best <= -mateBound {
		return game.NoMove, 0, false
	}
	floor := best - e.levelMargin(pos)
	depth := t.completedDepth

	// A fresh stop state bounded by what is left of the time budget.
	bias := t.st.bias
	st, restore := t.sideSearch(ctx, depth, budget)
	defer restore()

	var ml game.MoveList
	pos.GenerateLegal(&ml)
	cands := make([]cand, 0, ml.N)
	for _, m := range ml.Slice() {
		b := biasIn(bias, m, floor-1, best+1)
		s := withBias(t.rootMoveScore(pos, m, floor-1-b, best+1-b, depth), b)
		if st.stop.Load() {
			return game.NoMove, 0, false
		}
		if m == res.Move && s < floor {
			s = best // the search's own choice is always a candidate
		}
		if s >= floor {
			cands = append(cands, cand{m, min(s, best)})
		}
	}
	if len(cands) == 0 {
		return game.NoMove, 0, false
	}
	if depth <= maxGuardedLevelDepth {
		// Only the likeliest choices are worth guarding (it keeps the
		// guard inside the level's short time).
		sort.SliceStable(cands, func(i, j int) bool { return cands[i].s > cands[j].s })
		if len(cands) > maxGuarded {
			cands = cands[:maxGuarded]
		}
		cands = t.blunderGuard(pos, cands, st)
		if st.stop.Load() || len(cands) == 0 {
			return game.NoMove, 0, false
		}
	}
	// Weight grows with the square of how close a move is to the best.
	total := 0
	for _, c := range cands {
		d := c.s - floor + 1
		total += d * d
	}
	r := e.rng.IntN(total)
	for _, c := range cands {
		d := c.s - floor + 1
		if r < d*d {
			return c.m, c.s, true
		}
		r -= d * d
	}
	return cands[0].m, cands[0].s, true
}

// sideSearch readies t, whose search has ended, for searches of single
// root moves to depth (the level's choice, the experience's check) under a
// fresh stop state bounded by budget and ctx; restore puts the search's
// own state back.
func (t *thread) sideSearch(ctx context.Context, depth int, budget time.Duration) (st *searchState, restore func()) {
	st = &searchState{depthLimit: depth, hard: budget}
	st.startNanos.Store(time.Now().UnixNano())
	st.threads = []*thread{t}
	stopOnCancel := context.AfterFunc(ctx, func() { st.stop.Store(true) })
	old := t.st
	t.st = st
	t.rootDepth = depth
	t.completedDepth = depth
	return st, func() {
		stopOnCancel()
		t.st = old
	}
}

// rootMoveScore searches root move m of pos to depth with the window
// (alpha, beta) for the root's side and returns its score (fail-soft).
func (t *thread) rootMoveScore(pos *game.Position, m game.Move, alpha, beta, depth int) int {
	p := *pos
	t.stack[0].move, t.stack[0].piece = m, pos.PieceAt(m.From())
	p.MakeMove(m)
	t.keys = append(t.keys, p.Hash())
	s := -t.negamax(&p, -beta, -alpha, depth-1, 1, false)
	t.keys = t.keys[:len(t.keys)-1]
	return s
}

// levelMargin is how far below the best move the level's choice reaches
// in pos (0 at full strength): wider during the first moves.
func (e *Engine) levelMargin(pos *game.Position) int {
	margin := e.level.margin
	if margin > 0 && pos.FullmoveNumber() <= 5 {
		margin = max(margin, e.level.openingMargin)
	}
	return margin
}

// cand is a root move and its score.
type cand struct {
	m game.Move
	s int
}

// guardDepth is the depth of the blunder guard, and guardLoss the loss
// (against the best candidate) it refuses: a rook or more, so that the
// weakest levels still drop pieces to short tactics, as beginners do.
const (
	// maxGuardedLevelDepth: only levels this shallow need the guard; from
	// depth 5 the level's own search sees such short tactics.
	maxGuardedLevelDepth = 3
	maxGuarded           = 6
	guardDepth           = 4
	guardLoss            = 500
)

// blunderGuard re-searches the candidates of a shallow level a little
// deeper and drops those that lose major material, such as walking the
// queen into a pin: a weak player misses small tactics, but a level that
// gives away its queen on move four looks broken rather than human.
func (t *thread) blunderGuard(pos *game.Position, cands []cand, st *searchState) []cand {
	scores := make([]int, len(cands))
	best := -infinity
	t.rootDepth = guardDepth
	t.fullWidth = true
	defer func() { t.fullWidth = false }()
	for i, c := range cands {
		p := *pos
		t.stack[0].move, t.stack[0].piece = c.m, pos.PieceAt(c.m.From())
		p.MakeMove(c.m)
		t.keys = append(t.keys, p.Hash())
		scores[i] = -t.negamax(&p, -infinity, infinity, guardDepth-1, 1, false)
		t.keys = t.keys[:len(t.keys)-1]
		if st.stop.Load() {
			return nil
		}
		best = max(best, scores[i])
	}
	out := cands[:0]
	for i, c := range cands {
		if scores[i] >= best-guardLoss {
			out = append(out, c)
		}
	}
	return out
}
