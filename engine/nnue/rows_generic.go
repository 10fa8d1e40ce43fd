//go:build !amd64

package nnue

// The portable versions of the row arithmetic rows_amd64.s does with
// vector instructions; rows_test.go checks the two agree.

func addSubRow(dst, src, a, b *[Hidden]int16) { addSubRowGo(dst, src, a, b) }
func addRow(v, w *[Hidden]int16)              { addRowGo(v, w) }
func subRow(v, w *[Hidden]int16)              { subRowGo(v, w) }
func outputSum(us, them *[Hidden]int16, w *[2 * Hidden]int16) int32 {
	return outputSumGo(us, them, w)
}
