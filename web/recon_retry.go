package web

import (
	"errors"
	"time"
)

// Saving a Reconnaissance Chess game's own steps when the database
// refuses (issue 35), as retry.go does for the game against the engine.
//
// The bot's sense and move and a flag fall are not the person's to
// repeat: when their commit fails (a full disk, a write lock held past the
// busy timeout), the arbiter is put back as it was, so no tab ever sees an
// unsaved step, and the room keeps the step (pending) and applies and
// commits it again after SaveRetryFirst, then twice as long each time up
// to SaveRetryMax, for as long as the room lives. Meanwhile every tab is
// told in words, the state says saving, the bot starts nothing new and the
// person can only resign (not while a flag fall waits: the game is over)
// and keep notes. The person's own sense, move, resignation and notes are
// not retried: they fail with a clear error and change nothing.
//
// The clock stands still from the moment the step was ready until it is
// saved: the arbiter's time (gameNow) leaves out every such spell. The
// bot has moved, only the server is slow, so the bot is not charged for
// the wait, and the person's clock starts only once the bot's move is on
// their board. A flag fall is applied again at the moment it happened.

// Notices and errors of the Reconnaissance Chess room when it cannot save
// (the rest are retry.go's).
const (
	reconBotUnsavedNotice = "The server cannot save right now; your opponent's turn will go on as soon as it can."
	senseUnsavedText      = "The server cannot save right now; your sense was not made. Try again in a moment."
	markerUnsavedText     = "The server cannot save right now; your note was not kept. Try again in a moment."
)

// reconPending is a step of the bot, or a flag fall, waiting to be saved.
type reconPending struct {
	apply func() error // applies the step to the arbiter again
	flag  bool         // the step is a flag fall
	timer *time.Timer
	delay time.Duration
	// done is closed once the step is saved (saved true) or dropped;
	// the bot's goroutine waits on it.
	done  chan struct{}
	saved bool
}

// errClockNotOut: a flag fall applied when the mover still has time.
var errClockNotOut = errors.New("web: the clock has not run out")

// gameNow is the time as the room's arbiter sees it: real time less every
// spell during which the clock stood still for a pending save. It is the
// arbiter's Config.Now, so it runs under mu, as every arbiter call does.
func (r *reconRoom) gameNow() time.Time {
	now := time.Now()
	if !r.stoppedAt.IsZero() {
		now = r.stoppedAt
	}
	return now.Add(-r.stoppedFor)
}

// stopClockLocked makes the game's clock stand still at at (a real time).
func (r *reconRoom) stopClockLocked(at time.Time) {
	if r.stoppedAt.IsZero() {
		r.stoppedAt = at
	}
}

// restartClockLocked lets the game's clock run again from now.
func (r *reconRoom) restartClockLocked(now time.Time) {
	if !r.stoppedAt.IsZero() {
		r.stoppedFor += now.Sub(r.stoppedAt)
		r.stoppedAt = time.Time{}
	}
}

// saveLaterLocked keeps apply, a step whose commit just failed (the
// arbiter is back as before), and saves it later; the clock stands still
// at readyAt, when the step was taken. Every tab is told.
func (r *reconRoom) saveLaterLocked(readyAt time.Time, flag bool, apply func() error) *reconPending {
	r.stopClockLocked(readyAt)
	p := &reconPending{apply: apply, flag: flag, delay: r.srv.saveRetryFirst(), done: make(chan struct{})}
	r.pending = p
	p.timer = time.AfterFunc(p.delay, func() { r.retryPending(p) })
	r.syncClockLocked()
	notice := reconBotUnsavedNotice
	if flag {
		notice = flagUnsavedNotice
	}
	r.broadcastLocked(encodeNotice(notice))
	r.broadcastStateLocked(time.Now())
	return p
}

// retryPending applies and commits p once more, backing off on failure.
func (r *reconRoom) retryPending(p *reconPending) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pending != p || r.closed {
		return
	}
	now := time.Now()
	if r.srv.ctx.Err() != nil {
		// The server is closing: its tabs go and shutdownLocked follows.
		r.dropPendingLocked(now)
		return
	}
	err := r.changeLocked(now, p.apply)
	if errors.Is(err, errCommit) {
		p.delay = min(p.delay*2, r.srv.saveRetryMax())
		p.timer = time.AfterFunc(p.delay, func() { r.retryPending(p) })
		return
	}
	if err != nil {
		// The arbiter refuses now what it took before: cannot happen, as
		// nothing changes the game meanwhile. Drop the step rather than
		// stick; the bot's turn starts again.
		r.srv.logf("game %s: pending step refused: %v", r.id, err)
	}
	r.pending = nil
	p.saved = err == nil
	close(p.done)
	r.restartClockLocked(now)
	if p.saved {
		r.broadcastLocked(encodeNotice(savedAgainNotice))
	}
	r.syncClockLocked()
	r.broadcastStateLocked(now)
}

// dropPendingLocked forgets the pending step: the game moved on (the
// person resigned) or the room is closing. The bot's goroutine, waiting
// for it, ends its turn.
func (r *reconRoom) dropPendingLocked(now time.Time) {
	p := r.pending
	if p == nil {
		return
	}
	p.timer.Stop()
	r.pending = nil
	close(p.done)
	r.restartClockLocked(now)
}

// pendingFlagErr refuses the person's action while a flag fall waits to
// be saved: the game is over, only not yet recorded.
func (r *reconRoom) pendingFlagErr() *ProtoError {
	if r.pending != nil && r.pending.flag {
		return protoErr(CodeServer, "%s", flagUnsavedNotice)
	}
	return nil
}

// flagLocked ends the game on the mover's fallen flag and commits it,
// telling every tab; when the database refuses, the end is saved later.
func (r *reconRoom) flagLocked(now time.Time) {
	r.cancelBotLocked()
	apply := func() error {
		if !r.g.CheckClock() {
			return errClockNotOut
		}
		return nil
	}
	switch err := r.changeLocked(now, apply); {
	case err == nil:
		r.syncClockLocked()
		r.broadcastStateLocked(now)
	case errors.Is(err, errCommit):
		r.saveLaterLocked(now, true, apply)
	default:
		r.syncClockLocked() // not out after all
		r.maybeStartBotLocked()
	}
}

// botStepLocked applies and commits one step of the bot's job j (apply),
// or, when the database refuses, waits (without the lock) until the step
// is saved later or dropped. It reports whether the step is saved and the
// job goes on, and whether it waited; when not, the job has ended.
func (r *reconRoom) botStepLocked(j *job, now time.Time, apply func() error) (ok, waited bool) {
	err := r.changeLocked(now, apply)
	if errors.Is(err, errCommit) {
		p := r.saveLaterLocked(now, false, apply)
		r.mu.Unlock()
		<-p.done
		r.mu.Lock()
		waited = true
		if !p.saved {
			err = errCommit
		}
	}
	if err != nil || r.botJob != j || r.closed {
		r.finishBotLocked(j)
		return false, waited
	}
	return true, waited
}
