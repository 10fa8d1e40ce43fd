// Package nnuetest provides networks for tests of the packages that use
// engine/nnue.
package nnuetest

import (
	"math/rand/v2"

	"knightwatch/engine/nnue"
)

// Random returns a network with random weights: large enough that every
// neuron's activation varies from position to position, small enough
// never to overflow an accumulator. The same seed gives the same network.
func Random(seed uint64) *nnue.Network {
	rng := rand.New(rand.NewPCG(seed, 1))
	n := new(nnue.Network)
	for i := range n.W1 {
		n.W1[i] = int16(rng.IntN(201) - 100)
	}
	for i := range n.B1 {
		n.B1[i] = int16(rng.IntN(256))
	}
	for i := range n.W2 {
		n.W2[i] = int16(rng.IntN(129) - 64)
	}
	n.B2 = int32(rng.IntN(2001) - 1000)
	return n
}
