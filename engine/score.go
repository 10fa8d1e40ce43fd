// Search scores: the score range, mate scores, and their conversion for
// the transposition table and for the API's Score.

package engine

const (
	maxPly    = 100
	infinity  = 32001
	mateValue = 32000
	// Scores beyond mateBound are mates; the margin leaves room for the
	// distance to mate.
	mateBound = mateValue - 2*maxPly
)

// scoreToTT makes a score relative to the root at ply relative to the
// node, as the transposition table keeps it: mate and tablebase scores
// count their distance from the node.
func scoreToTT(s, ply int) int {
	switch {
	case s >= tbBound:
		return s + ply
	case s <= -tbBound:
		return s - ply
	}
	return s
}

// scoreFromTT is scoreToTT's inverse.
func scoreFromTT(s, ply int) int {
	switch {
	case s >= tbBound:
		return s - ply
	case s <= -tbBound:
		return s + ply
	}
	return s
}

// toScore converts an internal score to the API's Score.
func toScore(s int) Score {
	switch {
	case s >= mateBound:
		return Score{CP: s, Mate: (mateValue - s + 1) / 2}
	case s <= -mateBound:
		return Score{CP: s, Mate: -(mateValue + s) / 2}
	case s >= tbBound:
		// A tablebase win: about 200 pawns, less one per ply from here.
		return Score{CP: tbUCIWin - (tbValue - s)}
	case s <= -tbBound:
		return Score{CP: -tbUCIWin + (tbValue + s)}
	}
	return Score{CP: s}
}
