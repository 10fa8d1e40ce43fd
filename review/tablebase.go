package review

import (
	"errors"
	"fmt"

	"knightwatch/game"
	"knightwatch/gaviota"
	"knightwatch/store"
	"knightwatch/syzygy"
)

// maxTablebasePlies bounds the positions TablebaseVerdicts probes. A
// finished game rarely has more than a few dozen in the tables (every
// ending there is over within 75 moves of the last capture or pawn move),
// so the bound only caps what one request can cost.
const maxTablebasePlies = 1000

// Tables are the endgame tables a verdict is asked of; either may be nil.
type Tables struct {
	Syzygy  *syzygy.Tablebase
	Gaviota *gaviota.Tablebase
}

// Verdict is the tables' verdict on one position: the position after Ply
// half-moves of a game (0 is the start position; PositionVerdict leaves
// it 0), all values from the side to move's point of view.
//
// With Syzygy set, WDL and DTZ are syzygy.Tablebase's ProbeWDL and
// ProbeDTZ (WDL -2 loss, -1 loss drawn by the fifty-move rule, 0 draw, 1
// win drawn by the fifty-move rule, 2 win; DTZ in plies, signed like
// WDL). With Gaviota set, DTM is gaviota.Tablebase's ProbeDTM (plies to
// mate, positive when the side to move mates, negative when it is mated,
// 0 for a draw or a side already mated) and Mate says it in words
// (gaviota.MateWords: "White mates in 15", "Black is checkmated", "draw").
type Verdict struct {
	Ply      int
	Syzygy   bool
	WDL, DTZ int
	Gaviota  bool
	DTM      int
	Mate     string
}

// PositionVerdict is what the tables t say of p: ok is false when neither
// holds it (castling rights, too many pieces, a missing table, closed
// tables: the tables' limits). odd is a failure other than those (a
// corrupt file), worth a line in the log; the verdict then says what the
// other tables knew. The analysis board and the reviews of finished games
// both ask it.
func PositionVerdict(t Tables, p *game.Position) (v Verdict, ok bool, odd error) {
	if tb := t.Syzygy; tb != nil && !p.HasCastlingRights() && p.Occupied().Count() <= tb.MaxPieces() {
		wdl, err := tb.ProbeWDL(p)
		var dtz int
		if err == nil {
			dtz, err = tb.ProbeDTZ(p)
		}
		switch {
		case err == nil:
			v.Syzygy, v.WDL, v.DTZ = true, int(wdl), dtz
		case !errors.Is(err, syzygy.ErrMissingTable) && !errors.Is(err, syzygy.ErrClosed):
			odd = fmt.Errorf("syzygy: %w", err)
		}
	}
	if tb := t.Gaviota; tb != nil && !p.HasCastlingRights() && p.Occupied().Count() <= tb.MaxPieces() {
		wdl, dtm, err := tb.Probe(p)
		switch {
		case err == nil:
			v.Gaviota, v.DTM, v.Mate = true, dtm, gaviota.MateWords(p.Side(), wdl, dtm)
		case !errors.Is(err, gaviota.ErrNotCovered) && !errors.Is(err, gaviota.ErrClosed) && odd == nil:
			odd = err
		}
	}
	return v, v.Syzygy || v.Gaviota, odd
}

// TablebaseVerdicts asks PositionVerdict of each position of the game rec
// that the tables might hold (at most their piece count, no castling
// rights), at most maxTablebasePlies of them, in ply order. A position
// neither table answers is left out: the list says only what the tables
// know. odd is the first failure other than the tables' limits (a corrupt
// file), worth a line in the log; err is a record that cannot be
// replayed.
func TablebaseVerdicts(t Tables, rec *store.Game) (verdicts []Verdict, odd, err error) {
	g, err := rec.Replay()
	if err != nil {
		return nil, nil, err
	}
	maxPieces := 0
	if t.Syzygy != nil {
		maxPieces = t.Syzygy.MaxPieces()
	}
	if t.Gaviota != nil {
		maxPieces = max(maxPieces, t.Gaviota.MaxPieces())
	}
	verdicts = []Verdict{}
	probed := 0
	for ply := 0; ply <= g.Len() && probed < maxTablebasePlies; ply++ {
		p := g.PositionAt(ply)
		if p.HasCastlingRights() || p.Occupied().Count() > maxPieces {
			continue
		}
		probed++
		v, ok, oddHere := PositionVerdict(t, p)
		if oddHere != nil && odd == nil {
			odd = fmt.Errorf("ply %d: tablebase: %w", ply, oddHere)
		}
		if ok {
			v.Ply = ply
			verdicts = append(verdicts, v)
		}
	}
	return verdicts, odd, nil
}
