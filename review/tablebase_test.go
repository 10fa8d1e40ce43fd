package review

import (
	"strings"
	"testing"

	"knightwatch/game"
	"knightwatch/store"
	"knightwatch/syzygy"
)

// TestTablebaseVerdicts: every position of a KQvK game gets the tables'
// own WDL and DTZ; a game outside the tables (castling rights, too many
// pieces) gets none; a record that cannot be replayed is an error.
func TestTablebaseVerdicts(t *testing.T) {
	tb, err := syzygy.Open("../syzygy/testdata")
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	rec := func(fen, moves string) *store.Game {
		g := &store.Game{ID: "g1", Variant: store.VariantStandard, StartFEN: fen, Status: store.StatusOver, Result: "0-1", Reason: store.TerminationOf(game.Resignation)}
		g.SetMoveList(strings.Fields(moves))
		return g
	}
	kqk := rec("8/8/8/3k4/8/8/8/Q3K3 w - - 0 1", "a1a7 d5e5")
	got, odd, err := TablebaseVerdicts(tb, kqk)
	if err != nil || odd != nil {
		t.Fatalf("KQvK: %v, %v", odd, err)
	}
	g, _ := kqk.Replay()
	if len(got) != g.Len()+1 {
		t.Fatalf("%d verdicts %+v, want one for each of the %d positions", len(got), got, g.Len()+1)
	}
	for ply, v := range got {
		p := g.PositionAt(ply)
		wdl, err := tb.ProbeWDL(p)
		if err != nil {
			t.Fatal(err)
		}
		dtz, err := tb.ProbeDTZ(p)
		if err != nil {
			t.Fatal(err)
		}
		if want := (Verdict{Ply: ply, WDL: int(wdl), DTZ: dtz}); v != want {
			t.Errorf("ply %d: %+v, want %+v", ply, v, want)
		}
	}
	if got[0].WDL != 2 {
		t.Errorf("KQvK, White to move: %+v, want a win", got[0])
	}
	if got, odd, err := TablebaseVerdicts(tb, rec(game.StartFEN, "e2e4")); err != nil || odd != nil || got == nil || len(got) != 0 {
		t.Errorf("the standard start: %+v, %v, %v; want an empty list", got, odd, err)
	}
	if _, _, err := TablebaseVerdicts(tb, rec(game.StartFEN, "e2e5")); err == nil {
		t.Error("a record that cannot be replayed: no error")
	}
}
