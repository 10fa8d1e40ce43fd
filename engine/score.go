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

func scoreToTT(s, ply int) int {
	switch {
	case s >= mateBound:
		return s + ply
	case s <= -mateBound:
		return s - ply
	}
	return s
}

func scoreFromTT(s, ply int) int {
	switch {
	case s >= mateBound:
		return s - ply
	case s <= -mateBound:
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
	}
	return Score{CP: s}
}
