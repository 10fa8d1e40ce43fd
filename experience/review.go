package experience

import (
	"knightwatch/game"
	"knightwatch/store"
)

// reviewMateCP is the score a review's mate (or checkmate on the board)
// is recorded at in the experience: far beyond any material score, within
// what the store accepts. The engine only uses differences between moves,
// capped well below it.
const reviewMateCP = 10000

// reviewLessons is what a complete review teaches the engine: at each ply
// with a move, the review's score of its best move (from the search of
// that position) and of the move played (from the search of the position
// after it), each for the side that plays it, at the depth of the search
// behind it. A move played that was the best move is recorded once.
// positions holds the start and the position after each move; plies
// their evaluations, one per position.
func reviewLessons(positions []*game.Position, moves []game.Move, plies []store.AnalysisPly) []store.AnalysedMove {
	if len(plies) != len(positions) || len(moves) != len(positions)-1 {
		return nil
	}
	var out []store.AnalysedMove
	for i, m := range moves {
		pos := positions[i]
		mover := pos.Side()
		key := pos.Hash()
		best, after := plies[i], plies[i+1]
		played := pos.UCI(m)
		if best.BestUCI != "" && best.Depth > 0 {
			out = append(out, store.AnalysedMove{Key: key, Move: best.BestUCI, CP: plyScoreFor(best, pos.Side(), mover), Depth: best.Depth})
		}
		if played == best.BestUCI {
			continue
		}
		depth := after.Depth
		if depth == 0 {
			// The game ended on the board after the move (mate, stalemate,
			// a draw by rule): its score is certain; a depth no search
			// can beat would overrule later analyses, so it counts as
			// deep as the search of the position before it.
			depth = max(best.Depth, 1)
		}
		out = append(out, store.AnalysedMove{Key: key, Move: played, CP: plyScoreFor(after, positions[i+1].Side(), mover), Depth: depth})
	}
	return out
}

// plyScoreFor is the review's evaluation p of a position whose side to
// move is toMove, in centipawns for side: a mate is reviewMateCP less
// the moves to it, so a shorter mate scores higher.
func plyScoreFor(p store.AnalysisPly, toMove, side game.Color) int {
	var white int
	switch {
	case p.Mated && toMove == game.White:
		white = -reviewMateCP
	case p.Mated:
		white = reviewMateCP
	case p.Mate > 0:
		white = reviewMateCP - p.Mate
	case p.Mate < 0:
		white = -reviewMateCP - p.Mate
	default:
		white = p.CP
	}
	if side == game.Black {
		return -white
	}
	return white
}
