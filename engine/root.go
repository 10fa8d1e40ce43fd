// The root: iterative deepening, aspiration windows, MultiPV, root move
// filtering (searchmoves), and Engine.search, which runs the threads of
// one search and collects its result.

package engine

import (
	"context"
	"slices"
	"sync"
	"time"

	"knightwatch/engine/nnue"
	"knightwatch/game"
)

// rootLine is one MultiPV line: a root move, its score and its PV.
type rootLine struct {
	move  game.Move
	score int
	pv    []game.Move
}

// rootRestricted reports whether the root is searched over fewer than
// all legal moves, so that its score is not the position's value.
func (t *thread) rootRestricted() bool {
	return t.rootMoves != nil || len(t.rootExcluded) > 0
}

// filterRoot removes from ml the root moves that this search must not
// play: those outside searchmoves and those already found by earlier
// MultiPV passes of the iteration.
func (t *thread) filterRoot(ml *game.MoveList) {
	n := 0
	for _, m := range ml.Moves[:ml.N] {
		if t.rootMoves != nil && !slices.Contains(t.rootMoves, m) || slices.Contains(t.rootExcluded, m) {
			continue
		}
		ml.Moves[n] = m
		n++
	}
	ml.N = n
}

// iterate runs iterative deepening with aspiration windows on one thread.
// The main thread (id 0) reports progress and decides when to stop.
func (t *thread) iterate(root *game.Position, onIter func(t *thread, depth, score int) bool) {
	p := *root
	score := 0
	// Only the main thread searches several lines; helpers deepen the
	// shared hash table for the best one.
	multiPV := 1
	if t.id == 0 {
		multiPV = t.st.multiPV
	}
	for depth := 1 + t.id%2; depth <= t.st.depthLimit; depth++ {
		t.rootDepth = depth
		t.seldepth = 0
		if multiPV > 1 {
			if !t.searchMultiPV(&p, depth, multiPV) {
				break
			}
			score = t.rootBestScore
		} else {
			s := t.aspiration(&p, depth, score)
			if t.stopped() {
				break
			}
			score = s
		}
		t.completedDepth = depth
		if t.id == 0 && !onIter(t, depth, score) {
			break
		}
		if t.st.stop.Load() {
			break
		}
	}
}

// aspiration searches the root to depth with a window around the previous
// iteration's score, widening it on a fail; the result is meaningless when
// the search was stopped.
func (t *thread) aspiration(p *game.Position, depth, score int) int {
	delta := 18
	alpha, beta := -infinity, infinity
	if depth >= 5 && score > -mateBound && score < mateBound {
		alpha, beta = score-delta, score+delta
	}
	var s int
	for {
		s = t.negamax(p, alpha, beta, depth, 0, false)
		if t.stopped() {
			break
		}
		if s <= alpha {
			beta = (alpha + beta) / 2
			alpha = max(s-delta, -infinity)
		} else if s >= beta {
			beta = min(s+delta, infinity)
		} else {
			break
		}
		delta += delta
	}
	return s
}

// searchMultiPV runs one MultiPV iteration: pass k searches the root
// without the k-1 moves already found, with an aspiration window around
// line k's previous score. The lines end in t.pvLines, best first, and
// the best line in rootBestMove/Score/PV. It returns false when the
// search was stopped; the best line then stays the best one known.
func (t *thread) searchMultiPV(p *game.Position, depth, n int) bool {
	prev := t.pvLines
	lines := make([]rootLine, 0, n)
	defer func() { t.rootExcluded = t.rootExcluded[:0] }()
	for k := 0; k < n; k++ {
		prevScore := 0
		if k < len(prev) {
			// The previous line's move orders first (it may be excluded
			// by now; then it is simply absent from the root list).
			t.rootBestMove, prevScore = prev[k].move, prev[k].score
		} else if k > 0 {
			t.rootBestMove = game.NoMove
		}
		s := t.aspiration(p, depth, prevScore)
		if t.stopped() {
			if k > 0 {
				// Passes after the first overwrote the best line with a
				// worse one; the first pass of this iteration is the best.
				t.rootBestMove, t.rootBestScore = lines[0].move, lines[0].score
				t.rootPV = append(t.rootPV[:0], lines[0].pv...)
			}
			return false
		}
		lines = append(lines, rootLine{t.rootBestMove, s, slices.Clone(t.rootPV)})
		t.rootExcluded = append(t.rootExcluded, t.rootBestMove)
	}
	// Later passes may score above earlier ones (search instability);
	// report the lines in score order as UCI expects.
	slices.SortStableFunc(lines, func(a, b rootLine) int { return b.score - a.score })
	t.pvLines = lines
	t.rootBestMove, t.rootBestScore = lines[0].move, lines[0].score
	t.rootPV = append(t.rootPV[:0], lines[0].pv...)
	return true
}

