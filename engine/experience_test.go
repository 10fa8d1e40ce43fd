package engine

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"knightwatch/game"
)

// The experience tests search to a fixed depth with a fixed seed and a
// time limit far beyond what the depth needs, so their moves are the same
// on every run and under any load.

// xpLimits is a deterministic search to depth with the records recs.
func xpLimits(recs ...MoveRecord) Limits {
	return Limits{Depth: 6, MoveTime: time.Minute, Experience: recs}
}

// xpSearch searches pos at level with seed, from an empty hash table.
func xpSearch(level int, seed uint64, pos *game.Position, lim Limits) Result {
	e := New(Options{HashMB: 8, Level: level})
	e.SetSeed(seed)
	return e.Search(context.Background(), pos, nil, lim, nil)
}

// lost and won are records of a move played in n earlier games, each
// ending right after it (the strongest lesson a game gives).
func lost(m game.Move, n int) MoveRecord {
	return MoveRecord{Move: m, Losses: n, Weight: float64(n)}
}

func won(m game.Move, n int) MoveRecord {
	return MoveRecord{Move: m, Wins: n, Weight: float64(n), Points: float64(n)}
}

// fullStrengthScore is what level 8 at depth 6 thinks of move m in pos.
func fullStrengthScore(t *testing.T, pos *game.Position, m game.Move) int {
	t.Helper()
	lim := xpLimits()
	if m != game.NoMove {
		lim.SearchMoves = []game.Move{m}
	}
	return xpSearch(8, 1, pos, lim).Score.CP
}

// TestExperienceAvoidsLostMove: at every level, with a record saying that
// the move the engine plays lost two games, it plays another move, one
// that is no blunder (a full-strength search puts it within 150 cp of the
// best move: the levels' own margins are at most 90); with no record it
// plays its usual move; with a record saying that move won, it still
// plays it.
func TestExperienceAvoidsLostMove(t *testing.T) {
	positions := []string{
		game.StartFEN,
		"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", // Italian, two knights
		"r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 b - - 0 10",     // a quiet middlegame
	}
	for _, fen := range positions {
		pos := mustFEN(t, fen)
		best := fullStrengthScore(t, pos, game.NoMove)
		for level := 1; level <= 8; level++ {
			usual := xpSearch(level, 7, pos, xpLimits())
			if again := xpSearch(level, 7, pos, xpLimits()); again.Move != usual.Move {
				t.Fatalf("%s level %d: not deterministic: %s then %s", fen, level, pos.UCI(usual.Move), pos.UCI(again.Move))
			}
			if usual.Experience != nil {
				t.Errorf("%s level %d: experience reported without any: %+v", fen, level, usual.Experience)
			}
			avoid := xpSearch(level, 7, pos, xpLimits(lost(usual.Move, 2)))
			if avoid.Move == usual.Move {
				t.Errorf("%s level %d: played %s again after it lost 2 of 2", fen, level, pos.UCI(usual.Move))
			} else if s := fullStrengthScore(t, pos, avoid.Move); s < best-150 {
				t.Errorf("%s level %d: instead of %s played %s, a blunder (%d cp, best %d)", fen, level, pos.UCI(usual.Move), pos.UCI(avoid.Move), s, best)
			}
			if keep := xpSearch(level, 7, pos, xpLimits(won(usual.Move, 2))); keep.Move != usual.Move {
				t.Errorf("%s level %d: left %s, which won 2 of 2, for %s", fen, level, pos.UCI(usual.Move), pos.UCI(keep.Move))
			}
		}
	}
}

// TestExperienceAtFullStrength: at level 8 the avoided move is reported
// (the search without the record prefers it), the scores reported are
// the search's own, and a move that won is preferred over a slightly
// better one, and said to be.
func TestExperienceAtFullStrength(t *testing.T) {
	pos := game.NewPosition()
	usual := xpSearch(8, 1, pos, xpLimits())
	avoid := xpSearch(8, 1, pos, xpLimits(lost(usual.Move, 3)))
	if avoid.Move == usual.Move {
		t.Fatalf("played %s again", pos.UCI(usual.Move))
	}
	if u := avoid.Experience; u == nil || len(u.Avoided) != 1 || u.Avoided[0].Move != usual.Move || u.Preferred != nil {
		t.Errorf("Experience = %+v, want %s avoided", u, pos.UCI(usual.Move))
	}
	if own := fullStrengthScore(t, pos, avoid.Move); math.Abs(float64(avoid.Score.CP-own)) > 30 {
		t.Errorf("score %d reported for %s, its own search says %d: the bias leaked into the score", avoid.Score.CP, pos.UCI(avoid.Move), own)
	}

	// The runner-up, with a record of wins, is played instead.
	second := avoid.Move
	pref := xpSearch(8, 1, pos, xpLimits(won(second, 3)))
	if pref.Move != second {
		t.Fatalf("played %s, not %s which won 3 of 3", pos.UCI(pref.Move), pos.UCI(second))
	}
	if u := pref.Experience; u == nil || u.Preferred == nil || u.Preferred.Move != second || len(u.Avoided) != 0 {
		t.Errorf("Experience = %+v, want %s preferred", u, pos.UCI(second))
	}
	// The usual move with a winning record is still played.
	if same := xpSearch(8, 1, pos, xpLimits(won(usual.Move, 3))); same.Move != usual.Move {
		t.Errorf("with its own win: %s", pos.UCI(same.Move))
	}
}

