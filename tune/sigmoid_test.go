package tune

import (
	"math"
	"testing"
)

func TestSigmoid(t *testing.T) {
	cases := []struct {
		score, scale, want float64
	}{
		{0, 100, 0.5},
		{100, 100, 1 / (1 + math.Exp(-1))},
		{-100, 100, 1 / (1 + math.Exp(1))},
		{400, ScaleOfK(1), 1 / (1 + 0.1)}, // Texel's form: 1/(1+10^(-K·cp/400))
		{-400, ScaleOfK(2), 1.0 / (1 + 100)},
		{1e6, 1, 1},
		{-1e6, 1, 0},
	}
	for _, c := range cases {
		if got := Sigmoid(c.score, c.scale); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Sigmoid(%v, %v) = %v, want %v", c.score, c.scale, got, c.want)
		}
	}
	for _, k := range []float64{0.5, 1.1, 1.3} {
		if got := KOfScale(ScaleOfK(k)); math.Abs(got-k) > 1e-12 {
			t.Errorf("KOfScale(ScaleOfK(%v)) = %v", k, got)
		}
	}
	if s := ScaleOfK(1.1); s < 157 || s > 159 {
		t.Errorf("K 1.1 is scale %v, want about 158", s)
	}
}

// FitScale finds the minimum of unimodal errors anywhere in its range,
// and stops at the range's ends.
func TestFitScale(t *testing.T) {
	cases := []struct {
		name string
		mse  func(s float64) float64
		want float64
		tol  float64
	}{
		{"parabola at 160", func(s float64) float64 { return (s - 160) * (s - 160) }, 160, 1e-6},
		{"abs at 1234.5", func(s float64) float64 { return math.Abs(s - 1234.5) }, 1234.5, 1e-6},
		{"below the range", func(s float64) float64 { return s }, minScale, 1e-6},
		{"above the range", func(s float64) float64 { return -s }, maxScale, 1e-6},
	}
	for _, c := range cases {
		calls := 0
		got := FitScale(func(s float64) float64 { calls++; return c.mse(s) })
		if math.Abs(got-c.want) > c.tol {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		if calls != fitSteps+2 {
			t.Errorf("%s: %d calls of mse, want %d", c.name, calls, fitSteps+2)
		}
	}
}
