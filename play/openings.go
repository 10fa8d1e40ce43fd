package play

import (
	"knightwatch/game"
	"knightwatch/openings"
	"knightwatch/store"
)

// OpeningView is a named position of the game, in the state message's
// openings list (web/PROTOCOL.md): the opening at any ply is the entry
// with the greatest ply not after it.
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

// OpeningName says in words the opening a stored game reached, "B20
// Sicilian Defense", for the lists of games: the name stored with it when
// it ended (store.Game.Opening), or else worked out by replaying it; ""
// when it reached no named position or its moves do not replay.
func OpeningName(rec *store.Game) string {
	if rec.Opening != nil {
		return *rec.Opening
	}
	g, err := rec.Replay()
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
