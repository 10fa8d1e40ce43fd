package play

import "math/rand/v2"

// ReconOpponent is a bot a person can play Reconnaissance Chess against,
// with a line that says how strong it is. Account is its username on the
// HTTP API (package rbcapi), where it is always connected and accepts
// every invitation.
type ReconOpponent struct {
	Spec, Name, Description, Account string
}

// ReconOpponents are the bots a person can play, strongest first.
var ReconOpponents = []ReconOpponent{
	{"knightwatch", "Knightwatch", "Full strength: keeps every board you could have, senses where it matters, rarely leaves its king open. Won 96 of 100 games against trout at one minute a side.", "knightwatch"},
	{"knightwatch:level=3", "Knightwatch 3", "Strong: the same ideas with less care and shorter thought.", "knightwatch-3"},
	{"knightwatch:level=2", "Knightwatch 2", "Club level: tracks the boards but judges them shallowly and errs now and then.", "knightwatch-2"},
	{"knightwatch:level=1", "Knightwatch 1", "Beginner: senses at random and forgets its king is in danger. Beatable while you learn the game.", "knightwatch-1"},
	{"trout:engine=knightwatch", "Trout", "The reference's baseline: one guessed board and a chess engine; takes your king whenever it sees it.", "trout"},
	{"attacker", "Attacker", "Tries one quick king raid, then waits.", "attacker"},
	{"random", "Random", "Moves and senses at random.", "random"},
}

// OpponentName returns the display name of a bot spec (the spec itself
// when it is none of ReconOpponents).
func OpponentName(spec string) string {
	for _, o := range ReconOpponents {
		if o.Spec == spec {
			return o.Name
		}
	}
	return spec
}

// NewSeed returns a bot seed that fits the database's signed 64-bit
// integers (SQLite and PostgreSQL have no unsigned ones).
func NewSeed() uint64 { return rand.Uint64() >> 1 }
