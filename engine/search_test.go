package engine

import (
	"context"
	"sync"
	"testing"
	"time"

	"knightwatch/game"
)

func mustFEN(t testing.TB, fen string) *game.Position {
	t.Helper()
	p, err := game.ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

// legalPositions exercise special cases: checks, promotions, castling,
// en passant, a single legal move, Chess960 castling.
var legalPositions = []string{
	game.StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"7k/8/8/8/8/8/6q1/7K w - - 0 1",                                     // only Kxg2
	"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",                                 // en passant
	"k7/8/8/8/8/8/1q6/K7 w - - 0 1",                                     // only Kxb2
	"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", // Chess960
}

func TestSearchAlwaysReturnsLegalMove(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name string
		ctx  context.Context
		lim  Limits
	}{
		{"movetime 1ms", context.Background(), Limits{MoveTime: time.Millisecond}},
		{"one node", context.Background(), Limits{Nodes: 1}},
		{"cancelled", cancelled, Limits{Infinite: true}},
		{"depth 1", context.Background(), Limits{Depth: 1}},
		{"tiny clock", context.Background(), Limits{WTime: time.Millisecond, BTime: time.Millisecond}},
	}
	for _, c := range cases {
		for _, fen := range legalPositions {
			for _, level := range []int{1, 8} {
				e := New(Options{HashMB: 1, Level: level})
				p := mustFEN(t, fen)
				before := p.FEN()
				res := e.Search(c.ctx, p, nil, c.lim, nil)
				if !p.IsLegal(res.Move) {
					t.Errorf("%s level %d %s: move %v is not legal", c.name, level, fen, res.Move)
				}
				if p.FEN() != before {
					t.Errorf("%s: Search changed the position to %s", c.name, p.FEN())
				}
			}
		}
	}
}

func TestSearchNoLegalMove(t *testing.T) {
	for _, fen := range []string{
		"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", // fool's mate
		"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",                                // stalemate
	} {
		e := New(Options{HashMB: 1})
		res := e.Search(context.Background(), mustFEN(t, fen), nil, Limits{Depth: 3}, nil)
		if res.Move != game.NoMove {
			t.Errorf("%s: got move %v, want NoMove", fen, res.Move)
		}
	}
}

