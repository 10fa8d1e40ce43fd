package game

import "time"

// Clock is a two-sided game clock with an increment (Fischer): each side's
// time left, and which side's time is running since when. It is charged
// from the moments its callers pass in, never from a timer of its own, so
// a server can keep it in a record and restore it anywhere: the time that
// passed while no process held the game is charged like any other (the
// running side's start is part of the record).
//
// A clock with no initial time (Untimed) never runs out. The zero Clock is
// untimed and stopped.
type Clock struct {
	initial, increment time.Duration
	// left is each side's time as of the last moment it was charged: for
	// the running side, as of since.
	left [2]time.Duration
	// side's time runs from since; since is zero while the clock is
	// stopped.
	side  Color
	since time.Time
}

// NewClock returns a stopped clock giving each side initial, and increment
// after each of its turns.
func NewClock(initial, increment time.Duration) Clock {
	return Clock{initial: initial, increment: increment, left: [2]time.Duration{initial, initial}}
}

// RestoreClock returns the clock of a record: each side's time left as of
// the last charge and, when running is true, the side whose time has run
// since since.
func RestoreClock(initial, increment time.Duration, left [2]time.Duration, running bool, side Color, since time.Time) Clock {
	c := Clock{initial: initial, increment: increment, left: left}
	if running {
		c.side, c.since = side, since
	}
	return c
}

// Initial and Increment return the time control.
func (c *Clock) Initial() time.Duration   { return c.initial }
func (c *Clock) Increment() time.Duration { return c.increment }

// Timed reports whether the clock has a time control at all.
func (c *Clock) Timed() bool { return c.initial > 0 }

// Running returns the side whose time runs, and false when none does.
func (c *Clock) Running() (Color, bool) {
	if c.since.IsZero() {
		return c.side, false
	}
	return c.side, true
}

// Since returns when the running side's time started running (zero when
// stopped): with Left, what a record keeps.
func (c *Clock) Since() time.Time { return c.since }

// Left returns each side's time as of its last charge (for the running
// side, as of Since): what a record keeps.
func (c *Clock) Left() [2]time.Duration { return c.left }

// Remaining returns side's time left at now (negative once run out).
func (c *Clock) Remaining(side Color, now time.Time) time.Duration {
	left := c.left[side]
	if !c.since.IsZero() && side == c.side && now.After(c.since) {
		left -= now.Sub(c.since)
	}
	return left
}

// RemainingAt returns both sides' time left at now.
func (c *Clock) RemainingAt(now time.Time) [2]time.Duration {
	return [2]time.Duration{c.Remaining(White, now), c.Remaining(Black, now)}
}

// Start starts side's time at now, charging whichever side's time was
// running until then. Starting the side already running changes nothing.
func (c *Clock) Start(side Color, now time.Time) {
	if !c.since.IsZero() {
		if c.side == side {
			return
		}
		c.Stop(now)
	}
	c.side, c.since = side, now
}

// Stop charges the running side's time up to now and stops the clock.
func (c *Clock) Stop(now time.Time) {
	if c.since.IsZero() {
		return
	}
	c.left[c.side] = c.Remaining(c.side, now)
	c.since = time.Time{}
}

// Press ends the running side's turn at now: its time is charged and, when
// some is left, credited with the increment, and the other side's time
// starts. When the running side had run out of time it reports true and
// the clock stops with that side's time as it fell (at most zero). A
// stopped clock is left as it is.
func (c *Clock) Press(now time.Time) (flagged bool) {
	side, ok := c.Running()
	if !ok {
		return false
	}
	c.Stop(now)
	if c.Timed() && c.left[side] <= 0 {
		return true
	}
	c.left[side] += c.increment
	c.Start(side.Other(), now)
	return false
}

// Flagged reports whether the running side has run out of time at now.
func (c *Clock) Flagged(now time.Time) (Color, bool) {
	side, ok := c.Running()
	if !ok || !c.Timed() {
		return side, false
	}
	return side, c.Remaining(side, now) <= 0
}

// Deadline returns the moment the running side's time runs out, and false
// when no timed clock runs.
func (c *Clock) Deadline() (time.Time, bool) {
	if c.since.IsZero() || !c.Timed() {
		return time.Time{}, false
	}
	return c.since.Add(c.left[c.side]), true
}

// SetLeft sets side's time left as of now (a takeback, or a clock fallen
// to zero kept at zero).
func (c *Clock) SetLeft(side Color, d time.Duration, now time.Time) {
	if !c.since.IsZero() && side == c.side {
		c.since = now
	}
	c.left[side] = d
}
