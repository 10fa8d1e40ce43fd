package syzygy

import (
	"math/rand/v2"
	"testing"

	"knightwatch/game"
)

// mates reports whether the side to move forces mate within n of its own
// moves, by plain search without the tables.
func mates(p *game.Position, n int) bool {
	for _, m := range p.LegalMoves() {
		c := *p
		c.MakeMove(m)
		if c.IsCheckmate() || (n > 1 && isMated(&c, n-1)) {
			return true
		}
	}
	return false
}

// isMated reports whether the side to move is mated within n moves of the
// opponent whatever it plays (mated already counts; stalemate does not).
func isMated(p *game.Position, n int) bool {
	moves := p.LegalMoves()
	if len(moves) == 0 {
		return p.InCheck()
	}
	for _, m := range moves {
		c := *p
		c.MakeMove(m)
		if !mates(&c, n) {
			return false
		}
	}
	return true
}

// TestAgreesWithMateSearch compares the tables with a search to mate that
// knows nothing of them, on random KQvK, KRvK and KBBvK positions small
// enough to solve: a mate within n moves found by search is a tablebase
// win whose DTZ (plies to mate: these endings have no other zeroing move
// for the winner) is at most 2n-1, a tablebase win with a DTZ of at most
// 2n-1 is a mate the search finds within n moves, and a side the search
// finds mated within n moves is a tablebase loss. Syzygy may round DTZ by
// one ply, so the bounds allow one.
func TestAgreesWithMateSearch(t *testing.T) {
	tb := openTestdata(t)
	rng := rand.New(rand.NewPCG(7, 11))
	cases := []struct {
		material string
		n, count int
	}{
		{"KQvK", 2, 4000}, {"KRvK", 2, 4000}, {"KBBvK", 2, 2000},
		{"KQvK", 3, 400}, {"KRvK", 3, 400},
	}
	if testing.Short() {
		cases = cases[:3]
	}
	for _, c := range cases {
		found, mated := 0, 0
		for i := 0; i < c.count; i++ {
			p := randomPosition(t, rng, c.material)
			wdl, err := tb.ProbeWDL(p)
			if err != nil {
				t.Fatalf("%s: %v", p.FEN(), err)
			}
			dtz, err := tb.ProbeDTZ(p)
			if err != nil {
				t.Fatalf("%s: %v", p.FEN(), err)
			}
			switch {
			case mates(p, c.n):
				found++
				if wdl != Win || dtz < 1 || dtz > 2*c.n {
					t.Errorf("%s: mate in at most %d found by search, tables say wdl %d dtz %d", p.FEN(), c.n, wdl, dtz)
				}
			case wdl == Win && dtz <= 2*c.n-2:
				t.Errorf("%s: tables say a win with dtz %d, search finds no mate in %d", p.FEN(), dtz, c.n)
			}
			if isMated(p, c.n) {
				mated++
				if wdl != Loss {
					t.Errorf("%s: mated within %d moves by search, tables say wdl %d", p.FEN(), c.n, wdl)
				}
			}
		}
		t.Logf("%s, mate within %d moves: %d of %d positions a mate for the side to move, %d mated", c.material, c.n, found, c.count, mated)
	}
}
