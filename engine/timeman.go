// Time management: the time budget from the clock or MoveTime, and the
// factors that stretch or shrink the soft limit as the search goes.

package engine

import (
	"time"

	"knightwatch/game"
)

// softLimitReached reports whether the main thread t, having completed
// an iteration to depth after elapsed, should start no other: the soft
// limit, scaled by how settled the search is, has passed. A best move
// unchanged for stable >= 4 iterations ends the search sooner; one that
// has just changed (past depth 4), a falling score, or effort spread over
// several moves gives it longer. Under infinite or while pondering there
// is no soft limit.
func (st *searchState) softLimitReached(t *thread, depth, stable int, scores []int, elapsed time.Duration) bool {
	if st.soft <= 0 || st.pondering.Load() {
		return false
	}
	scale := 1.0
	switch {
	case stable >= 4:
		scale = 0.6
	case stable == 0 && depth > 4:
		scale = 1.4
	}
	scale *= fallingScoreFactor(scores, depth)
	scale *= bestMoveEffortFactor(t)
	scale = max(scale, 0.35)
	return elapsed >= time.Duration(float64(st.soft)*scale)
}

// fallingScoreFactor scales the soft time limit by how the root score
// moved over the last iterations: when it drops the search has found a
// problem with the move it was going to play and deserves time to find a
// better one; when it rises the move is likely good. Compared with two
// iterations back, which evens out the odd/even depth swing.
func fallingScoreFactor(scores []int, depth int) float64 {
	n := len(scores)
	if depth <= 4 || n < 3 {
		return 1
	}
	prev, cur := scores[n-3], scores[n-1]
	if prev >= mateBound || prev <= -mateBound || cur >= mateBound || cur <= -mateBound {
		return 1
	}
	f := 1 + float64(prev-cur)/160
	return min(max(f, 0.85), 1.6)
}

// bestMoveEffortFactor scales the soft time limit by the share of the
// main thread's nodes spent under the current best move: when nearly all
// the effort went there, the alternatives were refuted quickly and more
// time would change little; when the share is small, the other moves
// needed real work to refute and the choice is open.
func bestMoveEffortFactor(t *thread) float64 {
	if t.nodes == 0 || t.rootBestMove == game.NoMove {
		return 1
	}
	m := t.rootBestMove
	share := float64(t.rootNodes[m.From()][m.To()]) / float64(t.nodes)
	return min(max(1.7-1.2*share, 0.6), 1.4)
}

// planTime returns the soft limit (do not start another iteration after
// it) and the hard limit (abort the search) for lim; zero means none. When
// both a clock and MoveTime are given, the tighter of the two applies.
func planTime(lim Limits, side game.Color) (soft, hard time.Duration) {
	soft, hard = clockTime(lim, side)
	if lim.MoveTime > 0 {
		// A small safety margin keeps the reply inside the limit.
		margin := min(lim.MoveTime/20, 5*time.Millisecond)
		mt := lim.MoveTime - margin
		if hard == 0 || mt < hard {
			hard = mt
		}
		if soft == 0 || soft > hard {
			soft = hard
		}
	}
	return soft, hard
}

// clockTime budgets from the remaining clock time and increment.
func clockTime(lim Limits, side game.Color) (soft, hard time.Duration) {
	remaining, inc := lim.WTime, lim.WInc
	if side == game.Black {
		remaining, inc = lim.BTime, lim.BInc
	}
	if remaining <= 0 {
		// Only the opponent's clock was given: budget as if ours matched,
		// rather than searching without any limit.
		remaining = max(lim.WTime, lim.BTime)
		if remaining <= 0 {
			return 0, 0
		}
	}
	// Without movestogo (or with more than 50), plan as if 20 moves
	// remained, and let the soft limit run a little past the average
	// (1.1x): the clock is spent while the game is still open rather
	// than saved for an ending that may never need it.
	mtg := lim.MovesToGo
	if mtg <= 0 || mtg > 50 {
		mtg = 20
	}
	overhead := min(20*time.Millisecond, remaining/20)
	avail := remaining - overhead
	if avail < time.Millisecond {
		avail = time.Millisecond
	}
	base := avail/time.Duration(mtg) + inc*3/4
	hard = min(base*4, avail/3+inc/2, avail*3/4)
	if mtg == 1 {
		hard = avail * 9 / 10
	}
	soft = min(base*11/10, hard)
	if hard < time.Millisecond {
		hard = time.Millisecond
	}
	if soft <= 0 {
		soft = hard
	}
	return soft, hard
}
