package review

import (
	"math"
	"testing"

	"knightwatch/game"
	"knightwatch/store"
)

// The expected figures below were computed outside Go, with lila's and
// scalachess's formulas as they are written (WinPercent, Advice,
// AccuracyPercent; see accuracy.go), or are lila's own test cases
// (modules/analyse/src/test/AccuracyPercentTest.scala) with its tolerances.

func TestWinPercent(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    Eval
		want float64
	}{
		{"level", Eval{CP: 0}, 50},
		{"a pawn up", Eval{CP: 100}, 59.10258971916128},
		{"three pawns up", Eval{CP: 300}, 75.11255009383484},
		{"the ceiling", Eval{CP: 1000}, 97.54474363414323},
		{"above the ceiling", Eval{CP: 4000}, 97.54474363414323},
		{"below the floor", Eval{CP: -4000}, 2.4552563658567763},
		{"White mates", Eval{Mate: 3}, 97.54474363414323},
		{"Black mates", Eval{CP: 31000, Mate: -1}, 2.4552563658567763},
	} {
		if got := WinPercent(tc.e); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: WinPercent(%+v) = %v, want %v", tc.name, tc.e, got, tc.want)
		}
	}
}

func TestJudgeMove(t *testing.T) {
	cp := func(c int) Eval { return Eval{CP: c} }
	mate := func(m int) Eval { return Eval{Mate: m} }
	for _, tc := range []struct {
		name          string
		before, after Eval
		mover         game.Color
		want          store.Judgement
	}{
		// winningChances: 0 -> 0, -100 -> -0.182, -150 -> -0.269, -200 -> -0.352.
		{"White loses a pawn", cp(0), cp(-100), game.White, store.Inaccuracy},
		// The thresholds themselves: -50 -> -0.092, -60 -> -0.110,
		// -109 -> -0.198, -115 -> -0.209, -170 -> -0.303.
		{"just under an inaccuracy", cp(0), cp(-50), game.White, store.NoJudgement},
		{"just an inaccuracy", cp(0), cp(-60), game.White, store.Inaccuracy},
		{"just under a mistake", cp(0), cp(-109), game.White, store.Inaccuracy},
		{"just a mistake", cp(0), cp(-115), game.White, store.Mistake},
		{"just a blunder", cp(0), cp(-170), game.White, store.Blunder},
		{"White loses a pawn and a half", cp(0), cp(-150), game.White, store.Mistake},
		{"White loses two pawns", cp(0), cp(-200), game.White, store.Blunder},
		{"Black loses a pawn", cp(0), cp(100), game.Black, store.Inaccuracy},
		{"Black gains", cp(0), cp(-300), game.Black, store.NoJudgement},
		{"White gains", cp(-200), cp(0), game.White, store.NoJudgement},
		// Far ahead, a pawn matters less: 500 -> 400 loses 0.0992 (none),
		// 500 -> 350 loses 0.158 (inaccuracy).
		{"a pawn when far ahead", cp(500), cp(400), game.White, store.NoJudgement},
		{"a pawn and a half when far ahead", cp(500), cp(350), game.White, store.Inaccuracy},
		// Not ceiled for judging: 3000 -> 1000 loses 0.047.
		{"far beyond the ceiling", cp(3000), cp(1000), game.White, store.NoJudgement},
		// MateAdvice.
		{"mate lost, still winning big", mate(2), cp(1200), game.White, store.Inaccuracy},
		{"mate lost, still winning", mate(2), cp(800), game.White, store.Mistake},
		{"mate lost, only better", mate(2), cp(300), game.White, store.Blunder},
		{"mate lost to a mate against", mate(2), mate(-3), game.White, store.Blunder},
		{"Black's mate lost", mate(-2), cp(-800), game.Black, store.Mistake},
		{"mate against, already lost", cp(-1200), mate(-4), game.White, store.Inaccuracy},
		{"mate against, badly worse", cp(-800), mate(-4), game.White, store.Mistake},
		{"mate against, from worse", cp(-500), mate(-4), game.White, store.Blunder},
		{"mate against Black", cp(100), mate(5), game.Black, store.Blunder},
		{"a slower mate", mate(3), mate(5), game.White, store.NoJudgement},
		{"mate delivered", mate(1), mate(1), game.White, store.NoJudgement},
		{"a mate found", cp(200), mate(4), game.White, store.NoJudgement},
		{"still being mated", mate(-3), mate(-2), game.White, store.NoJudgement},
	} {
		if got := JudgeMove(tc.before, tc.after, tc.mover); got != tc.want {
			t.Errorf("%s: %+v -> %+v by %v: %q, want %q", tc.name, tc.before, tc.after, tc.mover, got, tc.want)
		}
	}
}

