package main

import (
	"strings"
	"testing"

	"knightwatch/game"
)

func TestParseScore(t *testing.T) {
	for _, tc := range []struct {
		comment string
		want    float64
		ok      bool
	}{
		{"+0.55/15 1.524s", 0.55, true},
		{"-1.20/9 0.1s", -1.2, true},
		{"0.00/30 0.2s", 0, true},
		{"+M3/14 0.001s", 100, true},
		{"-M12/20 0.016s", -100, true},
		{"0.003s", 0, false}, // no score: a book move or an engine that sent none
		{"", 0, false},
	} {
		got, ok := parseScore(tc.comment)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseScore(%q) = %v, %v; want %v, %v", tc.comment, got, ok, tc.want, tc.ok)
		}
	}
}

// The agreed advantage is the smaller of the player's score and the
// opponent's reply seen from the player's side.
func TestAnalyse(t *testing.T) {
	const pgn = `[White "us"]
[Black "them"]
[Result "1/2-1/2"]

1. e4 {+0.30/10 0.1s} e5 {-0.20/10 0.1s} 2. Nf3 {+2.50/10 0.1s} Nc6 {-1.10/10 0.1s}
3. Bb5 {-0.80/10 0.1s} a6 {+0.40/10 0.1s} 1/2-1/2
`
	games, err := game.ReadPGN(strings.NewReader(pgn))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		player      string
		best, worst float64
		result      int
	}{
		// us: (0.30, 0.20) -> 0.20; (2.50, 1.10) -> 1.10; (-0.80, -0.40) -> -0.80.
		{"us", 1.10, -0.40, 0},
		// them: its score next to the reply turned: (-0.20, -2.50) -> best
		// -2.50, worst -0.20; (-1.10, +0.80) -> best -1.10, worst 0.80.
		{"them", -1.10, -0.20, 0},
	} {
		sum, err := analyse(games[0], tc.player)
		if err != nil {
			t.Fatal(err)
		}
		if sum.best != tc.best || sum.worst != tc.worst || sum.result != tc.result {
			t.Errorf("%s: best %v worst %v result %d; want %v %v %d", tc.player, sum.best, sum.worst, sum.result, tc.best, tc.worst, tc.result)
		}
		if sum.reason != "not over: agreed, adjudicated or unknown" {
			t.Errorf("%s: a draw the board does not end reported as %q", tc.player, sum.reason)
		}
		if want := "KQRRBBNNPPPPPPPP v KQRRBBNNPPPPPPPP"; sum.final != want {
			t.Errorf("%s: final material %q, want %q", tc.player, sum.final, want)
		}
	}
	if _, err := analyse(games[0], "nobody"); err == nil {
		t.Error("a player who did not play: no error")
	}
}

func TestMaterialAndByCount(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		side game.Color
		want string
	}{
		{"3r2k1/5pp1/8/8/8/8/5PPP/3R2K1 w - - 0 1", game.White, "KRPPP v KRPP"},
		{"3r2k1/5pp1/8/8/8/8/5PPP/3R2K1 w - - 0 1", game.Black, "KRPP v KRPPP"},
		{"8/8/8/8/8/5k2/8/4QK2 b - - 0 1", game.Black, "K v KQ"},
	} {
		p, err := game.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := material(p, tc.side); got != tc.want {
			t.Errorf("%s, %v first: %q, want %q", tc.fen, tc.side, got, tc.want)
		}
	}
	got := byCount(map[string]int{"b": 2, "a": 2, "c": 5, "d": 1})
	if strings.Join(got, ",") != "c,a,b,d" {
		t.Errorf("byCount order %v, want c,a,b,d", got)
	}
}
