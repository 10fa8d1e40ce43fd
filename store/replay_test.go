package store

import (
	"strings"
	"testing"

	"knightwatch/game"
)

// TestReplay: a record replays to its game (moves, Chess960 castling,
// the stored outcome, or an adjudication when an over record has no
// reason); a broken start position or move is an error naming it.
func TestReplay(t *testing.T) {
	rec := func(variant, fen, moves string, status Status, result string, why game.Termination) *Game {
		g := &Game{ID: "g1", Variant: variant, StartFEN: fen, Status: status, Result: result, Reason: TerminationOf(why)}
		g.SetMoveList(strings.Fields(moves))
		return g
	}
	// In Chess960 the king castles onto its own rook: e1h1.
	const castle = "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1h1"
	cases := []struct {
		name    string
		g       *Game
		plies   int
		outcome game.Outcome
		err     string
	}{
		{"moves", rec(VariantStandard, game.StartFEN, "e2e4 e7e5", StatusPlaying, "*", game.NotOver), 2, game.Outcome{}, ""},
		{"over", rec(VariantStandard, game.StartFEN, "f2f3 e7e5 g2g4 d8h4", StatusOver, "0-1", game.Checkmate), 4,
			game.Outcome{Result: game.BlackWins, Termination: game.Checkmate}, ""},
		{"over without a reason", rec(VariantStandard, game.StartFEN, "e2e4", StatusOver, "1-0", game.NotOver), 1,
			game.Outcome{Result: game.WhiteWins, Termination: game.Adjudication}, ""},
		{"Chess960 castling", rec(VariantChess960, game.StartFEN, castle, StatusPlaying, "*", game.NotOver), 7, game.Outcome{}, ""},
		{"a broken start position", rec(VariantStandard, "not a fen", "", StatusPlaying, "*", game.NotOver), 0, game.Outcome{}, "game g1: start position"},
		{"an illegal move", rec(VariantStandard, game.StartFEN, "e2e4 e7e4", StatusPlaying, "*", game.NotOver), 0, game.Outcome{}, `game g1: move 2 "e7e4"`},
	}
	for _, c := range cases {
		g, err := c.g.Replay()
		if c.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("%s: %v, want an error starting %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if want := c.g.Variant == VariantChess960; g.StartPosition().Chess960() != want {
			t.Errorf("%s: Chess960 %v, want %v", c.name, !want, want)
		}
		if g.Len() != c.plies {
			t.Errorf("%s: %d plies, want %d", c.name, g.Len(), c.plies)
		}
		if c.outcome.Over() {
			if o := g.Outcome(); o != c.outcome {
				t.Errorf("%s: outcome %+v, want %+v", c.name, o, c.outcome)
			}
		}
	}
}