func TestMoveAccuracy(t *testing.T) {
	for _, tc := range []struct {
		before, after, want float64
	}{
		{60, 60, 100},
		{40, 70, 100},
		{60, 55, 80.81529992041436},
		{60, 50, 64.57982845372067},
		{60, 40, 41.016818741417126},
		{60, 10, 9.527819142930593},
		{100, 0, 0},
	} {
		if got := moveAccuracy(tc.before, tc.after); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("moveAccuracy(%v, %v) = %v, want %v", tc.before, tc.after, got, tc.want)
		}
	}
}

// repeat returns cps n times over.
func repeat(n int, cps ...int) []int {
	var out []int
	for i := 0; i < n; i++ {
		out = append(out, cps...)
	}
	return out
}

func TestGameAccuracy(t *testing.T) {
	const none = -1.0 // the side made no move
	for _, tc := range []struct {
		name             string
		first            game.Color
		cps              []int // White's cp after each move; the start is +15, as lila's
		white, black, by float64
	}{
		// Exact, from lila's formulas.
		{"two good moves", game.White, []int{15, 15}, 100, 100, 1e-9},
		{"White blunders, exact", game.White, []int{-900, -900}, 10.664056896199494, 100, 1e-9},
		{"a short game", game.White, []int{30, -60, -80, 200, 150}, 90.55946867531077, 49.57948623706832, 1e-9},
		{"Black first", game.Black, []int{30, -60, -80, 200, 150}, 87.25771318879058, 98.6659824544009, 1e-9},
		{"single move", game.White, []int{15}, 100, none, 1e-9},
		{"20 perfect moves and a white blunder, exact", game.White, append(repeat(20, 15), -900), 46.85340283303507, 100, 1e-9},
		{"40 moves, windows of 4", game.White, repeat(4, 15, 40, -20, 60, -100, 30, 250, 200, -150, 90), 58.37506843958802, 67.92626354407832, 1e-9},
		{"a move of accuracy 0", game.White, []int{1000, 1000, -1000, -1000}, 25.99009900990099, 100, 1e-9},
		// lila's AccuracyPercentTest, with its tolerances.
		{"black blunders on first move", game.White, []int{15, 900}, 100, 10, 5},
		{"both blunder on first move", game.White, []int{-900, 0}, 10, 10, 5},
		{"20 perfect moves", game.White, repeat(20, 15), 100, 100, 1},
		{"21 perfect moves and a black blunder", game.White, append(repeat(21, 15), 900), 100, 50, 5},
		{"5 average moves", game.White, repeat(5, -50, 15), 76, 76, 8},
		{"50 average moves", game.White, repeat(50, -50, 15), 76, 76, 8},
		{"50 mediocre moves", game.White, repeat(50, -135, 15), 54, 54, 8},
		{"50 terrible moves", game.White, repeat(50, -435, 15), 20, 20, 8},
		{"black first, black blunders", game.Black, []int{900, 900}, 100, 10, 5},
		{"black first, white blunders", game.Black, []int{15, -900}, 10, 100, 5},
		{"black first, both blunder", game.Black, []int{900, 0}, 10, 10, 5},
	} {
		wins := []float64{WinPercent(Eval{CP: 15})}
		for _, c := range tc.cps {
			wins = append(wins, WinPercent(Eval{CP: c}))
		}
		w, b, wok, bok := gameAccuracy(wins, tc.first)
		check := func(side string, got float64, ok bool, want float64) {
			switch {
			case want == none && ok:
				t.Errorf("%s: %s accuracy %v for a side without moves", tc.name, side, got)
			case want != none && !ok:
				t.Errorf("%s: no %s accuracy", tc.name, side)
			case want != none && math.Abs(got-want) > tc.by:
				t.Errorf("%s: %s accuracy %v, want %v ± %v", tc.name, side, got, want, tc.by)
			}
		}
		check("White", w, wok, tc.white)
		check("Black", b, bok, tc.black)
	}
	if _, _, wok, bok := gameAccuracy([]float64{50}, game.White); wok || bok {
		t.Error("a game without moves has an accuracy")
	}
	if _, _, wok, bok := gameAccuracy(nil, game.White); wok || bok {
		t.Error("no positions at all has an accuracy")
	}
}
