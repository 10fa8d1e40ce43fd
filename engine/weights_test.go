package engine

import (
	"testing"

	"knightwatch/game"
)

// TestTraceMatchesEvaluate guards the tuner's model: the traced terms,
// weighted and scaled as package tune does, must give evaluate's score (up
// to the integer divisions evaluate makes). If a term is added to evaluate
// without going through evalAcc, this fails.
func TestTraceMatchesEvaluate(t *testing.T) {
	w := CurrentWeights()
	fens := append(append([]string{}, legalPositions...), BenchFENs...)
	fens = append(fens,
		"4k3/8/8/8/8/8/8/3NK3 w - - 0 1",                           // drawish scaling
		"4k3/pp3b2/8/8/8/8/PP6/2B1K3 w - - 0 1",                    // opposite-coloured bishops
		"r3k2r/ppq2ppp/2n5/3Np3/2B5/8/PPP2PPP/R2QK2R b KQkq - 0 1", // king danger
	)
	for _, fen := range fens {
		p := mustFEN(t, fen)
		tr, got := TraceEval(p)
		if got != evaluate(p) {
			t.Fatalf("%s: tracing changed the score", fen)
		}
		var mg, eg float64
		for i, term := range tr.Terms {
			mg += float64(tr.Coefs[i]) * float64(w[0][term])
			eg += float64(tr.Coefs[i]) * float64(w[1][term])
		}
		linear := mg*tr.MG + eg*tr.EG
		white := got
		if p.Side() == game.Black {
			white = -got
		}
		if d := linear - float64(white); d > 2 || d < -2 {
			t.Errorf("%s: linear model %.1f, evaluate %d", fen, linear, white)
		}
	}
}

// TestTermGroupsCoverAllTerms: tuned.go is written group by group, and a
// Go array literal with too few values silently zero-fills the rest, so
// the groups must tile the term layout exactly.
func TestTermGroupsCoverAllTerms(t *testing.T) {
	next := 0
	for _, g := range TermGroups() {
		if g.Start != next || g.Len < 1 || g.RowLength < 1 {
			t.Fatalf("group %q starts at %d (want %d), %d terms, rows of %d", g.Name, g.Start, next, g.Len, g.RowLength)
		}
		next += g.Len
	}
	if next != NumTerms {
		t.Fatalf("groups end at %d, want NumTerms %d", next, NumTerms)
	}
}

func TestQuietChecker(t *testing.T) {
	cases := []struct {
		name, fen string
		quiet     bool
	}{
		{"start position", game.StartFEN, true},
		{"a queen hangs to a pawn", "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", false},
		{"in check", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1", false},
		{"bare kings and a pawn", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", true},
	}
	q := NewQuietChecker()
	for _, c := range cases {
		if got := q.Quiet(mustFEN(t, c.fen)); got != c.quiet {
			t.Errorf("%s: Quiet = %v, want %v", c.name, got, c.quiet)
		}
	}
}
