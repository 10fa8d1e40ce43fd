package bots

import (
	"strconv"
	"strings"

	"knightwatch/game"
	"knightwatch/recon"
)

// When an observation rules out every board held possible, the true board
// was lost to resampling (or never tracked, which the tests make sure
// cannot happen in exact mode). The recoveries below rebuild a belief from
// the boards just before, edited to fit what was observed: the player's own
// pieces are always known, so only the opponent's are guessed.

// mailbox is a board as 64 squares, for editing.
type mailbox [64]game.Piece

func mailboxOf(p *game.Position) mailbox {
	var mb mailbox
	for s := game.A1; s <= game.H8; s++ {
		mb[s] = p.PieceAt(s)
	}
	return mb
}

// placement writes mb as a FEN's piece placement field.
func (mb *mailbox) placement() string { return game.PlacementFEN((*[64]game.Piece)(mb)) }

// position rebuilds a position from mb with side to move, keeping from
// old the castling rights whose king and rook still stand at home and no
// en passant square.
func (mb *mailbox) position(side game.Color, old *game.Position) (game.Position, bool) {
	var sb strings.Builder
	sb.WriteString(mb.placement())
	if side == game.White {
		sb.WriteString(" w ")
	} else {
		sb.WriteString(" b ")
	}
	rights := ""
	for _, c := range []game.Color{game.White, game.Black} {
		for i, side := range [2]int{game.KingSide, game.QueenSide} {
			rook := old.CastlingRook(c, side)
			home := game.E1
			if c == game.Black {
				home = game.E8
			}
			if rook == game.NoSquare || mb[rook] != game.MakePiece(c, game.Rook) || mb[home] != game.MakePiece(c, game.King) {
				continue
			}
			l := "KQ"[i]
			if c == game.Black {
				l += 'a' - 'A'
			}
			rights += string(l)
		}
	}
	if rights == "" {
		rights = "-"
	}
	sb.WriteString(rights + " - " + strconv.Itoa(old.HalfmoveClock()) + " " + strconv.Itoa(old.FullmoveNumber()))
	p, err := game.ParseBoardFEN(sb.String())
	if err != nil {
		return game.Position{}, false
	}
	return *p, true
}

// addUnique appends p to s unless a board with its key is there, adding
// the weight to the one there.
func addUnique(s *belief, index map[uint64]int, p game.Position, w float64) {
	if i, ok := index[p.Hash()]; ok {
		s.weights[i] += w
		return
	}
	index[p.Hash()] = len(s.boards)
	s.boards = append(s.boards, p)
	s.weights = append(s.weights, w)
}

