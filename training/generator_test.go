package training

import (
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/store"
)

// TestGeneratorFindsAndMarks: the generator searches each reviewed,
// finished game once, stores its puzzle (one for two games that reached
// the same blunder) and marks it searched (the order,
// the asking owner's first, is the store's: TestTrainingRows); a game
// whose review is not complete waits, and once it is, a restarted
// generator searches it alone.
func TestGeneratorFindsAndMarks(t *testing.T) {
	st := openStore(t)
	pool := realPool(t)
	g, plies := blunderGame(t)
	mk := func(owner string, complete bool) *store.Game {
		now := time.Now()
		rec := &store.Game{Owner: owner, Variant: store.VariantStandard, StartFEN: blunderFEN, Human: store.ColorOf(game.White),
			Level: 1, Status: store.StatusOver, Result: "0-1", FinishedAt: &now}
		rec.SetMoveList(g.UCIMoves())
		if err := st.Games().CreateGame(rec); err != nil {
			t.Fatal(err)
		}
		ps := append([]store.AnalysisPly(nil), plies...)
		for i := range ps {
			ps[i].GameID = rec.ID
		}
		if err := st.Reviews().SaveAnalysis(&store.Analysis{GameID: rec.ID, Positions: len(ps), Complete: complete}, ps, false); err != nil {
			t.Fatal(err)
		}
		return rec
	}
	first, second := mk("o1", true), mk("o2", true)
	pending := mk("o3", false)
	scanned := make(chan string, 8)
	start := func() *Generator {
		gen, err := NewGenerator(GeneratorOptions{Store: st, Engine: pool, Find: FindOptions{Nodes: 50_000},
			Scanned: func(id string, puzzles, searches int, _ time.Duration) { scanned <- id }})
		if err != nil {
			t.Fatal(err)
		}
		return gen
	}
	gen := start()
	gen.Want("o2")
	got := map[string]bool{<-scanned: true, <-scanned: true}
	if !got[first.ID] || !got[second.ID] {
		t.Errorf("searched %v, want %s and %s", got, first.ID, second.ID)
	}
	// The two games are one blunder: one puzzle.
	if n, _ := st.Training().PuzzleCount(); n != 1 {
		t.Errorf("%d puzzles, want one for the one position", n)
	}
	gen.Close()
	if left, _ := st.Training().GamesToScan("", 10); len(left) != 0 {
		t.Errorf("still to search: %v (the unreviewed %s is not)", left, pending.ID)
	}
	// Its review completes: a generator started again searches it alone.
	if err := st.Reviews().SaveAnalysis(&store.Analysis{GameID: pending.ID, Positions: len(plies), Complete: true}, nil, false); err != nil {
		t.Fatal(err)
	}
	gen = start()
	defer gen.Close()
	gen.Reviewed(pending.ID)
	if id := <-scanned; id != pending.ID {
		t.Errorf("searched %s again", id)
	}
}

// TestNewGeneratorNeedsParts: a generator without its store or engine is
// an error, not a panic later.
func TestNewGeneratorNeedsParts(t *testing.T) {
	for _, o := range []GeneratorOptions{{}, {Store: openStore(t)}} {
		if _, err := NewGenerator(o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}
