// The root: iterative deepening, aspiration windows, MultiPV, root move
// filtering (searchmoves), and Engine.search, which runs the threads of
// one search and collects its result.

package engine

import (
	"context"
	"slices"
	"sync"
	"time"

	"knightwatch/game"
	"knightwatch/syzygy"
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
// The main thread iterates on the caller's goroutine, the helpers on
// their own; under go infinite or go ponder the result waits for the
// caller (stop or ponderhit).
func (e *Engine) search(ctx context.Context, pos *game.Position, history []uint64, lim Limits, onInfo func(Info), rootMoves []game.Move, biases []moveBias) Result {
	card := e.tbCardinality()
	var kept []game.Move
	var wdl syzygy.WDL
	var probes int
	var inTB bool
	dtmKept, dtmScore, inGaviota := gaviotaRootMoves(e.opts.Gaviota, pos, rootMoves)
	if inGaviota {
		// Distance to mate is the finer ranking where both tables hold
		// the root (a DTZ-best move may mate later).
		rootMoves = dtmKept
	} else if kept, wdl, probes, inTB = tbRootMoves(e.opts.Tablebase, card, pos, rootMoves); inTB {
		rootMoves = kept
	}
	st := e.newSearchState(pos, lim, rootMoves)
	st.bias = biases
	st.tb, st.tbCard = e.opts.Tablebase, card
	st.rootInTB, st.rootWDL, st.rootTBHits = inTB, wdl, uint64(probes)
	st.rootDTM, st.rootDTMScore = inGaviota, dtmScore
	e.setPondCtl(st)
	defer e.setPondCtl(nil)
	stopCtx := context.AfterFunc(ctx, func() { st.stop.Store(true) })
	defer stopCtx()
	if ctx.Err() != nil {
		st.stop.Store(true)
	}

	threads := e.setUpThreads(st, pos, history, restrictedRoot(pos, rootMoves))
	main := threads[0]
	helpers := startHelpers(threads[1:], pos)
	iters := &mainIterations{e: e, st: st, lim: lim, onInfo: onInfo, lastBest: game.NoMove}
	main.iterate(pos, iters.afterIteration)
	st.waitForCaller(ctx, lim.Infinite)
	st.stop.Store(true)
	helpers.Wait()
	main.pubNodes.Store(main.nodes)
	return e.collectResult(ctx, st, pos, main, rootMoves)
}

// newSearchState starts the clock and sets the limits of a search of pos
// under lim.
func (e *Engine) newSearchState(pos *game.Position, lim Limits, rootMoves []game.Move) *searchState {
	st := &searchState{hit: make(chan struct{})}
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
	return st
}

// setPondCtl makes st the search that PonderHit reaches (nil: none).
func (e *Engine) setPondCtl(st *searchState) {
	e.mu.Lock()
	e.pondCtl = st
	e.mu.Unlock()
}

// restrictedRoot returns rootMoves when they are fewer than the legal
// moves of pos, nil when they are all of them: only a real restriction
// filters the root, so the unrestricted search pays nothing for it.
func restrictedRoot(pos *game.Position, rootMoves []game.Move) []game.Move {
	var legal game.MoveList
	pos.GenerateLegal(&legal)
	if len(rootMoves) < legal.N {
		return rootMoves
	}
	return nil
}

// setUpThreads readies the engine's first Options.Threads threads (made
// on first use) for a search of pos under st, each with the level's
// noise, the evaluation and the root restriction.
func (e *Engine) setUpThreads(st *searchState, pos *game.Position, history []uint64, restrict []game.Move) []*thread {
	e.tt.newSearch()
	for len(e.threads) < e.opts.Threads {
		e.threads = append(e.threads, &thread{id: len(e.threads)})
	}
	threads := e.threads[:e.opts.Threads]
	st.threads = threads
	noiseSeed := e.rng.Uint64()
	net := e.opts.evalNet()
	for _, t := range threads {
		t.allocate()
		t.tt = e.tt
		t.st = st
		t.noise = e.level.noise
		t.noiseSeed = noiseSeed
		t.net = net
		t.resetForSearch(pos, history, restrict)
	}
	return threads
}

// startHelpers starts the helper threads' iterations (Lazy SMP: they
// deepen the shared hash table); the WaitGroup says when all have ended.
func startHelpers(helpers []*thread, pos *game.Position) *sync.WaitGroup {
	var wg sync.WaitGroup
	for _, t := range helpers {
		wg.Add(1)
		go func(t *thread) {
			defer wg.Done()
			t.iterate(pos, nil)
		}(t)
	}
	return &wg
}

// mainIterations follows the main thread's iterations: it reports each
// one and decides whether to start another.
type mainIterations struct {
	e      *Engine
	st     *searchState
	lim    Limits
	onInfo func(Info)
	// lastBest is the best move of the last iteration, stable the number
	// of iterations since it last changed.
	lastBest game.Move
	stable   int
	// scores are the root scores of the iterations so far.
	scores []int
}

// afterIteration is called when the main thread t completes an iteration
// to depth with score; it returns false to end the search.
func (it *mainIterations) afterIteration(t *thread, depth, score int) bool {
	st := it.st
	it.scores = append(it.scores, score)
	if t.rootBestMove == it.lastBest {
		it.stable++
	} else {
		it.stable = 0
		it.lastBest = t.rootBestMove
	}
	elapsed := st.elapsed()
	if it.onInfo != nil {
		it.report(t, depth, elapsed)
	}
	if st.softLimitReached(t, depth, it.stable, it.scores, elapsed) {
		return false
	}
	if score >= mateBound && depth >= 2*(mateValue-score)+4 && !it.lim.Infinite && !st.pondering.Load() {
		return false // a mate is proven well within the horizon
	}
	return true
}

// report sends the Info lines of the iteration to depth that the main
// thread t has completed: one per MultiPV line.
func (it *mainIterations) report(t *thread, depth int, elapsed time.Duration) {
	st := it.st
	nodes := st.totalNodes()
	if t.nodes > nodes {
		nodes = t.nodes
	}
	nps := uint64(0)
	if elapsed > 0 {
		nps = uint64(float64(nodes) / elapsed.Seconds())
	}
	hashFull := it.e.tt.hashFull()
	tbHits := st.totalTBHits()
	if st.multiPV > 1 {
		for k, l := range t.pvLines {
			it.onInfo(Info{
				Depth: depth, SelDepth: t.seldepth, MultiPV: k + 1, Score: toScore(st.displayScore(st.unbias(l.move, l.score))),
				Nodes: nodes, NPS: nps, Time: elapsed,
				PV: append([]game.Move(nil), l.pv...), HashFull: hashFull, TBHits: tbHits,
			})
		}
	} else {
		it.onInfo(Info{
			Depth: depth, SelDepth: t.seldepth, MultiPV: 1, Score: toScore(st.displayScore(st.unbias(t.rootBestMove, t.rootBestScore))),
			Nodes: nodes, NPS: nps, Time: elapsed,
			PV: append([]game.Move(nil), t.rootPV...), HashFull: hashFull, TBHits: tbHits,
		})
	}
}

// collectResult makes the Result of the search st of pos, whose threads
// have ended, from the main thread's best line; a level that weakens
// replaces the move by its choice. Scores are reported without the
// experience's adjustments, and Result.Experience says what they changed.
func (e *Engine) collectResult(ctx context.Context, st *searchState, pos *game.Position, main *thread, rootMoves []game.Move) Result {
	res := Result{Move: main.rootBestMove, Score: toScore(st.displayScore(st.unbias(main.rootBestMove, main.rootBestScore))), Depth: main.completedDepth,
		Nodes: st.totalNodes(), TBHits: st.totalTBHits()}
	res.PV = append([]game.Move(nil), main.rootPV...)
	// chosen is the adjusted score of res.Move, while known.
	chosen, known := main.rootBestScore, main.rootBestMove != game.NoMove
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
		if s, ok := e.weaken(ctx, st, pos, main, rootMoves, &res); ok {
			chosen = s
		}
	}
	if len(st.bias) > 0 && known && ctx.Err() == nil && main.completedDepth > 0 {
		res.Experience = e.explainExperience(ctx, st, pos, main, res.Move, st.unbias(res.Move, chosen))
	}
	if len(res.PV) > 1 {
		res.Ponder = res.PV[1]
	}
	return res
}

// remainingBudget is what is left of the search's time for the work
// after it (the level's choice, the experience's check): at least 20 ms.
func (e *Engine) remainingBudget(st *searchState) time.Duration {
	if st.hard > 0 {
		return max(st.hard-st.elapsed(), 20*time.Millisecond)
	}
	return e.level.moveTime
}

// weaken lets the level's weakening replace the move of res, within what
// is left of the time budget. It returns the adjusted score of the move
// it chose, when it chose one.
func (e *Engine) weaken(ctx context.Context, st *searchState, pos *game.Position, main *thread, rootMoves []game.Move, res *Result) (int, bool) {
	// The weakening picks among all legal moves; with searchmoves a
	// pick outside the list is dropped and the search's move kept.
	m, s, ok := e.weakenedChoice(ctx, pos, main, *res, e.remainingBudget(st))
	if !ok || !slices.Contains(rootMoves, m) {
		return 0, false
	}
	if m != res.Move {
		res.Move = m
		res.Score = toScore(st.unbias(m, s))
		res.PV = []game.Move{m}
	}
	return s, true
}
