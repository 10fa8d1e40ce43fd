package engine

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"knightwatch/game"
)

func TestSEE(t *testing.T) {
	cases := []struct {
		fen, move string
		want      int
	}{
		{"4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 100},               // free pawn
		{"4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 0},               // pawn for pawn
		{"4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5", 100 - 950},       // queen takes defended pawn
		{"4k3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100},            // x-ray: Rd1 backs up Rd2
		{"4k3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5", 100},               // undefended
		{"4k3/8/4p3/3n4/8/4N3/8/4K3 w - - 0 1", "e3d5", 0},               // knight trade: 320 - 320
		{"3k4/8/8/3p4/8/8/8/3KQ3 w - - 0 1", "e1e2", 0},                  // quiet move
		{"4k3/8/8/8/8/8/5q2/4K3 w - - 0 1", "e1f2", 950},                 // king takes undefended queen
		{"4k3/8/8/8/8/6n1/5q2/4K3 w - - 0 1", "", 0},                     // (king may not take: illegal, skipped)
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", 950 - 100},          // promotion
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100},               // en passant
		{"1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 100}, // classic example
		{"1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", 100 - 320},
	}
	for _, c := range cases {
		if c.move == "" {
			continue
		}
		p := mustFEN(t, c.fen)
		m, err := p.ParseUCI(c.move)
		if err != nil {
			t.Fatalf("%s %s: %v", c.fen, c.move, err)
		}
		if got := see(p, m); got != c.want {
			t.Errorf("see(%s, %s) = %d, want %d", c.fen, c.move, got, c.want)
		}
	}
}

// mirror flips the board vertically and swaps the colours.
func mirror(t *testing.T, fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	swap := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z':
				return r - 'a' + 'A'
			case r >= 'A' && r <= 'Z':
				return r - 'A' + 'a'
			}
			return r
		}, s)
	}
	side := "w"
	if f[1] == "w" {
		side = "b"
	}
	castle := swap(f[2])
	ep := f[3]
	if ep != "-" {
		ep = string(ep[0]) + string('1'+'8'-ep[1])
	}
	return strings.Join([]string{swap(strings.Join(ranks, "/")), side, castle, ep, f[4], f[5]}, " ")
}

func TestEvalSymmetry(t *testing.T) {
	for _, fen := range append(legalPositions[:8], BenchFENs...) {
		p := mustFEN(t, fen)
		q := mustFEN(t, mirror(t, fen))
		if a, b := evaluate(p), evaluate(q); a != b {
			t.Errorf("eval(%s) = %d but mirrored %d", fen, a, b)
		}
	}
}

func TestEvalSanity(t *testing.T) {
	cases := []struct {
		name          string
		better, worse string // same side to move; better must score higher
	}{
		{"extra queen", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "3qk3/8/8/8/8/8/8/3QK3 w - - 0 1"},
		{"passed pawn further up", "4k3/8/1P6/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/1P6/8/4K3 w - - 0 1"},
		{"bishop pair", "4k3/8/8/8/8/8/8/2BBK3 w - - 0 1", "4k3/8/8/8/8/8/8/2BNK3 w - - 0 1"},
		{"rook on open file", "4k3/pp2p1p1/8/8/8/8/PP2P1P1/3RK3 w - - 0 1", "4k3/pp1p2p1/8/8/8/8/PP1P2P1/3RK3 w - - 0 1"},
		{"isolated pawns hurt", "4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1", "4k3/8/8/8/8/8/P1P1P3/4K3 w - - 0 1"},
	}
	for _, c := range cases {
		b := evaluate(mustFEN(t, c.better))
		w := evaluate(mustFEN(t, c.worse))
		if b <= w {
			t.Errorf("%s: %d <= %d", c.name, b, w)
		}
	}
	// Lone minor piece: scaled towards a draw.
	if v := evaluate(mustFEN(t, "4k3/8/8/8/8/8/8/3NK3 w - - 0 1")); v > 60 {
		t.Errorf("KNK evaluates %d", v)
	}
}