// TestExperienceYieldsToMaterial: a move that lost many times is still
// played when every other move is far worse (here, not taking a free
// queen), at every level, and nothing is reported.
func TestExperienceYieldsToMaterial(t *testing.T) {
	pos := mustFEN(t, "4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1")
	take := mustMove(t, pos, "d2d5")
	for level := 1; level <= 8; level++ {
		r := xpSearch(level, 3, pos, xpLimits(lost(take, 20)))
		if r.Move != take {
			t.Errorf("level %d: played %s, not the queen capture", level, pos.UCI(r.Move))
		}
		if r.Experience != nil {
			t.Errorf("level %d: Experience = %+v, want nil", level, r.Experience)
		}
	}
}

// TestExperienceAnalysedMistake: a move that an analysis found a mistake
// is avoided, one found good is not.
func TestExperienceAnalysedMistake(t *testing.T) {
	pos := mustFEN(t, game.StartFEN)
	usual := xpSearch(8, 1, pos, xpLimits())
	other := mustMove(t, pos, "b1c3")
	if other == usual.Move {
		other = mustMove(t, pos, "g1f3")
	}
	bad := []MoveRecord{
		{Move: usual.Move, AnalysisCP: -150, AnalysisDepth: 18},
		{Move: other, AnalysisCP: 40, AnalysisDepth: 18},
	}
	if r := xpSearch(8, 1, pos, xpLimits(bad...)); r.Move == usual.Move {
		t.Errorf("played %s, which the analysis found 190 cp worse", pos.UCI(r.Move))
	}
	good := []MoveRecord{
		{Move: usual.Move, AnalysisCP: 30, AnalysisDepth: 18},
		{Move: other, AnalysisCP: 40, AnalysisDepth: 18},
	}
	if r := xpSearch(8, 1, pos, xpLimits(good...)); r.Move != usual.Move {
		t.Errorf("left %s for %s over a 10 cp analysis difference", pos.UCI(usual.Move), pos.UCI(r.Move))
	}
}

// TestExperienceOverridesBook: a book move that lost is never played from
// the book, and the engine says it was set aside; when every book move
// lost, the engine searches instead.
func TestExperienceOverridesBook(t *testing.T) {
	data := makeBook(t, []struct {
		fen, move string
		weight    uint16
	}{
		{game.StartFEN, "e2e4", 50},
		{game.StartFEN, "d2d4", 10},
	})
	path := filepath.Join(t.TempDir(), "book.bin")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	pos := game.NewPosition()
	e4, d4 := mustMove(t, pos, "e2e4"), mustMove(t, pos, "d2d4")
	e := New(Options{HashMB: 1, Level: 8, OwnBook: true, BookFile: path})
	e.SetSeed(5)
	seen := map[game.Move]int{}
	for i := 0; i < 30; i++ {
		r := e.Search(context.Background(), pos, nil, Limits{Experience: []MoveRecord{lost(e4, 1)}}, nil)
		seen[r.Move]++
		if r.Move != d4 {
			continue
		}
		if r.Depth != 0 || r.Experience == nil || len(r.Experience.Avoided) != 1 || r.Experience.Avoided[0].Move != e4 {
			t.Fatalf("book move d2d4: depth %d, Experience %+v", r.Depth, r.Experience)
		}
	}
	if seen[e4] > 0 || seen[d4] != 30 {
		t.Errorf("with e2e4 lost: %v", seen)
	}
	// Without the record the heavier e2e4 comes up (the book is used).
	e.SetSeed(5)
	if r := e.Search(context.Background(), pos, nil, Limits{}, nil); r.Move != e4 && r.Move != d4 {
		t.Errorf("no book move: %s", pos.UCI(r.Move))
	}
	both := Limits{MoveTime: 200 * time.Millisecond, Experience: []MoveRecord{lost(e4, 1), lost(d4, 1)}}
	r := e.Search(context.Background(), pos, nil, both, nil)
	if r.Depth == 0 || r.Move == e4 || r.Move == d4 {
		t.Errorf("every book move lost: got %s at depth %d, want a searched move", pos.UCI(r.Move), r.Depth)
	}
}

