package web

import (
	"knightwatch/game"
	"knightwatch/openings"
	"knightwatch/play"
	"knightwatch/store"
)

// openingTags are the PGN tags ECO and Opening for the opening g ended in,
// the name of its last named position; none when no position had a name.
func openingTags(g *game.Game) []game.PGNTag {
	o, ok := openings.At(openings.Trail(g), g.Len())
	if !ok {
		return nil
	}
	return []game.PGNTag{{Name: "ECO", Value: o.ECO}, {Name: "Opening", Value: o.Name}}
}

// nameFinished gives each of games (finished, as the home page lists them)
// its opening name, and stores the names of those that had none: games
// that ended before the name was stored with them are replayed once, on
// the first list that shows them, not on every load. A failed save is
// logged; the names are shown all the same.
func (s *homePages) nameFinished(games []store.Game) {
	var missing map[string]string
	for i := range games {
		g := &games[i]
		if g.Opening != nil {
			continue
		}
		name := play.OpeningName(g)
		g.Opening = &name
		if missing == nil {
			missing = map[string]string{}
		}
		missing[g.ID] = name
	}
	if err := s.store.Games().SaveOpenings(missing); err != nil {
		s.logf("home: %v", err)
	}
}
