package engine

import "knightwatch/game"

// This file is the small API the tuner (package tune) uses to fit the
// hand-written evaluation's weights: the weights themselves, a traced
// evaluation that is linear in them, the quiet-position test and the
// names of the runs of terms for the generated tuned.go.

// NumTerms is the number of evaluation terms; each has a middlegame and an
// endgame weight.
const NumTerms = int(numTerms)

// Weights holds every evaluation weight in centipawns: [0] middlegame,
// [1] endgame, each indexed by term (the layout in eval.go, named by
// TermGroups).
type Weights [2][NumTerms]int

// CurrentWeights returns a copy of the weights the evaluation uses.
func CurrentWeights() Weights { return Weights(params) }

// Trace is a position's hand-written evaluation as a linear function of
// the weights w:
//
//	White's-view score ≈ Σ Coefs[i]·(MG·w[0][Terms[i]] + EG·w[1][Terms[i]])
//
// up to the integer divisions the evaluation makes.
type Trace struct {
	Terms []int32 // the terms that counted, in ascending order
	Coefs []int16 // how often each counted, White's minus Black's
	// MG and EG turn the two weighted sums into the score: the phase
	// blend times the endgame scaling (opposite-coloured bishops, few
	// pawns) and the drawish-material scaling.
	MG, EG float64
}

// TraceEval traces p's evaluation and returns the trace and the
// evaluation (side to move's view, as the search sees it).
func TraceEval(p *game.Position) (Trace, int) {
	var tr evalTrace
	score := evaluateTraced(p, &tr)
	return traceOf(&tr), score
}

// traceOf keeps a trace's non-zero terms and its scale factors.
func traceOf(tr *evalTrace) Trace {
	var s Trace
	for t, c := range tr.coef {
		if c != 0 {
			s.Terms = append(s.Terms, int32(t))
			s.Coefs = append(s.Coefs, int16(c))
		}
	}
	s.MG = float64(tr.phase) / maxPhase * tr.drawScale
	s.EG = float64(maxPhase-tr.phase) / maxPhase * tr.egScale * tr.drawScale
	return s
}

// QuietChecker tells quiet positions, the ones a tuner should learn from,
// with a quiescence search outside any game. It is not safe for concurrent
// use, and must not run while weights change.
type QuietChecker struct{ t *thread }

// NewQuietChecker returns a QuietChecker with its own small search state.
func NewQuietChecker() *QuietChecker { return &QuietChecker{t: newQuietThread()} }

// Quiet reports whether p is not in check and its quiescence search gives
// its static evaluation: a capture sequence would change the evaluation,
// so a label would judge a different position than the one evaluated.
func (q *QuietChecker) Quiet(p *game.Position) bool {
	if p.InCheck() {
		return false
	}
	static := evaluate(p)
	q.t.keys = append(q.t.keys[:0], p.Hash())
	return q.t.qsearch(p, -infinity, infinity, 0, false) == static
}

// newQuietThread returns a search thread for quiescence checks outside a
// search.
func newQuietThread() *thread {
	t := &thread{id: 1, tt: newTransTable(1), st: &searchState{depthLimit: maxPly - 1}}
	t.allocate()
	return t
}

// TermGroup is a run of consecutive terms with one meaning, such as a
// piece-square table: tuned.go is written one commented group at a time,
// RowLength values a line.
type TermGroup struct {
	Name                  string
	Start, Len, RowLength int
}

// TermGroups returns the groups that tile the terms 0..NumTerms-1 in
// order.
func TermGroups() []TermGroup { return append([]TermGroup(nil), termGroups...) }

// termGroups names the runs of weights in tuned.go, for a readable file.
var termGroups = func() []TermGroup {
	g := func(name string, start, n evalTerm, rowLength int) TermGroup {
		return TermGroup{Name: name, Start: int(start), Len: int(n), RowLength: rowLength}
	}
	out := []TermGroup{g("material (none, P, N, B, R, Q, K)", tValue, 7, 7)}
	names := [7]string{"", "pawn", "knight", "bishop", "rook", "queen", "king"}
	for pt := game.Pawn; pt <= game.King; pt++ {
		out = append(out, g("piece-square table: "+names[pt]+" (a1..h1, a2..h2, ...)", pstTerm(pt, 0), 64, 8))
	}
	for pt := game.Knight; pt <= game.Queen; pt++ {
		out = append(out, g("mobility: "+names[pt]+" (by reachable squares)", mobilityTerm(pt, 0), evalTerm(mobilityCount[pt]), 8))
	}
	out = append(out,
		g("passed pawn by relative rank", tPassed, 8, 8),
		g("passed pawn with a free path, by relative rank", tPassedFree, 8, 8),
		g("isolated, doubled, bishop pair, rook on open file, rook on half-open file, pawn shield, tempo, "+
			"passer's distance to the enemy king, to our king, pawn threat, minor threat, rook threat, "+
			"outpost, rook on 7th, king on open file", tIsolated, tConnected-tIsolated, 6),
		g("connected pawn by relative rank", tConnected, 8, 8),
		g("king exposure, hanging piece", tKingExposure, 2, 2),
		g("king danger by attack units (with the queen)", tKingDanger, kingDangerUnits, 10),
		g("king danger by attack units (without the queen)", tKingDangerNoQueen, kingDangerUnits, 10),
		g("safe checks (none, P, N, B, R, Q, K)", tSafeCheck, 7, 7),
		g("passed pawn with a safe stop square, by relative rank", tPassedSafe, 8, 8),
		g("backward pawn", tBackward, 1, 1),
		g("pawn storm by relative rank, unblocked", tStorm, 8, 8),
		g("pawn storm blocked, safe pawn-push threat, king's distance to its pawns, bad bishop, minor behind a pawn, space",
			tStormBlocked, numTerms-tStormBlocked, 6),
	)
	return out
}()
