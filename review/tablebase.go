package review

import (
	"errors"
	"fmt"

	"knightwatch/store"
	"knightwatch/syzygy"
)

// maxTablebasePlies bounds the positions TablebaseVerdicts probes. A
// finished game rarely has more than a few dozen in the tables (every
// ending there is over within 75 moves of the last capture or pawn move),
// so the bound only caps what one request can cost.
const maxTablebasePlies = 1000

// Verdict is the Syzygy tables' verdict on one position of a finished
// game: the position after Ply half-moves (0 is the start position), its
// win/draw/loss value and its distance to zeroing in plies, both from the
// side to move's point of view and as syzygy.Tablebase's ProbeWDL and
// ProbeDTZ return them (WDL -2 loss, -1 loss drawn by the fifty-move
// rule, 0 draw, 1 win drawn by the fifty-move rule, 2 win; DTZ signed like
// WDL).
type Verdict struct {
	Ply, WDL, DTZ int
}

// TablebaseVerdicts probes each position of the game rec that tb covers
// (at most its piece count, no castling rights), at most
// maxTablebasePlies of them, in ply order. A position the tables cannot
// answer (a missing table, closed or broken tables) is left out: the list
// says only what the tables know. odd is the first failure other than a
// missing or closed table (a corrupt file), worth a line in the log; err
// is a record that cannot be replayed.
func TablebaseVerdicts(tb *syzygy.Tablebase, rec *store.Game) (verdicts []Verdict, odd, err error) {
	g, err := rec.Replay()
	if err != nil {
		return nil, nil, err
	}
	verdicts = []Verdict{}
	probed := 0
	for ply := 0; ply <= g.Len() && probed < maxTablebasePlies; ply++ {
		p := g.PositionAt(ply)
		if p.HasCastlingRights() || p.Occupied().Count() > tb.MaxPieces() {
			continue
		}
		probed++
		wdl, err := tb.ProbeWDL(p)
		var dtz int
		if err == nil {
			dtz, err = tb.ProbeDTZ(p)
		}
		if err != nil {
			// A missing table is the tables' limit; anything else is the
			// caller's to log.
			if !errors.Is(err, syzygy.ErrMissingTable) && !errors.Is(err, syzygy.ErrClosed) && odd == nil {
				odd = fmt.Errorf("ply %d: tablebase: %w", ply, err)
			}
			continue
		}
		verdicts = append(verdicts, Verdict{Ply: ply, WDL: int(wdl), DTZ: dtz})
	}
	return verdicts, odd, nil
}
