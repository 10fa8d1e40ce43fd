package bots

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
)

// beliefOf builds a belief of equally likely boards from FENs.
func beliefOf(t *testing.T, fens ...string) *belief {
	t.Helper()
	s := &belief{exact: true}
	for _, f := range fens {
		b, err := recon.ParseBoard(f)
		if err != nil {
			t.Fatal(err)
		}
		s.boards = append(s.boards, b.Position())
		s.weights = append(s.weights, 1)
	}
	s.normalize()
	return s
}

// testBot returns a full-strength bot for White holding the given boards.
func testBot(t *testing.T, s *belief) *Knightwatch {
	cfg, err := KnightwatchLevel(4)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 2
	k := NewKnightwatch(cfg, 1)
	k.Start(game.White, recon.NewBoard(), "test")
	k.belief = s
	return k
}

func allSquares() []game.Square {
	s := make([]game.Square, 64)
	for i := range s {
		s[i] = game.Square(i)
	}
	return s
}

// TestSenseServesTheDecision sets up six boards: Black's queen on d4 or on
// f4 (White's rooks on d1 and f1 win it if they know where it is, and lose
// a rook to it if they guess wrong), and a black pawn on a7, b7 or c7 (which
// changes nothing, and which no window can see together with the queen). A sense that only counted boards would look at the
// pawn, whose three places split the boards three ways; the bot must look
// at the queen.
func TestSenseServesTheDecision(t *testing.T) {
	var fens []string
	for _, q := range []string{"3q4", "5q2"} { // rank 4: queen on d4 or f4
		for _, p := range []string{"p7", "1p6", "2p5"} { // rank 7: pawn on a7, b7 or c7
			fens = append(fens, "4k3/"+p+"/8/8/"+q+"/8/PP6/3R1RK1 w - - 0 1")
		}
	}
	k := testBot(t, beliefOf(t, fens...))
	pos := k.belief.boards[0]
	actions := recon.MoveActions(&pos)
	s := k.ChooseSense(context.Background(), allSquares(), actions, time.Minute)
	if s == game.NoSquare {
		t.Fatal("no sense")
	}
	seesQueen := slices.Contains(window[s], game.D4) || slices.Contains(window[s], game.F4)
	if !seesQueen {
		t.Errorf("sensed %s, which does not show d4 or f4", s)
	}

	// The counting measure alone prefers the pawn: check the test is fair.
	groups := func(q game.Square) int {
		seen := map[uint64]bool{}
		for i := range k.belief.boards {
			seen[signature(&k.belief.boards[i], q)] = true
		}
		return len(seen)
	}
	if groups(game.B7) <= groups(s) {
		t.Errorf("the pawn's window splits the boards %d ways, the chosen one %d: the test proves nothing", groups(game.B7), groups(s))
	}

	// Once it knows, it takes the queen.
	var result recon.SenseResult
	truth, _ := recon.ParseBoard(fens[4]) // queen on f4
	result = truth.Sense(s)
	k.SenseResult(result)
	m := k.ChooseMove(context.Background(), actions, time.Minute)
	if _, capture, err := truth.Move(m); err != nil || capture != game.F4 {
		t.Errorf("with the queen seen on f4, played %s, which does not take it", recon.UCI(m))
	}
}

// TestTakesTheKingWhenEveryBoardAllows checks that the bot takes the king
// at once when every board it holds possible allows it, and not when one
// does not.
func TestTakesTheKingWhenEveryBoardAllows(t *testing.T) {
	fens := []string{
		"4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
		"1n2k3/8/8/8/8/8/8/4RK2 w - - 0 1",
		"4k3/p7/8/8/8/8/8/4RK2 w - - 0 1",
	}
	k := testBot(t, beliefOf(t, fens...))
	pos := k.belief.boards[0]
	actions := recon.MoveActions(&pos)
	if s := k.ChooseSense(context.Background(), allSquares(), actions, time.Minute); s != game.NoSquare {
		t.Errorf("sensed %s with the king's capture certain", s)
	}
	if m := k.ChooseMove(context.Background(), actions, time.Minute); recon.UCI(m) != "e1e8" {
		t.Errorf("played %s, want e1e8", recon.UCI(m))
	}

	// A black knight on e5 on one board stops the rook there.
	k = testBot(t, beliefOf(t, append(fens, "4k3/8/8/4n3/8/8/8/4RK2 w - - 0 1")...))
	if m, ok := k.kingCaptureEverywhere(candidates(actions, &pos)); ok {
		t.Errorf("%s called certain although one board blocks it", recon.UCI(m))
	}
}

