package tune

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"knightwatch/game"
)

// TrainingFromPGN turns one finished game into training positions: each
// position from ply skip on where the side to move is not in check and
// plays a quiet move (no capture or promotion), labelled with the game's
// result from White's view. Games between engines at real time controls
// are better labelled than the fast node-limited games of
// GenerateTrainingData, and the repository keeps thousands of them.
//
// With lambda below 1 the label blends the result with the mover's search
// score from the move's comment, as match writes it ("+0.35/14 0.120s"):
// lambda·result + (1-lambda)·Sigmoid(score, scale). A position whose move
// carries no score keeps the plain result. Positions whose score is a mate
// are left out: the game was decided there, and the static evaluation
// cannot say by how much. Every position whose move carries a score keeps
// it (White's view) for the network trainer.
//
// A game without a result (or whose moves are illegal) gives no positions.
func TrainingFromPGN(pg *game.PGNGame, skip int, lambda, scale float64) ([]TrainingPosition, error) {
	// Mainline checks every move and works out the result (from the board,
	// or from the result marker and tags).
	g, err := pg.Mainline()
	if err != nil {
		return nil, err
	}
	var label float64
	switch g.Outcome().Result {
	case game.WhiteWins:
		label = 1
	case game.BlackWins:
		label = 0
	case game.Draw:
		label = 0.5
	default:
		return nil, nil
	}
	p := pg.StartPosition()
	var out []TrainingPosition
	ply := 0
	for n := &pg.Root; len(n.Variations) > 0; n, ply = n.Variations[0], ply+1 {
		child := n.Variations[0]
		m := child.Move
		if m == game.NullMove {
			return nil, fmt.Errorf("move %d is a null move", ply+1)
		}
		quiet := ply >= skip && !p.InCheck() && !p.IsCapture(m) && !m.IsPromotion()
		score, mate, scored := commentScore(child.Comment)
		if p.Side() == game.Black {
			score = -score
		}
		switch {
		case !quiet || scored && mate:
		case scored && lambda < 1:
			out = append(out, TrainingPosition{FEN: p.FEN(), Result: lambda*label + (1-lambda)*Sigmoid(float64(score), scale), Score: score, Scored: true})
		case scored:
			out = append(out, TrainingPosition{FEN: p.FEN(), Result: label, Score: score, Scored: true})
		default:
			out = append(out, TrainingPosition{FEN: p.FEN(), Result: label})
		}
		p.MakeMove(m)
	}
	return out, nil
}

// commentScore reads the score at the start of a match comment: "+0.35/14
// ..." gives 35 centipawns, "-M3/20 ..." a mate. ok is false when the
// comment does not start with a score.
func commentScore(c string) (cp int, mate, ok bool) {
	c = strings.TrimSpace(c)
	if i := strings.IndexAny(c, "/ "); i >= 0 {
		c = c[:i]
	}
	if len(c) < 2 || (c[0] != '+' && c[0] != '-') {
		return 0, false, false
	}
	if c[1] == 'M' {
		_, err := strconv.Atoi(c[2:])
		return 0, true, err == nil
	}
	f, err := strconv.ParseFloat(c, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false, false
	}
	return int(math.Round(f * 100)), false, true
}
