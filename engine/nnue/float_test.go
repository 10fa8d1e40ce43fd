package nnue_test

import (
	"strings"
	"testing"

	"knightwatch/engine/nnue"
	"knightwatch/game"
)

// FlipFeature must agree with Feature seen from the other side, both ways.
func TestFlipFeature(t *testing.T) {
	for c := game.White; c <= game.Black; c++ {
		for pt := game.Pawn; pt <= game.King; pt++ {
			for sq := game.Square(0); sq < 64; sq++ {
				w, b := nnue.Feature(game.White, c, pt, sq), nnue.Feature(game.Black, c, pt, sq)
				if nnue.FlipFeature(w) != b || nnue.FlipFeature(b) != w {
					t.Fatalf("colour %v type %v square %v: FlipFeature(%d) = %d, want %d", c, pt, sq, w, nnue.FlipFeature(w), b)
				}
			}
		}
	}
}

func TestQuantize(t *testing.T) {
	w1 := make([]float32, nnue.Inputs*nnue.Hidden)
	b1 := make([]float32, nnue.Hidden)
	w2 := make([]float32, 2*nnue.Hidden)
	w1[5], b1[1], w2[3] = 0.5, -1, 0.25
	n, err := nnue.Quantize(w1, b1, w2, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		got, want int
	}{
		{"w1 at QA", int(n.W1[5]), 128}, // 127.5 rounds away from zero
		{"b1 at QA", int(n.B1[1]), -255},
		{"w2 at QB", int(n.W2[3]), 16},
		{"b2 at QA·QB", int(n.B2), 1632},
		{"zero stays zero", int(n.W1[6]), 0},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
		}
	}
	if _, err := nnue.Quantize(w1[1:], b1, w2, 0); err == nil || !strings.Contains(err.Error(), "quantize") {
		t.Errorf("short w1: %v", err)
	}
}
