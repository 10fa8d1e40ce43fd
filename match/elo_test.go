package match

import (
	"math"
	"testing"
)

func TestEloFromScore(t *testing.T) {
	tests := []struct {
		score, want float64
	}{
		{0.5, 0},
		{0.75, 400 * math.Log10(3)}, // odds 3:1
		{0.25, -400 * math.Log10(3)},
		{10.0 / 11, 400}, // odds 10:1 is 400 Elo by definition of the scale
		{0, math.Inf(-1)},
		{1, math.Inf(1)},
	}
	for _, tc := range tests {
		if got := EloFromScore(tc.score); !(got == tc.want || math.Abs(got-tc.want) < 1e-9) {
			t.Errorf("EloFromScore(%v) = %v, want %v", tc.score, got, tc.want)
		}
	}
}

func TestTallyElo(t *testing.T) {
	// Reference values computed independently (Python, same model):
	// margin = (Elo(s+1.96·se) - Elo(s-1.96·se))/2, se = sqrt((s(1-s) - d/4)/n).
	tests := []struct {
		name               string
		t                  Tally
		score, elo, margin float64
	}{
		{"60-40 no draws", Tally{60, 0, 40}, 0.6, 70.4365, 70.5712},
		{"even with draws", Tally{30, 40, 30}, 0.5, 0, 53.1580},
		{"65%", Tally{50, 30, 20}, 0.65, 107.5381, 59.1637},
		{"no games", Tally{}, 0.5, 0, math.Inf(1)},
		{"all wins", Tally{5, 0, 0}, 1, math.Inf(1), math.Inf(1)},
		{"all losses", Tally{0, 0, 5}, 0, math.Inf(-1), math.Inf(1)},
	}
	for _, tc := range tests {
		elo, margin := tc.t.Elo()
		near := func(a, b float64) bool { return a == b || math.Abs(a-b) < 1e-3 }
		if !near(tc.t.Score(), tc.score) || !near(elo, tc.elo) || !near(margin, tc.margin) {
			t.Errorf("%s: score %v elo %v ± %v, want %v, %v ± %v", tc.name, tc.t.Score(), elo, margin, tc.score, tc.elo, tc.margin)
		}
	}
}

func TestEloProperties(t *testing.T) {
	for _, tc := range []Tally{{12, 5, 3}, {3, 10, 7}, {40, 100, 60}} {
		e1, m1 := tc.Elo()
		e2, m2 := Tally{tc.Losses, tc.Draws, tc.Wins}.Elo()
		if math.Abs(e1+e2) > 1e-9 || math.Abs(m1-m2) > 1e-9 {
			t.Errorf("%v: swapping sides gives %v±%v, not the mirror of %v±%v", tc, e2, m2, e1, m1)
		}
		// Four times the games with the same proportions halves the margin
		// (roughly: the logistic map is not linear).
		_, m4 := Tally{4 * tc.Wins, 4 * tc.Draws, 4 * tc.Losses}.Elo()
		if r := m4 / m1; r < 0.45 || r > 0.55 {
			t.Errorf("%v: margin %v with 4x games is %v (ratio %v), want about half", tc, m1, m4, r)
		}
		// Turning a win and a loss into two draws keeps the score and
		// narrows the margin: draws carry less variance.
		if tc.Wins > 0 && tc.Losses > 0 {
			_, md := Tally{tc.Wins - 1, tc.Draws + 2, tc.Losses - 1}.Elo()
			if md >= m1 {
				t.Errorf("%v: more draws did not narrow the margin (%v >= %v)", tc, md, m1)
			}
		}
	}
}

func TestLOS(t *testing.T) {
	tests := []struct {
		t    Tally
		want float64
	}{
		{Tally{10, 5, 10}, 0.5},
		{Tally{0, 7, 0}, 0.5},
		{Tally{20, 0, 10}, 0.5 * (1 + math.Erf(10/math.Sqrt(60)))},
	}
	for _, tc := range tests {
		if got := tc.t.LOS(); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("LOS(%v) = %v, want %v", tc.t, got, tc.want)
		}
	}
	if a, b := (Tally{30, 0, 10}).LOS(), (Tally{10, 0, 30}).LOS(); math.Abs(a+b-1) > 1e-12 || a < 0.99 {
		t.Errorf("LOS 30-10 = %v, 10-30 = %v: want complementary and near 1", a, b)
	}
}

func TestTallyString(t *testing.T) {
	tests := []struct {
		t    Tally
		want string
	}{
		{Tally{60, 0, 40}, "+60 =0 -40, 60.0%, Elo +70 ± 71, LOS 97.7%"},
		{Tally{3, 0, 0}, "+3 =0 -0, 100.0%, Elo +inf ± inf, LOS 95.8%"},
	}
	for _, tc := range tests {
		if got := tc.t.String(); got != tc.want {
			t.Errorf("%v.String() = %q, want %q", tc.t, got, tc.want)
		}
	}
}
