package live

import (
	"errors"
	"time"
)

// pending is a step nobody can repeat (an automaton's, a flag fall) whose
// commit the database refused, kept to be applied and committed again.
type pending struct {
	apply func(now time.Time) error
	flag  bool // the step is the game's end on time
	delay time.Duration
	timer *time.Timer
	// done is closed once the step is saved (saved true) or dropped; an
	// automaton's turn waits on it.
	done  chan struct{}
	saved bool
}

// keepLocked keeps apply, a step whose commit just failed at readyAt (the
// game is back as before), to be saved later. In a game played in person
// the clock stands still from readyAt until then: the server is slow, not
// the player, so the automaton is not charged for the wait, and the other
// side's clock starts only once the step is on its board. Every
// subscriber is told.
func (h *Host) keepLocked(readyAt time.Time, apply func(now time.Time) error, flag bool) *pending {
	p := &pending{apply: apply, flag: flag, delay: h.cfg.SaveRetryFirst, done: make(chan struct{})}
	h.pending = p
	p.timer = time.AfterFunc(p.delay, func() { h.retry(p) })
	h.syncClockLocked(readyAt)
	if flag {
		h.noticeLocked(EndUnsaved)
	} else {
		h.noticeLocked(StepUnsaved)
	}
	h.broadcastLocked(time.Now())
	return p
}

// retry applies and commits p once more, backing off on failure.
func (h *Host) retry(p *pending) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.pending != p || h.closed {
		return
	}
	if h.cfg.Context.Err() != nil {
		h.dropPendingLocked() // the server is stopping
		return
	}
	now := time.Now()
	// The clock runs again for the step itself, from now: the mover was
	// charged up to the moment the step was ready.
	h.pending = nil
	h.syncClockLocked(now)
	err := h.changeLocked(now, p.apply)
	if errors.Is(err, ErrUnsaved) {
		h.pending = p
		h.syncClockLocked(now)
		p.delay = min(p.delay*2, h.cfg.SaveRetryMax)
		p.timer = time.AfterFunc(p.delay, func() { h.retry(p) })
		return
	}
	if err != nil {
		// The rules refuse now what they took before: nothing else changes
		// the game meanwhile, so this cannot happen; drop the step rather
		// than stick (an automaton plays its turn again).
		h.logf("a step waiting to be saved is refused: %v", err)
	}
	p.saved = err == nil
	close(p.done)
	defer h.notifyQuietLocked()
	if p.saved {
		h.noticeLocked(SavedAgain)
	}
	var own *Turn
	if t := h.turn; t != nil && p.saved && !p.flag {
		own = t
		t.ply = h.g.Ply() // the step was the turn's own
	}
	h.afterLocked(now, own)
}

// dropPendingLocked forgets the step waiting to be saved: the game went on
// without it (a player resigned, the flag fell) or the host is closing. An
// automaton's turn waiting for it ends.
func (h *Host) dropPendingLocked() {
	p := h.pending
	if p == nil {
		return
	}
	p.timer.Stop()
	h.pending = nil
	close(p.done)
	h.notifyQuietLocked()
}
