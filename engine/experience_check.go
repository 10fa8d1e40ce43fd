package engine

import (
	"context"
	"slices"

	"knightwatch/game"
)

// explainExperience finds out what the experience's adjustments changed
// about the move played, whose score without them is raw, by searches
// without them to the depth the search completed, within what is left of
// its time. A move is "a choice" when it scores within the level's margin
// of raw (explainTolCP at full strength, where two moves that close are
// as good as equal to the search): without the experience the engine
// could have played it.
//
//   - a move with a bias of -experienceMinCP or less is avoided when it was
//     a choice;
//   - the played move, with a bias of experienceMinCP or more, is preferred
//     when another move was a choice.
//
// It returns nil when nothing was changed, or when the time ran out before
// anything could be shown.
func (e *Engine) explainExperience(ctx context.Context, st *searchState, pos *game.Position, main *thread, played game.Move, raw int) *ExperienceUse {
	if raw >= tbBound || raw <= -tbBound {
		return nil
	}
	var avoid []moveBias
	for _, b := range st.bias {
		if b.move != played && b.cp <= -experienceMinCP {
			avoid = append(avoid, b)
		}
	}
	slices.SortStableFunc(avoid, func(a, b moveBias) int { return a.cp - b.cp })
	avoid = avoid[:min(len(avoid), explainMax)]
	pb := biasOf(st.bias, played)
	if len(avoid) == 0 && pb < experienceMinCP {
		return nil
	}

	depth := main.completedDepth
	bestMove, bestScore, pv := main.rootBestMove, main.rootBestScore, slices.Clone(main.rootPV)
	excluded := slices.Clone(main.rootExcluded)
	side, restore := main.sideSearch(ctx, depth, e.remainingBudget(st))
	defer func() {
		restore()
		main.rootBestMove, main.rootBestScore, main.rootPV = bestMove, bestScore, pv
		main.rootExcluded = excluded
	}()

	use := &ExperienceUse{}
	x := raw - max(e.levelMargin(pos), explainTolCP) // the lowest score of a choice
	for _, b := range avoid {
		s := main.rootMoveScore(pos, b.move, x-1, x, depth)
		if side.stop.Load() {
			break
		}
		if s >= x {
			use.Avoided = append(use.Avoided, b.rec)
		}
	}
	others := main.rootMoves == nil || len(main.rootMoves) > 1 // searchmoves may leave none
	if pb >= experienceMinCP && others && !side.stop.Load() {
		// Every other root move at once: is any a choice?
		main.rootExcluded = append(main.rootExcluded[:0], played)
		p := *pos
		s := main.negamax(&p, x-1, x, depth, 0, false)
		if !side.stop.Load() && s >= x {
			i := slices.IndexFunc(st.bias, func(b moveBias) bool { return b.move == played })
			rec := st.bias[i].rec
			use.Preferred = &rec
		}
	}
	if len(use.Avoided) == 0 && use.Preferred == nil {
		return nil
	}
	return use
}
