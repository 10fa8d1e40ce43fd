package engine

import "knightwatch/game"

// The evaluation is tapered: every term has a middlegame and an endgame
// weight, blended by how much non-pawn material is left. All weights live
// in evalParams so that the Texel tuner (engine/tuner) can adjust them
// through paramRefs; the piece-square tables are rebuilt from them by
// initEval.

// phase weights of the pieces; 24 means the full opening complement.
var phaseWeight = [7]int{0, 0, 1, 1, 2, 4, 0}

const maxPhase = 24

type evalWeights struct {
	Value        [2][7]int     // material, [mg/eg][piece type]
	PST          [2][7][64]int // bonus per square from White's view, a1 = 0
	PSTScale     [2][7]int     // percent applied to each table (tuned as a whole)
	Mobility     [2][7]int     // per reachable square above mobilityBase
	Passed       [2][8]int     // passed pawn by relative rank
	PassedFree   [2][8]int     // extra when the square in front is empty
	Isolated     [2]int
	Doubled      [2]int
	BishopPair   [2]int
	RookOpen     [2]int
	RookSemiOpen [2]int
	Shield       [2]int // per own pawn in front of the king
	KingAttack   [7]int // attack units per attacker type on the king zone
	Tempo        [2]int
	// Endgame bonus per square of king distance to a passed pawn's
	// stop square (enemy king far, own king near), times (rank - 2).
	PassedKingThem, PassedKingUs int
	PawnThreat                   [2]int // per enemy piece attacked by a pawn
	MinorThreat                  [2]int // per enemy rook or queen attacked by a knight or bishop
	RookThreat                   [2]int // per enemy queen attacked by a rook
	Outpost                      [2]int // knight on ranks 4-6, pawn-protected, safe from pawns
	RookSeventh                  [2]int // rook on the 7th rank
	KingOpenFile                 [2]int // per open or half-open file at or beside the king
	Connected                    [2]int // pawn defended by a pawn or beside one, times its rank
	// KingExposure is per square a queen on the king's square would reach
	// (open lines towards the king), when the enemy still has a queen.
	KingExposure [2]int
}

var mobilityBase = [7]int{0, 0, 4, 6, 6, 12, 0}

// params are the weights the evaluation uses.
var params evalWeights

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

func init() { setDefaultParams() }

// setDefaultParams loads the built-in weights: the hand-written defaults,
// then the tuned values from tuned.go.
func setDefaultParams() {
	setHandDefaults()
	applyTuned()
}

// setHandDefaults loads the hand-written weights.
func setHandDefaults() {
	w := &params
	w.Value = [2][7]int{{0, 82, 337, 365, 477, 1025, 0}, {0, 94, 281, 297, 512, 936, 0}}
	visual := [2][7]*[64]int{
		{nil, &pstPawnMG, &pstKnight, &pstBishop, &pstRook, &pstQueen, &pstKingMG},
		{nil, &pstPawnEG, &pstKnight, &pstBishop, &pstRook, &pstQueen, &pstKingEG},
	}
	for ph := 0; ph < 2; ph++ {
		for pt := game.Pawn; pt <= game.King; pt++ {
			for sq := 0; sq < 64; sq++ {
				w.PST[ph][pt][sq] = visual[ph][pt][sq^56]
			}
		}
	}
	w.PSTScale = [2][7]int{{0, 100, 100, 100, 100, 100, 100}, {0, 100, 100, 100, 100, 100, 100}}
	w.Mobility = [2][7]int{{0, 0, 4, 5, 2, 1, 0}, {0, 0, 4, 5, 4, 2, 0}}
	w.Passed = [2][8]int{{0, 0, 5, 10, 20, 35, 60, 0}, {0, 10, 15, 25, 45, 75, 120, 0}}
	w.PassedFree = [2][8]int{{0, 0, 0, 2, 5, 10, 15, 0}, {0, 0, 2, 5, 10, 20, 35, 0}}
	w.Isolated = [2]int{-12, -15}
	w.Doubled = [2]int{-10, -20}
	w.BishopPair = [2]int{30, 50}
	w.RookOpen = [2]int{25, 10}
	w.RookSemiOpen = [2]int{12, 6}
	w.Shield = [2]int{10, 0}
	w.KingAttack = [7]int{0, 0, 2, 2, 3, 5, 0}
	w.Tempo = [2]int{12, 5}
	w.PassedKingThem, w.PassedKingUs = 5, 2
	w.PawnThreat = [2]int{40, 30}
	w.MinorThreat = [2]int{30, 20}
	w.RookThreat = [2]int{25, 15}
	w.Outpost = [2]int{20, 10}
	w.RookSeventh = [2]int{15, 25}
	w.KingOpenFile = [2]int{-15, 0}
	w.Connected = [2]int{3, 2}
	w.KingExposure = [2]int{-4, 0}
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
		}
	}
}

