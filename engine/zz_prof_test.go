package engine

import "testing"

func BenchmarkBenchProfile(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Bench(13, 1, 16, nil)
	}
}
