package experience

import (
	"knightwatch/engine"
	"knightwatch/game"
	"knightwatch/store"
)

// minLearnPlies: a game decided off the board (resignation, time,
// agreement) in fewer plies teaches nothing: its result says nothing
// about its few moves.
const minLearnPlies = 10

// GameLessons is what the finished game g teaches: for every move, by
// either side, the game's result for the side that played it, the plies
// from the move to the end (counting the move) and the engine's weight
// of that lesson (engine.LessonWeight). The person's moves are kept too:
// the engine plays either colour, and a move that beat it is a move worth
// knowing. A game decided off the board in fewer than minLearnPlies plies
// teaches nothing.
func GameLessons(g *store.Game) ([]store.Lesson, error) {
	var white float64
	switch game.Result(g.Result) {
	case game.WhiteWins:
		white = 1
	case game.BlackWins:
		white = 0
	case game.Draw:
		white = 0.5
	default:
		return nil, nil // no result: nothing to learn
	}
	gm, err := g.Replay()
	if err != nil {
		return nil, err
	}
	n := gm.Len()
	switch g.Reason.Termination {
	case game.Resignation, game.TimeForfeit, game.DrawAgreed, game.Adjudication:
		if n < minLearnPlies {
			return nil, nil
		}
	}
	moves := gm.Moves()
	out := make([]store.Lesson, 0, n)
	for i, m := range moves {
		pos := gm.PositionAt(i)
		res := white
		if pos.Side() == game.Black {
			res = 1 - white
		}
		depth := n - i
		out = append(out, store.Lesson{Key: pos.Hash(), Move: pos.UCI(m), Result: res, Depth: depth, Weight: engine.LessonWeight(depth)})
	}
	return out, nil
}

// MoveRecords turns the experience rows of pos into the engine's records,
// leaving out rows whose move is not a move of pos (a key collision or a
// stale row).
func MoveRecords(pos *game.Position, rows []store.Experience) []engine.MoveRecord {
	out := make([]engine.MoveRecord, 0, len(rows))
	for _, r := range rows {
		m, err := pos.ParseUCI(r.Move)
		if err != nil {
			continue
		}
		out = append(out, engine.MoveRecord{
			Move: m, Wins: r.Wins, Draws: r.Draws, Losses: r.Losses, Weight: r.Weight, Points: r.Points,
			AnalysisCP: r.AnalysisCP, AnalysisDepth: r.AnalysisDepth,
		})
	}
	return out
}

// Notes turns what the experience changed about the engine's move at
// ply, played in pos (engine.Result.Experience), into the notes the game
// keeps with the move (store.Game.ExperienceNotes); nil when nothing.
func Notes(ply int, pos *game.Position, use *engine.ExperienceUse) []store.ExperienceNote {
	if use == nil {
		return nil
	}
	note := func(r engine.MoveRecord, avoided bool) store.ExperienceNote {
		return store.ExperienceNote{Ply: ply, Move: pos.UCI(r.Move), Avoided: avoided, Wins: r.Wins, Draws: r.Draws,
			Losses: r.Losses, AnalysisCP: r.AnalysisCP, AnalysisDepth: r.AnalysisDepth}
	}
	var out []store.ExperienceNote
	for _, r := range use.Avoided {
		out = append(out, note(r, true))
	}
	if use.Preferred != nil {
		out = append(out, note(*use.Preferred, false))
	}
	return out
}
