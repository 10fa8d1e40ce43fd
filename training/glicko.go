package training

import "math"

// Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), one
// game a rating period, as lichess rates puzzles: each first attempt is a
// game between the player and the puzzle, won by whoever is right.

// Rating is a Glicko-2 rating on the Glicko scale (1500 at the start).
type Rating struct {
	R, RD, Vol float64
}

// The start of every player and puzzle, and the bounds lichess keeps RD
// in (a rating never looks more certain than 45 nor less than 500).
const (
	StartRating = 1500
	startRD     = 350
	startVol    = 0.06
	minRD       = 45
	maxRD       = 500
	// glickoTau constrains the volatility's change (Glickman suggests
	// 0.3 to 1.2); lichess uses 0.75.
	glickoTau   = 0.75
	glickoScale = 173.7178
	glickoEps   = 0.000001
)

// NewRating is the rating a player or a puzzle starts with.
func NewRating() Rating { return Rating{R: StartRating, RD: startRD, Vol: startVol} }

// Update returns a's rating after one game against b with score (1 a win
// for a, 0 a loss, 0.5 a draw). Out-of-range inputs are clamped, so that
// a broken stored row cannot make a NaN.
func Update(a, b Rating, score float64) Rating {
	a, b = a.sane(), b.sane()
	score = math.Max(0, math.Min(1, score))
	mu, phi := (a.R-StartRating)/glickoScale, a.RD/glickoScale
	muJ, phiJ := (b.R-StartRating)/glickoScale, b.RD/glickoScale
	g := 1 / math.Sqrt(1+3*phiJ*phiJ/(math.Pi*math.Pi))
	e := 1 / (1 + math.Exp(-g*(mu-muJ)))
	v := 1 / (g * g * e * (1 - e))
	delta := v * g * (score - e)
	sigma := newVolatility(phi, v, delta, a.Vol)
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*g*(score-e)
	out := Rating{R: muNew*glickoScale + StartRating, RD: phiNew * glickoScale, Vol: sigma}
	out.RD = math.Max(minRD, math.Min(maxRD, out.RD))
	return out
}

// sane clamps a rating read from anywhere into the ranges Update needs.
func (r Rating) sane() Rating {
	if math.IsNaN(r.R) || math.IsInf(r.R, 0) {
		r.R = StartRating
	}
	r.R = math.Max(0, math.Min(4000, r.R))
	if math.IsNaN(r.RD) || r.RD < minRD || r.RD > maxRD {
		r.RD = math.Max(minRD, math.Min(maxRD, r.RD))
		if math.IsNaN(r.RD) {
			r.RD = startRD
		}
	}
	if math.IsNaN(r.Vol) || r.Vol <= 0 || r.Vol > 1 {
		r.Vol = startVol
	}
	return r
}

// newVolatility is step 5 of Glickman's paper: the Illinois algorithm
// for the new volatility.
func newVolatility(phi, v, delta, sigma float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-d)/(2*d*d) - (x-a)/(glickoTau*glickoTau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*glickoTau) < 0 {
			k++
		}
		B = a - k*glickoTau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > glickoEps && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