// restoreKing puts the opponent's king back on the empty square nearest to
// where it was, outside the squares just seen, when an edit removed it.
func restoreKing(mb *mailbox, them game.Color, was game.Square, seen game.Bitboard) {
	king := game.MakePiece(them, game.King)
	for s := range mb {
		if mb[s] == king {
			return
		}
	}
	best, bestDist := game.NoSquare, 99
	for s := game.A1; s <= game.H8; s++ {
		if mb[s] != game.NoPiece || seen.Has(s) {
			continue
		}
		d := max(abs(s.File()-was.File()), abs(s.Rank()-was.Rank()))
		if d < bestDist {
			best, bestDist = s, d
		}
	}
	if best != game.NoSquare {
		mb[best] = king
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// recoverSense keeps the boards that disagree least with the sense and
// writes the sensed squares onto them.
func (k *Knightwatch) recoverSense(before []game.Position, weights []float64, r recon.SenseResult) {
	k.stats.Recoveries++
	least := len(r) + 1
	for i := range before {
		least = min(least, mismatches(&before[i], r))
	}
	var seen game.Bitboard
	for _, sp := range r {
		seen |= sp.Square.Bitboard()
	}
	them := k.color.Other()
	s := &belief{}
	index := map[uint64]int{}
	for i := range before {
		if mismatches(&before[i], r) != least {
			continue
		}
		mb := mailboxOf(&before[i])
		king := before[i].KingSquare(them)
		for _, sp := range r {
			if sp.Piece.Type() == game.King && sp.Piece.Color() == them {
				for s := range mb {
					if mb[s] == sp.Piece {
						mb[s] = game.NoPiece
					}
				}
			}
		}
		for _, sp := range r {
			mb[sp.Square] = sp.Piece
		}
		restoreKing(&mb, them, king, seen)
		if p, ok := mb.position(before[i].Side(), &before[i]); ok {
			addUnique(s, index, p, weights[i])
		}
	}
	k.replaceBelief(s, before, weights)
	k.logf("no board agreed with the sense; rebuilt %d from those off by %d squares", s.size(), least)
}

func mismatches(b *game.Position, r recon.SenseResult) int {
	n := 0
	for _, sp := range r {
		if b.PieceAt(sp.Square) != sp.Piece {
			n++
		}
	}
	return n
}

// recoverMove makes the player's move as it was taken on every board,
// whatever stood in the way.
func (k *Knightwatch) recoverMove(before []game.Position, weights []float64, r recon.MoveResult) {
	k.stats.Recoveries++
	s := &belief{}
	index := map[uint64]int{}
	for i := range before {
		b := &before[i]
		if r.Taken == game.NoMove {
			p := *b
			p.MakeNullMove()
			addUnique(s, index, p, weights[i])
			continue
		}
		mb := mailboxOf(b)
		from, to := r.Taken.From(), r.Taken.To()
		pc := mb[from]
		if r.Capture != game.NoSquare {
			mb[r.Capture] = game.NoPiece
		}
		mb[to], mb[from] = pc, game.NoPiece
		if r.Taken.IsPromotion() {
			mb[to] = game.MakePiece(k.color, r.Taken.Promotion())
		}
		if pc.Type() == game.King && abs(int(to)-int(from)) == 2 {
			rookFrom, rookTo := to+1, to-1
			if to < from {
				rookFrom, rookTo = to-2, to+1
			}
			mb[rookTo], mb[rookFrom] = mb[rookFrom], game.NoPiece
		}
		if p, ok := mb.position(k.color.Other(), b); ok {
			addUnique(s, index, p, weights[i])
		}
	}
	k.replaceBelief(s, before, weights)
	k.logf("no board agreed with the move's result; made it by force on %d", s.size())
}

// recoverExpansion explains a capture no board allows: on each board the
// opponent piece nearest to the square (not its king) is put there, taking
// the player's piece.
func (k *Knightwatch) recoverExpansion(before []game.Position, weights []float64, capture game.Square) {
	k.stats.Recoveries++
	them := k.color.Other()
	s := &belief{}
	index := map[uint64]int{}
	for i := range before {
		b := &before[i]
		mb := mailboxOf(b)
		best, bestDist := game.NoSquare, 99
		for sq := game.A1; sq <= game.H8; sq++ {
			pc := mb[sq]
			if pc == game.NoPiece || pc.Color() != them || pc.Type() == game.King {
				continue
			}
			if d := max(abs(sq.File()-capture.File()), abs(sq.Rank()-capture.Rank())); d < bestDist {
				best, bestDist = sq, d
			}
		}
		if best != game.NoSquare {
			mb[capture], mb[best] = mb[best], game.NoPiece
		} else {
			mb[capture] = game.NoPiece
		}
		if p, ok := mb.position(k.color, b); ok {
			addUnique(s, index, p, weights[i])
		}
	}
	k.replaceBelief(s, before, weights)
	k.logf("no board explained a capture on %s; rebuilt %d", capture, s.size())
}

// replaceBelief installs a rebuilt belief, or keeps the old boards when
// nothing could be rebuilt; either way the belief is no longer exact.
func (k *Knightwatch) replaceBelief(s *belief, before []game.Position, weights []float64) {
	if s.size() == 0 {
		s = &belief{boards: before, weights: weights}
	}
	s.exact = false
	s.normalize()
	k.belief = s
}
