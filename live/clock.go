package live

import (
	"errors"
	"time"
)

// The host's clock: started and stopped by one policy, its flag timer, and
// the game's end on time.

// syncClockStartedLocked is syncClockLocked when no change is committed
// with it (a player comes, the host starts): a clock it starts is
// committed as running, so that a crash before the next change still
// charges the mover from now (logged on failure: at worst that time is not
// charged).
func (h *Host) syncClockStartedLocked(now time.Time) {
	_, was := h.g.Clock().Running()
	h.syncClockLocked(now)
	if _, running := h.g.Clock().Running(); running && !was {
		if err := h.commitLocked(now); errors.Is(err, ErrConflict) {
			h.reloadLocked(now) // another server moved the game on
		}
	}
}

// syncClockLocked starts or stops the mover's clock as the rules and the
// host's state want it, and arms the flag timer while it runs.
func (h *Host) syncClockLocked(now time.Time) {
	c := h.g.Clock()
	mover, on := h.g.Turn()
	run := on && c.Timed() && h.g.ClockDue() && (h.cfg.Always || h.pending == nil && h.playedLocked())
	if run {
		c.Start(mover, now)
	} else {
		c.Stop(now)
	}
	h.armFlagLocked()
}

// armFlagLocked (re)arms the flag timer for the running clock.
func (h *Host) armFlagLocked() {
	if h.flag != nil {
		h.flag.Stop()
		h.flag = nil
	}
	if h.closed {
		return
	}
	if d, ok := h.g.Clock().Deadline(); ok {
		h.flag = time.AfterFunc(time.Until(d)+flagSlack, h.onFlag)
	}
}

func (h *Host) onFlag() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	if !h.flagIfDueLocked(time.Now()) {
		h.armFlagLocked() // woke early
	}
}

// flagIfDueLocked ends the game on time when the mover's clock has run
// out at now, and reports whether it has (the end saved, or kept to be
// saved later).
func (h *Host) flagIfDueLocked(now time.Time) bool {
	if p := h.pending; p != nil && p.flag {
		return true
	}
	c := h.g.Clock()
	if _, ok := c.Flagged(now); !ok {
		return false
	}
	if _, on := h.g.Turn(); !on {
		return false
	}
	h.flagLocked(now)
	return true
}

// flagLocked ends the game on time and commits it; an automaton's turn and
// any step of it waiting to be saved are dropped. When the database
// refuses, the end is kept and saved later.
func (h *Host) flagLocked(now time.Time) {
	if h.turn != nil {
		h.turn.withdrawLocked()
	}
	h.dropPendingLocked()
	apply := func(now time.Time) error {
		if !h.g.Flag(now) {
			return errNotOut
		}
		return nil
	}
	switch err := h.changeLocked(now, apply); {
	case err == nil:
		h.afterLocked(now, nil)
	case errors.Is(err, ErrUnsaved):
		h.keepLocked(now, apply, true)
	default:
		h.syncClockLocked(now) // not out after all
	}
}

// errNotOut: a flag fall applied when the mover still has time.
var errNotOut = errors.New("live: the clock has not run out")
