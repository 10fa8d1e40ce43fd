package tune

import (
	"context"
	"testing"

	"knightwatch/game"
)

func TestGenerateTrainingData(t *testing.T) {
	games := 0
	o := SelfPlayOptions{Games: 2, Nodes: 300, RandomPlies: 2, MaxPlies: 40, Seed: 3}
	ps := GenerateTrainingData(context.Background(), o, func(int, string) { games++ })
	if len(ps) == 0 || games != 2 {
		t.Fatalf("%d positions from %d games", len(ps), games)
	}
	for _, p := range ps {
		pos, err := game.ParseFEN(p.FEN)
		if err != nil || pos.InCheck() || (p.Result != 0 && p.Result != 0.5 && p.Result != 1) || !p.Scored {
			t.Errorf("bad training position %+v (%v)", p, err)
		}
	}
	// The same seed gives the same games.
	again := GenerateTrainingData(context.Background(), o, nil)
	if len(again) != len(ps) || again[len(ps)-1] != ps[len(ps)-1] {
		t.Errorf("not deterministic: %d then %d positions", len(ps), len(again))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if ps := GenerateTrainingData(ctx, o, nil); len(ps) != 0 {
		t.Errorf("cancelled: %d positions", len(ps))
	}
}