func TestTTRoundTrip(t *testing.T) {
	tt := newTransTable(1)
	cases := []struct {
		key   uint64
		move  game.Move
		score int
		eval  int
		depth int
		bound int
		pv    bool
	}{
		{0x1234, game.NewMove(game.E2, game.E4), 35, -12, 7, boundExact, true},
		{0xdeadbeef, game.NewPromotion(game.A7, game.A8, game.Queen), mateValue - 5, 300, 20, boundLower, false},
		{0xfeedface, game.NoMove, -mateValue + 9, -32000, 0, boundUpper, true},
		{0xabcdef, game.NewMove(game.G1, game.F3), -7, 9, maxTTDepth, boundLower, true},
	}
	for _, c := range cases {
		tt.store(c.key, c.move, c.score, c.eval, c.depth, c.bound, c.pv)
		e, ok := tt.probe(c.key)
		if !ok || e.move != c.move || e.score != c.score || e.eval != c.eval || e.depth != c.depth || e.bound != c.bound || e.pv != c.pv {
			t.Errorf("stored %+v, probed %+v %v", c, e, ok)
		}
	}
	if _, ok := tt.probe(0x999); ok {
		t.Error("probe hit a key never stored")
	}
	// Mate scores are stored relative to the node and restored at any ply.
	for _, s := range []int{mateValue - 3, -mateValue + 4, 150} {
		for _, ply := range []int{0, 5, 40} {
			if got := scoreFromTT(scoreToTT(s, ply), ply); got != s {
				t.Errorf("mate adjust %d at ply %d: %d", s, ply, got)
			}
		}
	}
}

func TestLevelsTable(t *testing.T) {
	if len(Levels) != 8 || len(levelTable) != 8 {
		t.Fatalf("want 8 levels")
	}
	for i, l := range Levels {
		if l.Number != i+1 || l.Name == "" || l.Description == "" || l.MoveTime <= 0 {
			t.Errorf("level %+v", l)
		}
		if i > 0 && (l.MoveTime < Levels[i-1].MoveTime || l.ApproxElo <= Levels[i-1].ApproxElo) {
			t.Errorf("level %d not above level %d", i+1, i)
		}
		if i < 6 && l.MoveTime >= 1e9 {
			t.Errorf("level %d thinks %v; low levels must be well under a second", i+1, l.MoveTime)
		}
	}
}

// TestLowLevelsDoNotBlunder checks the "human" weakening: over many random
// draws the weakest level never chooses a move that a full-strength search
// judges to lose heavy material compared with the best move.
func TestLowLevelsDoNotBlunder(t *testing.T) {
	fens := []string{
		// After 1.e4 e5 2.Nf3 d6: the knight on f3 can be hit, the queen is safe.
		"rnbqkbnr/ppp2ppp/3p4/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3",
		// The white queen on d4 is attacked by the knight on c6 (1.e4 e5 2.d4 exd4 3.Qxd4 Nc6).
		"r1bqkbnr/pppp1ppp/2n5/8/3QP3/8/PPP2PPP/RNB1KBNR w KQkq - 1 4",
		// Scholar's-mate threat: Black must defend f7.
		"r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR b KQkq - 3 3",
	}
	judge := New(Options{HashMB: 8})
	for _, fen := range fens {
		p := mustFEN(t, fen)
		best := judge.Search(context.Background(), p, nil, Limits{Depth: 7}, nil).Score.CP
		for _, level := range []int{1, 2} {
			e := New(Options{HashMB: 1, Level: level})
			for seed := uint64(0); seed < 12; seed++ {
				e.SetSeed(seed)
				res := e.Search(context.Background(), p, nil, Limits{}, nil)
				q := *p
				q.MakeMove(res.Move)
				reply := judge.Search(context.Background(), &q, nil, Limits{Depth: 6}, nil)
				score := -reply.Score.CP
				if reply.Score.Mate > 0 || score < best-500 {
					t.Errorf("level %d seed %d in %s plays %s: %d vs best %d", level, seed, fen, p.UCI(res.Move), score, best)
				}
			}
		}
	}
}

func TestLevelsVaryFirstMoves(t *testing.T) {
	e := New(Options{HashMB: 1, Level: 3})
	seen := map[game.Move]bool{}
	for seed := uint64(0); seed < 30; seed++ {
		e.SetSeed(seed)
		e.NewGame()
		seen[e.Search(context.Background(), game.NewPosition(), nil, Limits{}, nil).Move] = true
	}
	if len(seen) < 3 {
		t.Errorf("level 3 without a book played only %d distinct first moves", len(seen))
	}
}

func TestPackedScoreRoundTrip(t *testing.T) {
	for _, tc := range []struct{ mg, eg, n int }{
		{0, 0, 1}, {100, -50, 3}, {-100, 50, -7}, {-1, -1, 1000}, {30000, -30000, 40}, {-2, 1, -1},
	} {
		var w evalWeights
		w[0][0], w[1][0] = tc.mg, tc.eg
		var pw packedWeights
		pw.set(&w)
		sum := pw[0]*int64(tc.n) + pw[0]*int64(-tc.n/2)
		k := tc.n - tc.n/2
		if mg, eg := unpackScore(sum); mg != tc.mg*k || eg != tc.eg*k {
			t.Errorf("%+v: unpacked (%d, %d), want (%d, %d)", tc, mg, eg, tc.mg*k, tc.eg*k)
		}
	}
}

