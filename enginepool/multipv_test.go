package enginepool

import (
	"context"
	"testing"

	"knightwatch/game"
)

// TestSecondBest: a request with SecondBest gets the second best root
// move with its score, below the best's; without it, none, and the engine
// answers the next request with one line again (MultiPV 2 is that
// search's only).
func TestSecondBest(t *testing.T) {
	pool, err := New(Config{NewSearcher: NewEngineSearcher, Searchers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	// Black to move takes the queen on a4 (Rxa4): far better than the rest.
	pos, err := game.ParseFEN("4k3/8/8/8/Q7/8/r7/4K3 b - - 1 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, second := range []bool{true, false, true} {
		res, ok := pool.SearchIdle(context.Background(), "t", pos, nil, SearchRequest{Level: 8, Nodes: 20_000, Evaluate: true, SecondBest: second})
		if !ok || pos.UCI(res.Move) != "a2a4" {
			t.Fatalf("SecondBest %v: %+v (ok %v)", second, res, ok)
		}
		has := res.Second.Move != game.NoMove
		if has != second || (has && (res.Second.Move == res.Move || !pos.IsLegal(res.Second.Move) || res.Second.CP >= res.CP)) {
			t.Errorf("SecondBest %v: best %s %d, second %+v", second, pos.UCI(res.Move), res.CP, res.Second)
		}
	}
}
