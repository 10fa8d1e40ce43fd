package main

import (
	"iter"
	"math/rand/v2"

	"knightwatch/game"
)

// The backward half of the search: the boards from which a named position
// is a few moves away, found by taking moves back ("unmoves"). The forward
// search stops as soon as it meets one of them, which makes its horizon
// that many plies longer at little cost. Unmoves are generated loosely (no
// check tests, no en passant, no promotions, castling rights ignored): a
// line is kept only after replaying it from the start with every move
// legal and arriving at the target's exact key.

// board is a piece placement and the side to move, without castling rights
// or en passant square.
type board struct {
	sq   [64]game.Piece
	side game.Color
}

// boardZobrist keys boards; seeded with constants so keys are the same on
// every run.
var boardZobrist = func() (z [16][64]uint64) {
	r := rand.New(rand.NewPCG(1, 2))
	for pc := range z {
		for s := range z[pc] {
			z[pc][s] = r.Uint64()
		}
	}
	return z
}()

// blackToMove is mixed into the key of a board with Black to move.
const blackToMove = 0x9d39247e33776d41

func boardOf(p *game.Position) board {
	b := board{side: p.Side()}
	for s := game.Square(0); s < 64; s++ {
		b.sq[s] = p.PieceAt(s)
	}
	return b
}

func (b *board) key() uint64 {
	var k uint64
	if b.side == game.Black {
		k = blackToMove
	}
	for s, pc := range b.sq {
		if pc != game.NoPiece {
			k ^= boardZobrist[pc][s]
		}
	}
	return k
}

// positionBoardKey is board.key of a position, without building the board.
func positionBoardKey(p *game.Position) uint64 {
	var k uint64
	if p.Side() == game.Black {
		k = blackToMove
	}
	for occ := p.Occupied(); occ != 0; {
		s := occ.PopFirst()
		k ^= boardZobrist[p.PieceAt(s)][s]
	}
	return k
}

func (b *board) occupied() game.Bitboard {
	var occ game.Bitboard
	for s, pc := range b.sq {
		if pc != game.NoPiece {
			occ |= game.Square(s).Bitboard()
		}
	}
	return occ
}

// unmove is a board one move earlier and the move that leads from it.
type unmove struct {
	prev board
	move game.Move
}

// startCount is how many pieces of each type a side starts with.
var startCount = [7]int{game.Pawn: 8, game.Knight: 2, game.Bishop: 2, game.Rook: 2, game.Queen: 1, game.King: 1}

// unmoves lists the boards one move before b: the side not to move in b
// made the move, perhaps capturing a piece of the side to move (one of the
// types that side is missing).
func unmoves(b board) []unmove {
	mover := b.side.Other()
	occ := b.occupied()
	var count [2][7]int
	for _, pc := range b.sq {
		if pc != game.NoPiece {
			count[pc.Color()][pc.Type()]++
		}
	}
	// What the move may have captured.
	captured := []game.Piece{game.NoPiece}
	for pt := game.Pawn; pt <= game.Queen; pt++ {
		if count[b.side][pt] < startCount[pt] {
			captured = append(captured, game.MakePiece(b.side, pt))
		}
	}
	var out []unmove
	add := func(from, to game.Square, capture bool) {
		pc := b.sq[to]
		for _, x := range captured {
			if capture != (x != game.NoPiece) {
				continue
			}
			if x.Type() == game.Pawn && (to.Rank() == 0 || to.Rank() == 7) {
				continue
			}
			prev := b
			prev.side = mover
			prev.sq[from] = pc
			prev.sq[to] = x
			out = append(out, unmove{prev: prev, move: game.NewMove(from, to)})
		}
	}
	for s := game.Square(0); s < 64; s++ {
		pc := b.sq[s]
		if pc == game.NoPiece || pc.Color() != mover {
			continue
		}
		var from game.Bitboard
		switch pc.Type() {
		case game.Pawn:
			back := -8
			if mover == game.Black {
				back = 8
			}
			one := s + game.Square(back)
			if s.RelativeRank(mover) >= 2 && b.sq[one] == game.NoPiece {
				add(one, s, false)
				if s.RelativeRank(mover) == 3 && b.sq[one+game.Square(back)] == game.NoPiece {
					add(one+game.Square(back), s, false)
				}
			}
			if s.RelativeRank(mover) >= 2 {
				for d := game.PawnAttacks(mover.Other(), s) & ^occ; d != 0; {
					add(d.PopFirst(), s, true)
				}
			}
			continue
		case game.Knight:
			from = game.KnightAttacks(s)
		case game.Bishop:
			from = game.BishopAttacks(s, occ)
		case game.Rook:
			from = game.RookAttacks(s, occ)
		case game.Queen:
			from = game.QueenAttacks(s, occ)
		case game.King:
			from = game.KingAttacks(s)
		}
		for f := from & ^occ; f != 0; {
			f0 := f.PopFirst()
			add(f0, s, false)
			add(f0, s, true)
		}
	}
	// Castling, undone: the king and rook back on their home squares.
	home := game.Square(0)
	if mover == game.Black {
		home = 56
	}
	king, rook := game.MakePiece(mover, game.King), game.MakePiece(mover, game.Rook)
	for _, c := range []struct{ kingTo, rookTo, rookFrom game.Square }{
		{home + game.G1, home + game.F1, home + game.H1},
		{home + game.C1, home + game.D1, home + game.A1},
	} {
		if b.sq[c.kingTo] != king || b.sq[c.rookTo] != rook || b.sq[home+game.E1] != game.NoPiece || b.sq[c.rookFrom] != game.NoPiece {
			continue
		}
		if c.rookFrom == home+game.A1 && b.sq[home+game.B1] != game.NoPiece {
			continue
		}
		prev := b
		prev.side = mover
		prev.sq[c.kingTo], prev.sq[c.rookTo] = game.NoPiece, game.NoPiece
		prev.sq[home+game.E1], prev.sq[c.rookFrom] = king, rook
		out = append(out, unmove{prev: prev, move: game.NewCastling(home+game.E1, c.rookFrom)})
	}
	return out
}

