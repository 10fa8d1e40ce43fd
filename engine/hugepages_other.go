//go:build !linux

package engine

// allocTableWords returns n zeroed words for the transposition table.
func allocTableWords(n int) []uint64 { return make([]uint64, n) }
