package engine

import (
	"context"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"knightwatch/engine/nnue"
	"knightwatch/game"
)

const (
	maxPly    = 100
	infinity  = 32001
	mateValue = 32000
	// Scores beyond mateBound are mates; the margin leaves room for the
	// distance to mate.
	mateBound = mateValue - 2*maxPly
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
	threads []*thread
}

func (st *searchState) elapsed() time.Duration {
	return time.Duration(time.Now().UnixNano() - st.startNanos.Load())
}

func (st *searchState) ponderHit() {
	if st.pondering.Load() {
		st.startNanos.Store(time.Now().UnixNano())
		st.pondering.Store(false)
	}
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

// contHistory scores a quiet move by the move played just before it
// (counter-move history): [previous piece][previous target][piece][target].
type contHistory [16][64][16][64]int16

// thread is one search goroutine's private state. Threads persist across
// searches so that history tables carry over within a game.
type thread struct {
	id    int
	tt    *transTable
	st    *searchState
	nodes uint64
	// pubNodes is nodes, published every few thousand nodes for the
	// main thread's node limit and info lines.
	pubNodes atomic.Uint64
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

func (t *thread) clearHistory() {
	t.history = [2][64][64]int{}
	t.capHist = [16][64][7]int{}
	if t.cont != nil {
		*t.cont = contHistory{}
	}
	t.counter = [64][64]game.Move{}
	t.corr = [2][corrSize]int32{}
	t.killers = [maxPly + 2][2]game.Move{}
}

// evaluate adds the level's evaluation noise, a fixed function of the
// position within one search so that transpositions agree.
func (t *thread) evaluate(p *game.Position, ply int) int {
	var v int
	if t.net != nil {
		v = t.nnEval(p, ply)
	} else {
		v = evaluateCached(p, t.pawns)
	}
	if t.noise > 0 {
		h := (p.Hash() ^ t.noiseSeed) * 0x9E3779B97F4A7C15
		v += int(h>>33)%(2*t.noise+1) - t.noise
	}
	return v
}

// nnEntry is one ply's network accumulator and the piece placement it
// was computed for; valid is cleared whenever the search enters a new
// node at that ply.
type nnEntry struct {
	acc    nnue.Accumulator
	pieces nnue.Pieces
	valid  bool
}

// nnStack is a thread's network accumulators: one per ply, and the
// root position's, the fallback ancestor.
type nnStack struct {
	ply  [maxPly + 1]nnEntry
	root nnEntry
}

// nnEval evaluates the position at ply with the network. Nodes are
// entered in depth-first order and each clears its own entry, so every
// valid entry below ply belongs to an ancestor of this node; the
// accumulator is the nearest such ancestor's (or the root's, computed
// when the search starts), updated by the pieces that differ: whatever
// moves, null moves or captures lie between, the cost is the number of
// changed pieces, never a full refresh. Ancestors are often skipped (a
// hash hit supplies their static evaluation), so the walk back matters.
func (t *thread) nnEval(p *game.Position, ply int) int {
	if ply > maxPly {
		return scaleDrawishToMove(p, t.net.EvaluatePosition(p))
	}
	e := &t.nn.ply[ply]
	if !e.valid {
		e.pieces = nnue.PiecesOf(p)
		src := &t.nn.root
		for j := ply - 1; j >= 0; j-- {
			if t.nn.ply[j].valid {
				src = &t.nn.ply[j]
				break
			}
		}
		t.net.Update(&e.acc, &src.acc, &src.pieces, &e.pieces)
		e.valid = true
		if nnVerify != nil {
			nnVerify(p, &e.acc)
		}
	}
	return scaleDrawishToMove(p, t.net.Evaluate(&e.acc, p.Side()))
}

// scaleDrawishToMove is scaleDrawish for a score from the side to move's
// view: the network learns little of the endings where material ahead is
// not enough to win, since training games seldom reach them.
func scaleDrawishToMove(p *game.Position, v int) int {
	if p.Side() == game.Black {
		return -scaleDrawish(p, -v)
	}
	return scaleDrawish(p, v)
}

// nnVerify, when set (by tests), sees every accumulator nnEval computes.
var nnVerify func(p *game.Position, acc *nnue.Accumulator)

// nnEnter marks the accumulator of a node entered at ply as not yet
// computed.
func (t *thread) nnEnter(ply int) {
	if t.net != nil && ply <= maxPly {
		t.nn.ply[ply].valid = false
	}
}

func scoreToTT(s, ply int) int {
	switch {
	case s >= mateBound:
		return s + ply
	case s <= -mateBound:
		return s - ply
	}
	return s
}

func scoreFromTT(s, ply int) int {
	switch {
	case s >= mateBound:
		return s - ply
	case s <= -mateBound:
		return s + ply
	}
	return s
}

// toScore converts an internal score to the API's Score.
func toScore(s int) Score {
	switch {
	case s >= mateBound:
		return Score{CP: s, Mate: (mateValue - s + 1) / 2}
	case s <= -mateBound:
		return Score{CP: s, Mate: -(mateValue + s) / 2}
	}
	return Score{CP: s}
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

func hasNonPawnMaterial(p *game.Position, c game.Color) bool {
	return p.ByColor(c)&^(p.ByType(game.Pawn)|p.ByType(game.King)) != 0
}

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

// contEntry returns the counter-move history slot for m at ply, or nil
// at the root and after a null move.
func (t *thread) contEntry(p *game.Position, m game.Move, ply int) *int16 {
	if ply == 0 {
		return nil
	}
	prev := t.stack[ply-1]
	if prev.move == game.NoMove || prev.move == game.NullMove {
		return nil
	}
	to := prev.move.To()
	if prev.move.IsCastling() {
		to = p.KingSquare(p.Side().Other())
	}
	return &t.cont[prev.piece][to][p.PieceAt(m.From())][m.To()]
}

// capEntry returns the capture history slot for the capture m.
func (t *thread) capEntry(p *game.Position, m game.Move) *int {
	return &t.capHist[p.PieceAt(m.From())][m.To()][p.CapturedPiece(m).Type()]
}

// updateCapHist moves a capture history entry towards bonus's sign, with
// the same gravity as the quiet history.
func (t *thread) updateCapHist(p *game.Position, m game.Move, bonus int) {
	h := t.capEntry(p, m)
	*h += bonus - *h*abs(bonus)/16384
}

// quietScore orders quiet moves by butterfly plus counter-move history.
func (t *thread) quietScore(p *game.Position, m game.Move, ply int) int {
	s := t.history[p.Side()][m.From()][m.To()]
	if c := t.contEntry(p, m, ply); c != nil {
		s += int(*c)
	}
	return s
}

func (t *thread) updateHistory(p *game.Position, m game.Move, ply, bonus int) {
	h := &t.history[p.Side()][m.From()][m.To()]
	abs := bonus
	if abs < 0 {
		abs = -abs
	}
	*h += bonus - *h*abs/16384
	if c := t.contEntry(p, m, ply); c != nil {
		v := int(*c)
		v += bonus - v*abs/16384
		*c = int16(v)
	}
}

// Static-evaluation correction: the evaluation errs the same way across
// positions with the same pawn structure (a blocked centre, a weak king
// cover it does not model), so a table keyed by the pawns learns the
// average error the searches found and adds it to later static
// evaluations. Stored in 1/corrGrain centipawns, capped at corrMax cp.
const (
	corrSize  = 1 << 14
	corrGrain = 256
	corrMax   = 64
)

// pawnIndex maps the pawn structure to a slot of the correction table and
// of the pawn cache. The position
// keeps no pawn-only hash, and mixing the two pawn bitboards is cheaper
// than maintaining one through every move.
func pawnIndex(p *game.Position) int {
	h := uint64(p.Pieces(game.White, game.Pawn))*0x9E3779B97F4A7C15 ^
		uint64(p.Pieces(game.Black, game.Pawn))*0xBF58476D1CE4E5B9
	return int((h ^ h>>31) >> 50)
}

// correct adds the learned correction to a raw static evaluation.
func (t *thread) correct(p *game.Position, raw int) int {
	v := raw + int(t.corr[p.Side()][pawnIndex(p)])/corrGrain
	return max(-mateBound+1, min(v, mateBound-1))
}

// updateCorrection moves the entry towards diff, the search result minus
// the corrected evaluation, faster for deeper searches.
func (t *thread) updateCorrection(p *game.Position, diff, depth int) {
	e := &t.corr[p.Side()][pawnIndex(p)]
	w := int32(min(depth+1, 16))
	target := int32(max(-corrMax, min(diff, corrMax))) * corrGrain
	v := (*e*(256-w) + (*e+target)*w) / 256
	*e = max(-corrMax*corrGrain, min(v, corrMax*corrGrain))
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
	if ply == 0 && t.rootBestMove != game.NoMove {
		ttMove = t.rootBestMove
	}
	// A position that is or was on a principal variation: its score
	// matters more than a side line's, so its late moves are reduced less.
	ttPv := pvNode || hit && tte.pv

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
				if s >= mateBound {
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
	bestScore := -infinity
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
				// high here) are searched unreduced. Reducing them by their
				// history instead, with a ply of relief, measured level in
				// self-play (-1 ± 23, README).
				r = 0
			}
			r = max(0, min(r, newDepth-1))
			reduced := newDepth - r
			s = -t.negamax(p, -alpha-1, -alpha, reduced, ply+1, true)
			if s > alpha && r > 0 {
				newDepth = researchDepth(s, bestScore, newDepth)
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
		bestScore > -mateBound && bestScore < mateBound &&
		!(bound == boundLower && bestScore <= corrEval) && !(bound == boundUpper && bestScore >= corrEval) {
		t.updateCorrection(p, bestScore-corrEval, depth)
	}
	// A root searched over some of its moves has not found the
	// position's value; keep it out of the table.
	if ply > 0 || !t.rootRestricted() {
		t.tt.store(key, bestMove, scoreToTT(bestScore, ply), staticEval, depth, bound, ttPv)
	}
	return bestScore
}

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
	for i := 0; i < ml.N; i++ {
		m := pickMove(ml, scores, i)
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
	if checks && !inCheck && bestScore < beta {
		var quiets game.MoveList
		p.GenerateQuiets(&quiets)
		cs := newCheckSquares(p)
		for _, m := range quiets.Moves[:quiets.N] {
			if m.IsPromotion() || !cs.mayCheck(p, m) || !p.GivesCheck(m) || !seeGE(p, m, 0) {
				continue
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

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
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
	// Without movestogo, plan as if 20 moves remained and let the soft
	// limit run a little past the average: at 10s+0.1 the older budget
	// (25 moves, 0.8x) finished games with a fifth of the clock unused
	// while Stockfish spent twice as much on its first 20 moves. Self-play
	// at 5s+0.05 (100 games): +7 ± 48, i.e. no loss.
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
