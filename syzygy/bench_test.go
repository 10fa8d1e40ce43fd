package syzygy

import (
	"math/rand/v2"
	"testing"

	"knightwatch/game"
)

// benchPositions returns n random legal positions spread over every
// 4-piece table of testdata, with the tables already loaded.
func benchPositions(b *testing.B, tb *Tablebase, n int) []*game.Position {
	b.Helper()
	var names []string
	for _, name := range tb.Tables() {
		if len(name) == 5 { // "KQvKR": four pieces
			names = append(names, name)
		}
	}
	rng := rand.New(rand.NewPCG(7, 36))
	ps := make([]*game.Position, n)
	for i := range ps {
		ps[i] = randomPosition(b, rng, names[i%len(names)])
		if _, err := tb.ProbeDTZ(ps[i]); err != nil { // loads the tables
			b.Fatal(err)
		}
	}
	return ps
}

// BenchmarkProbeWDL measures WDL probes (captures and en passant resolved,
// as an engine's search calls it) over random positions of the 4-piece set.
func BenchmarkProbeWDL(b *testing.B) {
	tb := openTestdata(b)
	ps := benchPositions(b, tb, 4096)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tb.ProbeWDL(ps[i%len(ps)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "probes/s")
}

// BenchmarkProbeDTZ measures DTZ probes (as at the root) over random
// positions of the 4-piece set.
func BenchmarkProbeDTZ(b *testing.B) {
	tb := openTestdata(b)
	ps := benchPositions(b, tb, 4096)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tb.ProbeDTZ(ps[i%len(ps)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "probes/s")
}

// BenchmarkProbeWDLParallel is BenchmarkProbeWDL from GOMAXPROCS goroutines.
func BenchmarkProbeWDLParallel(b *testing.B) {
	tb := openTestdata(b)
	ps := benchPositions(b, tb, 4096)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := rand.IntN(len(ps))
		for pb.Next() {
			if _, err := tb.ProbeWDL(ps[i%len(ps)]); err != nil {
				b.Error(err)
				return
			}
			i++
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "probes/s")
}
