package review

import (
	"math"

	"knightwatch/game"
	"knightwatch/store"
)

// The post-game review's maths, as lichess computes it. What this file
// follows, read at these sources:
//
//   - Win%: scalachess core/src/main/scala/eval.scala (commit cbffc9d7),
//     WinPercent: winningChances(cp) = 2/(1+exp(-0.00368208*cp)) - 1,
//     clamped to [-1, 1] (the multiplier is from lila pull request 11148);
//     fromCentiPawns = 50 + 50*winningChances(cp ceiled to ±1000); a mate
//     counts as ±1000 (fromMate, Cp.ceilingWithSignum).
//   - Inaccuracy, mistake, blunder: lila modules/tree/src/main/Advice.scala.
//     CpAdvice: the mover's loss of winningChances (not ceiled) of at least
//     .3 is a blunder, .2 a mistake, .1 an inaccuracy (15, 10 and 5 points
//     of Win%). MateAdvice, when either side of the move has a mate score:
//     a mate against the mover that was not there before ("checkmate is now
//     unavoidable") is an inaccuracy if the mover stood below -999 cp
//     already, a mistake below -700, else a blunder; a mate for the mover
//     that is gone ("lost forced checkmate sequence") is an inaccuracy if
//     the mover still stands above 999 cp, a mistake above 700, else a
//     blunder. A slower mate is not judged.
//   - Accuracy: lila modules/analyse/src/main/AccuracyPercent.scala.
//     fromWinPercents: 100 when the move lost no Win%, else
//     103.1668100711649*exp(-0.04354415386753951*loss) - 3.166924740191411,
//     plus 1 ("uncertainty bonus"), clamped to [0, 100]. gameAccuracy: per
//     side, the mean of a volatility-weighted mean and the harmonic mean of
//     its moves' accuracies; the weights are the population standard
//     deviations (clamped to [0.5, 12]) of Win% over sliding windows of
//     clamp(moves/10, 2, 8) positions, the first windows repeated so every
//     move has one (scalalib lila/src/main/scala/Maths.scala:
//     harmonicMean uses max(1, v) for each value).
//
// One difference: lila's gameAccuracy puts a constant +15 cp before the
// first move; here the engine's evaluation of the real start position is
// used, since a game may start from any position (a FEN, Chess960).

// Eval is a position's evaluation from White's point of view.
type Eval struct {
	CP int // centipawns; meaningless when Mate != 0
	// Mate is positive when White mates, negative when Black does (a
	// checkmate on the board counts as a mate for the winner); 0 when no
	// mate is seen. Only its sign is used here.
	Mate int
}

const (
	// winMultiplier is scalachess's WinPercent.winningChances multiplier.
	winMultiplier = -0.00368208
	// cpCeiling is scalachess's Eval.Cp.CEILING.
	cpCeiling = 1000
)

// winningChances is lichess's winningChances: -1 (Black wins) to +1
// (White wins) for a White's-point-of-view cp.
func winningChances(cp float64) float64 {
	w := 2/(1+math.Exp(winMultiplier*cp)) - 1
	return math.Max(-1, math.Min(1, w))
}

// WinPercent is lichess's Win% for White, 0 to 100: cp ceiled to ±1000,
// a mate counting as the ceiling.
func WinPercent(e Eval) float64 {
	cp := e.CP
	switch {
	case e.Mate > 0:
		cp = cpCeiling
	case e.Mate < 0:
		cp = -cpCeiling
	}
	cp = max(-cpCeiling, min(cpCeiling, cp))
	return 50 + 50*winningChances(float64(cp))
}

// judgementThresholds are CpAdvice's winningChanceJudgements, checked
// from the largest loss down.
var judgementThresholds = []struct {
	loss float64
	j    store.Judgement
}{{.3, store.Blunder}, {.2, store.Mistake}, {.1, store.Inaccuracy}}

