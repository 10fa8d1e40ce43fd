package analysisboard

import (
	"strings"
	"testing"
	"time"
)

// TestLimiter: an owner runs at most Concurrent analyses and spends at
// most PerMinute of engine time a minute, refilled evenly; the server at
// most Server at once; each refusal says why in words.
func TestLimiter(t *testing.T) {
	now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	l := NewLimiter(Caps{Concurrent: 2, PerMinute: 30 * time.Second, PerPosition: 20 * time.Second, Server: 3})
	l.now = func() time.Time { return now }
	steps := []struct {
		name       string
		owner      string
		used       time.Duration // charged at once when started (-1: left running)
		advance    time.Duration // before the step
		wantBudget time.Duration
		refused    string
	}{
		{"first: a position's budget", "a", -1, 0, 20 * time.Second, ""},
		{"second at once", "a", -1, 0, 20 * time.Second, ""},
		{"third refused", "a", 0, 0, 0, "already have 2 analyses"},
		{"another owner", "b", -1, 0, 20 * time.Second, ""},
		{"server full", "c", 0, 0, 0, "as many analyses as it allows"},
	}
	var running []func(time.Duration)
	for _, s := range steps {
		now = now.Add(s.advance)
		budget, done, refusal := l.Start(s.owner)
		if (refusal == "") != (s.refused == "") || !strings.Contains(refusal, s.refused) || budget != s.wantBudget {
			t.Fatalf("%s: budget %v refusal %q, want %v %q", s.name, budget, refusal, s.wantBudget, s.refused)
		}
		if done != nil {
			running = append(running, done)
		}
	}
	// a spends 25 s in all: 5 s are left, then refused below 1 s.
	running[0](15 * time.Second)
	running[1](10 * time.Second)
	running[2](0)
	budget, done, refusal := l.Start("a")
	if refusal != "" || budget != 5*time.Second {
		t.Fatalf("after 25 s: budget %v %q, want 5 s", budget, refusal)
	}
	done(5 * time.Second)
	if _, _, refusal := l.Start("a"); !strings.Contains(refusal, "engine seconds of the last minute") || !strings.Contains(refusal, "in 2 s") {
		t.Fatalf("spent: %q", refusal)
	}
	now = now.Add(30 * time.Second) // half a minute: 15 s back
	if budget, done, refusal := l.Start("a"); refusal != "" || budget != 15*time.Second {
		t.Fatalf("refilled: %v %q", budget, refusal)
	} else {
		done(0)
	}
}
