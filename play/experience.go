package play

// The engine's experience in the games (docs/experience.md): the learner
// (package experience, Config.Learner) hears of each game that ends and is
// asked what earlier games say before each of the engine's moves; the
// state says in words what the experience changed.

import (
	"fmt"
	"strings"

	"knightwatch/engine"
	"knightwatch/game"
	"knightwatch/store"
)

// learnFrom tells the learner that game id has just finished; the host
// calls it under its lock (the learner never blocks).
func (gs *Games) learnFrom(id string) {
	if gs.cfg.Learner != nil {
		gs.cfg.Learner.GameEnded(id)
	}
}

// experienceFor returns the engine's records of the moves of pos, or none
// when the experience is off or cannot be read.
func (gs *Games) experienceFor(pos *game.Position) []engine.MoveRecord {
	if gs.cfg.Learner == nil {
		return nil
	}
	return gs.cfg.Learner.MovesFor(pos)
}

// experienceText is the sentence the game page shows for the notes of one
// move played in pos: "Chosen from experience: 3...Nf6 lost 2 of 2
// earlier games here".
func experienceText(pos *game.Position, notes []store.ExperienceNote) string {
	var parts []string
	for _, n := range notes {
		m, err := pos.ParseUCI(n.Move)
		if err != nil {
			continue
		}
		name := moveName(pos, m)
		games := n.Wins + n.Draws + n.Losses
		switch {
		case n.Avoided && n.Losses > 0:
			parts = append(parts, fmt.Sprintf("%s lost %d of %s here", name, n.Losses, earlierGames(games)))
		case n.Avoided && n.AnalysisDepth > 0:
			parts = append(parts, fmt.Sprintf("%s was a mistake in the analysis of an earlier game", name))
		case n.Avoided:
			parts = append(parts, fmt.Sprintf("%s scored badly in %s here", name, earlierGames(games)))
		case n.Wins > 0:
			parts = append(parts, fmt.Sprintf("%s won %d of %s here", name, n.Wins, earlierGames(games)))
		default:
			parts = append(parts, fmt.Sprintf("%s held in %s here", name, earlierGames(games)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Chosen from experience: " + strings.Join(parts, "; ")
}

func earlierGames(n int) string {
	if n == 1 {
		return "1 earlier game"
	}
	return fmt.Sprintf("%d earlier games", n)
}

// moveName writes m, a move of pos, with its move number: "3.Nf3",
// "3...Nf6".
func moveName(pos *game.Position, m game.Move) string {
	dots := "."
	if pos.Side() == game.Black {
		dots = "..."
	}
	return fmt.Sprintf("%d%s%s", pos.FullmoveNumber(), dots, pos.SAN(m))
}
