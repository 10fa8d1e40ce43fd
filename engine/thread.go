// Search threads: the state the threads of one search share (searchState),
// each thread's private state and buffers, and the checks every node makes
// (stop, draw).

package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"knightwatch/engine/nnue"
	"knightwatch/game"
	"knightwatch/syzygy"
)

// searchState is shared by the threads of one search.
type searchState struct {
	stop       atomic.Bool
	pondering  atomic.Bool
	startNanos atomic.Int64 // when the clock started (reset by PonderHit)
	soft, hard time.Duration
	nodeLimit  uint64
	depthLimit int
	// multiPV is how many root lines the main thread searches per
	// iteration (at most the number of root moves).
	multiPV int
	// bias holds the root moves' experience adjustments (experience.go);
	// empty without experience.
	bias []moveBias
	// tb holds the tables probed at interior nodes of positions with at
	// most tbCard pieces (0: no probes). rootInTB says that the root moves
	// were ranked by the tables, whose value of the root is rootWDL;
	// rootTBHits counts those probes.
	tb         *syzygy.Tablebase
	tbCard     int
	rootInTB   bool
	rootWDL    syzygy.WDL
	rootTBHits uint64
	// rootDTM says that Gaviota's tables ranked the root moves; every
	// move searched then has the root's value, rootDTMScore (a mate
	// score at the tables' distance, or 0 for a draw).
	rootDTM      bool
	rootDTMScore int
	threads      []*thread
	// hit is closed by the ponderhit that ends pondering (hitOnce closes
	// it once); nil in states that never ponder.
	hit     chan struct{}
	hitOnce sync.Once
}

func (st *searchState) elapsed() time.Duration {
	return time.Duration(time.Now().UnixNano() - st.startNanos.Load())
}

// ponderHit ends pondering: the clock restarts now and the search's time
// limits apply from here on.
func (st *searchState) ponderHit() {
	if st.pondering.Load() {
		st.startNanos.Store(time.Now().UnixNano())
		st.pondering.Store(false)
		st.hitOnce.Do(func() { close(st.hit) })
	}
}

// waitForCaller returns when the caller has released a search whose
// iterations are over: at once for a search that was stopped or that
// neither is infinite nor still ponders; under infinite, when ctx is
// cancelled (stop); while pondering, when ctx is cancelled or at
// ponderhit. Once the iterations are over nothing but ctx sets stop, so
// ctx.Done() stands for it.
func (st *searchState) waitForCaller(ctx context.Context, infinite bool) {
	if st.stop.Load() || ctx.Err() != nil {
		return
	}
	switch {
	case infinite:
		<-ctx.Done()
	case st.pondering.Load():
		select {
		case <-ctx.Done():
		case <-st.hit:
		}
	}
}

// totalTBHits counts the tablebase probes of the search so far.
func (st *searchState) totalTBHits() uint64 {
	n := st.rootTBHits
	for _, t := range st.threads {
		n += t.tbHits.Load()
	}
	return n
}

// displayScore is the score reported for a root scored s by the search:
// when Gaviota's tables ranked the root moves, their exact value; when
// Syzygy's did and the search found no mate, their value of the root.
func (st *searchState) displayScore(s int) int {
	if st.rootDTM {
		return st.rootDTMScore
	}
	if st.rootInTB && s > -mateBound && s < mateBound {
		return tbRootScore(st.rootWDL)
	}
	return s
}

func (st *searchState) totalNodes() uint64 {
	var n uint64
	for _, t := range st.threads {
		n += t.pubNodes.Load()
	}
	return n
}

type stackEntry struct {
	move  game.Move
	piece game.Piece // the piece that made move
	eval  int
	// excluded is skipped by the singular-extension search of this node.
	excluded game.Move
}

