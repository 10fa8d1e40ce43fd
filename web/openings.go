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
// Sicilian Defense", for the home page's lists; "" when it reached no named
// position or its moves do not replay.
func gameOpening(rec *store.Game) string {
	g, _, err := buildGame(rec)
	if err != nil {
		return ""
	}
	o, ok := openings.At(openings.Trail(g), g.Len())
	if !ok {
		return ""
	}
	return o.ECO + " " + o.Name
}
