package web

import (
	"knightwatch/game"
	"knightwatch/openings"
	"knightwatch/store"
)

// OpeningView is a named position of the game, in the state message's
// openings list (PROTOCOL.md): the opening at any ply is the entry with the
// greatest ply not after it.
type OpeningView struct {
	Ply  int    `json:"ply"`
	ECO  string `json:"eco"`
	Name string `json:"name"`
}

// openingViews lists g's named positions (none in Chess960).
func openingViews(g *game.Game) []OpeningView {
	trail := openings.Trail(g)
	out := make([]OpeningView, len(trail))
	for i, n := range trail {
		out[i] = OpeningView{Ply: n.Ply, ECO: n.ECO, Name: n.Name}
	}
	return out
}

// openingTags are the PGN tags ECO and Opening for the opening g ended in,
// the name of its last named position; none when no position had a name.
func openingTags(g *game.Game) []game.PGNTag {
	o, ok := openings.At(openings.Trail(g), g.Len())
	if !ok {
		return nil
	}
	return []game.PGNTag{{Name: "ECO", Value: o.ECO}, {Name: "Opening", Value: o.Name}}
}

// gameOpening says in words the opening a stored game reached, "B20
// Sicilian Defense", for the home page's lists: the name stored with it
// when it ended (store.Game.Opening), or else worked out by replaying it;
// "" when it reached no named position or its moves do not replay.
func gameOpening(rec *store.Game) string {
	if rec.Opening != nil {
		return *rec.Opening
	}
	g, _, err := buildGame(rec)
	if err != nil {
		return ""
	}
	return openingText(g)
}

// openingText says in words the opening g is in at its last ply, "B20
// Sicilian Defense", or "".
func openingText(g *game.Game) string {
	o, ok := openings.At(openings.Trail(g), g.Len())
	if !ok {
		return ""
	}
	return o.ECO + " " + o.Name
}

// nameFinished gives each of games (finished, as the home page lists them)
// its opening name, and stores the names of those that had none: games
// that ended before the name was stored with them are replayed once, on
// the first list that shows them, not on every load. A failed save is
// logged; the names are shown all the same.
func (s *Server) nameFinished(games []store.Game) {
	var missing map[string]string
	for i := range games {
		g := &games[i]
		if g.Opening != nil {
			continue
		}
		name := gameOpening(g)
		g.Opening = &name
		if missing == nil {
			missing = map[string]string{}
		}
		missing[g.ID] = name
	}
	if err := s.store.SaveOpenings(missing); err != nil {
		s.logf("home: %v", err)
	}
}
