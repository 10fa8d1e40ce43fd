package engine

import "knightwatch/game"

// The evaluation is tapered: every term has a middlegame and an endgame
// weight, blended by how much non-pawn material is left. It is linear in
// its weights (evalWeights): evaluate adds weight × count for each term,
// and with a trace it records the counts instead, which is what lets the
// Texel tuner (package tune, through weights.go) fit every weight,
// piece-square tables included, by gradient descent.

// evalTerm indexes one weight pair (middlegame, endgame).
type evalTerm int

// Mobility tables have one entry per count of reachable squares.
var mobilityCount = [7]int{0, 0, 9, 14, 15, 28, 0}

// kingDangerUnits is the size of the king-danger tables, indexed by attack
// units (capped).
const kingDangerUnits = 50

// The weight layout. Terms marked "per colour" are counted for White minus
// Black.
const (
	tValue             evalTerm = 0                            // [piece type] material
	tPST               evalTerm = tValue + 7                   // [(piece type-1)*64 + square] from White's view, a1 = 0
	tMobility          evalTerm = tPST + 6*64                  // per piece type, [reachable squares]; see mobilityTerm
	tPassed            evalTerm = tMobility + 9 + 14 + 15 + 28 // [relative rank] passed pawn
	tPassedFree        evalTerm = tPassed + 8                  // [relative rank] extra when the stop square is empty
	tIsolated          evalTerm = tPassedFree + 8
	tDoubled           evalTerm = tIsolated + 1
	tBishopPair        evalTerm = tDoubled + 1
	tRookOpen          evalTerm = tBishopPair + 1
	tRookSemiOpen      evalTerm = tRookOpen + 1
	tShield            evalTerm = tRookSemiOpen + 1 // per own pawn in front of the king
	tTempo             evalTerm = tShield + 1       // side to move
	tPassedKingThem    evalTerm = tTempo + 1        // enemy king's distance to the stop square × (rank-2)
	tPassedKingUs      evalTerm = tPassedKingThem + 1
	tPawnThreat        evalTerm = tPassedKingUs + 1 // enemy piece attacked by a pawn
	tMinorThreat       evalTerm = tPawnThreat + 1   // enemy rook or queen attacked by a knight or bishop
	tRookThreat        evalTerm = tMinorThreat + 1  // enemy queen attacked by a rook
	tOutpost           evalTerm = tRookThreat + 1   // knight on ranks 4-6, pawn-protected, safe from pawns
	tRookSeventh       evalTerm = tOutpost + 1
	tKingOpenFile      evalTerm = tRookSeventh + 1                     // open or half-open file at or beside the king
	tConnected         evalTerm = tKingOpenFile + 1                    // [relative rank] pawn defended by or beside a pawn
	tKingExposure      evalTerm = tConnected + 8                       // squares a queen on the king's square would reach
	tHanging           evalTerm = tKingExposure + 1                    // enemy piece attacked and not defended
	tKingDanger        evalTerm = tHanging + 1                         // [attack units] with two or more attackers and a queen
	tKingDangerNoQueen evalTerm = tKingDanger + kingDangerUnits        // [attack units] without the queen
	tSafeCheck         evalTerm = tKingDangerNoQueen + kingDangerUnits // [piece type] squares giving check that the defender does not cover
	tPassedSafe        evalTerm = tSafeCheck + 7                       // [relative rank] passed pawn whose stop square the enemy does not attack
	tBackward          evalTerm = tPassedSafe + 8                      // pawn that no pawn can support and whose stop square an enemy pawn attacks
	tStorm             evalTerm = tBackward + 1                        // [relative rank] own pawn on or beside the enemy king's file, not blocked by a pawn
	tStormBlocked      evalTerm = tStorm + 8                           // such a pawn blocked by an enemy pawn
	tPushThreat        evalTerm = tStormBlocked + 1                    // enemy piece a safe pawn push would attack
	tKingPawnDist      evalTerm = tPushThreat + 1                      // king's distance to its nearest own pawn
	tBadBishop         evalTerm = tKingPawnDist + 1                    // own pawns on the bishop's square colour, per bishop
	tMinorShielded     evalTerm = tBadBishop + 1                       // knight or bishop with an own pawn right in front
	tSpace             evalTerm = tMinorShielded + 1                   // safe central squares behind the pawns (files c-f, ranks 2-4)
	numTerms                    = tSpace + 1
)

// evalWeights holds every weight: [0] middlegame, [1] endgame.
type evalWeights [2][numTerms]int