func TestSearchFindsMates(t *testing.T) {
	cases := []struct {
		fen   string
		depth int
		mate  int
	}{
		{"r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 3", 3, 1},
		{"6k1/5ppp/8/8/8/8/5PPP/1R1R2K1 w - - 0 1", 3, 1},
		{"7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 5, 2},
		{"r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 6, 2},
		{"k7/8/1K6/8/8/8/8/7R b - - 0 1", 4, -1}, // Kb8 Rh8#
	}
	for _, c := range cases {
		e := New(Options{HashMB: 4})
		p := mustFEN(t, c.fen)
		res := e.Search(context.Background(), p, nil, Limits{Depth: c.depth}, nil)
		if res.Score.Mate != c.mate {
			t.Errorf("%s: score %+v, want mate %d (move %v, pv %v)", c.fen, res.Score, c.mate, res.Move, res.PV)
			continue
		}
		// Play out the principal variation: it must end in checkmate.
		q := *p
		for _, m := range res.PV {
			if !q.IsLegal(m) {
				t.Fatalf("%s: PV move %v illegal", c.fen, m)
			}
			q.MakeMove(m)
		}
		if c.mate > 0 && !q.IsCheckmate() {
			t.Errorf("%s: PV %v does not end in mate", c.fen, res.PV)
		}
	}
}

func TestSearchWinsMaterial(t *testing.T) {
	cases := []struct {
		name, fen, want string
	}{
		{"free queen", "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", "d1d5"},
		{"knight fork", "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "b5c7"},
		{"pinned queen", "4k3/4q3/8/8/8/8/8/4RK2 w - - 0 1", "e1e7"},
		{"promotion", "8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8q"},
		{"skewer", "3B3K/8/8/8/3k4/8/8/6q1 w - - 0 1", "d8b6"},
	}
	for _, c := range cases {
		e := New(Options{HashMB: 4})
		p := mustFEN(t, c.fen)
		res := e.Search(context.Background(), p, nil, Limits{Depth: 6}, nil)
		if got := p.UCI(res.Move); got != c.want {
			t.Errorf("%s: got %s (score %+v), want %s", c.name, got, res.Score, c.want)
		}
	}
}

func TestSearchSeesDraws(t *testing.T) {
	// K+Q v K: with the halfmove clock at 99 every move ends the game drawn.
	e := New(Options{HashMB: 1})
	res := e.Search(context.Background(), mustFEN(t, "8/8/8/8/8/2k5/8/3K3Q w - - 99 80"), nil, Limits{Depth: 5}, nil)
	if res.Score.CP != 0 || res.Score.Mate != 0 {
		t.Errorf("50-move rule: score %+v, want 0", res.Score)
	}
	res = e.Search(context.Background(), mustFEN(t, "8/8/8/8/8/2k5/8/3K3Q w - - 0 80"), nil, Limits{Depth: 5}, nil)
	if res.Score.CP < 500 && res.Score.Mate <= 0 {
		t.Errorf("without the clock the queen should win: score %+v", res.Score)
	}

	// Black, a queen down, walks into a threefold repetition after two
	// rounds of shuffling.
	g, err := game.NewGameFromFEN("k7/8/8/8/8/8/2Q5/4K3 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	cycle := []string{"a8b8", "e1e2", "b8a8", "e2e1"}
	for round := 1; round <= 2; round++ {
		for _, m := range cycle {
			if _, err := g.PlayMove(m); err != nil {
				t.Fatal(err)
			}
		}
		res = e.Search(context.Background(), g.Position(), g.HashHistory(), Limits{Depth: 6}, nil)
		got := g.Position().UCI(res.Move)
		switch {
		case round == 2 && (got != "a8b8" || res.Score.CP != 0):
			t.Errorf("threefold: got %s score %+v, want a8b8 with 0", got, res.Score)
		case round == 1 && res.Score.CP > -500:
			// One earlier occurrence is no draw: White need not repeat.
			t.Errorf("a single repetition of a game position counted as a draw: %s %+v", got, res.Score)
		}
	}
}

func TestSearchCancellation(t *testing.T) {
	for _, threads := range []int{1, 2} {
		e := New(Options{HashMB: 4, Threads: threads})
		p := mustFEN(t, legalPositions[1])
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan Result)
		searching := make(chan struct{})
		var once sync.Once
		go func() {
			done <- e.Search(ctx, p, nil, Limits{Infinite: true}, func(Info) { once.Do(func() { close(searching) }) })
		}()
		select {
		case <-searching: // the first iteration is done: the search is under way
		case <-time.After(10 * time.Second): // a hang guard, not a timing assertion
			t.Fatal("no iteration reported")
		}
		start := time.Now()
		cancel()
		select {
		case res := <-done:
			t.Logf("threads %d: returned %v after cancel in %v", threads, res.Move, time.Since(start))
			if !p.IsLegal(res.Move) {
				t.Errorf("illegal move %v after cancel", res.Move)
			}
		case <-time.After(10 * time.Second): // a hang guard, not a timing assertion
			t.Fatal("search did not stop after cancel")
		}
	}
}

// TestMoveTimeOvershoot reports (does not assert) how far beyond MoveTime
// searches return; the figure goes into docs/performance.md.
func TestMoveTimeOvershoot(t *testing.T) {
	if testing.Short() {
		t.Skip("measurement")
	}
	e := New(Options{HashMB: 8})
	worst := time.Duration(-1 << 62)
	for _, fen := range legalPositions[:4] {
		for _, mt := range []time.Duration{time.Millisecond, 20 * time.Millisecond, 100 * time.Millisecond} {
			p := mustFEN(t, fen)
			start := time.Now()
			res := e.Search(context.Background(), p, nil, Limits{MoveTime: mt}, nil)
			over := time.Since(start) - mt
			worst = max(worst, over)
			if !p.IsLegal(res.Move) {
				t.Errorf("illegal move")
			}
		}
	}
	t.Logf("worst overshoot beyond MoveTime: %v", worst)
}

func TestPlanTimeNeverExceedsClock(t *testing.T) {
	cases := []Limits{
		{WTime: time.Millisecond},
		{WTime: 50 * time.Millisecond, WInc: time.Second},
		{WTime: 10 * time.Second, WInc: 100 * time.Millisecond},
		{WTime: 60 * time.Second, MovesToGo: 1},
		{WTime: 300 * time.Second, MovesToGo: 40},
		{MoveTime: time.Millisecond},
		{MoveTime: 5 * time.Second},
		{WTime: 500 * time.Millisecond, MoveTime: 3 * time.Second}, // the clock is tighter
		{WTime: 300 * time.Second, MoveTime: 200 * time.Millisecond},
	}
	for _, lim := range cases {
		soft, hard := planTime(lim, game.White)
		limit := lim.WTime
		if lim.MoveTime > 0 && (limit == 0 || lim.MoveTime < limit) {
			limit = lim.MoveTime
		}
		if lim.WTime > 10*time.Millisecond && hard > lim.WTime*3/4 && lim.MovesToGo != 1 {
			t.Errorf("%+v: hard limit %v risks the clock", lim, hard)
		}
		if hard <= 0 || soft <= 0 || soft > hard || hard > limit {
			t.Errorf("%+v: soft %v hard %v (limit %v)", lim, soft, hard, limit)
		}
	}
}

func TestBenchDeterministic(t *testing.T) {
	a, err := Bench(6, 1, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Bench(6, 1, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Nodes != b.Nodes || a.Nodes == 0 {
		t.Errorf("bench node counts differ: %d vs %d", a.Nodes, b.Nodes)
	}
}

func TestLazySMPFindsSameTactics(t *testing.T) {
	e := New(Options{HashMB: 8, Threads: 2})
	p := mustFEN(t, "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1")
	res := e.Search(context.Background(), p, nil, Limits{Depth: 8}, nil)
	if p.UCI(res.Move) != "b5c7" {
		t.Errorf("2 threads: got %v", res.Move)
	}
}

func TestInfoReports(t *testing.T) {
	e := New(Options{HashMB: 4})
	p := game.NewPosition()
	var infos []Info
	res := e.Search(context.Background(), p, nil, Limits{Depth: 6}, func(i Info) { infos = append(infos, i) })
	if len(infos) != 6 {
		t.Fatalf("got %d info reports, want 6", len(infos))
	}
	for i, info := range infos {
		if info.Depth != i+1 || info.Nodes == 0 || len(info.PV) == 0 || info.SelDepth < info.Depth {
			t.Errorf("info %d: %+v", i, info)
		}
	}
	if res.Depth != 6 || res.PV[0] != res.Move || res.Ponder != res.PV[1] {
		t.Errorf("result %+v", res)
	}
}

func TestFallingScoreFactor(t *testing.T) {
	cases := []struct {
		name   string
		scores []int
		depth  int
		lo, hi float64 // the factor must lie in [lo, hi]
	}{
		{"steady score", []int{20, 22, 20, 21, 20}, 5, 0.99, 1.01},
		{"dropped 80 cp since two iterations back", []int{30, 40, 30, -40}, 6, 1.45, 1.55},
		{"collapse is capped", []int{0, 0, 300, -600}, 9, 1.6, 1.6},
		{"rising score saves a little time", []int{0, 0, 0, 100}, 9, 0.85, 0.85},
		{"shallow depths are left alone", []int{100, 0, -200}, 4, 1, 1},
		{"too few iterations", []int{100, -200}, 8, 1, 1},
		{"mate scores are left alone", []int{0, mateBound + 5, 0, -50}, 10, 1, 1},
	}
	for _, c := range cases {
		if f := fallingScoreFactor(c.scores, c.depth); f < c.lo || f > c.hi {
			t.Errorf("%s: factor %.3f, want [%.2f, %.2f]", c.name, f, c.lo, c.hi)
		}
	}
}

// The time manager's effort factor: little time left to spend when nearly
// every node went to the best move, more when the alternatives took the
// work, and the root-node counts it reads must be filled by a search.
func TestBestMoveEffortFactor(t *testing.T) {
	m := game.NewMove(game.E2, game.E4)
	cases := []struct {
		name        string
		best, total uint64
		lo, hi      float64
	}{
		{"all effort on the best move", 950, 1000, 0.6, 0.6},
		{"four fifths", 800, 1000, 0.73, 0.75},
		{"half", 500, 1000, 1.09, 1.11},
		{"the alternatives took nearly all", 50, 1000, 1.4, 1.4},
		{"nothing searched yet", 0, 0, 1, 1},
	}
	for _, c := range cases {
		th := &thread{nodes: c.total, rootBestMove: m}
		th.rootNodes[m.From()][m.To()] = c.best
		if f := bestMoveEffortFactor(th); f < c.lo || f > c.hi {
			t.Errorf("%s: factor %.3f, want [%.2f, %.2f]", c.name, f, c.lo, c.hi)
		}
	}

	e := New(Options{HashMB: 4})
	p := mustFEN(t, game.StartFEN)
	e.Search(context.Background(), p, nil, Limits{Depth: 8}, nil)
	main := e.threads[0]
	var sum uint64
	for from := range main.rootNodes {
		for to := range main.rootNodes[from] {
			sum += main.rootNodes[from][to]
		}
	}
	best := main.rootNodes[main.rootBestMove.From()][main.rootBestMove.To()]
	if sum == 0 || sum > main.nodes || best == 0 {
		t.Errorf("root node counts: best move %d, all moves %d, of %d nodes", best, sum, main.nodes)
	}
}

func TestResearchDepth(t *testing.T) {
	cases := []struct {
		name                   string
		s, bestScore, newDepth int
		want                   int
	}{
		{"far above the best: a ply deeper", 200, 100, 10, 11},
		{"just past the deeper margin", 171, 100, 10, 11},
		{"on the deeper margin: as planned", 170, 100, 10, 10},
		{"clearly above, not far: as planned", 150, 100, 10, 10},
		{"barely above the best: a ply shallower", 105, 100, 10, 9},
		{"on the shallower margin: as planned", 110, 100, 10, 10},
		{"no best score yet: as planned", 50, -infinity, 7, 7},
	}
	for _, c := range cases {
		if got := researchDepth(c.s, c.bestScore, c.newDepth); got != c.want {
			t.Errorf("%s: researchDepth(%d, %d, %d) = %d, want %d", c.name, c.s, c.bestScore, c.newDepth, got, c.want)
		}
	}
}
