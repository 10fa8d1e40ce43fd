package engine

import "knightwatch/game"

// The hand-written starting point of the evaluation: the values the Texel
// tuner starts from, and what the engine would play with if tuned.go were
// empty. They are classic textbook values; the tuner refines all of them.

// Visual tables, rank 8 first, as one reads a diagram.
var (
	pstPawnMG = [64]int{
		0, 0, 0, 0, 0, 0, 0, 0,
		50, 50, 50, 50, 50, 50, 50, 50,
		10, 10, 20, 30, 30, 20, 10, 10,
		5, 5, 10, 25, 25, 10, 5, 5,
		0, 0, 0, 20, 20, 0, 0, 0,
		5, -5, -10, 0, 0, -10, -5, 5,
		5, 10, 10, -20, -20, 10, 10, 5,
		0, 0, 0, 0, 0, 0, 0, 0,
	}
	pstPawnEG = [64]int{
		0, 0, 0, 0, 0, 0, 0, 0,
		80, 80, 80, 80, 80, 80, 80, 80,
		50, 50, 50, 50, 50, 50, 50, 50,
		30, 30, 30, 30, 30, 30, 30, 30,
		15, 15, 15, 15, 15, 15, 15, 15,
		5, 5, 5, 5, 5, 5, 5, 5,
		0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
	}
	pstKnight = [64]int{
		-50, -40, -30, -30, -30, -30, -40, -50,
		-40, -20, 0, 0, 0, 0, -20, -40,
		-30, 0, 10, 15, 15, 10, 0, -30,
		-30, 5, 15, 20, 20, 15, 5, -30,
		-30, 0, 15, 20, 20, 15, 0, -30,
		-30, 5, 10, 15, 15, 10, 5, -30,
		-40, -20, 0, 5, 5, 0, -20, -40,
		-50, -40, -30, -30, -30, -30, -40, -50,
	}
	pstBishop = [64]int{
		-20, -10, -10, -10, -10, -10, -10, -20,
		-10, 0, 0, 0, 0, 0, 0, -10,
		-10, 0, 5, 10, 10, 5, 0, -10,
		-10, 5, 5, 10, 10, 5, 5, -10,
		-10, 0, 10, 10, 10, 10, 0, -10,
		-10, 10, 10, 10, 10, 10, 10, -10,
		-10, 5, 0, 0, 0, 0, 5, -10,
		-20, -10, -10, -10, -10, -10, -10, -20,
	}
	pstRook = [64]int{
		0, 0, 0, 0, 0, 0, 0, 0,
		5, 10, 10, 10, 10, 10, 10, 5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		0, 0, 0, 5, 5, 0, 0, 0,
	}
	pstQueen = [64]int{
		-20, -10, -10, -5, -5, -10, -10, -20,
		-10, 0, 0, 0, 0, 0, 0, -10,
		-10, 0, 5, 5, 5, 5, 0, -10,
		-5, 0, 5, 5, 5, 5, 0, -5,
		0, 0, 5, 5, 5, 5, 0, -5,
		-10, 5, 5, 5, 5, 5, 0, -10,
		-10, 0, 5, 0, 0, 0, 0, -10,
		-20, -10, -10, -5, -5, -10, -10, -20,
	}
	pstKingMG = [64]int{
		-30, -40, -40, -50, -50, -40, -40, -30,
		-30, -40, -40, -50, -50, -40, -40, -30,
		-30, -40, -40, -50, -50, -40, -40, -30,
		-30, -40, -40, -50, -50, -40, -40, -30,
		-20, -30, -30, -40, -40, -30, -30, -20,
		-10, -20, -20, -20, -20, -20, -20, -10,
		20, 20, 0, 0, 0, 0, 20, 20,
		20, 30, 10, 0, 0, 10, 30, 20,
	}
	pstKingEG = [64]int{
		-50, -40, -30, -20, -20, -30, -40, -50,
		-30, -20, -10, 0, 0, -10, -20, -30,
		-30, -10, 20, 30, 30, 20, -10, -30,
		-30, -10, 30, 40, 40, 30, -10, -30,
		-30, -10, 30, 40, 40, 30, -10, -30,
		-30, -10, 20, 30, 30, 20, -10, -30,
		-30, -30, 0, 0, 0, 0, -30, -30,
		-50, -30, -30, -30, -30, -30, -30, -50,
	}
)

