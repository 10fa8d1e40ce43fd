package engine

import (
	"context"
	"slices"
	"testing"
	"time"

	"knightwatch/game"
)

// uciMoves parses UCI moves in p; the test fails on a bad one.
func uciMoves(t *testing.T, p *game.Position, ss ...string) []game.Move {
	t.Helper()
	var out []game.Move
	for _, s := range ss {
		m, err := p.ParseUCI(s)
		if err != nil {
			t.Fatalf("ParseUCI(%q) in %s: %v", s, p.FEN(), err)
		}
		out = append(out, m)
	}
	return out
}

// scholarsMate is a position where White mates at once with Qxf7#.
const scholarsMate = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 3"

func TestSearchMovesRestricts(t *testing.T) {
	cases := []struct {
		name    string
		fen     string
		opts    Options
		lim     Limits
		allowed []string // moves the result must be among
		other   []string // moves of another position, given as searchmoves too (illegal here)
	}{
		{"startpos a2a3 only", game.StartFEN, Options{}, Limits{Depth: 5}, []string{"a2a3"}, nil},
		{"mate excluded", scholarsMate, Options{}, Limits{Depth: 5}, []string{"h5h4", "c4b5", "g1f3"}, nil},
		{"illegal moves ignored", game.StartFEN, Options{}, Limits{Depth: 4}, []string{"b1a3"}, []string{"e7e5", "g8f6"}},
		{"two threads", scholarsMate, Options{Threads: 2}, Limits{Depth: 6}, []string{"d2d3", "b1c3"}, nil},
		{"weakened level", game.StartFEN, Options{Level: 1}, Limits{MoveTime: 100 * time.Millisecond}, []string{"a2a3", "h2h3"}, nil},
		{"node limit 1", game.StartFEN, Options{}, Limits{Nodes: 1}, []string{"g2g4"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, c.fen)
			allowed := uciMoves(t, p, c.allowed...)
			lim := c.lim
			lim.SearchMoves = append(lim.SearchMoves, allowed...)
			if c.other != nil {
				q := mustFEN(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
				lim.SearchMoves = append(lim.SearchMoves, uciMoves(t, q, c.other...)...)
			}
			c.opts.HashMB = 1
			// The weakened level draws at random: several seeds.
			for seed := uint64(1); seed <= 3; seed++ {
				e := New(c.opts)
				e.SetSeed(seed)
				res := e.Search(context.Background(), p, nil, lim, nil)
				if !slices.Contains(allowed, res.Move) {
					t.Errorf("seed %d: got %s, want one of %v", seed, p.UCI(res.Move), c.allowed)
				}
				if len(res.PV) == 0 || res.PV[0] != res.Move {
					t.Errorf("seed %d: PV %v does not start with the move", seed, res.PV)
				}
			}
		})
	}
}

