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

// TestTableName: a missing table is named as Gaviota's files are, the side
// with more pieces first, or as many and the stronger ones.
func TestTableName(t *testing.T) {
	for _, c := range []struct{ wl, bl, want string }{
		{"kq", "k", "kqk"}, {"k", "kp", "kpk"}, {"kr", "kq", "kqkr"}, {"kq", "kr", "kqkr"},
		{"kbn", "kr", "kbnkr"}, {"kp", "kpp", "kppkp"}, {"kn", "kb", "kbkn"},
	} {
		if got := tableName(c.wl, c.bl); got != c.want {
			t.Errorf("%s against %s: %q, want %q", c.wl, c.bl, got, c.want)
		}
	}
}
