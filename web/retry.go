package web

import (
	"time"

	"knightwatch/enginepool"
	"knightwatch/experience"
	"knightwatch/game"
	"knightwatch/store"
)

// Saving the engine's own actions when the database refuses (issue 35).
//
// The engine's move and a flag fall are not the person's to repeat: when
// their commit fails (a full disk, a write lock held past the busy
// timeout), the room keeps what it wanted to save and tries again, after
// SaveRetryFirst, then twice as long each time up to SaveRetryMax, for as
// long as the room lives. Meanwhile every tab is told in words, the state
// says the engine is thinking and waiting to save (saving: true), and no
// new search starts. The person's own actions (move, resign, take-back,
// rematch) are not retried: they fail with a clear error and change
// nothing, so the person can simply try again.
//
// The clock: while the engine's move waits to be saved, its clock is
// stopped at the moment the move was ready (pausedAt), and the flag timer
// is off. The engine has moved; only the server is slow, so charging the
// engine would hand the person a win on time for the server's fault, and
// the person's clock must not run either, since they cannot move before
// the engine's move is on the board. Once the move is saved, the person's
// clock starts from the moment they see it, exactly as after any move.
const (
	// DefaultSaveRetryFirst and DefaultSaveRetryMax are Config's
	// SaveRetryFirst and SaveRetryMax defaults.
	DefaultSaveRetryFirst = 100 * time.Millisecond
	DefaultSaveRetryMax   = 5 * time.Second

	// Notices while the server cannot save.
	engineMoveUnsavedNotice = "The server cannot save right now; Knightwatch's move will be played as soon as it can."
	flagUnsavedNotice       = "The server cannot save right now; the end of the game on time will be recorded as soon as it can."
	savedAgainNotice        = "The server can save again; the game goes on."
	// Errors for the person's own actions, which are not retried.
	moveUnsavedText     = "The server cannot save right now; your move was not played. Try again in a moment."
	resignUnsavedText   = "The server cannot save right now; your resignation was not recorded. Try again in a moment."
	takebackUnsavedText = "The server cannot save right now; nothing was taken back. Try again in a moment."
	rematchUnsavedText  = "The server cannot save right now; the rematch was not created. Try again in a moment."
	drawUnsavedText     = "The engine accepts the draw, but the server cannot save right now; offer the draw again in a moment."
)

// saveRetry is a pending commit of the engine's move or of a flag fall.
type saveRetry struct {
	timer *time.Timer
	delay time.Duration
	// move is the engine's move to play; when nil, the retry ends the
	// game on time instead.
	move *game.Move
	res  enginepool.SearchResult
}

func (s *Server) saveRetryFirst() time.Duration {
	if s.cfg.SaveRetryFirst > 0 {
		return s.cfg.SaveRetryFirst
	}
	return DefaultSaveRetryFirst
}

func (s *Server) saveRetryMax() time.Duration {
	if s.cfg.SaveRetryMax > 0 {
		return s.cfg.SaveRetryMax
	}
	return DefaultSaveRetryMax
}

// retryMoveLocked keeps the engine's move m, whose commit just failed, and
// saves it later. The engine's clock stops at now.
func (r *room) retryMoveLocked(m game.Move, res enginepool.SearchResult, now time.Time) {
	if r.retry != nil {
		return
	}
	if !r.runStart.IsZero() && r.pausedAt.IsZero() {
		r.pausedAt = now
	}
	if r.flag != nil {
		r.flag.Stop()
		r.flag = nil
	}
	r.armRetryLocked(&saveRetry{move: &m, res: res, delay: r.srv.saveRetryFirst()})
	r.broadcastLocked(encodeNotice(engineMoveUnsavedNotice))
	r.broadcastStateLocked(now)
}

// retryFlagLocked saves the flag fall later; the clock stays at zero.
func (r *room) retryFlagLocked() {
	if r.retry != nil {
		return
	}
	if r.flag != nil {
		r.flag.Stop()
		r.flag = nil
	}
	r.armRetryLocked(&saveRetry{delay: r.srv.saveRetryFirst()})
	r.broadcastLocked(encodeNotice(flagUnsavedNotice))
}

func (r *room) armRetryLocked(rt *saveRetry) {
	r.retry = rt
	rt.timer = time.AfterFunc(rt.delay, func() { r.onRetry(rt) })
}

// cancelRetryLocked forgets a pending commit: the game moved on (resign,
// take-back) or the room closed.
func (r *room) cancelRetryLocked() {
	if r.retry != nil {
		r.retry.timer.Stop()
		r.retry = nil
	}
	r.pausedAt = time.Time{}
}

// onRetry tries the pending commit once more, backing off on failure.
func (r *room) onRetry(rt *saveRetry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.retry != rt || r.closed {
		return
	}
	if r.srv.ctx.Err() != nil {
		// The server is closing: its tabs go and shutdownLocked follows.
		r.cancelRetryLocked()
		return
	}
	now := time.Now()
	if r.over() {
		r.cancelRetryLocked()
		return
	}
	var ok bool
	if rt.move != nil {
		ok = r.retryPlayLocked(rt, now)
	} else {
		ok = r.retryFlagOnceLocked(now)
	}
	if !ok {
		if r.retry == rt {
			rt.delay = min(rt.delay*2, r.srv.saveRetryMax())
			rt.timer = time.AfterFunc(rt.delay, func() { r.onRetry(rt) })
		}
		return
	}
	r.broadcastLocked(encodeNotice(savedAgainNotice))
	r.broadcastStateLocked(now)
}

// retryPlayLocked commits the engine's kept move. The clock is charged
// up to pausedAt only (chargeLocked); on success, the person's clock
// starts now.
func (r *room) retryPlayLocked(rt *saveRetry, now time.Time) bool {
	m := *rt.move
	if !r.pos().IsLegal(m) || r.pos().Side() == r.human {
		// Cannot happen: nothing else changes the game meanwhile. Drop it
		// and let the engine search again rather than stick.
		r.cancelRetryLocked()
		r.maybeStartSearchLocked(now)
		return true
	}
	r.retry = nil // so that playLocked's syncClockLocked starts the person's clock
	var notes []store.ExperienceNote
	if m == rt.res.Move {
		notes = experience.Notes(r.g.Len(), r.pos(), rt.res.Experience)
	}
	if perr := r.playLocked(m, notes, now); perr != nil {
		if r.retry == nil && !r.over() {
			r.retry = rt // still refused: keep trying
			return false
		}
		return true // a flag fall took over
	}
	if m == rt.res.Move {
		r.recordEvalLocked(rt.res)
	}
	return true
}

// retryFlagOnceLocked ends the game on time, as onFlag would have.
func (r *room) retryFlagOnceLocked(now time.Time) bool {
	rec := r.rec
	if !r.chargeLocked(&rec, now) {
		// The clock is not out (it cannot come back, but be safe).
		r.retry = nil
		r.syncClockLocked(now)
		return true
	}
	if err := r.flagCommitLocked(&rec, now); err != nil {
		return false
	}
	r.retry = nil
	return true
}