// TestEvalTermCounts checks what the newer evaluation terms count (White
// minus Black) on positions built to show one feature each.
func TestEvalTermCounts(t *testing.T) {
	cases := []struct {
		name string
		fen  string
		term evalTerm
		want int
	}{
		{"backward d3 (c4 ahead, e5 guards d4); e5 is isolated instead", "4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1", tBackward, 1},
		{"no backward pawn when a neighbour stands behind", "4k3/8/8/4p3/2P5/2PP4/8/4K3 w - - 0 1", tBackward, 0},
		{"storm g4 at relative rank 3", "6k1/8/8/7P/6P1/8/8/4K3 w - - 0 1", tStorm + 3, 1},
		{"storm h5 at relative rank 4", "6k1/8/8/7P/6P1/8/8/4K3 w - - 0 1", tStorm + 4, 1},
		{"h5 blocked by h6 is not an open storm", "6k1/8/7p/7P/6P1/8/8/4K3 w - - 0 1", tStorm + 4, 0},
		{"h5 blocked by h6", "6k1/8/7p/7P/6P1/8/8/4K3 w - - 0 1", tStormBlocked, 1},
		{"e4-e5 would attack the knight", "4k3/8/5n2/8/4P3/8/8/4K3 w - - 0 1", tPushThreat, 1},
		{"d2-d4 would attack the knight", "4k3/8/8/4n3/8/8/3P4/4K3 w - - 0 1", tPushThreat, 1},
		{"no push threat onto a square a pawn guards", "4k3/8/3p1n2/8/4P3/8/8/4K3 w - - 0 1", tPushThreat, 0},
		{"king four squares from its pawn, enemy king beside its own", "4k3/4p3/8/8/8/8/P7/4K3 w - - 0 1", tKingPawnDist, 3},
		{"two pawns on the bishop's colour", "4k3/8/8/8/8/P7/3PP3/2B1K3 w - - 0 1", tBadBishop, 2},
		{"knight behind its pawn", "4k3/8/8/3P4/3N4/8/8/4K3 w - - 0 1", tMinorShielded, 1},
		{"d5 takes c4/e4 from White and d5 from Black", "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1", tSpace, -1},
	}
	for _, c := range cases {
		var tr evalTrace
		evaluateTraced(mustFEN(t, c.fen), &tr)
		if got := tr.coef[c.term]; got != c.want {
			t.Errorf("%s: count %d, want %d (%s)", c.name, got, c.want, c.fen)
		}
	}
}

func TestEndgameScaleByPawns(t *testing.T) {
	cases := []struct {
		name string
		fen  string
		want float64
	}{
		{"rook ahead, one pawn", "4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1", 43.0 / 64},
		{"rook ahead, three pawns (Black ahead, seen from Black)", "r3k3/5ppp/8/8/8/8/8/4K3 w - - 0 1", 57.0 / 64},
		{"rook ahead, four pawns: no scaling", "4k3/8/8/8/8/8/PPPP4/R3K3 w - - 0 1", 1},
		{"opposite-coloured bishops keep their own scale", "4k3/5p2/4b3/8/8/8/4PP2/2B1K3 w - - 0 1", 0.5},
	}
	for _, c := range cases {
		var tr evalTrace
		evaluateTraced(mustFEN(t, c.fen), &tr)
		if tr.egScale != c.want {
			t.Errorf("%s: endgame scale %v, want %v (%s)", c.name, tr.egScale, c.want, c.fen)
		}
	}
	// The scale is what the search sees: a rook up with one pawn is worth
	// less than with four, though both are winning.
	few := evaluate(mustFEN(t, "4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1"))
	many := evaluate(mustFEN(t, "4k3/8/8/8/8/8/PPPP4/R3K3 w - - 0 1"))
	if few <= 300 || few >= many {
		t.Errorf("rook and one pawn %d, rook and four pawns %d", few, many)
	}
}

// TestSEEGEMatchesSEE checks seeGE's shortcuts against the full exchange:
// every legal move of positions from random games, at thresholds from a
// queen down to a queen up.
func TestSEEGEMatchesSEE(t *testing.T) {
	starts := []string{
		game.StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"4k3/1P6/8/3pP3/8/8/5q2/4K2R w K d6 0 1",
	}
	checked := 0
	for i, fen := range starts {
		rng := rand.New(rand.NewPCG(uint64(i), 5))
		p := mustFEN(t, fen)
		for ply := 0; ply < 80; ply++ {
			var ml game.MoveList
			p.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			for _, m := range ml.Moves[:ml.N] {
				s := see(p, m)
				for th := -1000; th <= 1000; th += 5 {
					if got := seeGE(p, m, th); got != (s >= th) {
						t.Fatalf("%s %s: seeGE(%d) = %v, see = %d", p.FEN(), p.UCI(m), th, got, s)
					}
					checked++
				}
			}
			p.MakeMove(ml.Moves[rng.IntN(ml.N)])
		}
	}
	t.Logf("%d comparisons", checked)
}
