package nnue

import (
	"math/rand/v2"
	"testing"
)

// TestRowsMatchPortable checks the row arithmetic the evaluation uses
// (assembly on amd64) against the portable loops, lane by lane, on random
// rows that include negative sums and sums above the clipped ReLU's
// ceiling.
func TestRowsMatchPortable(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	randRow := func(r *[Hidden]int16, span int) {
		for i := range r {
			r[i] = int16(rng.IntN(2*span+1) - span)
		}
	}
	for trial := 0; trial < 2000; trial++ {
		var src, a, b, w [Hidden]int16
		var w2 [2 * Hidden]int16
		randRow(&src, 4000)
		randRow(&a, 600)
		randRow(&b, 600)
		randRow(&w, 600)
		for i := range w2 {
			w2[i] = int16(rng.IntN(1013) - 506) // the trainer's output range
		}

		var got, want [Hidden]int16
		addSubRow(&got, &src, &a, &b)
		addSubRowGo(&want, &src, &a, &b)
		if got != want {
			t.Fatalf("trial %d: addSubRow differs", trial)
		}
		got, want = src, src
		addRow(&got, &w)
		addRowGo(&want, &w)
		if got != want {
			t.Fatalf("trial %d: addRow differs", trial)
		}
		got, want = src, src
		subRow(&got, &w)
		subRowGo(&want, &w)
		if got != want {
			t.Fatalf("trial %d: subRow differs", trial)
		}
		var them [Hidden]int16
		randRow(&them, 400)
		if g, w := outputSum(&src, &them, &w2), outputSumGo(&src, &them, &w2); g != w {
			t.Fatalf("trial %d: outputSum %d, want %d", trial, g, w)
		}
	}
}
