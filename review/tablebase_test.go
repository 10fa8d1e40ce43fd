package review

import (
	"strings"
	"testing"

	"knightwatch/game"
	"knightwatch/gaviota"
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
	got, odd, err := TablebaseVerdicts(Tables{Syzygy: tb}, kqk)
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
		if want := (Verdict{Ply: ply, Syzygy: true, WDL: int(wdl), DTZ: dtz}); v != want {
			t.Errorf("ply %d: %+v, want %+v", ply, v, want)
		}
	}
	if got[0].WDL != 2 {
		t.Errorf("KQvK, White to move: %+v, want a win", got[0])
	}
	if got, odd, err := TablebaseVerdicts(Tables{Syzygy: tb}, rec(game.StartFEN, "e2e4")); err != nil || odd != nil || got == nil || len(got) != 0 {
		t.Errorf("the standard start: %+v, %v, %v; want an empty list", got, odd, err)
	}
	if _, _, err := TablebaseVerdicts(Tables{Syzygy: tb}, rec(game.StartFEN, "e2e5")); err == nil {
		t.Error("a record that cannot be replayed: no error")
	}
}

// TestPositionVerdict: with both tables, a 3-piece position gets Syzygy's
// WDL and DTZ and Gaviota's DTM with its words; a 4-piece one Syzygy's
// only; castling rights, or no tables, give nothing. A finished game's
// verdicts carry the DTM of each of its positions.
func TestPositionVerdict(t *testing.T) {
	syz, err := syzygy.Open("../syzygy/testdata")
	if err != nil {
		t.Fatal(err)
	}
	defer syz.Close()
	gtb, err := gaviota.Open(gaviota.DebianPath)
	if err != nil || len(gtb.Tables()) == 0 {
		t.Fatalf("Gaviota tables: %v (scripts/deps.sh installs Debian's gaviotatb)", err)
	}
	defer gtb.Close()
	both := Tables{Syzygy: syz, Gaviota: gtb}
	for _, c := range []struct {
		fen             string
		tables          Tables
		syzygy, gaviota bool
	}{
		{"8/8/8/3k4/8/8/8/Q3K3 w - - 0 1", both, true, true},
		{"8/8/8/3k4/8/8/8/Q3K3 b - - 0 1", Tables{Gaviota: gtb}, false, true},
		{"8/8/8/3k4/8/8/8/QR2K3 w - - 0 1", both, true, false},
		{"r3k3/8/8/8/8/8/8/4K3 b q - 0 1", both, false, false},
		{"8/8/8/3k4/8/8/8/Q3K3 w - - 0 1", Tables{}, false, false},
	} {
		p, err := game.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		v, ok, odd := PositionVerdict(c.tables, p)
		if odd != nil || ok != (c.syzygy || c.gaviota) || v.Syzygy != c.syzygy || v.Gaviota != c.gaviota {
			t.Errorf("%s: %+v ok %v odd %v; want syzygy %v gaviota %v", c.fen, v, ok, odd, c.syzygy, c.gaviota)
			continue
		}
		if c.gaviota {
			wdl, dtm, err := gtb.Probe(p)
			if err != nil || v.DTM != dtm || v.Mate != gaviota.MateWords(p.Side(), wdl, dtm) {
				t.Errorf("%s: DTM %d %q, want the prober's %d (%v)", c.fen, v.DTM, v.Mate, dtm, err)
			}
		}
	}
	g := &store.Game{ID: "g2", Variant: store.VariantStandard, StartFEN: "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1", Status: store.StatusOver, Result: "0-1", Reason: store.TerminationOf(game.Resignation)}
	g.SetMoveList([]string{"a1a7", "d5e5"})
	vs, odd, err := TablebaseVerdicts(both, g)
	if err != nil || odd != nil || len(vs) != 3 {
		t.Fatalf("%+v, %v, %v; want three verdicts", vs, odd, err)
	}
	replay, _ := g.Replay()
	for _, v := range vs {
		dtm, err := gtb.ProbeDTM(replay.PositionAt(v.Ply))
		if err != nil || !v.Gaviota || !v.Syzygy || v.DTM != dtm || !strings.HasPrefix(v.Mate, "White mates in ") {
			t.Errorf("ply %d: %+v, want DTM %d (%v) and White mating", v.Ply, v, dtm, err)
		}
	}
}