// handDefaults returns the hand-written weights.
func handDefaults() evalWeights {
	var w evalWeights
	set := func(t evalTerm, mg, eg int) { w[0][t], w[1][t] = mg, eg }
	value := [2][7]int{{0, 82, 337, 365, 477, 1025, 0}, {0, 94, 281, 297, 512, 936, 0}}
	for pt := game.Pawn; pt <= game.Queen; pt++ {
		set(tValue+evalTerm(pt), value[0][pt], value[1][pt])
	}
	visual := [2][7]*[64]int{
		{nil, &pstPawnMG, &pstKnight, &pstBishop, &pstRook, &pstQueen, &pstKingMG},
		{nil, &pstPawnEG, &pstKnight, &pstBishop, &pstRook, &pstQueen, &pstKingEG},
	}
	for ph := 0; ph < 2; ph++ {
		for pt := game.Pawn; pt <= game.King; pt++ {
			for sq := 0; sq < 64; sq++ {
				w[ph][pstTerm(pt, game.Square(sq))] = visual[ph][pt][sq^56]
			}
		}
	}
	// Mobility starts linear around a typical count of reachable squares.
	mobility := [2][7]int{{0, 0, 4, 5, 2, 1, 0}, {0, 0, 4, 5, 4, 2, 0}}
	base := [7]int{0, 0, 4, 6, 6, 12, 0}
	for pt := game.Knight; pt <= game.Queen; pt++ {
		for n := 0; n < mobilityCount[pt]; n++ {
			set(mobilityTerm(pt, n), mobility[0][pt]*(n-base[pt]), mobility[1][pt]*(n-base[pt]))
		}
	}
	passed := [2][8]int{{0, 0, 5, 10, 20, 35, 60, 0}, {0, 10, 15, 25, 45, 75, 120, 0}}
	passedFree := [2][8]int{{0, 0, 0, 2, 5, 10, 15, 0}, {0, 0, 2, 5, 10, 20, 35, 0}}
	for r := 0; r < 8; r++ {
		set(tPassed+evalTerm(r), passed[0][r], passed[1][r])
		set(tPassedFree+evalTerm(r), passedFree[0][r], passedFree[1][r])
	}
	set(tIsolated, -12, -15)
	set(tDoubled, -10, -20)
	set(tBishopPair, 30, 50)
	set(tRookOpen, 25, 10)
	set(tRookSemiOpen, 12, 6)
	set(tShield, 10, 0)
	set(tTempo, 12, 5)
	set(tPassedKingThem, 0, 5)
	set(tPassedKingUs, 0, -2)
	set(tPawnThreat, 40, 30)
	set(tMinorThreat, 30, 20)
	set(tRookThreat, 25, 15)
	set(tOutpost, 20, 10)
	set(tRookSeventh, 15, 25)
	set(tKingOpenFile, -15, 0)
	for r := 0; r < 8; r++ {
		set(tConnected+evalTerm(r), 3*r, 2*r)
		set(tPassedSafe+evalTerm(r), 2*r, 4*r)
	}
	set(tSafeCheck+evalTerm(game.Knight), 10, 0)
	set(tSafeCheck+evalTerm(game.Bishop), 6, 0)
	set(tSafeCheck+evalTerm(game.Rook), 8, 0)
	set(tSafeCheck+evalTerm(game.Queen), 6, 0)
	set(tKingExposure, -4, 0)
	set(tHanging, 20, 10)
	set(tBackward, -8, -8)
	storm := [8]int{0, 0, 0, 5, 12, 20, 0, 0}
	for r := 0; r < 8; r++ {
		set(tStorm+evalTerm(r), storm[r], 0)
	}
	set(tStormBlocked, 3, 0)
	set(tPushThreat, 15, 10)
	set(tKingPawnDist, 0, -4)
	set(tBadBishop, -2, -4)
	set(tMinorShielded, 8, 0)
	set(tSpace, 2, 0)
	// King danger grows with the square of the attack units: attacks by
	// several pieces are the ones that succeed.
	for u := 0; u < kingDangerUnits; u++ {
		set(tKingDanger+evalTerm(u), u*u/4, 0)
		set(tKingDangerNoQueen+evalTerm(u), u*u/8, 0)
	}
	return w
}
