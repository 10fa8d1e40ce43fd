package engine

import "knightwatch/game"

// The pawn-structure terms (pawn material and squares, passed, isolated,
// connected, backward and doubled pawns, space) depend on nothing but the
// two pawn bitboards, and pawns move rarely: most positions a search
// evaluates share their pawns with thousands of others. Each search thread
// keeps a small table of these sums, keyed by the pawn bitboards
// themselves, so a hit is exact and needs no hash key in the position.

// pawnCacheSize is the number of entries per thread (a power of two):
// 16,384 × 40 bytes = 640 KB, within a core's L2.
// It equals corrSize so that both tables share pawnIndex.
const pawnCacheSize = corrSize

// pawnEntry is the pawn-only part of the evaluation for one structure.
type pawnEntry struct {
	white, black game.Bitboard // the structure: a zero entry is the valid entry for no pawns
	sum          int64         // packed weighted sum, White minus Black
	passers      [2]game.Bitboard
}

// pawnCache is one thread's table of pawn structures.
type pawnCache [pawnCacheSize]pawnEntry

// pawnStructure adds the pawn-only terms of p to a and returns each side's
// passed pawns. With a cache it reuses a stored sum when the pawns match;
// a hit records no trace, so callers tracing terms pass a nil cache.
func pawnStructure(p *game.Position, a *evalAcc, pawnAtt *[2]game.Bitboard, pc *pawnCache) [2]game.Bitboard {
	white, black := p.Pieces(game.White, game.Pawn), p.Pieces(game.Black, game.Pawn)
	if pc == nil {
		return addPawnTerms(p, a, pawnAtt)
	}
	e := &pc[pawnIndex(p)]
	if e.white != white || e.black != black {
		sub := evalAcc{w: a.w}
		passers := addPawnTerms(p, &sub, pawnAtt)
		*e = pawnEntry{white: white, black: black, sum: sub.sum, passers: passers}
	}
	a.sum += e.sum
	return e.passers
}

// addPawnTerms computes the pawn-only terms into a.
func addPawnTerms(p *game.Position, a *evalAcc, pawnAtt *[2]game.Bitboard) (passers [2]game.Bitboard) {
	for c := game.White; c <= game.Black; c++ {
		them := c.Other()
		ownPawns := p.Pieces(c, game.Pawn)
		theirPawns := p.Pieces(them, game.Pawn)
		for b := ownPawns; b != 0; {
			sq := b.PopFirst()
			rr := sq.RelativeRank(c)
			a.add(c, tValue+evalTerm(game.Pawn), 1)
			a.add(c, pstTerm(game.Pawn, relSq(c, sq)), 1)
			if passedMask[c][sq]&theirPawns == 0 && forwardFile[c][sq]&ownPawns == 0 {
				passers[c] |= sq.Bitboard()
				a.add(c, tPassed+evalTerm(rr), 1)
			}
			if adjacentFiles[sq.File()]&ownPawns == 0 {
				a.add(c, tIsolated, 1)
			} else if pawnAtt[c].Has(sq) || adjacentFiles[sq.File()]&game.RankMask(sq.Rank())&ownPawns != 0 {
				a.add(c, tConnected+evalTerm(rr), 1)
			} else if supportMask[c][sq]&ownPawns == 0 && pawnAttacksAll(c, pawnPush(c, sq.Bitboard()))&theirPawns != 0 {
				// Backward: no pawn can come up beside it, and advancing
				// walks into an enemy pawn's capture.
				a.add(c, tBackward, 1)
			}
			if forwardFile[c][sq]&ownPawns != 0 {
				a.add(c, tDoubled, 1)
			}
		}
		// Space: central squares on our side that enemy pawns do not
		// control and our own pawns do not fill.
		a.add(c, tSpace, (spaceMask[c] &^ ownPawns &^ pawnAtt[them]).Count())
	}
	return passers
}
