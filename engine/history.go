// History tables, which learn from earlier cutoffs: butterfly,
// counter-move (continuation) and capture history, killers and counter
// moves, and the static-evaluation correction history.

package engine

import "knightwatch/game"

// contHistory scores a quiet move by the move played just before it
// (counter-move history): [previous piece][previous target][piece][target].
type contHistory [16][64][16][64]int16

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
// of the pawn cache. The position keeps no pawn-only hash, and mixing the
// two pawn bitboards is cheaper than maintaining one through every move.
func pawnIndex(p *game.Position) int {
	h := uint64(p.Pieces(game.White, game.Pawn))*0x9E3779B97F4A7C15 ^
		uint64(p.Pieces(game.Black, game.Pawn))*0xBF58476D1CE4E5B9
	return int((h ^ h>>31) >> 50)
}

// correct adds the learned correction to a raw static evaluation.
func (t *thread) correct(p *game.Position, raw int) int {
	v := raw + int(t.corr[p.Side()][pawnIndex(p)])/corrGrain
	return max(-tbBound+1, min(v, tbBound-1))
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
