package engine

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"knightwatch/game"
)

// The pawn cache must be invisible: along random games, the cached
// evaluation (first call: a miss that fills the entry; second: a hit) must
// equal the uncached one in every position.
func TestPawnCacheMatchesUncachedEval(t *testing.T) {
	pc := new(pawnCache)
	rng := rand.New(rand.NewPCG(3, 4))
	positions, hits := 0, 0
	for _, fen := range BenchFENs {
		for g := 0; g < 10; g++ {
			p := mustFEN(t, fen)
			for ply := 0; ply < 80; ply++ {
				want := evaluate(p)
				white, black := p.Pieces(game.White, game.Pawn), p.Pieces(game.Black, game.Pawn)
				e := &pc[pawnIndex(p)]
				if e.white == white && e.black == black {
					hits++
				}
				for call := 0; call < 2; call++ {
					if got := evaluateCached(p, pc); got != want {
						t.Fatalf("%s: cached eval (call %d) %d, uncached %d", p.FEN(), call+1, got, want)
					}
				}
				positions++
				var ml game.MoveList
				p.GenerateLegal(&ml)
				if ml.N == 0 {
					break
				}
				p.MakeMove(ml.Moves[rng.IntN(ml.N)])
			}
		}
	}
	// Pawns move on a fraction of moves only, so many positions must find
	// their structure already stored; otherwise the cache is not working.
	if hits < positions/4 {
		t.Errorf("only %d of %d positions found their pawn structure cached", hits, positions)
	}
}

func TestTableWordsAreZeroedAndAligned(t *testing.T) {
	for _, n := range []int{8, 1 << 10, 2 << 20, 3<<20 + 8} {
		w := allocTableWords(n)
		if len(w) != n {
			t.Fatalf("allocTableWords(%d) has %d words", n, len(w))
		}
		for i, v := range w {
			if v != 0 {
				t.Fatalf("allocTableWords(%d)[%d] = %d, want 0", n, i, v)
			}
		}
		// A cluster must never straddle two cache lines.
		if addr := uintptr(unsafe.Pointer(&w[0])); addr%64 != 0 {
			t.Errorf("allocTableWords(%d) starts at %#x, not on a cache line", n, addr)
		}
	}
}
