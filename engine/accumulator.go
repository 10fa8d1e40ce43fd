// Static evaluation as the search sees it: the network's accumulator
// stack, updated incrementally along the search path, or the hand-written
// evaluation, plus the level's noise.

package engine

import (
	"knightwatch/engine/nnue"
	"knightwatch/game"
)

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

// nnStart readies the accumulator stack for a search from pos: no ply's
// accumulator is computed yet, and the root's is computed in full.
func (t *thread) nnStart(pos *game.Position) {
	for i := range t.nn.ply {
		t.nn.ply[i].valid = false
	}
	if t.net != nil {
		t.nn.root.pieces = nnue.PiecesOf(pos)
		t.net.Refresh(&t.nn.root.acc, &t.nn.root.pieces)
	}
}

// nnEnter marks the accumulator of a node entered at ply as not yet
// computed.
func (t *thread) nnEnter(ply int) {
	if t.net != nil && ply <= maxPly {
		t.nn.ply[ply].valid = false
	}
}
