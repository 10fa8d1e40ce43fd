package loadtest

import (
	"strings"
	"testing"
	"time"
)

// Only loopback targets are ever dialled.
func TestCheckLoopback(t *testing.T) {
	tests := []struct {
		base string
		ok   bool
	}{
		{"http://127.0.0.1:8080", true},
		{"ws://127.0.0.1:8080/ws/game/g_1", true},
		{"http://127.0.0.9:1", true},
		{"http://[::1]:8080", true},
		{"http://localhost:8080", false}, // a name could resolve to anything
		{"http://10.0.0.1:8080", false},
		{"http://0.0.0.0:8080", false},
		{"http://example.org", false},
		{"http://[::]:8080", false},
		{"::not a url", false},
		{"", false},
	}
	for _, tc := range tests {
		err := checkLoopback(tc.base)
		if (err == nil) != tc.ok {
			t.Errorf("checkLoopback(%q) = %v, want ok=%v", tc.base, err, tc.ok)
		}
		if _, err := newVisitor(tc.base); (err == nil) != tc.ok {
			t.Errorf("newVisitor(%q) = %v, want ok=%v", tc.base, err, tc.ok)
		}
	}
}

// Runs beyond the caps are refused before anything starts.
func TestRunsAreBounded(t *testing.T) {
	load := func(edit func(c *LoadConfig)) error {
		c := LoadConfig{Bin: "/nonexistent", Games: 10, Warmup: time.Second, Duration: time.Second, Clock: "5+3"}
		edit(&c)
		_, err := Run(c)
		return err
	}
	crash := func(edit func(c *CrashConfig)) error {
		c := CrashConfig{Bin: "/nonexistent", Kills: 3, Games: 4, MinUp: time.Second, MaxUp: 2 * time.Second}
		edit(&c)
		_, err := Crash(c)
		return err
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"no games", load(func(c *LoadConfig) { c.Games = 0 }), "games"},
		{"too many games", load(func(c *LoadConfig) { c.Games = MaxActiveGames + 1 }), "games"},
		{"no duration", load(func(c *LoadConfig) { c.Duration = 0 }), "duration"},
		{"too long", load(func(c *LoadConfig) { c.Duration = MaxDuration + time.Second }), "duration"},
		{"warm-up too long", load(func(c *LoadConfig) { c.Warmup = MaxDuration }), "warm-up"},
		{"share above one", load(func(c *LoadConfig) { c.Level8 = 1.5 }), "share"},
		{"shares above one together", load(func(c *LoadConfig) { c.Level8, c.Recon = 0.6, 0.6 }), "exceed"},
		{"negative think", load(func(c *LoadConfig) { c.Think = -time.Second }), "think"},
		{"no kills", crash(func(c *CrashConfig) { c.Kills = 0 }), "kills"},
		{"too many kills", crash(func(c *CrashConfig) { c.Kills = MaxKills + 1 }), "kills"},
		{"too many crash games", crash(func(c *CrashConfig) { c.Games = MaxActiveGames + 1 }), "games"},
		{"crash shares above one together", crash(func(c *CrashConfig) { c.Level8, c.Recon = 0.5, 0.6 }), "exceed"},
		{"up times reversed", crash(func(c *CrashConfig) { c.MinUp, c.MaxUp = 2*time.Second, time.Second }), "between kills"},
		{"crash run too long", crash(func(c *CrashConfig) { c.Kills, c.MaxUp = 400, 50*time.Second }), "whole run"},
		{"idle steps falling", func() error { _, err := Idle(IdleConfig{Bin: "/nonexistent", Steps: []int{10, 5}}); return err }(), "rise"},
		{"too many idle games", func() error {
			_, err := Idle(IdleConfig{Bin: "/nonexistent", Steps: []int{MaxIdleGames + 1}})
			return err
		}(), "open games"},
		{"ack with no games", func() error { _, err := Ack(AckConfig{Bin: "/nonexistent", Games: 0, Rounds: 1}); return err }(), "games"},
	}
	for _, tc := range tests {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, tc.err, tc.want)
		}
	}
}

// Percentiles are by nearest rank.
func TestSummarize(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // 100 … 1, unsorted
	}
	tests := []struct {
		name           string
		in             []time.Duration
		p50, p99, p999 time.Duration
	}{
		{"one", ms(7), 7 * time.Millisecond, 7 * time.Millisecond, 7 * time.Millisecond},
		{"two", ms(9, 1), 1 * time.Millisecond, 9 * time.Millisecond, 9 * time.Millisecond},
		{"a hundred", ms(hundred...), 50 * time.Millisecond, 99 * time.Millisecond, 100 * time.Millisecond},
	}
	for _, tc := range tests {
		s := summarize(tc.in)
		if s.N != len(tc.in) || s.P50 != tc.p50 || s.P99 != tc.p99 || s.P999 != tc.p999 {
			t.Errorf("%s: %+v, want p50 %v p99 %v p999 %v", tc.name, s, tc.p50, tc.p99, tc.p999)
		}
	}
	if s := summarize(nil); s.N != 0 || s.String() != "no samples" {
		t.Errorf("no samples: %+v %q", s, s.String())
	}
}
