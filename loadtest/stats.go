package loadtest

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Latencies collects durations from many goroutines.
type Latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

// Add records one duration.
func (l *Latencies) Add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

// Summary is a set of durations by rank: nearest-rank percentiles.
type Summary struct {
	N                   int
	P50, P99, P999, Max time.Duration
}

// Summary sorts a copy of what was recorded and reads its percentiles.
func (l *Latencies) Summary() Summary {
	l.mu.Lock()
	d := slices.Clone(l.d)
	l.mu.Unlock()
	return summarize(d)
}

func summarize(d []time.Duration) Summary {
	if len(d) == 0 {
		return Summary{}
	}
	slices.Sort(d)
	return Summary{N: len(d), P50: rank(d, 0.50), P99: rank(d, 0.99), P999: rank(d, 0.999), Max: d[len(d)-1]}
}

// rank is the nearest-rank percentile p (0 < p <= 1) of sorted d: the
// smallest value with at least p of the values at or below it.
func rank(sorted []time.Duration, p float64) time.Duration {
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// String writes "p50 1.02 ms  p99 …  (N samples)", or "no samples".
func (s Summary) String() string {
	if s.N == 0 {
		return "no samples"
	}
	return fmt.Sprintf("p50 %s  p99 %s  p999 %s  max %s  (%d samples)", Ms(s.P50), Ms(s.P99), Ms(s.P999), Ms(s.Max), s.N)
}

// Ms writes d in milliseconds with two decimals ("1.25 ms").
func Ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 2, 64) + " ms"
}

// Tally counts events by kind (errors by their code, reconnects), from
// many goroutines.
type Tally struct {
	mu sync.Mutex
	m  map[string]int
}

// Add counts one event of kind.
func (t *Tally) Add(kind string) {
	t.mu.Lock()
	if t.m == nil {
		t.m = map[string]int{}
	}
	t.m[kind]++
	t.mu.Unlock()
}

// Counts returns a copy of the counts.
func (t *Tally) Counts() map[string]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[string]int, len(t.m))
	for k, v := range t.m {
		out[k] = v
	}
	return out
}

// Total is the number of events of every kind.
func (t *Tally) Total() int {
	n := 0
	for _, v := range t.Counts() {
		n += v
	}
	return n
}

// String writes "kind 3, other 1" (most frequent first), or "none".
func (t *Tally) String() string {
	c := t.Counts()
	if len(c) == 0 {
		return "none"
	}
	kinds := make([]string, 0, len(c))
	for k := range c {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool {
		if c[kinds[i]] != c[kinds[j]] {
			return c[kinds[i]] > c[kinds[j]]
		}
		return kinds[i] < kinds[j]
	})
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%s %d", k, c[k])
	}
	return strings.Join(parts, ", ")
}