// kingDanger converts attack units into a middlegame penalty; it grows
// faster than linearly because attacks by several pieces are the ones that
// succeed.
func kingDanger(units int) int {
	if units > 50 {
		units = 50
	}
	return units * units / 4
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
	w := &params
	var mg, eg [2]int
	phase := 0
	occ := p.Occupied()
	var pawnAtt [2]game.Bitboard
	for c := game.White; c <= game.Black; c++ {
		for b := p.Pieces(c, game.Pawn); b != 0; {
			pawnAtt[c] |= game.PawnAttacks(c, b.PopFirst())
		}
	}
	var kingSq [2]game.Square
	var kingZone [2]game.Bitboard
	for c := game.White; c <= game.Black; c++ {
		kingSq[c] = p.KingSquare(c)
		if kingSq[c] != game.NoSquare {
			kingZone[c] = game.KingAttacks(kingSq[c]) | kingSq[c].Bitboard()
		}
	}
	var attackUnits, attackers [2]int
	var minorAtt, rookAtt [2]game.Bitboard
	for c := game.White; c <= game.Black; c++ {
		them := c.Other()
		own := p.ByColor(c)
		ownPawns := p.Pieces(c, game.Pawn)
		theirPawns := p.Pieces(them, game.Pawn)
		mobArea := ^own &^ pawnAtt[them]
		threats := (pawnAtt[c] & p.ByColor(them) &^ p.ByType(game.Pawn)).Count()
		mg[c] += w.PawnThreat[0] * threats
		eg[c] += w.PawnThreat[1] * threats

		// Pawns.
		for b := ownPawns; b != 0; {
			sq := b.PopFirst()
			rs := relSq(c, sq)
			mg[c] += w.Value[0][game.Pawn] + w.PST[0][game.Pawn][rs]*w.PSTScale[0][game.Pawn]/100
			eg[c] += w.Value[1][game.Pawn] + w.PST[1][game.Pawn][rs]*w.PSTScale[1][game.Pawn]/100
			if passedMask[c][sq]&theirPawns == 0 && forwardFile[c][sq]&ownPawns == 0 {
				rr := sq.RelativeRank(c)
				mg[c] += w.Passed[0][rr]
				eg[c] += w.Passed[1][rr]
				if forwardFile[c][sq]&occ == 0 {
					mg[c] += w.PassedFree[0][rr]
					eg[c] += w.PassedFree[1][rr]
				}
				if rr >= 3 && kingSq[0] != game.NoSquare && kingSq[1] != game.NoSquare {
					stop := sq + 8
					if c == game.Black {
						stop = sq - 8
					}
					eg[c] += (w.PassedKingThem*distance(kingSq[them], stop) - w.PassedKingUs*distance(kingSq[c], stop)) * (rr - 2)
				}
			}
			if adjacentFiles[sq.File()]&ownPawns == 0 {
				mg[c] += w.Isolated[0]
				eg[c] += w.Isolated[1]
			} else if pawnAtt[c].Has(sq) || adjacentFiles[sq.File()]&game.RankMask(sq.Rank())&ownPawns != 0 {
				rr := sq.RelativeRank(c)
				mg[c] += w.Connected[0] * rr
				eg[c] += w.Connected[1] * rr
			}
			if forwardFile[c][sq]&ownPawns != 0 {
				mg[c] += w.Doubled[0]
				eg[c] += w.Doubled[1]
			}
		}

		// Pieces.
		for pt := game.Knight; pt <= game.Queen; pt++ {
			for b := p.Pieces(c, pt); b != 0; {
				sq := b.PopFirst()
				rs := relSq(c, sq)
				phase += phaseWeight[pt]
				mg[c] += w.Value[0][pt] + w.PST[0][pt][rs]*w.PSTScale[0][pt]/100
				eg[c] += w.Value[1][pt] + w.PST[1][pt][rs]*w.PSTScale[1][pt]/100
				var att game.Bitboard
				switch pt {
				case game.Knight:
					att = game.KnightAttacks(sq)
					minorAtt[c] |= att
					rr := sq.RelativeRank(c)
					if rr >= 3 && rr <= 5 && pawnAtt[c].Has(sq) && passedMask[c][sq]&adjacentFiles[sq.File()]&theirPawns == 0 {
						mg[c] += w.Outpost[0]
						eg[c] += w.Outpost[1]
					}
				case game.Bishop:
					att = game.BishopAttacks(sq, occ)
					minorAtt[c] |= att
				case game.Rook:
					att = game.RookAttacks(sq, occ)
					rookAtt[c] |= att
					if sq.RelativeRank(c) == 6 {
						mg[c] += w.RookSeventh[0]
						eg[c] += w.RookSeventh[1]
					}
					file := game.FileMask(sq.File())
					if file&ownPawns == 0 {
						if file&theirPawns == 0 {
							mg[c] += w.RookOpen[0]
							eg[c] += w.RookOpen[1]
						} else {
							mg[c] += w.RookSemiOpen[0]
							eg[c] += w.RookSemiOpen[1]
						}
					}
				case game.Queen:
					att = game.QueenAttacks(sq, occ)
				}
				mob := (att & mobArea).Count() - mobilityBase[pt]
				mg[c] += w.Mobility[0][pt] * mob
				eg[c] += w.Mobility[1][pt] * mob
				if z := att & kingZone[them]; z != 0 {
					attackers[c]++
					attackUnits[c] += w.KingAttack[pt] * z.Count()
				}
			}
		}
		if p.Pieces(c, game.Bishop).More() {
			mg[c] += w.BishopPair[0]
			eg[c] += w.BishopPair[1]
		}

		// King.
		if k := kingSq[c]; k != game.NoSquare {
			rs := relSq(c, k)
			mg[c] += w.PST[0][game.King][rs] * w.PSTScale[0][game.King] / 100
			eg[c] += w.PST[1][game.King][rs] * w.PSTScale[1][game.King] / 100
			shield := (shieldMask[c][k] & ownPawns).Count()
			mg[c] += w.Shield[0] * shield
			eg[c] += w.Shield[1] * shield
			if p.Pieces(them, game.Queen) != 0 {
				exposure := (game.QueenAttacks(k, p.ByType(game.Pawn)) &^ own).Count()
				mg[c] += w.KingExposure[0] * exposure
				eg[c] += w.KingExposure[1] * exposure
			}
			for f := max(k.File()-1, 0); f <= min(k.File()+1, 7); f++ {
				if game.FileMask(f)&ownPawns == 0 {
					mg[c] += w.KingOpenFile[0]
					eg[c] += w.KingOpenFile[1]
				}
			}
		}
	}
	for c := game.White; c <= game.Black; c++ {
		if attackers[c] >= 2 && p.Pieces(c, game.Queen) != 0 {
			mg[c] += kingDanger(attackUnits[c])
		} else if attackers[c] >= 2 {
			mg[c] += kingDanger(attackUnits[c]) / 2
		}
	}
	for c := game.White; c <= game.Black; c++ {
		them := c.Other()
		majors := p.Pieces(them, game.Rook) | p.Pieces(them, game.Queen)
		n := (minorAtt[c] & majors).Count()
		mg[c] += w.MinorThreat[0] * n
		eg[c] += w.MinorThreat[1] * n
		n = (rookAtt[c] & p.Pieces(them, game.Queen)).Count()
		mg[c] += w.RookThreat[0] * n
		eg[c] += w.RookThreat[1] * n
	}
	us := p.Side()
	mg[us] += w.Tempo[0]
	eg[us] += w.Tempo[1]

	if phase > maxPhase {
		phase = maxPhase
	}
	mgScore := mg[game.White] - mg[game.Black]
	egScore := eg[game.White] - eg[game.Black]
	// Opposite-coloured bishops with only pawns besides are drawish.
	if wb, bb := p.Pieces(game.White, game.Bishop), p.Pieces(game.Black, game.Bishop); wb != 0 && bb != 0 && !wb.More() && !bb.More() &&
		p.ByType(game.Knight)|p.ByType(game.Rook)|p.ByType(game.Queen) == 0 &&
		(wb&game.DarkSquares != 0) != (bb&game.DarkSquares != 0) {
		egScore /= 2
	}
	score := (mgScore*phase + egScore*(maxPhase-phase)) / maxPhase
	score = scaleDrawish(p, score)
	if us == game.Black {
		score = -score
	}
	return score
}

// scaleDrawish shrinks the score when the side ahead has no pawns and too
// little extra material to mate (KNK, KBK, KRKB, KRKN, ...), so the search
// does not trade into dead draws believing it is winning.
func scaleDrawish(p *game.Position, score int) int {
	strong := game.White
	if score < 0 {
		strong = game.Black
	}
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
