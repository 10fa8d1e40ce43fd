package training

import (
	"math"
	"testing"
)

// TestUpdateDirections: a win raises the rating, a loss lowers it, either
// way its RD shrinks; an upset moves it more.
func TestUpdateDirections(t *testing.T) {
	p := Rating{R: 1500, RD: 200, Vol: 0.06}
	cases := []struct {
		name  string
		opp   Rating
		score float64
		up    bool
	}{
		{"beats a weaker one", Rating{1400, 30, 0.06}, 1, true},
		{"loses to a weaker one", Rating{1400, 30, 0.06}, 0, false},
		{"beats a stronger one", Rating{1700, 300, 0.06}, 1, true},
		{"loses to a stronger one", Rating{1700, 300, 0.06}, 0, false},
	}
	for _, c := range cases {
		got := Update(p, c.opp, c.score)
		if (got.R > p.R) != c.up || got.RD >= p.RD || got.RD < minRD {
			t.Errorf("%s: %+v -> %+v", c.name, p, got)
		}
	}
	// Beating a stronger opponent gains more than beating a weaker one.
	if Update(p, Rating{1700, 300, 0.06}, 1).R-p.R <= Update(p, Rating{1400, 30, 0.06}, 1).R-p.R {
		t.Error("an upset gains no more than the expected win")
	}
}

// TestGlickmanPaper: the paper's example period (1500/200/0.06 against
// 1400/30 won, 1550/100 lost, 1700/300 lost) gives 1464.06/151.52/0.05999;
// with one game per period the three games one after another land near
// it (the maths is the paper's; the periods differ).
func TestGlickmanPaper(t *testing.T) {
	r := Rating{1500, 200, 0.06}
	for _, g := range []struct {
		opp   Rating
		score float64
	}{{Rating{1400, 30, 0.06}, 1}, {Rating{1550, 100, 0.06}, 0}, {Rating{1700, 300, 0.06}, 0}} {
		r = Update(r, g.opp, g.score)
	}
	if math.Abs(r.R-1464) > 8 || math.Abs(r.RD-151.5) > 8 || math.Abs(r.Vol-0.06) > 0.001 {
		t.Errorf("after the paper's three games: %+v, want about 1464/151.5/0.06", r)
	}
}

// TestUpdateInsaneInput: NaN and out-of-range stored values give a finite
// rating, never a NaN.
func TestUpdateInsaneInput(t *testing.T) {
	for _, a := range []Rating{{math.NaN(), math.NaN(), math.NaN()}, {-5, 0, 0}, {1e9, 1e9, 5}, {math.Inf(1), -1, -1}} {
		got := Update(a, NewRating(), 1)
		if math.IsNaN(got.R) || math.IsNaN(got.RD) || math.IsNaN(got.Vol) || math.IsInf(got.R, 0) {
			t.Errorf("Update(%+v) = %+v", a, got)
		}
	}
}