// JudgeMove judges the move that took the game from before to after,
// played by mover, as lichess's Advice does.
func JudgeMove(before, after Eval, mover game.Color) store.Judgement {
	if before.Mate == 0 && after.Mate == 0 {
		delta := winningChances(float64(after.CP)) - winningChances(float64(before.CP))
		if mover == game.White {
			delta = -delta
		}
		for _, t := range judgementThresholds {
			if delta >= t.loss {
				return t.j
			}
		}
		return store.NoJudgement
	}
	// MateAdvice: everything from the mover's point of view; a cp is 0
	// where the score is a mate.
	sign := 1
	if mover == game.Black {
		sign = -1
	}
	prevMate, nextMate := sign*before.Mate, sign*after.Mate
	prevCP, nextCP := 0, 0
	if before.Mate == 0 {
		prevCP = sign * before.CP
	}
	if after.Mate == 0 {
		nextCP = sign * after.CP
	}
	switch {
	case prevMate == 0 && nextMate < 0: // checkmate is now unavoidable
		switch {
		case prevCP < -999:
			return store.Inaccuracy
		case prevCP < -700:
			return store.Mistake
		}
		return store.Blunder
	case prevMate > 0 && nextMate <= 0: // lost forced checkmate sequence
		switch {
		case nextCP > 999:
			return store.Inaccuracy
		case nextCP > 700:
			return store.Mistake
		}
		return store.Blunder
	}
	return store.NoJudgement
}

// moveAccuracy is AccuracyPercent.fromWinPercents: the accuracy of a move
// that took the mover's Win% from before to after.
func moveAccuracy(before, after float64) float64 {
	if after >= before {
		return 100
	}
	raw := 103.1668100711649*math.Exp(-0.04354415386753951*(before-after)) - 3.166924740191411
	return math.Max(0, math.Min(100, raw+1))
}

// gameAccuracy is AccuracyPercent.gameAccuracy. wins are White's Win% at
// each position of the game (the start, then after each move; len moves+1)
// and first is the side that made the first move. It returns each side's
// accuracy, with ok false for a side that made no move.
func gameAccuracy(wins []float64, first game.Color) (white, black float64, whiteOK, blackOK bool) {
	moves := len(wins) - 1
	if moves < 1 {
		return 0, 0, false, false
	}
	size := max(2, min(8, moves/10))
	// The windows: the first one repeated so that there are as many as
	// moves (Scala's sliding gives one short window when there are fewer
	// positions than its size).
	var weights []float64
	head := wins[:min(size, len(wins))]
	for i := 0; i < min(size, len(wins))-2; i++ {
		weights = append(weights, volatility(head))
	}
	if len(wins) <= size {
		weights = append(weights, volatility(wins))
	} else {
		for i := 0; i+size <= len(wins); i++ {
			weights = append(weights, volatility(wins[i:i+size]))
		}
	}
	type side struct{ sumAW, sumW, sumInv, n float64 }
	var sides [2]side
	for i := 0; i < moves && i < len(weights); i++ {
		mover := first
		if i%2 == 1 {
			mover = first.Other()
		}
		before, after := wins[i], wins[i+1]
		if mover == game.Black {
			before, after = 100-before, 100-after
		}
		acc := moveAccuracy(before, after)
		s := &sides[mover]
		s.sumAW += acc * weights[i]
		s.sumW += weights[i]
		s.sumInv += 1 / math.Max(1, acc)
		s.n++
	}
	mean := func(s side) (float64, bool) {
		if s.n == 0 || s.sumW == 0 {
			return 0, false
		}
		return (s.sumAW/s.sumW + s.n/s.sumInv) / 2, true
	}
	white, whiteOK = mean(sides[game.White])
	black, blackOK = mean(sides[game.Black])
	return white, black, whiteOK, blackOK
}

// volatility is a window's weight: the population standard deviation of
// its Win%, clamped to [0.5, 12].
func volatility(xs []float64) float64 {
	if len(xs) == 0 {
		return 0.5
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	m := sum / float64(len(xs))
	var v float64
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return math.Max(0.5, math.Min(12, math.Sqrt(v/float64(len(xs)))))
}

// PlyEval is a saved evaluation as the review's maths takes it; toMove
// is the side to move in the position (a checkmate on the board counts as
// a mate for the winner).
func PlyEval(p store.AnalysisPly, toMove game.Color) Eval {
	if p.Mated {
		if toMove == game.White {
			return Eval{Mate: -1}
		}
		return Eval{Mate: 1}
	}
	return Eval{CP: p.CP, Mate: p.Mate}
}
