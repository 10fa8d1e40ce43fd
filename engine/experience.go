// Experience: what earlier games (and the analyses of earlier games) say
// about the moves of the root position, given to a search as data in
// Limits.Experience; the engine reads no storage. The rule is in
// docs/experience.md: each root move's record becomes a score adjustment
// (its bias) that the root search adds to the move's score, the levels'
// choice among near-best moves sees, and the opening book obeys.

package engine

import (
	"math"
	"slices"

	"knightwatch/game"
)

// MoveRecord is what earlier games and analyses say about one move of a
// position, from the point of view of the side that played it (at the
// root: the side to move).
type MoveRecord struct {
	Move game.Move
	// Wins, Draws and Losses count the finished games in which the move
	// was played in this position, by their result for its side.
	Wins, Draws, Losses int
	// Weight and Points are the same games weighed by what each says
	// about the move (LessonWeight of the plies from the move to the
	// game's end): Weight is the sum of the weights, Points the weighted
	// sum of the results (1 a win, 1/2 a draw, 0 a loss).
	Weight, Points float64
	// AnalysisCP is an analysis' score of the move, in centipawns for its
	// side, from a search of AnalysisDepth plies; AnalysisDepth 0 means the
	// move was not analysed.
	AnalysisCP, AnalysisDepth int
}

// Games is the number of games in the record.
func (r MoveRecord) Games() int { return r.Wins + r.Draws + r.Losses }

// ExperienceUse says how Limits.Experience shaped a Result's move: the
// moves it set aside that the engine would otherwise have considered,
// and the move it played, when the experience preferred that one to a
// move the search rated higher. Both are checked by a search without the
// experience (or, for book moves, by the book's own list), so a record
// that changed nothing is not reported.
type ExperienceUse struct {
	Avoided   []MoveRecord // the worst record first
	Preferred *MoveRecord
}

// The rule's constants (docs/experience.md explains each).
const (
	// lessonHalfLife: a game's result says half as much about a move
	// played this many plies earlier than about the game's last move.
	lessonHalfLife = 8.0
	// experiencePrior is the number of drawn games every record starts
	// with: one game moves a move's expected score from 1/2 to 1/4 or 3/4.
	experiencePrior = 1.0
	// experienceMaxCP bounds a bias either way: a move that lost often
	// is still played when every other loses more than this.
	experienceMaxCP = 400
	// experienceMinCP: a smaller bias is dropped. A game lost some 30
	// plies after the move says too little about it to change the move,
	// and a bias that changes the move must be big enough to be reported
	// (ExperienceUse) and explained to the player.
	experienceMinCP = 30
	// analysisMistakeCP: a move that an analysis scored at least this much
	// below the best move it analysed in the same position is a known
	// mistake, and loses that much (up to experienceMaxCP).
	analysisMistakeCP = 100
	// bookDropCP: a book move whose bias is this low or lower is not
	// played from the book; bookScaleCP doubles a book move's weight.
	bookDropCP  = 100
	bookScaleCP = 100
	// explainMax bounds the moves a Result's ExperienceUse checks and
	// reports.
	explainMax = 3
	// explainTolCP: at full strength, a move this close to the one played
	// was as good a choice (docs/experience.md).
	explainTolCP = 10
)

// LessonWeight is how much a game's result says about a move played plies
// plies before the game's end, counting the move itself (1 for the last
// move of the game): 1, halving every lessonHalfLife plies. The closer a
// move is to the end, the likelier the end is its doing.
func LessonWeight(plies int) float64 {
	if plies < 1 {
		plies = 1
	}
	return math.Exp2(-float64(plies-1) / lessonHalfLife)
}

// resultBias turns the weighted results of r into centipawns: the
// expected score E of the move, counting experiencePrior drawn games,
// on the logistic scale 400*log10(E/(1-E)).
func (r MoveRecord) resultBias() int {
	w := r.Weight
	if !(w > 0) || math.IsInf(w, 0) {
		return 0
	}
	pts := min(max(r.Points, 0), w)
	e := (pts + 0.5*experiencePrior) / (w + experiencePrior)
	return int(math.Round(400 * math.Log10(e/(1-e))))
}

// moveBias is one root move's score adjustment and the record behind it.
type moveBias struct {
	move game.Move
	cp   int
	rec  MoveRecord
}

