package main

import (
	"strings"
	"testing"

	"knightwatch/game"
)

const testPGN = `[White "us"]
[Black "them"]
[Result "1-0"]

1. e4 {0.010s} 1... e5 {+0.20/12 0.300s} 2. Nf3 {0.012s} 2... Nc6 {+0.10/12 0.2s} 3. Bb5 {+0.30/14 0.5s} 1-0

[White "them"]
[Black "us"]
[Result "1/2-1/2"]

1. d4 {+0.10/12 0.3s} 1... d5 {0.01s} 2. c4 {+0.2/12 0.3s} 1/2-1/2

[White "them"]
[Black "us"]
[Result "1-0"]

1. d4 {+0.10/12 0.3s} 1... d5 {-0.1/13 0.4s} 1-0

[White "other"]
[Black "them"]
[Result "0-1"]

1. e4 e5 0-1

[White "us"]
[Black "them"]
[Result "*"]

1. e4 {0.01s} *
`

func TestCount(t *testing.T) {
	games, err := game.ReadPGN(strings.NewReader(testPGN))
	if err != nil {
		t.Fatal(err)
	}
	byColour, byBook := count(games, "us")
	// White: one win with two book moves (the score-less comments; the
	// opponent's and the searched ones do not count). Black: a draw with
	// one book move and a loss with none. Other players' games and
	// unfinished ones are left out.
	if byColour[game.White] != (tally{1, 1}) || byColour[game.Black] != (tally{2, 0.5}) {
		t.Errorf("by colour: %+v", byColour)
	}
	if byBook[game.White][2] != (tally{1, 1}) || byBook[game.Black][1] != (tally{1, 0.5}) || byBook[game.Black][0] != (tally{1, 0}) {
		t.Errorf("by book moves: %+v", byBook)
	}
}
