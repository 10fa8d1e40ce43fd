package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"knightwatch/game"
	"knightwatch/syzygy"
)

// syzygyTestdata is the folder of the syzygy package's test tables (all
// of up to 4 pieces).
const syzygyTestdata = "../syzygy/testdata"

func openTestTables(t *testing.T) *syzygy.Tablebase {
	t.Helper()
	tb, err := syzygy.Open(syzygyTestdata)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

// tbGame plays the engine against itself from fen, each side searching
// with lim and the test tables, until the game ends (mate, stalemate,
// insufficient material, threefold repetition or the fifty-move rule) or
// maxPlies. It returns the final position, why it ended and the plies
// played; check, when not nil, sees every position reached.
func tbGame(t *testing.T, tb *syzygy.Tablebase, fen string, lim Limits, maxPlies int, check func(p *game.Position)) (*game.Position, string, int) {
	t.Helper()
	e := New(Options{HashMB: 4, Tablebase: tb})
	e.SetSeed(1)
	pos := mustFEN(t, fen)
	var history []uint64
	seen := map[uint64]int{pos.Hash(): 1}
	for ply := 0; ply < maxPlies; ply++ {
		switch {
		case pos.IsCheckmate():
			return pos, "checkmate", ply
		case pos.IsStalemate():
			return pos, "stalemate", ply
		case pos.IsInsufficientMaterial():
			return pos, "insufficient material", ply
		case pos.HalfmoveClock() >= 100:
			return pos, "fifty-move rule", ply
		case seen[pos.Hash()] >= 3:
			return pos, "repetition", ply
		}
		res := e.Search(context.Background(), pos, history, lim, nil)
		if !pos.IsLegal(res.Move) {
			t.Fatalf("%s: illegal move %v", pos.FEN(), res.Move)
		}
		history = append(history, pos.Hash())
		pos.MakeMove(res.Move)
		if pos.HalfmoveClock() == 0 {
			history = history[:0]
			clear(seen)
		}
		seen[pos.Hash()]++
		if check != nil {
			check(pos)
		}
	}
	return pos, "move limit", maxPlies
}

// TestSyzygyConvertsWins plays won 3- and 4-piece endings with small
// searches (depth 4, then 2000 nodes a move) and tables on both sides: the winner must mate
// within the fifty-move rule every time.
func TestSyzygyConvertsWins(t *testing.T) {
	tb := openTestTables(t)
	wins := []string{
		"8/8/8/4k3/8/8/8/KQ6 w - - 0 1",     // KQvK
		"8/8/8/3k4/8/8/8/R3K3 w - - 0 1",    // KRvK
		"4k3/8/4K3/4P3/8/8/8/8 w - - 0 1",   // KPvK
		"8/8/8/8/3k4/8/8/KBN5 w - - 0 1",    // KBNvK
		"8/8/8/8/8/2k5/8/K1R1r3 b - - 0 1",  // KRvKR, Black to move wins the rook
		"7k/8/8/8/8/8/1r6/K1Q5 b - - 0 1",   // KQvKR, the rook side to move loses
		"8/1k6/8/8/8/8/6K1/4Q2n w - - 0 1",  // KQvKN
		"8/8/8/8/8/1k6/1p6/4K2Q w - - 0 1",  // KQvKP
		"8/8/8/8/2k5/8/2P5/2K1B3 w - - 0 1", // KBPvK
		"8/8/8/4k3/8/8/P7/K7 w - - 0 1",     // KPvK, a rook pawn with the king far
		"8/6k1/8/8/8/8/8/1R1RK3 w - - 0 1",  // KRRvK
		"k7/8/8/8/8/8/8/4K1NN w - - 0 1",    // KNNvK is a draw; not used as a win
		"8/8/1k6/8/8/8/8/2BBK3 w - - 0 1",   // KBBvK
		"5k2/8/8/8/8/8/8/4KN1Q w - - 0 1",   // KQNvK
		"8/8/8/8/8/5k2/8/QR2K3 w - - 0 1",   // KQRvK
	}
	converted, tried := 0, 0
	for _, fen := range wins {
		start := mustFEN(t, fen)
		w, err := tb.ProbeWDL(start)
		if err != nil {
			t.Fatalf("%s: %v", fen, err)
		}
		if w != syzygy.Win && w != syzygy.Loss {
			continue // not a decisive start (the KNNvK line)
		}
		winner := start.Side()
		if w == syzygy.Loss {
			winner = winner.Other()
		}
		for _, lim := range []Limits{{Depth: 4}, {Nodes: 2000}} {
			tried++
			t.Run(strings.Fields(fen)[0], func(t *testing.T) {
				end, why, plies := tbGame(t, tb, fen, lim, 400, nil)
				if why != "checkmate" || end.Side() == winner {
					t.Fatalf("from %s with %+v: game ended by %s after %d plies at %s, want %v to mate", fen, lim, why, plies, end.FEN(), winner)
				}
				converted++
				t.Logf("%s with depth %d nodes %d: mate after %d plies", fen, lim.Depth, lim.Nodes, plies)
			})
		}
	}
	if tried < 20 {
		t.Errorf("only %d decisive starts", tried)
	}
	t.Logf("%d of %d won endings converted", converted, tried)
}

// TestSyzygyHoldsDraws plays drawn endings: no position reached may be
// lost for either side, and nobody is mated.
func TestSyzygyHoldsDraws(t *testing.T) {
	tb := openTestTables(t)
	draws := []string{
		"8/8/2k5/8/3r4/8/4R3/4K3 w - - 0 1", // KRvKR
		"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",   // KPvK
		"8/8/8/3k4/8/8/3P4/3K4 b - - 0 1",   // KPvK with the defender in front
		"8/8/8/3k4/8/8/5B2/4K2b w - - 0 1",  // KBvKB
		"8/8/2k5/8/8/4n3/8/R3K3 b - - 0 1",  // KRvKN
		"8/8/8/8/8/5k2/7p/7K w - - 0 1",     // KvKP, the king in front
		"8/8/3k4/3q4/8/3Q4/3K4/8 w - - 0 1", // KQvKQ
	}
	held := 0
	for _, fen := range draws {
		start := mustFEN(t, fen)
		w, err := tb.ProbeWDL(start)
		if err != nil {
			t.Fatalf("%s: %v", fen, err)
		}
		if w != syzygy.Draw {
			t.Logf("%s is a %v, not a draw: skipped", fen, w)
			continue
		}
		t.Run(strings.Fields(fen)[0], func(t *testing.T) {
			check := func(p *game.Position) {
				if p.IsCheckmate() {
					t.Fatalf("from %s: checkmate at %s", fen, p.FEN())
				}
				if p.Occupied().Count() > tb.MaxPieces() || !p.HasLegalMoves() {
					return
				}
				w, err := tb.ProbeWDL(p)
				if err != nil {
					t.Fatalf("%s: %v", p.FEN(), err)
				}
				if w == syzygy.Win || w == syzygy.Loss {
					t.Fatalf("from %s: the drawn game reached %s, a %v", fen, p.FEN(), w)
				}
			}
			_, why, plies := tbGame(t, tb, fen, Limits{Nodes: 2000}, 120, check)
			held++
			t.Logf("%s: drawn, %s after %d plies", fen, why, plies)
		})
	}
	if held < 4 {
		t.Errorf("only %d drawn starts held", held)
	}
}

// TestSyzygyInfoTBHits: with tables the search probes them and counts the
// probes in Info and Result; without, it reports none.
func TestSyzygyInfoTBHits(t *testing.T) {
	tb := openTestTables(t)
	pos := mustFEN(t, "8/8/8/4k3/8/8/2r5/KQ6 w - - 0 1") // KQvKR
	for i, tables := range []bool{false, true, true} {
		opts := Options{HashMB: 4, Threads: 1 + i/2} // and with two threads
		if tables {
			opts.Tablebase = tb
		}
		e := New(opts)
		var last Info
		res := e.Search(context.Background(), pos, nil, Limits{Depth: 6}, func(i Info) { last = i })
		if tables && (res.TBHits == 0 || last.TBHits == 0) {
			t.Errorf("with tables: tbhits %d (info %d), want some", res.TBHits, last.TBHits)
		}
		if !tables && (res.TBHits != 0 || last.TBHits != 0) {
			t.Errorf("without tables: tbhits %d (info %d), want 0", res.TBHits, last.TBHits)
		}
	}
	// The probe limit turns probing off at 0 (and at 2: no table has 2
	// pieces).
	for _, limit := range []int{0, 2} {
		e := New(Options{HashMB: 4, Tablebase: tb})
		e.SetSyzygyProbeLimit(limit)
		if res := e.Search(context.Background(), mustFEN(t, "8/8/8/4k3/8/8/8/KQR5 w - - 0 1"), nil, Limits{Depth: 3}, nil); res.TBHits != 0 {
			t.Errorf("SyzygyProbeLimit %d: %d tbhits in a 4-piece position", limit, res.TBHits)
		}
	}
}

// TestSyzygyScores: a tablebase score is reported as about 200 pawns, in
// a band that mate scores never reach, and survives the hash table.
func TestSyzygyScores(t *testing.T) {
	if tbBound <= 0 || tbValue >= mateBound || tbValue-maxPly < tbBound {
		t.Fatalf("tablebase band %d..%d overlaps the mates (from %d)", tbBound, tbValue, mateBound)
	}
	for _, ply := range []int{0, 1, 7, 40} {
		s := tbValue - 5
		if got := scoreFromTT(scoreToTT(s, ply), ply); got != s {
			t.Errorf("TT round trip at ply %d: %d -> %d", ply, s, got)
		}
		if got := scoreFromTT(scoreToTT(-s, ply), ply); got != -s {
			t.Errorf("TT round trip at ply %d: %d -> %d", ply, -s, got)
		}
	}
	if sc := toScore(tbValue - 3); sc.Mate != 0 || sc.CP != tbUCIWin-3 {
		t.Errorf("toScore(TB win in 3) = %+v", sc)
	}
	tb := openTestTables(t)
	e := New(Options{HashMB: 4, Tablebase: tb})
	res := e.Search(context.Background(), mustFEN(t, "8/8/8/3k4/8/8/8/R3K3 w - - 0 1"), nil, Limits{Depth: 3}, nil)
	if res.Score.Mate == 0 && res.Score.CP < tbUCIWin-maxPly {
		t.Errorf("KRvK scored %+v, want a tablebase win", res.Score)
	}
	res = e.Search(context.Background(), mustFEN(t, "8/8/2k5/8/3r4/8/4R3/4K3 w - - 0 1"), nil, Limits{Depth: 3}, nil)
	if res.Score.Mate != 0 || res.Score.CP != 0 {
		t.Errorf("KRvKR draw scored %+v, want 0", res.Score)
	}
}

// TestSyzygyUCIOptions: SyzygyPath reports what it found, refuses a bad
// path with an info string (keeping the tables it had), and with tables
// the info lines count tbhits; without SyzygyPath they do not.
func TestSyzygyUCIOptions(t *testing.T) {
	abs, err := filepath.Abs(syzygyTestdata)
	if err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	const search = "position fen 8/8/8/4k3/8/8/2r5/KQ6 w - - 0 1\ngo depth 5\n"
	lines := runTranscript(t, search)
	for _, l := range linesWith(lines, "info depth") {
		if strings.Contains(l, "tbhits") {
			t.Fatalf("tbhits without SyzygyPath: %q", l)
		}
	}
	lines = runTranscript(t, "setoption name SyzygyPath value "+abs+"\n"+search)
	found := linesWith(lines, "info string Syzygy: found ")
	if len(found) != 1 || !strings.Contains(found[0], "of up to 4 pieces") {
		t.Fatalf("no or wrong report of the tables found: %q", lines)
	}
	infos := linesWith(lines, "info depth")
	if len(infos) == 0 || !strings.Contains(infos[len(infos)-1], " tbhits ") || strings.Contains(infos[len(infos)-1], " tbhits 0 ") {
		t.Errorf("with tables, the last info line counts no tbhits: %q", infos)
	}
	for _, bad := range []string{filepath.Join(empty, "missing"), empty} {
		u, lines := runSession(t, "setoption name SyzygyPath value "+abs+"\nsetoption name SyzygyPath value "+bad+"\n")
		errs := linesWith(lines, "info string error: setoption syzygypath:")
		if len(errs) != 1 || !strings.Contains(errs[0], bad) || !strings.Contains(errs[0], "keeping "+abs) {
			t.Errorf("bad path %s: %q", bad, lines)
		}
		if u.syzygyPath != "" {
			t.Errorf("tables still open after the session ended: %q", u.syzygyPath)
		}
	}
	u, lines := runSession(t, "setoption name SyzygyPath value "+filepath.Join(empty, "missing")+"\n")
	if errs := linesWith(lines, "info string error: setoption syzygypath:"); len(errs) != 1 || !strings.Contains(errs[0], "keeping <empty>") {
		t.Errorf("bad path without tables: %q", lines)
	}
	if u.eng.opts.Tablebase != nil {
		t.Error("a bad path left tables set")
	}
	if _, err := os.Stat(abs); err != nil {
		t.Fatal(err)
	}
	lines = runTranscript(t, "setoption name SyzygyProbeLimit value 8\nsetoption name SyzygyProbeLimit value 3\n")
	if errs := linesWith(lines, "info string error:"); len(errs) != 1 || !strings.Contains(errs[0], "0..7") {
		t.Errorf("SyzygyProbeLimit 8: %q", lines)
	}
}

// TestSyzygyRootMoves: the root ranking keeps the mates in one of a won
// position, only winning moves in a won one, and never a losing move in a
// drawn one.
func TestSyzygyRootMoves(t *testing.T) {
	tb := openTestTables(t)
	legal := func(p *game.Position) []game.Move {
		var ml game.MoveList
		p.GenerateLegal(&ml)
		return ml.Slice()
	}
	mate := mustFEN(t, "6k1/8/6K1/8/8/8/8/R7 w - - 0 1") // Ra8#
	kept, wdl, probes, ok := tbRootMoves(tb, 4, mate, legal(mate))
	if !ok || wdl != syzygy.Win || len(kept) != 1 || mate.UCI(kept[0]) != "a1a8" || probes == 0 {
		t.Errorf("mate in one: kept %v, %v, %d probes, ok %v", kept, wdl, probes, ok)
	}
	// A win keeps winning moves, a draw drawing ones (KRvKR: no move
	// that hangs the rook), a loss losing ones (there is nothing else).
	for _, c := range []struct {
		fen  string
		want syzygy.WDL
	}{
		{"8/8/8/4k3/8/8/8/KQ6 w - - 0 1", syzygy.Win},
		{"8/8/2k5/8/3r4/8/4R3/4K3 w - - 0 1", syzygy.Draw},
		{"7k/8/8/8/8/8/1r6/K1Q5 b - - 0 1", syzygy.Loss},
	} {
		p := mustFEN(t, c.fen)
		kept, wdl, _, ok := tbRootMoves(tb, 4, p, legal(p))
		if !ok || wdl != c.want || len(kept) == 0 {
			t.Fatalf("%s: %v %v ok %v", c.fen, kept, wdl, ok)
		}
		for _, m := range kept {
			child := *p
			child.MakeMove(m)
			if child.IsCheckmate() {
				continue
			}
			w, err := tb.ProbeWDL(&child)
			if err != nil {
				t.Fatal(err)
			}
			if got := -w; got != c.want && !(child.HalfmoveClock() != 0 && c.want == syzygy.Win && got > 0) {
				t.Errorf("%s: kept %s, which is a %v", c.fen, p.UCI(m), got)
			}
		}
	}
	// Without tables, or above the probe limit, the root is left alone.
	if _, _, _, ok := tbRootMoves(nil, 4, mate, legal(mate)); ok {
		t.Error("ranked without tables")
	}
	if _, _, _, ok := tbRootMoves(tb, 2, mate, legal(mate)); ok {
		t.Error("ranked above the probe limit")
	}
}