// params are the weights the evaluation uses.
var params evalWeights

func init() { setDefaultParams() }

// setDefaultParams loads the built-in weights: the tuned ones when tuned.go
// has them, else the hand-written defaults.
func setDefaultParams() {
	params = handDefaults()
	applyTuned(&params)
	packedParams.set(&params)
}

var mobilityStart = func() (s [7]evalTerm) {
	t := tMobility
	for pt := game.Knight; pt <= game.Queen; pt++ {
		s[pt] = t
		t += evalTerm(mobilityCount[pt])
	}
	return s
}()

func pstTerm(pt game.PieceType, rs game.Square) evalTerm {
	return tPST + evalTerm(int(pt-1)*64+int(rs))
}

func mobilityTerm(pt game.PieceType, n int) evalTerm {
	return mobilityStart[pt] + evalTerm(n)
}

// kingAttackUnits weighs an attacker of each type by how many squares of
// the king zone it hits.
var kingAttackUnits = [7]int{0, 0, 2, 4, 4, 4, 0}

// phase weights of the pieces; 24 means the full opening complement.
var phaseWeight = [7]int{0, 0, 1, 1, 2, 4, 0}

const maxPhase = 24

// evalTrace records, for the tuner, how often each term counted (White
// minus Black) and the factors applied after the sum.
type evalTrace struct {
	coef  [numTerms]int
	phase int
	// egScale is 1, 1/2 (opposite-coloured bishops) or (36+7n)/64 (the side
	// ahead has n < 4 pawns) on the endgame sum;
	// drawScale is 1 or 1/8 (too little material to win) on the result.
	egScale, drawScale float64
}

// packedWeights holds each weight pair as one number, middlegame × 2^32 +
// endgame, so that the evaluation sums both phases with one multiply-add
// per term; the sums stay far below 2^31, so the two halves never mix.
type packedWeights [numTerms]int64

func (pw *packedWeights) set(w *evalWeights) {
	for t := range pw {
		pw[t] = int64(w[0][t])<<32 + int64(w[1][t])
	}
}

// unpackScore splits a packed sum into its middlegame and endgame parts.
func unpackScore(s int64) (mg, eg int) {
	e := int64(int32(uint32(s)))
	return int((s - e) >> 32), int(e)
}

// packedParams is params, packed; setDefaultParams keeps it in step.
var packedParams packedWeights

// evalAcc sums the weighted terms; with a trace it also records them.
type evalAcc struct {
	w     *packedWeights
	sum   int64 // White minus Black, packed
	trace *evalTrace
}

// add counts term t n times for colour c.
func (a *evalAcc) add(c game.Color, t evalTerm, n int) {
	if c == game.Black {
		n = -n
	}
	a.sum += a.w[t] * int64(n)
	if a.trace != nil {
		a.trace.coef[t] += n
	}
}

