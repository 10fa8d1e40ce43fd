package engine

import (
	"math/rand/v2"
	"testing"

	"knightwatch/game"
)

// TestEvaluatorMatchesFreshOne checks that one Evaluator used for many
// unrelated positions gives each the static score a fresh Evaluator gives
// it: nothing of one position's network accumulators leaks into the next.
func TestEvaluatorMatchesFreshOne(t *testing.T) {
	for _, opts := range []Options{{}, {HandWrittenEval: true}} {
		shared := NewEvaluator(opts)
		rng := rand.New(rand.NewPCG(1, 2))
		for g := 0; g < 40; g++ {
			p := game.NewPosition()
			for ply := 0; ply < 60; ply++ {
				moves := p.LegalMoves()
				if len(moves) == 0 {
					break
				}
				p.MakeMove(moves[rng.IntN(len(moves))])
				if got, want := shared.Static(p), NewEvaluator(opts).Static(p); got != want {
					t.Fatalf("%s (hand-written %v): shared evaluator %d, fresh %d", p.FEN(), opts.HandWrittenEval, got, want)
				}
				if ply%10 == 0 {
					shared.Quiesce(p) // interleave searches, which use deeper plies
				}
			}
		}
	}
}

// TestEvaluatorQuiesce checks that quiescence sees a hanging queen and a
// mate, where the static evaluation does not.
func TestEvaluatorQuiesce(t *testing.T) {
	ev := NewEvaluator(Options{})
	// White to move can take the undefended queen on d5.
	p, err := game.ParseFEN("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if s, q := ev.Static(p), ev.Quiesce(p); !(s < -100 && q > 200) {
		t.Errorf("hanging queen: static %d, quiescence %d; want the capture seen", s, q)
	}
	// Black is mated (back rank), to move.
	p, err = game.ParseFEN("3R2k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if q := ev.Quiesce(p); q > -MateScore+200 {
		t.Errorf("mated side scores %d", q)
	}
	if ev.Nodes() == 0 {
		t.Error("no nodes counted")
	}
}

// BenchmarkEvaluatorQuiesce measures one quiescence search of a middlegame
// position from scratch, the unit of a Reconnaissance Chess bot's work.
func BenchmarkEvaluatorQuiesce(b *testing.B) {
	ev := NewEvaluator(Options{})
	p, err := game.ParseFEN("r1bqk2r/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQkq - 0 8")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		ev.Quiesce(p)
	}
}
