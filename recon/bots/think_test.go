package bots

import (
	"testing"
	"time"

	"knightwatch/recon"
)

// TestThinkTime checks what each bot says its next step may take: nothing
// for the bots that choose at once, trout's search (less on a short
// clock), knightwatch's half turn (less on a short clock, its cap without
// a clock).
func TestThinkTime(t *testing.T) {
	cases := []struct {
		spec     string
		left     time.Duration
		min, max time.Duration // inclusive
	}{
		{"random", 10 * time.Minute, 0, 0},
		{"attacker", 10 * time.Minute, 0, 0},
		{"trout:engine=knightwatch", 15 * time.Minute, 500 * time.Millisecond, 500 * time.Millisecond},
		{"trout:engine=knightwatch", 2 * time.Second, 100 * time.Millisecond, 100 * time.Millisecond},
		{"trout:engine=knightwatch", recon.Unlimited, 500 * time.Millisecond, 500 * time.Millisecond},
		{"trout:engine=knightwatch,nodes=200000", 15 * time.Minute, 200 * time.Millisecond, 200 * time.Millisecond},
		// 900 s / 35 turns, halved.
		{"knightwatch", 15 * time.Minute, 12 * time.Second, 13 * time.Second},
		// Below lowClock it lives on the increment (none inferred yet):
		// 10 s / 40, halved.
		{"knightwatch", 10 * time.Second, 125 * time.Millisecond, 125 * time.Millisecond},
		{"knightwatch:level=1", 15 * time.Minute, time.Second, time.Second}, // TurnTime 2 s, halved
		{"knightwatch", recon.Unlimited, 2500 * time.Millisecond, 2500 * time.Millisecond},
	}
	for _, c := range cases {
		p, err := New(c.spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		th, ok := p.(Thinker)
		if !ok {
			t.Errorf("%s is not a Thinker", c.spec)
			continue
		}
		if got := th.ThinkTime(c.left); got < c.min || got > c.max {
			t.Errorf("%s with %v left: ThinkTime %v, want %v to %v", c.spec, c.left, got, c.min, c.max)
		}
		if cl, ok := p.(interface{ Close() error }); ok {
			cl.Close()
		}
	}
}

// TestNewOneThread checks that NewOneThread keeps knightwatch on one
// goroutine whatever its spec asks, and builds every other bot as New
// does.
func TestNewOneThread(t *testing.T) {
	cases := []struct {
		spec    string
		workers int // knightwatch's; 0 for another bot
	}{
		{"knightwatch", 1},
		{"knightwatch:level=2", 1},
		{"knightwatch:workers=4", 1},
		{"random", 0},
		{"attacker", 0},
		{"trout:engine=knightwatch", 0},
	}
	for _, c := range cases {
		p, err := NewOneThread(c.spec, 1)
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		if k, ok := p.(*Knightwatch); ok {
			if k.cfg.Workers != c.workers || len(k.scorers) != c.workers {
				t.Errorf("%s: %d workers, %d scorers; want %d", c.spec, k.cfg.Workers, len(k.scorers), c.workers)
			}
		} else if c.workers != 0 {
			t.Errorf("%s: got %T", c.spec, p)
		}
		if cl, ok := p.(interface{ Close() error }); ok {
			cl.Close()
		}
	}
	if k, err := New("knightwatch:workers=4", 1); err != nil || k.(*Knightwatch).cfg.Workers != 4 {
		t.Errorf("New: workers=4 not kept (%v)", err)
	}
	if _, err := NewOneThread("knightwatch:depth=99", 1); err == nil {
		t.Error("NewOneThread accepted a bad option")
	}
}
