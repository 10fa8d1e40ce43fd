// Gaviota tablebases at the root: the moves that keep the shortest mate
// (or put off being mated longest, or keep a draw) by the tables'
// distance to mate.

package engine

import (
	"knightwatch/game"
	"knightwatch/gaviota"
)

// SetGaviota gives the engine Gaviota tables (nil: none), from the next
// search (Options.Gaviota). The engine does not close them; several
// engines may share one Tablebase.
func (e *Engine) SetGaviota(tb *gaviota.Tablebase) { e.opts.Gaviota = tb }

// dtmRank orders the root moves by what the tables say of the position
// each reaches, for the side that moves: higher is better. A win in w
// plies ranks mateRankBase-w (the shorter the better), a draw 0, a loss in
// l plies -(mateRankBase-l) (the longer the better).
const mateRankBase = 1 << 12

// gaviotaRootMoves keeps the root moves of pos that are best by the
// tables' DTM: for the winning side those with the shortest mate, for the
// losing side those with the longest, in a draw those that keep it. score
// is the root's value as the search scores mates (mateValue less the
// plies to mate, negated for a loss; 0 for a draw). It returns ok=false
// (and the search is left alone) when the tables do not hold the root or
// any position a move reaches.
func gaviotaRootMoves(tb *gaviota.Tablebase, pos *game.Position, moves []game.Move) (kept []game.Move, score int, ok bool) {
	if tb == nil || pos.HasCastlingRights() || pos.Occupied().Count() > tb.MaxPieces() {
		return nil, 0, false
	}
	best := -2 * mateRankBase
	for _, m := range moves {
		child := *pos
		child.MakeMove(m)
		wdl, dtm, err := tb.Probe(&child)
		if err != nil {
			return nil, 0, false
		}
		// The child's values are its side to move's: ours negated, one
		// ply further from the root.
		rank := 0
		switch wdl {
		case gaviota.Loss:
			rank = mateRankBase - (-dtm + 1)
		case gaviota.Win:
			rank = -(mateRankBase - (dtm + 1))
		}
		switch {
		case rank > best:
			best, kept = rank, append(kept[:0], m)
		case rank == best:
			kept = append(kept, m)
		}
	}
	if len(kept) == 0 {
		return nil, 0, false
	}
	switch {
	case best > 0: // a win in mateRankBase-best plies
		score = mateValue - (mateRankBase - best)
	case best < 0: // a loss in mateRankBase+best plies
		score = -(mateValue - (mateRankBase + best))
	}
	return kept, score, true
}