func distance(a, b game.Square) int {
	return max(abs(a.File()-b.File()), abs(a.Rank()-b.Rank()))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Precomputed masks.
var (
	adjacentFiles [8]game.Bitboard
	passedMask    [2][64]game.Bitboard // squares in front on the same and adjacent files
	forwardFile   [2][64]game.Bitboard // squares in front on the same file
	shieldMask    [2][64]game.Bitboard // two ranks in front of a king, three files wide
	supportMask   [2][64]game.Bitboard // adjacent files, level or behind: where a pawn that could support this one stands
	spaceMask     [2]game.Bitboard     // files c-f, relative ranks 2-4
	distanceRing  [64][8]game.Bitboard // squares at exactly this king-move distance
)

func init() {
	for f := 0; f < 8; f++ {
		if f > 0 {
			adjacentFiles[f] |= game.FileMask(f - 1)
		}
		if f < 7 {
			adjacentFiles[f] |= game.FileMask(f + 1)
		}
	}
	for a := game.Square(0); a < 64; a++ {
		for b := game.Square(0); b < 64; b++ {
			distanceRing[a][distance(a, b)] |= b.Bitboard()
		}
	}
	for sq := game.Square(0); sq < 64; sq++ {
		f, r := sq.File(), sq.Rank()
		for rr := r + 1; rr < 8; rr++ {
			forwardFile[game.White][sq] |= game.NewSquare(f, rr).Bitboard()
		}
		for rr := r - 1; rr >= 0; rr-- {
			forwardFile[game.Black][sq] |= game.NewSquare(f, rr).Bitboard()
		}
		for c := game.White; c <= game.Black; c++ {
			fw := forwardFile[c][sq]
			passedMask[c][sq] = fw | (fw<<1)&^game.FileA | (fw>>1)&^game.FileH
			var sh game.Bitboard
			for dr := 1; dr <= 2; dr++ {
				rr := r + dr
				if c == game.Black {
					rr = r - dr
				}
				if rr < 0 || rr > 7 {
					continue
				}
				for ff := f - 1; ff <= f+1; ff++ {
					if ff >= 0 && ff < 8 {
						sh |= game.NewSquare(ff, rr).Bitboard()
					}
				}
			}
			shieldMask[c][sq] = sh
			supportMask[c][sq] = adjacentFiles[f] &^ passedMask[c][sq]
		}
	}
	center := game.FileMask(2) | game.FileMask(3) | game.FileMask(4) | game.FileMask(5)
	spaceMask[game.White] = center & (game.RankMask(1) | game.RankMask(2) | game.RankMask(3))
	spaceMask[game.Black] = center & (game.RankMask(6) | game.RankMask(5) | game.RankMask(4))
}

// pawnAttacksAll returns every square the pawns in b of colour c attack.
func pawnAttacksAll(c game.Color, b game.Bitboard) game.Bitboard {
	if c == game.White {
		return (b<<7)&^game.FileH | (b<<9)&^game.FileA
	}
	return (b>>9)&^game.FileH | (b>>7)&^game.FileA
}

// pawnPush returns the squares one step forward of b for colour c.
func pawnPush(c game.Color, b game.Bitboard) game.Bitboard {
	if c == game.White {
		return b << 8
	}
	return b >> 8
}

func relSq(c game.Color, sq game.Square) game.Square {
	if c == game.White {
		return sq
	}
	return sq ^ 56
}

// evaluate returns the static evaluation in centipawns from the side to
// move's point of view.
func evaluate(p *game.Position) int {
	return evalPosition(p, nil, nil)
}

// evaluateCached is evaluate with a thread's pawn-structure cache.
func evaluateCached(p *game.Position, pc *pawnCache) int {
	return evalPosition(p, nil, pc)
}

// evaluateTraced is evaluate that also records in trace how often each
// term counted: what the tuner fits the weights to.
func evaluateTraced(p *game.Position, trace *evalTrace) int {
	return evalPosition(p, trace, nil)
}

// evalPosition is the evaluation proper, with the built-in weights. The
// pawn cache pc may be nil; trace must be nil when pc is not, since a cache
// hit records no terms.
func evalPosition(p *game.Position, trace *evalTrace, pc *pawnCache) int {
	a := evalAcc{w: &packedParams, trace: trace}
	phase := 0
	occ := p.Occupied()
	var pawnAtt [2]game.Bitboard
	for c := game.White; c <= game.Black; c++ {
		pawnAtt[c] = pawnAttacksAll(c, p.Pieces(c, game.Pawn))
	}
	passers := pawnStructure(p, &a, &pawnAtt, pc)
	var kingSq [2]game.Square
	var kingZone, kingAtt [2]game.Bitboard
	for c := game.White; c <= game.Black; c++ {
		kingSq[c] = p.KingSquare(c)
		if kingSq[c] != game.NoSquare {
			kingAtt[c] = game.KingAttacks(kingSq[c])
			kingZone[c] = kingAtt[c] | kingSq[c].Bitboard()
		}
	}
	var attackUnits, attackers [2]int
	var minorAtt, rookAtt, allAtt [2]game.Bitboard
	var typeAtt [2][7]game.Bitboard // attacks by piece type
	for c := game.White; c <= game.Black; c++ {
		them := c.Other()
		own := p.ByColor(c)
		ownPawns := p.Pieces(c, game.Pawn)
		theirPawns := p.Pieces(them, game.Pawn)
		mobArea := ^own &^ pawnAtt[them]
		allAtt[c] = pawnAtt[c] | kingAtt[c]
		a.add(c, tPawnThreat, (pawnAtt[c] & p.ByColor(them) &^ p.ByType(game.Pawn)).Count())

		// Passed pawns found by pawnStructure: the terms that also depend
		// on the other pieces.
		for b := passers[c]; b != 0; {
			sq := b.PopFirst()
			rr := sq.RelativeRank(c)
			if forwardFile[c][sq]&occ == 0 {
				a.add(c, tPassedFree+evalTerm(rr), 1)
			}
			if rr >= 3 && kingSq[0] != game.NoSquare && kingSq[1] != game.NoSquare {
				stop := sq + 8
				if c == game.Black {
					stop = sq - 8
				}
				a.add(c, tPassedKingThem, distance(kingSq[them], stop)*(rr-2))
				a.add(c, tPassedKingUs, distance(kingSq[c], stop)*(rr-2))
			}
		}

		// Pieces.
		for pt := game.Knight; pt <= game.Queen; pt++ {
			for b := p.Pieces(c, pt); b != 0; {
				sq := b.PopFirst()
				phase += phaseWeight[pt]
				a.add(c, tValue+evalTerm(pt), 1)
				a.add(c, pstTerm(pt, relSq(c, sq)), 1)
				if pt <= game.Bishop && pawnPush(c, sq.Bitboard())&ownPawns != 0 {
					a.add(c, tMinorShielded, 1)
				}
				var att game.Bitboard
				switch pt {
				case game.Knight:
					att = game.KnightAttacks(sq)
					minorAtt[c] |= att
					rr := sq.RelativeRank(c)
					if rr >= 3 && rr <= 5 && pawnAtt[c].Has(sq) && passedMask[c][sq]&adjacentFiles[sq.File()]&theirPawns == 0 {
						a.add(c, tOutpost, 1)
					}
				case game.Bishop:
					att = game.BishopAttacks(sq, occ)
					minorAtt[c] |= att
					colour := ^game.DarkSquares
					if game.DarkSquares.Has(sq) {
						colour = game.DarkSquares
					}
					a.add(c, tBadBishop, (ownPawns & colour).Count())
				case game.Rook:
					att = game.RookAttacks(sq, occ)
					rookAtt[c] |= att
					if sq.RelativeRank(c) == 6 {
						a.add(c, tRookSeventh, 1)
					}
					file := game.FileMask(sq.File())
					if file&ownPawns == 0 {
						if file&theirPawns == 0 {
							a.add(c, tRookOpen, 1)
						} else {
							a.add(c, tRookSemiOpen, 1)
						}
					}
				case game.Queen:
					att = game.QueenAttacks(sq, occ)
				}
				allAtt[c] |= att
				typeAtt[c][pt] |= att
				a.add(c, mobilityTerm(pt, (att&mobArea).Count()), 1)
				if z := att & kingZone[them]; z != 0 {
					attackers[c]++
					attackUnits[c] += kingAttackUnits[pt] * z.Count()
				}
			}
		}
		if p.Pieces(c, game.Bishop).More() {
			a.add(c, tBishopPair, 1)
		}

		// King.
		if k := kingSq[c]; k != game.NoSquare {
			a.add(c, pstTerm(game.King, relSq(c, k)), 1)
			a.add(c, tShield, (shieldMask[c][k] & ownPawns).Count())
			if p.Pieces(them, game.Queen) != 0 {
				a.add(c, tKingExposure, (game.QueenAttacks(k, p.ByType(game.Pawn)) &^ own).Count())
			}
			for f := max(k.File()-1, 0); f <= min(k.File()+1, 7); f++ {
				if game.FileMask(f)&ownPawns == 0 {
					a.add(c, tKingOpenFile, 1)
				}
			}
			if ownPawns != 0 {
				d := 1 // the nearest pawn's distance: the first ring holding one
				for distanceRing[k][d]&ownPawns == 0 {
					d++
				}
				a.add(c, tKingPawnDist, d)
			}
			// Enemy pawns marching on this king's files.
			storm := theirPawns & (adjacentFiles[k.File()] | game.FileMask(k.File()))
			blocked := storm & pawnPush(c, ownPawns)
			a.add(them, tStormBlocked, blocked.Count())
			for b := storm &^ blocked; b != 0; {
				a.add(them, tStorm+evalTerm(b.PopFirst().RelativeRank(them)), 1)
			}
		}
	}
	for c := game.White; c <= game.Black; c++ {
		them := c.Other()
		if attackers[c] >= 2 {
			u := min(attackUnits[c], kingDangerUnits-1)
			if p.Pieces(c, game.Queen) != 0 {
				a.add(c, tKingDanger+evalTerm(u), 1)
			} else {
				a.add(c, tKingDangerNoQueen+evalTerm(u), 1)
			}
		}
		majors := p.Pieces(them, game.Rook) | p.Pieces(them, game.Queen)
		a.add(c, tMinorThreat, (minorAtt[c] & majors).Count())
		a.add(c, tRookThreat, (rookAtt[c] & p.Pieces(them, game.Queen)).Count())
		// Pieces attacked and not defended: the side to move may simply
		// take them, the other side must spend its move saving them.
		hanging := p.ByColor(them) &^ p.ByType(game.Pawn) &^ p.ByType(game.King) & allAtt[c] &^ allAtt[them]
		a.add(c, tHanging, hanging.Count())
		// Pawn pushes to squares the enemy cannot safely take on, that
		// would attack a piece: a threat one move away.
		push := pawnPush(c, p.Pieces(c, game.Pawn)) &^ occ
		rank3 := game.RankMask(2)
		if c == game.Black {
			rank3 = game.RankMask(5)
		}
		push |= pawnPush(c, push&rank3) &^ occ
		push &^= pawnAtt[them]
		push &= allAtt[c] | ^allAtt[them]
		targets := p.ByColor(them) &^ p.ByType(game.Pawn) &^ p.ByType(game.King)
		a.add(c, tPushThreat, (pawnAttacksAll(c, push) & targets).Count())

		// Checks the defender cannot meet by capturing the checking piece
		// on arrival: the raw material of successful king attacks.
		if k := kingSq[them]; k != game.NoSquare {
			safe := ^p.ByColor(c) &^ allAtt[them]
			diag, line := game.BishopAttacks(k, occ), game.RookAttacks(k, occ)
			a.add(c, tSafeCheck+evalTerm(game.Knight), (game.KnightAttacks(k) & typeAtt[c][game.Knight] & safe).Count())
			a.add(c, tSafeCheck+evalTerm(game.Bishop), (diag & typeAtt[c][game.Bishop] & safe).Count())
			a.add(c, tSafeCheck+evalTerm(game.Rook), (line & typeAtt[c][game.Rook] & safe).Count())
			a.add(c, tSafeCheck+evalTerm(game.Queen), ((diag | line) & typeAtt[c][game.Queen] & safe).Count())
		}
		// A passed pawn whose next square the enemy does not attack can
		// advance.
		for b := passers[c]; b != 0; {
			sq := b.PopFirst()
			stop := sq + 8
			if c == game.Black {
				stop = sq - 8
			}
			if stop < 64 && !allAtt[them].Has(stop) {
				a.add(c, tPassedSafe+evalTerm(sq.RelativeRank(c)), 1)
			}
		}
	}
	us := p.Side()
	a.add(us, tTempo, 1)

	if phase > maxPhase {
		phase = maxPhase
	}
	egScale := 1.0
	mg, eg := unpackScore(a.sum)
	// Opposite-coloured bishops with only pawns besides are drawish.
	if wb, bb := p.Pieces(game.White, game.Bishop), p.Pieces(game.Black, game.Bishop); wb != 0 && bb != 0 && !wb.More() && !bb.More() &&
		p.ByType(game.Knight)|p.ByType(game.Rook)|p.ByType(game.Queen) == 0 &&
		(wb&game.DarkSquares != 0) != (bb&game.DarkSquares != 0) {
		eg /= 2
		egScale = 0.5
	} else if n := p.Pieces(strongSide(eg), game.Pawn).Count(); n < 4 {
		// Few pawns left to the side ahead: fewer ways to break through,
		// more ways for the defender to give a piece for the last pawns,
		// so endgame advantages convert less often.
		eg = eg * (36 + 7*n) / 64
		egScale = float64(36+7*n) / 64
	}
	score := (mg*phase + eg*(maxPhase-phase)) / maxPhase
	drawScale := 1.0
	if scaled := scaleDrawish(p, score); scaled != score {
		score = scaled
		drawScale = 1.0 / 8
	}
	if trace != nil {
		trace.phase, trace.egScale, trace.drawScale = phase, egScale, drawScale
	}
	if us == game.Black {
		score = -score
	}
	return score
}

// strongSide is the side a score from White's view favours (White at 0).
func strongSide(eg int) game.Color {
	if eg < 0 {
		return game.Black
	}
	return game.White
}

// scaleDrawish shrinks the score when the side ahead has no pawns and too
// little extra material to mate (KNK, KBK, KRKB, KRKN, ...), so the search
// does not trade into dead draws believing it is winning.
func scaleDrawish(p *game.Position, score int) int {
	strong := strongSide(score)
	if p.Pieces(strong, game.Pawn) != 0 {
		return score
	}
	npm := func(c game.Color) int {
		return p.Pieces(c, game.Knight).Count()*320 + p.Pieces(c, game.Bishop).Count()*330 +
			p.Pieces(c, game.Rook).Count()*500 + p.Pieces(c, game.Queen).Count()*950
	}
	s, wk := npm(strong), npm(strong.Other())
	if s-wk < 400 {
		return score / 8
	}
	return score
}
