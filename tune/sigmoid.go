package tune

import "math"

// Every trainer here compares a score with an expected result through the
// one logistic curve below, and fits its scale, when it has to, with the
// one search below.

// Sigmoid turns a score into an expected result from 0 to 1 for the side
// the score favours: 1/(1+e^(-score/scale)). scale is in the score's units
// (centipawns per unit of the logistic's argument).
func Sigmoid(score, scale float64) float64 {
	return 1 / (1 + math.Exp(-score/scale))
}

// ScaleOfK converts the Texel tuner's K, the constant of Texel's
// formulation 1/(1+10^(-K·cp/400)), to Sigmoid's scale: 400/(K·ln 10).
// K 1.1 is a scale of about 158 centipawns.
func ScaleOfK(k float64) float64 { return 400 / (k * math.Ln10) }

// KOfScale is the inverse of ScaleOfK.
func KOfScale(scale float64) float64 { return 400 / (scale * math.Ln10) }

// Scale bounds of FitScale, in centipawns: from K 17 to K 0.035, far
// outside any fitted value so far (K 0.16 to 1.4).
const (
	minScale = 10.0
	maxScale = 5000.0
	// fitSteps golden-section steps narrow the bracket by 0.618^64, to
	// about 2e-10 centipawns: the fitted scale is as precise as the
	// error's flatness near its minimum allows.
	fitSteps = 64
)

// FitScale returns the sigmoid scale from 10 to 5000 centipawns that
// minimises mse, the mean squared error of some labels against Sigmoid of
// some scores at that scale. mse is unimodal in the scale (the error of a
// logistic fit), so a golden-section search finds its minimum; it calls
// mse once per step.
func FitScale(mse func(scale float64) float64) float64 {
	lo, hi := minScale, maxScale
	g := (math.Sqrt(5) - 1) / 2
	a, b := hi-g*(hi-lo), lo+g*(hi-lo)
	fa, fb := mse(a), mse(b)
	for range fitSteps {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - g*(hi-lo)
			fa = mse(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + g*(hi-lo)
			fb = mse(b)
		}
	}
	return (lo + hi) / 2
}
