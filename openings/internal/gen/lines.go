package main

import (
	"container/heap"
	"log"
	"sort"

	"knightwatch/game"
)

// The package names positions but gives no moves to reach them, and
// Knightwatch's table keeps a line for each (so that a test can replay every
// line from the start and check that it arrives). The lines are found by
// search, in two steps, each run twice (main.go):
//
//  1. findLines: a shortest-path search over the named positions, from the
//     start, where an edge is up to hop plies forward from one named
//     position to another, or to a board that a few unmoves lead back from
//     a named one (back.go). Most names extend a shorter named line by a
//     few moves, so this finds most lines.
//  2. bridgeRest: for those left, an iterative-deepening search from the
//     reached positions nearest to the target, pruned by a lower bound on
//     the plies still needed (bridge.go).
//
// Both are deterministic (move generation order, entries in table order),
// so the output is the same on every run.

// hop is the most plies step 1 looks through between two named positions.
const hop = 3

// maxSlack is how many plies beyond its lower bound step 2 allows a line,
// and budget how many positions it visits for one start and slack.
const (
	maxSlack = 2
	budget   = 100000
)

// nearest is how many reached positions step 2 tries for each target, the
// closest by the lower bound first.
const nearest = 40

// node is a named position, or the start, with the line found to it.
type node struct {
	pos   game.Position
	line  []game.Move
	index int // in the heap
}

type queue []*node

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	return len(q[i].line) < len(q[j].line)
}
func (q queue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}
func (q *queue) Push(x any) {
	n := x.(*node)
	n.index = len(*q)
	*q = append(*q, n)
}
func (q *queue) Pop() any {
	old := *q
	n := old[len(old)-1]
	*q = old[:len(old)-1]
	return n
}

// findLines returns, for each target, a line from the start position to
// it, or nil where none was found. The lines already known (non-nil in
// known, which may be nil) are where the search starts besides the start
// position; a shorter line replaces one of them.
func findLines(targets []*game.Position, back *backMap, known [][]game.Move) [][]game.Move {
	index := map[uint64]int{}
	for i, t := range targets {
		index[t.RepetitionKey()] = i
	}
	best := map[uint64]*node{}
	start := game.NewPosition()
	root := &node{pos: *start}
	best[start.RepetitionKey()] = root
	q := &queue{root}
	for i, l := range known {
		if l != nil {
			n := &node{pos: *replay(l), line: l}
			best[targets[i].RepetitionKey()] = n
			heap.Push(q, n)
		}
	}
	done := map[uint64]bool{}
	offer := func(k uint64, pos *game.Position, line []game.Move) {
		if done[k] {
			return
		}
		old, ok := best[k]
		if ok && len(line) >= len(old.line) {
			return
		}
		if ok && old.index >= 0 && old.index < q.Len() && (*q)[old.index] == old {
			old.line = line
			heap.Fix(q, old.index)
			return
		}
		nn := &node{pos: *pos, line: line}
		best[k] = nn
		heap.Push(q, nn)
	}
	for q.Len() > 0 {
		n := heap.Pop(q).(*node)
		k := n.pos.RepetitionKey()
		if done[k] {
			continue
		}
		done[k] = true
		var path []game.Move
		var walk func(p *game.Position, depth int)
		walk = func(p *game.Position, depth int) {
			for _, m := range p.LegalMoves() {
				child := *p
				child.MakeMove(m)
				path = append(path, m)
				ck := child.RepetitionKey()
				if _, ok := index[ck]; ok {
					offer(ck, &child, append(append([]game.Move(nil), n.line...), path...))
				}
				for t := range back.from(positionBoardKey(&child)) {
					tk := targets[t.target].RepetitionKey()
					if done[tk] {
						continue
					}
					if old, ok := best[tk]; ok && len(old.line) <= len(n.line)+len(path)+int(t.n) {
						continue
					}
					line := append(append(append([]game.Move(nil), n.line...), path...), t.line()...)
					if end, ok := replayLegal(line); ok && end.RepetitionKey() == tk {
						offer(tk, end, line)
					}
				}
				if depth > 1 {
					walk(&child, depth-1)
				}
				path = path[:len(path)-1]
			}
		}
		walk(&n.pos, hop)
	}
	out := make([][]game.Move, len(targets))
	for i, t := range targets {
		if n, ok := best[t.RepetitionKey()]; ok {
			out[i] = n.line
		}
	}
	return out
}

// replayLegal plays line from the start, each move checked for legality.
func replayLegal(line []game.Move) (*game.Position, bool) {
	p := game.NewPosition()
	for _, m := range line {
		if !p.IsLegal(m) {
			return nil, false
		}
		p.MakeMove(m)
	}
	return p, true
}

// bridgeRest finds lines for the targets step 1 missed (step 2 above),
// storing each in lines, where later targets can start from it. From each
// target the search tries the reached positions whose line length plus
// lower bound is least, first with no slack (every move brings a piece to
// its square in the target), then with more.
func bridgeRest(targets []*game.Position, lines [][]game.Move, back *backMap, maxSlack, budget int) {
	type start struct {
		pos  game.Position
		line []game.Move
	}
	starts := []start{{pos: *game.NewPosition()}}
	for _, l := range lines {
		if l != nil {
			starts = append(starts, start{pos: *replay(l), line: l})
		}
	}
	left := 0
	for _, l := range lines {
		if l == nil {
			left++
		}
	}
	done := 0
	for ti, p := range targets {
		if lines[ti] != nil {
			continue
		}
		if done++; done%25 == 0 {
			log.Printf("step 2: %d of %d", done, left)
		}
		t := newTarget(p)
		t.index = ti
		t.back = back
		type cand struct{ i, h int }
		var cands []cand
		for i := range starts {
			if h := lowerBound(&starts[i].pos, t); h < impossible {
				cands = append(cands, cand{i, h})
			}
		}
		sort.SliceStable(cands, func(a, b int) bool {
			la, lb := len(starts[cands[a].i].line)+cands[a].h, len(starts[cands[b].i].line)+cands[b].h
			if la != lb {
				return la < lb
			}
			return cands[a].h < cands[b].h
		})
		if len(cands) > nearest {
			cands = cands[:nearest]
		}
		var found []game.Move
		for slack := 0; slack <= maxSlack && found == nil; slack += 2 {
			for _, c := range cands {
				s := &starts[c.i]
				if m := bridge(&s.pos, s.line, t, c.h+slack, budget); m != nil {
					found = m
					break
				}
			}
		}
		if found != nil {
			lines[ti] = found
			starts = append(starts, start{pos: *replay(found), line: found})
		}
	}
}

// replay plays line from the start position.
func replay(line []game.Move) *game.Position {
	p := game.NewPosition()
	for _, m := range line {
		p.MakeMove(m)
	}
	return p
}
