// Syzygy tablebases in the search: the engine's tables and probe limit,
// WDL probes at interior nodes (probeTB) and the DTZ ranking of the root
// moves (tbRootMoves).

package engine

import (
	"knightwatch/game"
	"knightwatch/syzygy"
)

// Tablebase scores lie in a band just below the mate scores: a win known
// from the tables at ply is tbValue-ply, a loss -(tbValue-ply). Every
// score of at least tbBound (at most -tbBound) is such a win (loss) or a
// mate; static evaluations are clamped below tbBound.
const (
	tbValue = mateBound - 1
	tbBound = tbValue - maxPly
	// tbProbeDepth is the smallest depth at which a position with as many
	// pieces as the probe limit is probed (Stockfish's SyzygyProbeDepth);
	// positions with fewer pieces are probed at any depth.
	tbProbeDepth = 1
	// tbUCIWin is the centipawn score reported for a tablebase win at
	// distance 0 from the root (Stockfish reports TB wins as about
	// 200 pawns, less one per ply).
	tbUCIWin = 20000
)

// MaxSyzygyProbeLimit is the largest SyzygyProbeLimit: Syzygy tables
// hold at most 7 pieces.
const MaxSyzygyProbeLimit = syzygy.MaxTablePieces

// SetTablebase gives the engine Syzygy tables to probe (nil: none), from
// the next search (Options.Tablebase). The engine does not close them;
// several engines may share one Tablebase.
func (e *Engine) SetTablebase(tb *syzygy.Tablebase) {
	if e.opts.Tablebase != tb {
		e.tt.clear() // scores from other tables (or none) do not mix
	}
	e.opts.Tablebase = tb
}

// SetSyzygyProbeLimit caps the number of pieces (kings included) of the
// positions probed, as UCI SyzygyProbeLimit does: 1..7, 0 turns probing
// off (values out of range are clamped).
func (e *Engine) SetSyzygyProbeLimit(n int) {
	n = min(max(n, 0), MaxSyzygyProbeLimit)
	if n == 0 {
		n = -1
	}
	e.opts.SyzygyProbeLimit = n
}

// syzygyProbeLimit is the effective probe limit, 0..7.
func (o *Options) syzygyProbeLimit() int {
	switch {
	case o.SyzygyProbeLimit < 0:
		return 0
	case o.SyzygyProbeLimit == 0:
		return MaxSyzygyProbeLimit
	}
	return min(o.SyzygyProbeLimit, MaxSyzygyProbeLimit)
}

// tbCardinality is the largest number of pieces probed: the smaller of
// the tables' largest and the probe limit, 0 without tables.
func (e *Engine) tbCardinality() int {
	if e.opts.Tablebase == nil {
		return 0
	}
	return min(e.opts.Tablebase.MaxPieces(), e.opts.syzygyProbeLimit())
}

// probeTB probes the WDL tables at an interior node when the position
// qualifies: at most the probe limit's pieces (exactly as many only from
// tbProbeDepth on), no castling rights, and a halfmove clock of 0, so
// that the value holds under the fifty-move rule as the tables assume. It
// returns the node's score and its bound (boundLower for a win,
// boundUpper for a loss, boundExact for a draw; cursed wins and blessed
// losses are draws scored ±2) and ok=false when no probe was made or it
// failed.
func (t *thread) probeTB(p *game.Position, depth, ply int) (score, bound int, ok bool) {
	card := t.st.tbCard
	if card == 0 || p.HalfmoveClock() != 0 || p.HasCastlingRights() {
		return 0, 0, false
	}
	n := p.Occupied().Count()
	if n > card || n == card && depth < tbProbeDepth {
		return 0, 0, false
	}
	wdl, err := t.st.tb.ProbeWDL(p)
	if err != nil {
		return 0, 0, false
	}
	t.tbHits.Add(1)
	switch {
	case wdl == syzygy.Win:
		return tbValue - ply, boundLower, true
	case wdl == syzygy.Loss:
		return -tbValue + ply, boundUpper, true
	}
	return 2 * int(wdl), boundExact, true
}

// maxDTZ ranks the root moves: it is above any DTZ value.
const maxDTZ = 1 << 18

// tbRootMoves ranks the root moves of pos by the tables' DTZ values, as
// Stockfish's root_probe does: for each move the distance to the next
// zeroing move counted from the root (a zeroing move's own value comes
// from the WDL of the position it reaches; a checkmate counts 1). It
// returns the moves to search: the winning moves that zero soonest, or,
// when no move wins, the drawing moves, or, when every move loses, those
// that hold out longest. It also returns the root's value for the side
// to move (a syzygy.WDL) and the number of probes made; ok is false when
// the root is not in the tables or a probe failed (then the search is
// left alone).
func tbRootMoves(tb *syzygy.Tablebase, card int, pos *game.Position, moves []game.Move) (kept []game.Move, wdl syzygy.WDL, probes int, ok bool) {
	if tb == nil || card == 0 || pos.HasCastlingRights() || pos.Occupied().Count() > card {
		return nil, 0, 0, false
	}
	ranks := make([]int, len(moves))
	best := -maxDTZ - 1
	for i, m := range moves {
		child := *pos
		child.MakeMove(m)
		var ml game.MoveList
		child.GenerateLegal(&ml)
		var dtz int
		switch {
		case ml.N == 0 && child.InCheck():
			dtz = 1 // checkmate: the fastest win there is
		case ml.N == 0:
			dtz = 0 // stalemate
		case child.HalfmoveClock() == 0:
			w, err := tb.ProbeWDL(&child)
			probes++
			if err != nil {
				return nil, 0, probes, false
			}
			dtz = dtzBeforeZeroing(-w)
		default:
			d, err := tb.ProbeDTZ(&child)
			probes++
			if err != nil {
				return nil, 0, probes, false
			}
			dtz = -d
			if dtz > 0 {
				dtz++
			} else if dtz < 0 {
				dtz--
			}
		}
		// A win ranks higher the sooner it zeroes, a loss the later;
		// draws rank 0 (cursed wins, dtz above 100, still rank above).
		switch {
		case dtz > 0:
			ranks[i] = maxDTZ - dtz
		case dtz < 0:
			ranks[i] = -maxDTZ - dtz
		}
		best = max(best, ranks[i])
	}
	for i, m := range moves {
		if ranks[i] == best {
			kept = append(kept, m)
		}
	}
	switch {
	case best > maxDTZ-100:
		wdl = syzygy.Win
	case best > 0:
		wdl = syzygy.CursedWin
	case best == 0:
		wdl = syzygy.Draw
	case best < -maxDTZ+100:
		wdl = syzygy.Loss
	default:
		wdl = syzygy.BlessedLoss
	}
	return kept, wdl, probes, true
}

// dtzBeforeZeroing is the DTZ value, counted from the position before a
// zeroing move, of a move that reaches a position whose WDL value, from
// the mover's point of view, is w.
func dtzBeforeZeroing(w syzygy.WDL) int {
	switch w {
	case syzygy.Win:
		return 1
	case syzygy.CursedWin:
		return 101
	case syzygy.BlessedLoss:
		return -101
	case syzygy.Loss:
		return -1
	}
	return 0
}

// tbRootScore is the score reported for a root whose tables value is wdl
// when the search has found no mate: a win or loss in the tablebase band,
// a cursed win or blessed loss as ±2.
func tbRootScore(wdl syzygy.WDL) int {
	switch wdl {
	case syzygy.Win:
		return tbValue - 1
	case syzygy.Loss:
		return -tbValue + 1
	}
	return 2 * int(wdl)
}
