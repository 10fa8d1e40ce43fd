package game

import (
	"testing"
	"time"
)

// TestClock steps clocks through turns, stops and restores, checking each
// side's time after every step.
func TestClock(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	s := time.Second
	type step struct {
		do      func(c *Clock) any // what it returns, if anything
		want    any                // nil: not checked
		atMS    int                // the moment of the check
		white   time.Duration
		black   time.Duration
		running bool
	}
	tests := []struct {
		name  string
		clock Clock
		steps []step
	}{
		{"a turn each with an increment", NewClock(60*s, 2*s), []step{
			{do: func(c *Clock) any { c.Start(White, at(0)); return nil }, atMS: 1500, white: 60*s - 1500*time.Millisecond, black: 60 * s, running: true},
			{do: func(c *Clock) any { return c.Press(at(3000)) }, want: false, atMS: 3000, white: 59 * s, black: 60 * s, running: true},
			{do: func(c *Clock) any { return c.Press(at(13000)) }, want: false, atMS: 13000, white: 59 * s, black: 52 * s, running: true},
			{atMS: 14000, white: 58 * s, black: 52 * s, running: true},
		}},
		{"stopped while nobody watches, started again", NewClock(10*s, 0), []step{
			{do: func(c *Clock) any { c.Start(Black, at(0)); c.Stop(at(4000)); return nil }, atMS: 60000, white: 10 * s, black: 6 * s},
			{do: func(c *Clock) any { c.Stop(at(70000)); return nil }, atMS: 70000, white: 10 * s, black: 6 * s}, // twice: nothing
			{do: func(c *Clock) any { c.Start(Black, at(80000)); c.Start(Black, at(81000)); return nil }, atMS: 82000, white: 10 * s, black: 4 * s, running: true},
		}},
		{"starting the other side charges the running one", NewClock(10*s, 5*s), []step{
			{do: func(c *Clock) any { c.Start(White, at(0)); c.Start(Black, at(3000)); return nil }, atMS: 4000, white: 7 * s, black: 9 * s, running: true},
		}},
		{"a flag falls", NewClock(5*s, 3*s), []step{
			{do: func(c *Clock) any { c.Start(White, at(0)); d, ok := c.Deadline(); return [2]any{d.Equal(at(5000)), ok} }, want: [2]any{true, true}, atMS: 4999, white: 1 * time.Millisecond, black: 5 * s, running: true},
			{do: func(c *Clock) any { _, f := c.Flagged(at(4999)); return f }, want: false, atMS: 4999, white: time.Millisecond, black: 5 * s, running: true},
			{do: func(c *Clock) any { side, f := c.Flagged(at(5000)); return [2]any{side, f} }, want: [2]any{White, true}, atMS: 5000, white: 0, black: 5 * s, running: true},
			{do: func(c *Clock) any { return c.Press(at(5200)) }, want: true, atMS: 9000, white: -200 * time.Millisecond, black: 5 * s},
		}},
		{"pressing a stopped clock does nothing", NewClock(5*s, 3*s), []step{
			{do: func(c *Clock) any { return c.Press(at(100)) }, want: false, atMS: 100, white: 5 * s, black: 5 * s},
		}},
		{"untimed: never flagged, no deadline", NewClock(0, 0), []step{
			{do: func(c *Clock) any {
				c.Start(White, at(0))
				_, f := c.Flagged(at(1e9))
				_, d := c.Deadline()
				return [3]any{f, d, c.Press(at(1e9))}
			}, want: [3]any{false, false, false}, atMS: 1e9, white: -1e9 * time.Millisecond, black: 0, running: true},
		}},
		{"restored: the time since the record's start is charged", RestoreClock(60*s, 1*s, [2]time.Duration{30 * s, 20 * s}, true, Black, at(0)), []step{
			{atMS: 5000, white: 30 * s, black: 15 * s, running: true},
			{do: func(c *Clock) any { return c.Press(at(6000)) }, want: false, atMS: 6000, white: 30 * s, black: 15 * s, running: true},
		}},
		{"restored stopped", RestoreClock(60*s, 1*s, [2]time.Duration{30 * s, 20 * s}, false, Black, at(0)), []step{
			{atMS: 5000, white: 30 * s, black: 20 * s},
		}},
		{"time set on the running side restarts its count", NewClock(60*s, 0), []step{
			{do: func(c *Clock) any { c.Start(White, at(0)); c.SetLeft(White, 40*s, at(10000)); return nil }, atMS: 12000, white: 38 * s, black: 60 * s, running: true},
			{do: func(c *Clock) any { c.SetLeft(Black, 50*s, at(12000)); return nil }, atMS: 12000, white: 38 * s, black: 50 * s, running: true},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.clock
			for i, st := range tc.steps {
				if st.do != nil {
					if got := st.do(&c); st.want != nil && got != st.want {
						t.Fatalf("step %d returned %v, want %v", i, got, st.want)
					}
				}
				now := at(st.atMS)
				if w, b := c.Remaining(White, now), c.Remaining(Black, now); w != st.white || b != st.black {
					t.Fatalf("step %d at %d ms: white %v black %v, want %v %v", i, st.atMS, w, b, st.white, st.black)
				}
				if both := c.RemainingAt(now); both != [2]time.Duration{st.white, st.black} {
					t.Fatalf("step %d: RemainingAt %v", i, both)
				}
				if _, running := c.Running(); running != st.running {
					t.Fatalf("step %d: running %v, want %v", i, running, st.running)
				}
			}
		})
	}
}

// TestClockRecord checks that a clock kept as its record (Left, the running
// side and Since) and restored goes on exactly as the original: a process
// that dies and another that takes the game charge the same time.
func TestClockRecord(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	c := NewClock(90*time.Second, 2*time.Second)
	c.Start(White, t0)
	c.Press(t0.Add(3 * time.Second))
	side, running := c.Running()
	r := RestoreClock(c.Initial(), c.Increment(), c.Left(), running, side, c.Since())
	for _, d := range []time.Duration{0, time.Second, 30 * time.Second, 2 * time.Minute} {
		now := t0.Add(3*time.Second + d)
		if c.RemainingAt(now) != r.RemainingAt(now) {
			t.Fatalf("after %v: %v, restored %v", d, c.RemainingAt(now), r.RemainingAt(now))
		}
		a, b := c, r
		if a.Press(now) != b.Press(now) || a.RemainingAt(now) != b.RemainingAt(now) {
			t.Fatalf("after %v, a turn ends differently: %v and %v", d, a.RemainingAt(now), b.RemainingAt(now))
		}
	}
}