// maxBack is the most unmoves backward takes from a target: a way back is
// kept in a tail's fixed array, so that the map holds no pointers and each
// way costs no allocation of its own: the map holds tens of millions of
// ways, and a slice for each would take about three times the memory.
const maxBack = 3

// tail is a way from a board to a target: the target's index and the moves.
type tail struct {
	target int32
	next   int32 // the next way from the same board (backMap.at); -1 for none
	n      uint8
	moves  [maxBack]game.Move
}

// line is the tail's moves.
func (t *tail) line() []game.Move { return t.moves[:t.n] }

// backMap holds, for the key of every board up to a few unmoves before a
// target, the ways from it to targets (a board may lead to several). The
// ways are kept in fixed-size chunks rather than one slice, so that the
// map's growth never copies them all while the old copy is still held.
type backMap struct {
	first  map[uint64]int32 // the board's first way, an index into chunks
	chunks [][]tail
	n      int32 // ways held
}

// chunkBits sets the ways per chunk: 1<<16 of 16 bytes, 1 MB.
const chunkBits = 16

func newBackMap() *backMap { return &backMap{first: map[uint64]int32{}} }

// at is way i.
func (b *backMap) at(i int32) *tail { return &b.chunks[i>>chunkBits][i&(1<<chunkBits-1)] }

// add records a way from board k, after those already recorded for it.
func (b *backMap) add(k uint64, t tail) {
	t.next = -1
	i := b.n
	if i&(1<<chunkBits-1) == 0 {
		b.chunks = append(b.chunks, make([]tail, 1<<chunkBits))
	}
	*b.at(i) = t
	b.n++
	if j, ok := b.first[k]; ok {
		for b.at(j).next >= 0 {
			j = b.at(j).next
		}
		b.at(j).next = i
	} else {
		b.first[k] = i
	}
}

// from lists the ways from board k, in the order they were added.
func (b *backMap) from(k uint64) iter.Seq[*tail] {
	return func(yield func(*tail) bool) {
		j, ok := b.first[k]
		if !ok {
			return
		}
		for ; j >= 0; j = b.at(j).next {
			if !yield(b.at(j)) {
				return
			}
		}
	}
}

// backward maps the key of every board up to depth unmoves before a
// target to the ways from it to that target (each board keeps its shortest
// ways; a board may lead to several targets). Only the targets for which
// want is true count.
func backward(targets []*game.Position, depth int, want func(int) bool) *backMap {
	if depth > maxBack {
		panic("gen: backward deeper than maxBack")
	}
	out := newBackMap()
	type step struct {
		b    board
		tail tail
	}
	for ti, t := range targets {
		if !want(ti) {
			continue
		}
		seen := map[uint64]bool{}
		frontier := []step{{b: boardOf(t), tail: tail{target: int32(ti)}}}
		seen[frontier[0].b.key()] = true
		for d := 1; d <= depth; d++ {
			var next []step
			for _, f := range frontier {
				for _, u := range unmoves(f.b) {
					k := u.prev.key()
					if seen[k] {
						continue
					}
					seen[k] = true
					w := tail{target: int32(ti), n: f.tail.n + 1}
					w.moves[0] = u.move
					copy(w.moves[1:], f.tail.line())
					out.add(k, w)
					next = append(next, step{u.prev, w})
				}
			}
			frontier = next
		}
	}
	return out
}
