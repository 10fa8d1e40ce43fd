package experience

import (
	"strings"
	"testing"

	"knightwatch/engine"
	"knightwatch/game"
	"knightwatch/store"
)

func TestGameLessons(t *testing.T) {
	over := func(moves, result string, why game.Termination) *store.Game {
		g := &store.Game{ID: "g", Variant: store.VariantStandard, StartFEN: game.StartFEN, Status: store.StatusOver, Result: result, Reason: store.TerminationOf(why)}
		g.SetMoveList(strings.Fields(moves))
		return g
	}
	long := "g1f3 g8f6 b1c3 b8c6 f3g1 f6g8 c3b1 c6b8 g1f3 g8f6"
	cases := []struct {
		name    string
		g       *store.Game
		results []float64 // per ply, for the side that moved
		err     bool
	}{
		{"fool's mate", over("f2f3 e7e5 g2g4 d8h4", "0-1", game.Checkmate), []float64{0, 1, 0, 1}, false},
		{"a short resignation teaches nothing", over("e2e4 e7e5", "1-0", game.Resignation), nil, false},
		{"a short time forfeit teaches nothing", over("e2e4", "0-1", game.TimeForfeit), nil, false},
		{"a longer resignation", over(long, "1-0", game.Resignation), []float64{1, 0, 1, 0, 1, 0, 1, 0, 1, 0}, false},
		{"a draw", over(long, "1/2-1/2", game.DrawAgreed), []float64{.5, .5, .5, .5, .5, .5, .5, .5, .5, .5}, false},
		{"no result", over("e2e4", "*", game.Checkmate), nil, false},
		{"a move that cannot be replayed", over("e2e5", "1-0", game.Checkmate), nil, true},
	}
	for _, c := range cases {
		ls, err := GameLessons(c.g)
		if (err != nil) != c.err || len(ls) != len(c.results) {
			t.Errorf("%s: %d lessons, %v", c.name, len(ls), err)
			continue
		}
		g, _ := c.g.Replay()
		for i, l := range ls {
			pos := g.PositionAt(i)
			if l.Key != pos.Hash() || l.Move != c.g.MoveList()[i] || l.Result != c.results[i] ||
				l.Depth != len(ls)-i || l.Weight != engine.LessonWeight(len(ls)-i) {
				t.Errorf("%s: lesson %d: %+v", c.name, i, l)
			}
		}
	}
}
