package main

import (
	"runtime"
	"strings"

	"knightwatch/recon"
)

func runtimeCPUs() int { return runtime.NumCPU() }

func fieldsOf(s string) []string { return strings.Fields(s) }

// reconActions counts the senses and moves in a stored history.
func reconActions(history string) int {
	if history == "" {
		return 0
	}
	h, err := recon.UnmarshalHistory([]byte(history))
	if err != nil {
		return -1
	}
	n := 0
	for c := range h.Senses {
		n += len(h.Senses[c]) + len(h.RequestedMoves[c])
	}
	return n
}
