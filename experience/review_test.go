package experience

import (
	"testing"

	"knightwatch/game"
	"knightwatch/store"
)

// TestPlyScoreFor: a review's evaluation (from White's side) for either
// side, mates beyond every material score and shorter mates higher.
func TestPlyScoreFor(t *testing.T) {
	cases := []struct {
		p      store.AnalysisPly
		toMove game.Color
		side   game.Color
		want   int
	}{
		{store.AnalysisPly{CP: 35}, game.White, game.White, 35},
		{store.AnalysisPly{CP: 35}, game.Black, game.Black, -35},
		{store.AnalysisPly{Mate: 2}, game.Black, game.White, reviewMateCP - 2},
		{store.AnalysisPly{Mate: 2}, game.Black, game.Black, -reviewMateCP + 2},
		{store.AnalysisPly{Mate: -3}, game.White, game.Black, reviewMateCP - 3},
		{store.AnalysisPly{Mated: true}, game.White, game.White, -reviewMateCP},
		{store.AnalysisPly{Mated: true}, game.White, game.Black, reviewMateCP},
		{store.AnalysisPly{Mated: true}, game.Black, game.White, reviewMateCP},
	}
	for _, c := range cases {
		if got := plyScoreFor(c.p, c.toMove, c.side); got != c.want {
			t.Errorf("plyScoreFor(%+v, %v, %v) = %d, want %d", c.p, c.toMove, c.side, got, c.want)
		}
	}
}