// experienceBiases returns the adjustments of the moves of rootMoves that
// recs know: the weighted results' bias plus, for a move an analysis found
// a mistake, minus its loss; bounded by experienceMaxCP either way, and
// left out when smaller than experienceMinCP either way. Records of moves not in rootMoves are
// ignored (a stale or colliding key), and so is a second record of a move.
func experienceBiases(recs []MoveRecord, rootMoves []game.Move) []moveBias {
	if len(recs) == 0 {
		return nil
	}
	bestAnalysed, analysed := 0, false
	for _, r := range recs {
		if r.AnalysisDepth > 0 && slices.Contains(rootMoves, r.Move) && (!analysed || r.AnalysisCP > bestAnalysed) {
			bestAnalysed, analysed = r.AnalysisCP, true
		}
	}
	var out []moveBias
	for _, r := range recs {
		if !slices.Contains(rootMoves, r.Move) || slices.ContainsFunc(out, func(b moveBias) bool { return b.move == r.Move }) {
			continue
		}
		cp := r.resultBias()
		if r.AnalysisDepth > 0 {
			if loss := bestAnalysed - r.AnalysisCP; loss >= analysisMistakeCP {
				cp -= min(loss, experienceMaxCP)
			}
		}
		cp = min(max(cp, -experienceMaxCP), experienceMaxCP)
		if cp <= -experienceMinCP || cp >= experienceMinCP {
			out = append(out, moveBias{move: r.Move, cp: cp, rec: r})
		}
	}
	return out
}

// biasOf returns m's adjustment in biases, 0 when it has none.
func biasOf(biases []moveBias, m game.Move) int {
	for _, b := range biases {
		if b.move == m {
			return b.cp
		}
	}
	return 0
}

// biasIn is the adjustment in biases of root move m searched with the
// window (alpha, beta): none once the window is among decided scores (a
// mate or a tablebase result is found), where experience has nothing to
// add.
func biasIn(biases []moveBias, m game.Move, alpha, beta int) int {
	if len(biases) == 0 || alpha >= tbBound || beta <= -tbBound {
		return 0
	}
	return biasOf(biases, m)
}

// withBias is a root move's score s plus its adjustment bias; decided
// scores (mates, tablebase results) are left as they are.
func withBias(s, bias int) int {
	if bias == 0 || s >= tbBound || s <= -tbBound {
		return s
	}
	return min(max(s+bias, -tbBound+1), tbBound-1)
}

// unbias is the search's own score of root move m from its adjusted
// score s, as the engine reports it.
func (st *searchState) unbias(m game.Move, s int) int {
	if s >= tbBound || s <= -tbBound {
		return s
	}
	return s - biasOf(st.bias, m)
}

// bookMoveWithExperience picks a book move for p at random by the book's
// weights, as bookMove does, after the experience: book moves whose bias
// is bookDropCP or worse are left out (and returned as avoided), the
// others' weights scaled by 2^(bias/bookScaleCP). ok is false when the
// book has no move left, so that the search decides.
func (e *Engine) bookMoveWithExperience(p *game.Position, biases []moveBias) (m game.Move, avoided []MoveRecord, ok bool) {
	if len(biases) == 0 {
		m, ok = e.bookMove(p)
		return m, nil, ok
	}
	path := e.opts.BookFile
	if path == "" {
		path = DefaultBookFile
	}
	b := loadBook(path)
	if b == nil {
		return game.NoMove, nil, false
	}
	var kept []BookEntry
	var dropped []moveBias
	total := 0
	for _, en := range b.Find(p) {
		cp := biasOf(biases, en.Move)
		if cp <= -bookDropCP {
			i := slices.IndexFunc(biases, func(x moveBias) bool { return x.move == en.Move })
			dropped = append(dropped, biases[i])
			continue
		}
		if cp != 0 {
			w := math.Round(float64(max(en.Weight, 1)) * math.Exp2(float64(cp)/bookScaleCP))
			en.Weight = uint16(min(max(w, 1), math.MaxUint16))
		}
		kept = append(kept, en)
		total += int(en.Weight)
	}
	if len(kept) == 0 {
		return game.NoMove, nil, false
	}
	avoided = recordsWorstFirst(dropped)
	avoided = avoided[:min(len(avoided), explainMax)]
	if total == 0 {
		return kept[e.rng.IntN(len(kept))].Move, avoided, true
	}
	// Drawn as Book.Choose draws, so a book the experience leaves
	// unchanged gives the same moves.
	r := e.rng.IntN(total)
	for _, en := range kept {
		if r < int(en.Weight) {
			return en.Move, avoided, true
		}
		r -= int(en.Weight)
	}
	return kept[0].Move, avoided, true
}

// recordsWorstFirst returns the records of biases, the lowest bias first.
func recordsWorstFirst(biases []moveBias) []MoveRecord {
	if len(biases) == 0 {
		return nil
	}
	sorted := slices.Clone(biases)
	slices.SortStableFunc(sorted, func(a, b moveBias) int { return a.cp - b.cp })
	out := make([]MoveRecord, len(sorted))
	for i, b := range sorted {
		out[i] = b.rec
	}
	return out
}