// TestSearchMovesAllIllegal: a list with no legal move is dropped, and a
// list of every legal move is no restriction at all (the same search,
// node for node).
func TestSearchMovesNoRestriction(t *testing.T) {
	p := mustFEN(t, scholarsMate)
	q := mustFEN(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	var legal game.MoveList
	p.GenerateLegal(&legal)
	cases := []struct {
		name  string
		moves []game.Move
	}{
		{"none", nil},
		{"all illegal", uciMoves(t, q, "e7e5", "d7d5")},
		{"every legal move", legal.Slice()},
	}
	var nodes []uint64
	for _, c := range cases {
		e := New(Options{HashMB: 1})
		res := e.Search(context.Background(), p, nil, Limits{Depth: 6, SearchMoves: c.moves}, nil)
		if p.UCI(res.Move) != "h5f7" {
			t.Errorf("%s: got %s, want the mate h5f7", c.name, p.UCI(res.Move))
		}
		nodes = append(nodes, res.Nodes)
	}
	for i := range nodes {
		if nodes[i] != nodes[0] {
			t.Errorf("%s: %d nodes, want %d as without searchmoves", cases[i].name, nodes[i], nodes[0])
		}
	}
}

// TestSearchMovesBook: the book answers only with a move in the list.
func TestSearchMovesBook(t *testing.T) {
	ensureGnuchessBook(t)
	b, err := OpenBook(DefaultBookFile)
	if err != nil {
		t.Fatal(err)
	}
	start := game.NewPosition()
	var book, nonBook []game.Move
	for _, en := range b.Find(start) {
		book = append(book, en.Move)
	}
	var legal game.MoveList
	start.GenerateLegal(&legal)
	for _, m := range legal.Slice() {
		if !slices.Contains(book, m) {
			nonBook = append(nonBook, m)
		}
	}
	if len(book) == 0 || len(nonBook) < 2 {
		t.Fatalf("book %v, non-book %v", book, nonBook)
	}
	cases := []struct {
		name     string
		moves    []game.Move
		fromBook bool
	}{
		{"only non-book moves", nonBook[:2], false},
		{"only book moves", book, true},
	}
	for _, c := range cases {
		for seed := uint64(1); seed <= 5; seed++ {
			e := New(Options{HashMB: 1, OwnBook: true})
			e.SetSeed(seed)
			res := e.Search(context.Background(), start, nil, Limits{MoveTime: 30 * time.Millisecond, SearchMoves: c.moves}, nil)
			if !slices.Contains(c.moves, res.Move) {
				t.Errorf("%s: got %s, not in the list", c.name, start.UCI(res.Move))
			}
			// A book answer is instant: no iteration completed.
			if fromBook := res.Depth == 0; fromBook != c.fromBook {
				t.Errorf("%s: from book %v (depth %d), want %v", c.name, fromBook, res.Depth, c.fromBook)
			}
		}
	}
}

// multiPVRun searches pos to depth with MultiPV n and returns the infos
// grouped by depth.
func multiPVRun(t *testing.T, fen string, threads, n, depth int, searchMoves ...string) (Result, map[int][]Info, *game.Position) {
	t.Helper()
	p := mustFEN(t, fen)
	e := New(Options{HashMB: 4, MultiPV: n, Threads: threads})
	lim := Limits{Depth: depth, SearchMoves: uciMoves(t, p, searchMoves...)}
	byDepth := map[int][]Info{}
	res := e.Search(context.Background(), p, nil, lim, func(info Info) {
		byDepth[info.Depth] = append(byDepth[info.Depth], info)
	})
	return res, byDepth, p
}

func TestMultiPV(t *testing.T) {
	cases := []struct {
		name        string
		fen         string
		threads     int
		multiPV     int
		depth       int
		searchMoves []string
		wantLines   int
		wantBest    string // the result's move, when forced
	}{
		{"startpos 3", game.StartFEN, 1, 3, 6, nil, 3, ""},
		{"two threads", game.StartFEN, 2, 3, 6, nil, 3, ""},
		{"one line", game.StartFEN, 1, 1, 5, nil, 1, ""},
		{"kiwipete 4", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 1, 4, 7, nil, 4, ""},
		{"mate first", scholarsMate, 1, 4, 4, nil, 4, "h5f7"},
		{"more lines than moves", "7k/8/8/8/8/8/8/K7 w - - 0 1", 1, 10, 4, nil, 3, ""},
		{"with searchmoves", game.StartFEN, 1, 3, 5, []string{"a2a3", "b2b3", "g1f3", "e2e4"}, 3, ""},
		{"searchmoves fewer than lines", scholarsMate, 1, 5, 4, []string{"h5f7", "c4b5"}, 2, "h5f7"},
		{"two lines, mate excluded", scholarsMate, 1, 2, 4, []string{"c4b5", "h5h4", "d2d3"}, 2, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, byDepth, p := multiPVRun(t, c.fen, c.threads, c.multiPV, c.depth, c.searchMoves...)
			allowed := uciMoves(t, p, c.searchMoves...)
			for d := 1; d <= c.depth; d++ {
				lines := byDepth[d]
				if len(lines) != c.wantLines {
					t.Fatalf("depth %d: %d lines, want %d", d, len(lines), c.wantLines)
				}
				seen := map[game.Move]bool{}
				for k, info := range lines {
					if info.MultiPV != k+1 {
						t.Errorf("depth %d line %d: MultiPV %d", d, k, info.MultiPV)
					}
					if len(info.PV) == 0 || !p.IsLegal(info.PV[0]) {
						t.Fatalf("depth %d line %d: bad PV %v", d, k+1, info.PV)
					}
					first := info.PV[0]
					if seen[first] {
						t.Errorf("depth %d: first move %s repeated", d, p.UCI(first))
					}
					seen[first] = true
					if len(allowed) > 0 && !slices.Contains(allowed, first) {
						t.Errorf("depth %d: line %d starts with %s, not in searchmoves", d, k+1, p.UCI(first))
					}
					if k > 0 && info.Score.CP > lines[k-1].Score.CP {
						t.Errorf("depth %d: line %d scores %d above line %d's %d", d, k+1, info.Score.CP, k, lines[k-1].Score.CP)
					}
				}
			}
			last := byDepth[c.depth]
			if res.Move != last[0].PV[0] || res.Score != last[0].Score {
				t.Errorf("result %s %+v, want the first line %s %+v", p.UCI(res.Move), res.Score, p.UCI(last[0].PV[0]), last[0].Score)
			}
			if c.wantBest != "" && p.UCI(res.Move) != c.wantBest {
				t.Errorf("got %s, want %s", p.UCI(res.Move), c.wantBest)
			}
		})
	}
}

// TestMultiPVMateScores: in the mate position the first line is the mate
// and the others are not.
func TestMultiPVMateScores(t *testing.T) {
	_, byDepth, p := multiPVRun(t, scholarsMate, 1, 3, 3)
	lines := byDepth[3]
	if len(lines) != 3 {
		t.Fatalf("got %d lines", len(lines))
	}
	for k, info := range lines {
		if mate := info.Score.Mate == 1; mate != (k == 0) {
			t.Errorf("line %d %s: score %+v", k+1, p.UCI(info.PV[0]), info.Score)
		}
	}
}

// TestMultiPVCancelled: a MultiPV search stopped at once still returns a
// legal move from the list.
func TestMultiPVCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, n := range []int{1, 3, MaxMultiPV} {
		p := game.NewPosition()
		allowed := uciMoves(t, p, "a2a4", "h2h4")
		e := New(Options{HashMB: 1, MultiPV: n})
		res := e.Search(ctx, p, nil, Limits{Infinite: true, SearchMoves: allowed}, nil)
		if !slices.Contains(allowed, res.Move) {
			t.Errorf("MultiPV %d: got %s", n, p.UCI(res.Move))
		}
	}
}

func TestMultiPVOption(t *testing.T) {
	cases := []struct{ in, want int }{{0, 1}, {1, 1}, {7, 7}, {MaxMultiPV, MaxMultiPV}, {1000, MaxMultiPV}, {-3, 1}}
	for _, c := range cases {
		if got := New(Options{MultiPV: c.in}).Options().MultiPV; got != c.want {
			t.Errorf("New MultiPV %d: got %d, want %d", c.in, got, c.want)
		}
		e := New(Options{})
		e.SetMultiPV(c.in)
		if got := e.Options().MultiPV; got != c.want {
			t.Errorf("SetMultiPV(%d): got %d, want %d", c.in, got, c.want)
		}
	}
}
