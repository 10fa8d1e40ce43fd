package web

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"knightwatch/game"
	"knightwatch/store"
)

// pgnTags returns the tags for a stored game: the seven-tag roster with
// the level in the engine's name, plus Variant, TimeControl and, when the
// game is over, Termination. game.WritePGN adds SetUp and FEN itself for a
// start other than the usual one.
func (s *gamePages) pgnTags(rec *store.Game, site string) []game.PGNTag {
	engineName := fmt.Sprintf("Knightwatch level %d (%s)", rec.Level, s.games.Level(rec.Level).Name)
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

// writePGN writes the stored game as PGN; a finished game with a complete
// review (package review) carries it as lichess writes it: after each move
// its evaluation as a comment, [%eval 0.17] in pawns from White's point
// of view or [%eval #-3] for a mate (none after a checkmating move), and
// on a judged move the NAG ($6 ?!, $2 ?, $4 ??) and "Mistake. Nf3 was
// best." in the comment; and the ECO and Opening tags of the opening it
// reached (openingTags).
func (s *gamePages) writePGN(w io.Writer, rec *store.Game, site string) error {
	g, err := rec.Replay()
	if err != nil {
		return err
	}
	pg, err := game.PGNGameOf(g, append(s.pgnTags(rec, site), openingTags(g)...))
	if err != nil {
		return err
	}
	if rec.Status == store.StatusOver {
		row, plies, err := s.store.Reviews().GameAnalysis(rec.ID)
		switch {
		case err == nil && row.Complete && len(plies) == g.Len()+1:
			annotatePGN(pg, plies)
		case err != nil && !errors.Is(err, store.ErrNotFound):
			s.logf("PGN of %s without its review: %v", rec.ID, err) // the game itself is still worth having
		}
	}
	return pg.Write(w)
}

// judgementNAGs and judgementWords are how PGN and lichess say a verdict.
var (
	judgementNAGs  = [...]int{store.Inaccuracy: 6, store.Mistake: 2, store.Blunder: 4}
	judgementWords = [...]string{store.Inaccuracy: "Inaccuracy", store.Mistake: "Mistake", store.Blunder: "Blunder"}
)

// annotatePGN adds the review in plies (one per position) to pg's main line.
func annotatePGN(pg *game.PGNGame, plies []store.AnalysisPly) {
	node := &pg.Root
	for i := 1; len(node.Variations) > 0 && i < len(plies); i++ {
		node = node.Variations[0]
		p := plies[i]
		var parts []string
		if !p.Mated {
			parts = append(parts, "[%eval "+pgnEval(p)+"]")
		}
		if j := p.Judgement; j > store.NoJudgement && int(j) < len(judgementNAGs) {
			node.NAGs = append(node.NAGs, judgementNAGs[j])
			text := judgementWords[j] + "."
			if best := plies[i-1].BestSAN; best != "" {
				text += " " + best + " was best."
			}
			parts = append(parts, text)
		}
		node.Comment = strings.Join(parts, " ")
	}
}

// pgnEval is an evaluation as [%eval] writes it: pawns with two decimals,
// or #N / #-N for a mate, from White's point of view.
func pgnEval(p store.AnalysisPly) string {
	if p.Mate != 0 {
		return "#" + strconv.Itoa(p.Mate)
	}
	return strconv.FormatFloat(float64(p.CP)/100, 'f', 2, 64)
}