// thread is one search goroutine's private state. Threads persist across
// searches so that history tables carry over within a game.
type thread struct {
	id    int
	tt    *transTable
	st    *searchState
	nodes uint64
	// pubNodes is nodes, published every 1024 nodes for the main
	// thread's node limit and info lines.
	pubNodes atomic.Uint64
	// tbHits counts this thread's tablebase probes in this search.
	tbHits   atomic.Uint64
	seldepth int
	keys     []uint64 // hashes of the game history and the search path
	// rootKeyIdx is the index in keys of the root position.
	rootKeyIdx int
	stack      [maxPly + 4]stackEntry
	pv         [maxPly + 1][maxPly + 1]game.Move
	pvLen      [maxPly + 1]int
	killers    [maxPly + 2][2]game.Move
	history    [2][64][64]int
	cont       *contHistory
	// capHist scores captures by [moving piece][target][captured type]:
	// how often this capture refuted a position, beyond what the victim's
	// value says.
	capHist [16][64][7]int
	counter [64][64]game.Move
	corr    [2][corrSize]int32
	// pawns caches the pawn-structure part of the evaluation.
	pawns *pawnCache
	// qbuf holds each ply's quiescence moves and their scores: kept here
	// rather than on the stack, where Go would zero them at every node.
	qbuf *[maxPly + 1]qsearchMoves
	// nbuf does the same for the main search: two per ply, the second
	// for the singular-extension search of the node at that ply.
	nbuf *[maxPly + 1][2]searchMoves

	// net is the neural network evaluation, nil for the hand-written one;
	// nn holds its accumulator for the position at each ply (see nnEval).
	net *nnue.Network
	nn  *nnStack

	noise     int
	noiseSeed uint64
	// fullWidth turns off every pruning and reduction: the blunder guard
	// must not miss a short tactic that a reduction hides.
	fullWidth bool

	rootDepth int
	// rootNodes counts the nodes spent under each root move, by from and
	// to square, over the whole search: the time manager's measure of how
	// settled the choice is.
	rootNodes      [64][64]uint64
	rootBestMove   game.Move
	rootBestScore  int
	rootPV         []game.Move
	completedDepth int

	// rootMoves, when not nil, are the only root moves searched (go
	// searchmoves); nil means all legal moves.
	rootMoves []game.Move
	// rootExcluded are root moves skipped because they are already
	// among the best lines of this MultiPV iteration.
	rootExcluded []game.Move
	// pvLines are the lines of the last completed MultiPV iteration,
	// best first.
	pvLines []rootLine
}

// checkStop is called at every node; it polls the clock and the node
// limit every 1024 nodes (main thread only) and reports whether to stop.
func (t *thread) checkStop() bool {
	if t.nodes&1023 == 0 {
		t.pubNodes.Store(t.nodes)
		if t.id == 0 && !t.st.stop.Load() {
			st := t.st
			if st.hard > 0 && !st.pondering.Load() && st.elapsed() >= st.hard {
				st.stop.Store(true)
			}
			if st.nodeLimit > 0 && st.totalNodes() >= st.nodeLimit {
				st.stop.Store(true)
			}
		}
	}
	return t.stopped()
}

// stopped reports whether the search must unwind. The main thread's first
// iteration is protected (up to a node budget far above what depth 1 needs)
// so that even a 1 ms or cancelled search returns a considered move.
func (t *thread) stopped() bool {
	if !t.st.stop.Load() {
		return false
	}
	return !(t.id == 0 && t.rootDepth == 1 && t.completedDepth == 0 && t.nodes <= 20000)
}

// isDraw reports a draw by the 50-move rule, repetition (a single
// repetition inside the search counts) or insufficient material.
func (t *thread) isDraw(p *game.Position) bool {
	hm := p.HalfmoveClock()
	if hm >= 100 {
		return true
	}
	n := len(t.keys)
	key := t.keys[n-1]
	seen := 0
	for i := n - 3; i >= 0 && i >= n-1-hm; i -= 2 {
		if t.keys[i] != key {
			continue
		}
		// A repetition inside the search tree is a draw (either side
		// could repeat again); one of a position from the game before
		// the root is only a draw when it is the third occurrence.
		// Otherwise the engine steers into a single earlier repetition
		// believing it a draw while the opponent is free to go on, and
		// shuffles while a lost position gets worse.
		if i >= t.rootKeyIdx {
			return true
		}
		if seen++; seen >= 2 {
			return true
		}
	}
	return p.IsInsufficientMaterial()
}

// qsearchMoves is one ply's move list in the quiescence search.
type qsearchMoves struct {
	moves  game.MoveList
	scores [256]int
}

// searchMoves is one node's move list in the main search, with the
// quiet moves and captures it searched without a cutoff.
type searchMoves struct {
	qsearchMoves
	quiets   [64]game.Move
	captures [64]game.Move
}

// resetForSearch readies t for a search from pos, reached through the
// positions whose keys are history (oldest first), over the root moves
// restrict (nil: all). The tables that learn (history, killers,
// correction) carry over from the last search.
func (t *thread) resetForSearch(pos *game.Position, history []uint64, restrict []game.Move) {
	t.nodes = 0
	t.pubNodes.Store(0)
	t.tbHits.Store(0)
	t.keys = append(t.keys[:0], history...)
	t.keys = append(t.keys, pos.Hash())
	t.rootKeyIdx = len(history)
	t.nnStart(pos)
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

// allocate gives a new thread its tables and move buffers, once: they
// are large, and the history tables carry over from search to search.
func (t *thread) allocate() {
	if t.cont != nil {
		return
	}
	t.cont = new(contHistory)
	t.pawns = new(pawnCache)
	t.qbuf = new([maxPly + 1]qsearchMoves)
	t.nbuf = new([maxPly + 1][2]searchMoves)
	t.nn = new(nnStack)
}
