package loadtest

import (
	"errors"
	"slices"
	"testing"
)

// The step search doubles up or halves down to a bracket, then bisects it
// to within an eighth, and answers the most games held.
func TestSearchSteps(t *testing.T) {
	tests := []struct {
		name              string
		start, max, limit int // games up to limit hold
		best              int
		tried             []int
	}{
		{"up then bisect", 50, 2000, 300, 300, []int{50, 100, 200, 400, 300, 350, 325}},
		{"down then bisect", 20, 2000, 7, 7, []int{20, 10, 5, 7, 8}},
		{"not even one", 20, 2000, 0, 0, []int{20, 10, 5, 2, 1}},
		{"everything held", 500, 1000, 5000, 1000, []int{500, 1000}},
		{"exact bracket", 10, 2000, 10, 10, []int{10, 20, 15, 12, 11}},
	}
	for _, tc := range tests {
		var tried []int
		best, err := searchSteps(tc.start, tc.max, func(n int) (bool, error) {
			tried = append(tried, n)
			return n <= tc.limit, nil
		})
		if err != nil || best != tc.best || !slices.Equal(tried, tc.tried) {
			t.Errorf("%s: best %d (err %v) after %v, want %d after %v", tc.name, best, err, tried, tc.best, tc.tried)
		}
	}
	boom := errors.New("boom")
	if best, err := searchSteps(50, 2000, func(n int) (bool, error) {
		if n > 100 {
			return false, boom
		}
		return true, nil
	}); !errors.Is(err, boom) || best != 100 {
		t.Errorf("a failing run: best %d, err %v; want 100 and the error", best, err)
	}
}