// TestKeepsTheKingSafe puts White's king in check from a bishop on b4 on
// three boards of four, with a free knight to take on h6: the bot must deal
// with the check rather than grab the knight.
func TestKeepsTheKingSafe(t *testing.T) {
	fens := []string{
		"4k3/8/7n/8/1b6/8/3P1P2/4K1R1 w - - 0 1",
		"4k3/p7/7n/8/1b6/8/3P1P2/4K1R1 w - - 0 1",
		"4k3/1p6/7n/8/1b6/8/3P1P2/4K1R1 w - - 0 1",
		"4k3/8/7n/8/8/8/b2P1P2/4K1R1 w - - 0 1",
	}
	k := testBot(t, beliefOf(t, fens...))
	pos := k.belief.boards[0]
	actions := recon.MoveActions(&pos)
	m := k.ChooseMove(context.Background(), actions, time.Minute)
	exposed := 0
	for i := range k.belief.boards {
		if exposes(&k.belief.boards[i], m, game.White) {
			exposed++
		}
	}
	if exposed > 0 {
		t.Errorf("played %s, which leaves the king capturable on %d of 4 boards", recon.UCI(m), exposed)
	}
}

// TestTrueBoardAlwaysInSet plays games against random and attacker and
// checks, after every step of the bot's turns, that the true board is among
// those it holds possible while its belief is exact: this catches any error
// in expansion or filtering.
func TestTrueBoardAlwaysInSet(t *testing.T) {
	games, maxBoards, turns := 12, 2_000_000, 40
	if testing.Short() {
		// The race detector's run: the same parallel expansion on smaller
		// sets, so that it stays within minutes on a loaded machine.
		games, maxBoards, turns = 4, 200_000, 30
	}
	checks := 0
	for n := 0; n < games; n++ {
		cfg := KnightwatchConfig{MaxBoards: maxBoards, Sample: 16, Threat: 4, Caution: 1, TurnTime: 20 * time.Millisecond, Workers: 2}
		k := NewKnightwatch(cfg, uint64(n))
		var opp recon.Player = NewRandom(uint64(n))
		if n%3 == 2 {
			opp = NewAttacker(uint64(n))
		}
		white, black := recon.Player(k), opp
		color := game.White
		if n%2 == 1 {
			white, black, color = opp, k, game.Black
		}
		g := recon.NewGame(recon.Config{MoveLimit: 100, TurnLimit: turns}, "w", "b")
		_, err := recon.PlayObserved(context.Background(), g, white, black, func(c game.Color, step recon.Step) {
			if c != color || !k.Exact() {
				return
			}
			b := g.Board()
			truth := b.Position()
			checks++
			if !k.TrueBoardInSet(&truth) {
				t.Fatalf("game %d, %s turn %d, step %d: the true board %s is not among the %d boards", n, c, k.turn, step, b.FEN(), k.BeliefSize())
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checks < 100 {
		t.Errorf("only %d checks made", checks)
	}
}

// TestBeliefExpansionMatchesArbiter checks expansion on its own: from a
// known board, every board the opponent's requests lead to is there, with
// its capture, and nothing else.
func TestBeliefExpansionMatchesArbiter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for n := 0; n < 50; n++ {
		// A random position reached by random requests, Black to move.
		b := recon.NewBoard()
		for ply := 0; ply < 2*rng.IntN(20)+1; ply++ {
			acts := b.MoveActions()
			if _, _, err := b.Move(acts[rng.IntN(len(acts))]); err != nil {
				t.Fatal(err)
			}
			if _, over := b.KingCaptured(); over {
				break
			}
		}
		if _, over := b.KingCaptured(); over || b.Turn() != game.Black {
			continue
		}
		p := b.Position()
		want := map[game.Square]map[uint64]bool{}
		for _, a := range append(b.MoveActions(), game.NoMove) {
			c := b
			_, capture, err := c.Move(a)
			if err != nil {
				t.Fatal(err)
			}
			if _, over := c.KingCaptured(); over {
				continue
			}
			if want[capture] == nil {
				want[capture] = map[uint64]bool{}
			}
			cp := c.Position()
			want[capture][cp.Hash()] = true
		}
		for capture, boards := range want {
			s := (&belief{boards: []game.Position{p}, weights: []float64{1}, exact: true}).expanded(capture, opponentModel{threat: 4}, 2)
			if s.size() != len(boards) {
				t.Fatalf("%s, capture %s: %d boards, want %d", b.FEN(), recon.SquareName(capture), s.size(), len(boards))
			}
			for i := range s.boards {
				if !boards[s.boards[i].Hash()] {
					t.Fatalf("%s: an unexpected board %s", b.FEN(), s.boards[i].FEN())
				}
			}
		}
	}
}

// TestKnightwatchShortOfTime: below lowClock the belief's bound shrinks
// with the clock (never under minBoardBound), the turn's budget lives on
// the increment, and the turn's hard stop is a fifth of the clock.
func TestKnightwatchShortOfTime(t *testing.T) {
	cfg, err := KnightwatchLevel(4)
	if err != nil {
		t.Fatal(err)
	}
	k := NewKnightwatch(cfg, 1)
	k.turn, k.increment = 30, time.Second
	prev := k.cfg.MaxBoards + 1
	for _, left := range []time.Duration{time.Hour, 30 * time.Second, 19 * time.Second, 10 * time.Second, 5 * time.Second, time.Second, 0} {
		k.lastClock, k.lastUsed = left+2*time.Second, 2*time.Second // the clock after the last turn: left + the increment
		bound := k.boardBound()
		if bound > prev || bound < minBoardBound || bound > k.cfg.MaxBoards {
			t.Errorf("%s left: bound %d (the previous %d)", left, bound, prev)
		}
		if left+time.Second >= lowClock && bound != k.cfg.MaxBoards {
			t.Errorf("%s left: bound %d, want the full %d", left, bound, k.cfg.MaxBoards)
		}
		prev = bound
		if left <= 0 {
			continue
		}
		b := k.turnBudget(left)
		if left < lowClock && b > k.increment*6/10+left/40 {
			t.Errorf("%s left: budget %s spends the reserve", left, b)
		}
		if b > left/6 {
			t.Errorf("%s left: budget %s over a sixth of the clock", left, b)
		}
	}
}

// ParseWatches reads SQUARE=PIECE lists and refuses anything else in
// words; Share is a piece's weight in the belief.
func TestParseWatchesAndShare(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // the watches' String, or the error's start
		ok   bool
	}{
		{"c1=r", "[c1=r]", true},
		{"c1=r, d7=Q", "[c1=r d7=Q]", true},
		{"", "watch \"\": want SQUARE=PIECE", false},
		{"c1", "watch \"c1\": want SQUARE=PIECE", false},
		{"c1=rr", "watch \"c1=rr\": want SQUARE=PIECE", false},
		{"i1=r", "watch \"i1=r\": invalid square", false},
		{"c1=x", "watch \"c1=x\": \"x\" is not a piece letter", false},
	} {
		w, err := ParseWatches(tc.in)
		switch {
		case tc.ok && (err != nil || fmt.Sprint(w) != tc.want):
			t.Errorf("ParseWatches(%q) = %v, %v; want %s", tc.in, w, err, tc.want)
		case !tc.ok && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("ParseWatches(%q) error %v; want one starting %q", tc.in, err, tc.want)
		}
	}
	k := NewKnightwatch(knightwatchLevels[3], 1)
	k.Start(game.White, recon.NewBoard(), "x")
	if got := k.Share(game.E1, game.WhiteKing); got != 1 {
		t.Errorf("share of the white king on e1 at the start: %v", got)
	}
	if got := k.Share(game.E4, game.WhitePawn); got != 0 {
		t.Errorf("share of a white pawn on e4 at the start: %v", got)
	}
}