// search runs a full search: threads, time control and level weakening.
func (e *Engine) search(ctx context.Context, pos *game.Position, history []uint64, lim Limits, onInfo func(Info), rootMoves []game.Move) Result {
	st := &searchState{}
	st.startNanos.Store(time.Now().UnixNano())
	st.soft, st.hard = planTime(lim, pos.Side())
	st.nodeLimit = lim.Nodes
	st.depthLimit = maxPly - 1
	if lim.Depth > 0 {
		st.depthLimit = min(lim.Depth, maxPly-1)
	}
	if e.level.maxDepth > 0 {
		st.depthLimit = min(st.depthLimit, e.level.maxDepth)
	}
	if lim.Ponder {
		st.pondering.Store(true)
	}
	if lim.Infinite {
		st.soft, st.hard = 0, 0
	}
	st.multiPV = min(e.opts.MultiPV, len(rootMoves))
	// Only a real restriction filters the root: the unrestricted search
	// must stay exactly as fast as it was.
	var restrict []game.Move
	var legal game.MoveList
	pos.GenerateLegal(&legal)
	if len(rootMoves) < legal.N {
		restrict = rootMoves
	}
	e.mu.Lock()
	e.pondCtl = st
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		e.pondCtl = nil
		e.mu.Unlock()
	}()
	stopCtx := context.AfterFunc(ctx, func() { st.stop.Store(true) })
	defer stopCtx()
	if ctx.Err() != nil {
		st.stop.Store(true)
	}

	e.tt.newSearch()
	for len(e.threads) < e.opts.Threads {
		e.threads = append(e.threads, &thread{id: len(e.threads)})
	}
	threads := e.threads[:e.opts.Threads]
	st.threads = threads
	noiseSeed := e.rng.Uint64()
	for _, t := range threads {
		t.allocate()
		t.tt = e.tt
		t.st = st
		t.nodes = 0
		t.pubNodes.Store(0)
		t.keys = append(t.keys[:0], history...)
		t.keys = append(t.keys, pos.Hash())
		t.rootKeyIdx = len(history)
		t.noise = e.level.noise
		t.noiseSeed = noiseSeed
		t.net = e.opts.evalNet()
		for i := range t.nn.ply {
			t.nn.ply[i].valid = false
		}
		if t.net != nil {
			t.nn.root.pieces = nnue.PiecesOf(pos)
			t.net.Refresh(&t.nn.root.acc, &t.nn.root.pieces)
		}
		t.rootBestMove = game.NoMove
		t.rootBestScore = 0
		t.rootPV = t.rootPV[:0]
		t.completedDepth = 0
		t.rootDepth = 0
		t.rootNodes = [64][64]uint64{}
		t.rootMoves = restrict
		t.rootExcluded = t.rootExcluded[:0]
		t.pvLines = t.pvLines[:0]
	}
	main := threads[0]
	var wg sync.WaitGroup
	for _, t := range threads[1:] {
		wg.Add(1)
		go func(t *thread) {
			defer wg.Done()
			t.iterate(pos, nil)
		}(t)
	}

	lastBest := game.NoMove
	stable := 0
	var iterScores []int
	onIter := func(t *thread, depth, score int) bool {
		iterScores = append(iterScores, score)
		if t.rootBestMove == lastBest {
			stable++
		} else {
			stable = 0
			lastBest = t.rootBestMove
		}
		elapsed := st.elapsed()
		if onInfo != nil {
			nodes := st.totalNodes()
			if t.nodes > nodes {
				nodes = t.nodes
			}
			nps := uint64(0)
			if elapsed > 0 {
				nps = uint64(float64(nodes) / elapsed.Seconds())
			}
			hashFull := e.tt.hashFull()
			if st.multiPV > 1 {
				for k, l := range t.pvLines {
					onInfo(Info{
						Depth: depth, SelDepth: t.seldepth, MultiPV: k + 1, Score: toScore(l.score),
						Nodes: nodes, NPS: nps, Time: elapsed,
						PV: append([]game.Move(nil), l.pv...), HashFull: hashFull,
					})
				}
			} else {
				onInfo(Info{
					Depth: depth, SelDepth: t.seldepth, MultiPV: 1, Score: toScore(t.rootBestScore),
					Nodes: nodes, NPS: nps, Time: elapsed,
					PV: append([]game.Move(nil), t.rootPV...), HashFull: hashFull,
				})
			}
		}
		if st.soft > 0 && !st.pondering.Load() {
			// Stop early when the best move has been stable; think longer
			// when it keeps changing.
			scale := 1.0
			switch {
			case stable >= 4:
				scale = 0.6
			case stable == 0 && depth > 4:
				scale = 1.4
			}
			scale *= fallingScoreFactor(iterScores, depth)
			scale *= bestMoveEffortFactor(t)
			scale = max(scale, 0.35)
			if elapsed >= time.Duration(float64(st.soft)*scale) {
				return false
			}
		}
		if score >= mateBound && depth >= 2*(mateValue-score)+4 && !lim.Infinite && !st.pondering.Load() {
			return false // a mate is proven well within the horizon
		}
		return true
	}
	main.iterate(pos, onIter)
	// In infinite or ponder mode wait to be stopped: the caller decides
	// when the search ends.
	for (lim.Infinite || st.pondering.Load()) && !st.stop.Load() && ctx.Err() == nil {
		time.Sleep(time.Millisecond)
		if !st.pondering.Load() && !lim.Infinite {
			break
		}
	}
	st.stop.Store(true)
	wg.Wait()
	main.pubNodes.Store(main.nodes)

	res := Result{Move: main.rootBestMove, Score: toScore(main.rootBestScore), Depth: main.completedDepth, Nodes: st.totalNodes()}
	res.PV = append([]game.Move(nil), main.rootPV...)
	if res.Move == game.NoMove {
		// Nothing finished (the search was cancelled before it began):
		// fall back to the best-looking move by simple ordering.
		var ml game.MoveList
		ml.N = copy(ml.Moves[:], rootMoves)
		var scores [256]int
		main.scoreMoves(pos, &ml, &scores, game.NoMove, 0)
		res.Move = pickMove(&ml, &scores, 0)
		res.PV = []game.Move{res.Move}
	}
	if len(res.PV) == 0 || res.PV[0] != res.Move {
		res.PV = []game.Move{res.Move}
	}
	if e.level.margin > 0 && ctx.Err() == nil && main.completedDepth > 0 {
		budget := e.level.moveTime
		if st.hard > 0 {
			budget = max(st.hard-st.elapsed(), 20*time.Millisecond)
		}
		// The weakening picks among all legal moves; with searchmoves a
		// pick outside the list is dropped and the search's move kept.
		if m, s, ok := e.weakenedChoice(ctx, pos, main, res, budget); ok && m != res.Move && slices.Contains(rootMoves, m) {
			res.Move = m
			res.Score = toScore(s)
			res.PV = []game.Move{m}
		}
	}
	if len(res.PV) > 1 {
		res.Ponder = res.PV[1]
	}
	return res
}
