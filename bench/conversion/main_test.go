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
		best, worst, result, reason, err := analyse(games[0], tc.player)
		if err != nil {
			t.Fatal(err)
		}
		if best != tc.best || worst != tc.worst || result != tc.result {
			t.Errorf("%s: best %v worst %v result %d; want %v %v %d", tc.player, best, worst, result, tc.best, tc.worst, tc.result)
		}
		if reason != "not over: agreed, adjudicated or unknown" {
			t.Errorf("%s: a draw the board does not end reported as %q", tc.player, reason)
		}
	}
	if _, _, _, _, err := analyse(games[0], "nobody"); err == nil {
		t.Error("a player who did not play: no error")
	}
}