func mustMove(t *testing.T, pos *game.Position, uci string) game.Move {
	t.Helper()
	m, err := pos.ParseUCI(uci)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestExperienceBiases checks the rule's arithmetic on records.
func TestExperienceBiases(t *testing.T) {
	pos := game.NewPosition()
	e4, d4, c4 := mustMove(t, pos, "e2e4"), mustMove(t, pos, "d2d4"), mustMove(t, pos, "c2c4")
	black := mustFEN(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	illegal := mustMove(t, black, "e7e5") // not a move of the start position
	root := pos.LegalMoves()
	cases := []struct {
		name string
		recs []MoveRecord
		want map[game.Move]int
	}{
		{"one loss at the end", []MoveRecord{lost(e4, 1)}, map[game.Move]int{e4: -191}},
		{"two losses", []MoveRecord{lost(e4, 2)}, map[game.Move]int{e4: -280}},
		{"one win", []MoveRecord{won(e4, 1)}, map[game.Move]int{e4: 191}},
		{"many losses are capped", []MoveRecord{lost(e4, 500)}, map[game.Move]int{e4: -experienceMaxCP}},
		{"a draw says nothing", []MoveRecord{{Move: e4, Draws: 1, Weight: 1, Points: 0.5}}, map[game.Move]int{}},
		{"a loss long before the end says nothing", []MoveRecord{{Move: e4, Losses: 1, Weight: LessonWeight(41)}}, map[game.Move]int{}},
		{"a loss 20 plies before the end", []MoveRecord{{Move: e4, Losses: 1, Weight: LessonWeight(20)}}, map[game.Move]int{e4: -57}},
		{"three losses 30 plies before the end", []MoveRecord{{Move: e4, Losses: 3, Weight: 3 * LessonWeight(30)}}, map[game.Move]int{e4: -69}},
		{"win and loss cancel", []MoveRecord{{Move: e4, Wins: 1, Losses: 1, Weight: 2, Points: 1}}, map[game.Move]int{}},
		{"illegal moves are ignored", []MoveRecord{lost(illegal, 3)}, map[game.Move]int{}},
		{"a second record of a move is ignored", []MoveRecord{lost(e4, 1), won(e4, 5)}, map[game.Move]int{e4: -191}},
		{"nonsense weights are ignored", []MoveRecord{{Move: e4, Weight: math.Inf(1)}, {Move: d4, Weight: -3}, {Move: c4, Weight: math.NaN()}}, map[game.Move]int{}},
		{"points beyond the weight count as wins", []MoveRecord{{Move: e4, Wins: 1, Weight: 1, Points: 9}}, map[game.Move]int{e4: 191}},
		{"analysed mistake", []MoveRecord{{Move: e4, AnalysisCP: 20, AnalysisDepth: 12}, {Move: d4, AnalysisCP: -130, AnalysisDepth: 12}}, map[game.Move]int{d4: -150}},
		{"analysed inaccuracy", []MoveRecord{{Move: e4, AnalysisCP: 20, AnalysisDepth: 12}, {Move: d4, AnalysisCP: -60, AnalysisDepth: 12}}, map[game.Move]int{}},
		{"analysis and results add up", []MoveRecord{{Move: e4, AnalysisCP: 50, AnalysisDepth: 12}, {Move: d4, Losses: 1, Weight: 1, AnalysisCP: -100, AnalysisDepth: 12}}, map[game.Move]int{d4: -341}},
	}
	for _, c := range cases {
		got := map[game.Move]int{}
		for _, b := range experienceBiases(c.recs, root) {
			got[b.move] = b.cp
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
			continue
		}
		for m, cp := range c.want {
			if got[m] != cp {
				t.Errorf("%s: %s got %d, want %d", c.name, pos.UCI(m), got[m], cp)
			}
		}
	}
	for _, c := range []struct {
		plies int
		want  float64
	}{{0, 1}, {1, 1}, {9, 0.5}, {17, 0.25}} {
		if got := LessonWeight(c.plies); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("LessonWeight(%d) = %v, want %v", c.plies, got, c.want)
		}
	}
	if got := recordsWorstFirst([]moveBias{{move: e4, cp: -50, rec: lost(e4, 1)}, {move: d4, cp: -300, rec: lost(d4, 2)}}); len(got) != 2 || !slices.Equal([]game.Move{got[0].Move, got[1].Move}, []game.Move{d4, e4}) {
		t.Errorf("recordsWorstFirst: %+v", got)
	}
}
