package nnue

// The hidden layer's row arithmetic in SSE2 assembly (rows_amd64.s),
// eight 16-bit lanes per instruction. SSE2 is part of every amd64
// processor, so no feature detection is needed; the search spends most of
// a network evaluation in these loops, which Go does not vectorise. The
// assembly is written for rows of exactly 64 neurons.
var _ = [1]struct{}{}[Hidden-64]

// addSubRow sets dst to src + a - b, lane by lane.
//
//go:noescape
func addSubRow(dst, src, a, b *[Hidden]int16)

// addRow adds w to v, lane by lane.
//
//go:noescape
func addRow(v, w *[Hidden]int16)

// subRow subtracts w from v, lane by lane.
//
//go:noescape
func subRow(v, w *[Hidden]int16)

// outputSum is the sum over both rows of crelu(neuron) × weight, the
// weights being the side to move's row then the other's.
//
//go:noescape
func outputSum(us, them *[Hidden]int16, w *[2 * Hidden]int16) int32
