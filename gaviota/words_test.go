package gaviota

import (
	"testing"

	"knightwatch/game"
)

// TestMateWords pins the wording: moves of the side that mates, its
// mating move included, from a DTM in plies of either sign.
func TestMateWords(t *testing.T) {
	for _, c := range []struct {
		side game.Color
		wdl  WDL
		dtm  int
		want string
	}{
		{game.White, Win, 1, "White mates in 1"},
		{game.White, Win, 29, "White mates in 15"},
		{game.Black, Win, 3, "Black mates in 2"},
		{game.Black, Loss, -2, "White mates in 1"},
		{game.Black, Loss, -30, "White mates in 15"},
		{game.White, Loss, -28, "Black mates in 14"},
		{game.Black, Loss, 0, "Black is checkmated"},
		{game.White, Draw, 0, "draw"},
	} {
		if got := MateWords(c.side, c.wdl, c.dtm); got != c.want {
			t.Errorf("%v to move, %v, DTM %d: %q, want %q", c.side, c.wdl, c.dtm, got, c.want)
		}
	}
}
