package web

import (
	"fmt"
	"io"
	"strconv"

	"knightwatch/game"
	"knightwatch/store"
)

// pgnTags returns the tags for a stored game: the seven-tag roster with
// the level in the engine's name, plus Variant, TimeControl and, when the
// game is over, Termination. game.WritePGN adds SetUp and FEN itself for a
// start other than the usual one.
func (s *Server) pgnTags(rec *store.Game, site string) []game.PGNTag {
	engineName := fmt.Sprintf("Knightwatch level %d (%s)", rec.Level, s.levelInfo(rec.Level).Name)
	white, black := "Player", engineName
	if rec.Human == store.Black {
		white, black = engineName, "Player"
	}
	variant := "Standard"
	if rec.Variant == VariantChess960 {
		variant = "Chess960"
	}
	tc := "-" // PGN's mark for an untimed game
	if rec.Timed() {
		tc = strconv.FormatInt(rec.ClockInitialMS/1000, 10) + "+" + strconv.FormatInt(rec.ClockIncrementMS/1000, 10)
	}
	result := rec.Result
	if rec.Status != store.StatusOver || result == "" {
		result = string(game.NoResult)
	}
	tags := []game.PGNTag{
		{Name: "Event", Value: "Knightwatch casual game"},
		{Name: "Site", Value: site + "/game/" + rec.ID},
		{Name: "Date", Value: rec.CreatedAt.UTC().Format("2006.01.02")},
		{Name: "Round", Value: "-"},
		{Name: "White", Value: white},
		{Name: "Black", Value: black},
		{Name: "Result", Value: result},
		{Name: "Variant", Value: variant},
		{Name: "TimeControl", Value: tc},
	}
	if n, ok := chess960Number(rec.StartFEN); ok && rec.Variant == VariantChess960 {
		// Not one of PGN's standard tags (which has none for it): the
		// start position's Scharnagl number, 518 being RNBQKBNR.
		tags = append(tags, game.PGNTag{Name: "Chess960Position", Value: strconv.Itoa(n)})
	}
	if rec.Status == store.StatusOver && rec.Reason.Termination != game.NotOver {
		tags = append(tags, game.PGNTag{Name: "Termination", Value: rec.Reason.String()})
	}
	return tags
}

// writePGN writes the stored game as PGN, with the ECO and Opening tags
// of the opening it reached (openings.go).
func (s *Server) writePGN(w io.Writer, rec *store.Game, site string) error {
	g, _, err := buildGame(rec)
	if err != nil {
		return err
	}
	return game.WritePGN(w, g, append(s.pgnTags(rec, site), openingTags(g)...))
}
