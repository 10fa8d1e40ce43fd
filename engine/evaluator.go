package engine

import (
	"knightwatch/engine/nnue"
	"knightwatch/game"
)

// Evaluator scores positions one at a time, cheaply, for callers that score
// many unrelated positions, such as a Reconnaissance Chess bot weighing a
// move over thousands of boards it cannot tell apart. It offers the static
// evaluation and a quiescence search (captures and check evasions until
// the position is quiet), both in centipawns from the side to move's view,
// with the same evaluation as the engine's search. An Evaluator has its own
// small hash table and is used by one goroutine at a time; make one per
// goroutine.
type Evaluator struct {
	t *thread
}

// NewEvaluator returns an Evaluator with opts' evaluation (the built-in
// network unless opts says otherwise) and a hash table of opts.HashMB
// (0 means 1 MB). Other options do not apply.
func NewEvaluator(opts Options) *Evaluator {
	if opts.HashMB <= 0 {
		opts.HashMB = 1
	}
	t := &thread{}
	t.allocate()
	t.tt = newTransTable(opts.HashMB)
	t.st = &searchState{}
	t.net = opts.evalNet()
	return &Evaluator{t: t}
}

// prepare makes p the root of a new evaluation.
func (ev *Evaluator) prepare(p *game.Position) {
	t := ev.t
	t.keys = append(t.keys[:0], p.Hash())
	t.rootKeyIdx = 0
	if t.net != nil {
		t.nn.root.pieces = nnue.PiecesOf(p)
		t.net.Refresh(&t.nn.root.acc, &t.nn.root.pieces)
	}
}

// Static returns the static evaluation of p.
func (ev *Evaluator) Static(p *game.Position) int {
	ev.prepare(p)
	ev.t.nnEnter(0)
	return ev.t.evaluate(p, 0)
}

// Quiesce returns the quiescence-search score of p: the static evaluation
// once the captures (or, in check, the evasions) have been played out. A
// side in check without a legal move scores as mated.
func (ev *Evaluator) Quiesce(p *game.Position) int {
	ev.prepare(p)
	q := *p
	return ev.t.qsearch(&q, -infinity, infinity, 0, false)
}

// Nodes returns the number of positions the Evaluator has visited.
func (ev *Evaluator) Nodes() uint64 { return ev.t.nodes }

// MateScore is the magnitude of a mate score; scores beyond MateScore-200
// are mates.
const MateScore = mateValue
