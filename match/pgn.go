package match

import (
	"io"
	"strconv"

	"knightwatch/game"
)

// writeGamePGN writes one game in PGN export form with the rules library's
// writer, putting the engines' score, depth and time in a comment after each
// of their moves (the form cutechess-cli uses, so existing tools read it)
// and the reason for a forfeit after the last move.
func writeGamePGN(w io.Writer, cfg *Config, r *GameResult) error {
	g := r.Game
	pg := game.NewPGNGame(g.StartPosition())
	pg.Tags = []game.PGNTag{
		{Name: "Event", Value: cfg.Event},
		{Name: "Site", Value: "?"},
		{Name: "Date", Value: r.Date.Format("2006.01.02")},
		{Name: "Round", Value: strconv.Itoa(r.Number)},
		{Name: "White", Value: r.Names[game.White]},
		{Name: "Black", Value: r.Names[game.Black]},
		{Name: "Result", Value: string(r.Outcome.Result)},
	}
	if cfg.TC.MoveTime == 0 {
		pg.Tags = append(pg.Tags, game.PGNTag{Name: "TimeControl", Value: cfg.TC.String()})
	}
	pg.Tags = append(pg.Tags,
		game.PGNTag{Name: "Opening", Value: r.Opening},
		game.PGNTag{Name: "Termination", Value: pgnTermination(r.Outcome.Termination)},
		game.PGNTag{Name: "PlyCount", Value: strconv.Itoa(g.Len())},
	)
	pg.Result = r.Outcome.Result
	node := &pg.Root
	for i, m := range g.Moves() {
		node = node.AddVariation(m)
		if i < len(r.Comments) {
			node.Comment = r.Comments[i]
		}
	}
	if r.Reason != "" && r.Reason != r.Outcome.Termination.String() {
		if node.Comment != "" {
			node.Comment += " "
		}
		node.Comment += r.Reason
	}
	return pg.Write(w)
}

// pgnTermination maps a termination to the PGN Termination tag's words.
func pgnTermination(t game.Termination) string {
	switch t {
	case game.TimeForfeit:
		return "time forfeit"
	case game.Adjudication:
		return "rules infraction"
	}
	return "normal"
}
