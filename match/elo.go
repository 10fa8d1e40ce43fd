package match

import (
	"fmt"
	"math"
)

// Tally counts the results of a match from the first engine's side.
type Tally struct {
	Wins, Draws, Losses int
}

// Games returns the number of games counted.
func (t Tally) Games() int { return t.Wins + t.Draws + t.Losses }

// Score returns the first engine's score as a fraction (a draw is half a
// point), or 0.5 with no games.
func (t Tally) Score() float64 {
	n := t.Games()
	if n == 0 {
		return 0.5
	}
	return (float64(t.Wins) + float64(t.Draws)/2) / float64(n)
}

// DrawRatio returns the fraction of games drawn.
func (t Tally) DrawRatio() float64 {
	if t.Games() == 0 {
		return 0
	}
	return float64(t.Draws) / float64(t.Games())
}

// EloFromScore is the logistic model's Elo difference for an expected score
// s in [0, 1]: -400·log10(1/s - 1). It is ±Inf at 0 and 1.
func EloFromScore(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	if s == 0.5 {
		return 0 // not -0, which would print as "-0"
	}
	return -400 * math.Log10(1/s-1)
}

// z95 is the two-sided 95% quantile of the normal distribution.
const z95 = 1.959963984540054

// Elo returns the Elo difference the tally suggests and the half-width of
// its 95% confidence interval. The standard error of the mean score per
// game is sqrt((s(1-s) - d/4) / n) for score s and draw ratio d (the
// per-game variance of a win/draw/loss result); the interval in score is
// mapped through the logistic model, whose asymmetry is why the margin is
// half the width of the mapped interval rather than a derivative. With no
// games or a 0% or 100% score the margin is +Inf (nothing is known).
func (t Tally) Elo() (diff, margin float64) {
	n := float64(t.Games())
	if n == 0 {
		return 0, math.Inf(1)
	}
	s := t.Score()
	variance := s*(1-s) - t.DrawRatio()/4
	if variance < 0 {
		variance = 0 // rounding when all games are draws
	}
	se := math.Sqrt(variance / n)
	lo, hi := s-z95*se, s+z95*se
	diff = EloFromScore(s)
	if lo <= 0 || hi >= 1 {
		return diff, math.Inf(1)
	}
	return diff, (EloFromScore(hi) - EloFromScore(lo)) / 2
}

// LOS returns the likelihood of superiority: the probability that the first
// engine is the stronger, from wins and losses only (draws say nothing about
// which side is better).
func (t Tally) LOS() float64 {
	if t.Wins+t.Losses == 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf(float64(t.Wins-t.Losses)/math.Sqrt(2*float64(t.Wins+t.Losses))))
}

// String returns e.g. "+12 =5 -3, 72.5%, Elo +168 ± 142, LOS 99.3%".
func (t Tally) String() string {
	diff, margin := t.Elo()
	return fmt.Sprintf("+%d =%d -%d, %.1f%%, Elo %s ± %s, LOS %.1f%%",
		t.Wins, t.Draws, t.Losses, 100*t.Score(), formatElo(diff, true), formatElo(margin, false), 100*t.LOS())
}

func formatElo(x float64, sign bool) string {
	switch {
	case math.IsInf(x, 1):
		if sign {
			return "+inf"
		}
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	case sign:
		return fmt.Sprintf("%+.0f", x)
	}
	return fmt.Sprintf("%.0f", x)
}
