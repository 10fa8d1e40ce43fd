package gaviota

import (
	"math/rand/v2"
	"testing"

	"knightwatch/game"
)

// benchPositions returns n random legal positions of the five tables in
// turn, either colour the stronger side, either side to move.
func benchPositions(b *testing.B, n int) []*game.Position {
	b.Helper()
	rng := rand.New(rand.NewPCG(7, 48))
	pieces := []game.PieceType{game.Queen, game.Rook, game.Bishop, game.Knight, game.Pawn}
	ps := make([]*game.Position, 0, n)
	for len(ps) < n {
		pt := pieces[len(ps)%len(pieces)]
		s := rng.IntN(numStates)
		stm, wk, bk, x := stateSquares(s)
		if !legalState(pt, stm, wk, bk, x) {
			continue
		}
		p, err := game.ParseFEN(stateFEN(pt, s, rng.IntN(2) == 0))
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// benchProbe probes ps in turn, reporting probes per second.
func benchProbe(b *testing.B, tb *Tablebase, ps []*game.Position) {
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tb.ProbeDTM(ps[i%len(ps)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "probes/s")
}

// BenchmarkProbeDTMWarm: every block already decoded and cached (the
// default cache holds the whole 3-piece set).
func BenchmarkProbeDTMWarm(b *testing.B) {
	tb := openDebian(b, DefaultCacheBytes)
	ps := benchPositions(b, 4096)
	for _, p := range ps {
		tb.ProbeDTM(p) // decodes every block the positions need
	}
	benchProbe(b, tb, ps)
}

// BenchmarkProbeDTMCold: a cache of one block and positions of a
// different table each time, so that nearly every probe reads and decodes
// its block (a cold cache's cost, without the file's first opening).
func BenchmarkProbeDTMCold(b *testing.B) {
	tb := openDebian(b, blockEntries)
	ps := benchPositions(b, 4096)
	benchProbe(b, tb, ps)
	hits, misses := tb.CacheStats()
	b.ReportMetric(float64(misses)/float64(hits+misses), "misses/probe")
}
