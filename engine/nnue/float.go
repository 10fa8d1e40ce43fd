package nnue

import (
	"fmt"
	"math"
)

// This file is what a trainer (package tune) needs to learn a network in
// floating point and turn it into a Network.

// FlipFeature turns a feature seen from one side into the same piece seen
// from the other side: colours swap, ranks flip. A trainer that keeps
// White's features computes Black's with it.
func FlipFeature(f int) int { return ((f + 384) % Inputs) ^ 56 }

// Quantize builds the integer network from float weights in Network's
// layout (w1 [feature*Hidden + neuron], b1 [Hidden], w2 [2*Hidden], the
// side to move's neurons first, and the output bias b2), in the units a
// trainer uses: a hidden neuron's clipped ReLU saturates at 1 and the
// output is in OutputScale centipawns. The first layer is rounded at QA,
// the output weights at QB and the output bias at QA·QB. The caller keeps
// the weights in range (|w1| below about 2, |w2| below about 8) so that
// the integers cannot overflow.
func Quantize(w1, b1, w2 []float32, b2 float32) (*Network, error) {
	q := new(Network)
	if len(w1) != len(q.W1) || len(b1) != len(q.B1) || len(w2) != len(q.W2) {
		return nil, fmt.Errorf("nnue: quantize: %d, %d and %d weights, want %d, %d and %d",
			len(w1), len(b1), len(w2), len(q.W1), len(q.B1), len(q.W2))
	}
	for i, w := range w1 {
		q.W1[i] = int16(math.Round(float64(w) * QA))
	}
	for i, w := range b1 {
		q.B1[i] = int16(math.Round(float64(w) * QA))
	}
	for i, w := range w2 {
		q.W2[i] = int16(math.Round(float64(w) * QB))
	}
	q.B2 = int32(math.Round(float64(b2) * QA * QB))
	return q, nil
}
