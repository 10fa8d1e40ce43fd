package web

import (
	"context"
	"net/http"
	"time"

	"knightwatch/store"
)

// Saving an HTTP API game's own steps when the database refuses (issue
// 35), as recon_retry.go does for the browser game.
//
// A remote player's call that cannot be saved fails with 500 and changes
// nothing: the player calls again. The built-in bot's sense and move and
// the end of a game on time are nobody's to repeat, so they are saved
// later: the step is applied and committed again after SaveRetryFirst,
// then twice as long each time up to SaveRetryMax, until it is saved or
// no longer wanted (the game ended otherwise, the table closed, the server
// stopping). The bot is not asked again meanwhile: it has already taken
// its choice into account (a second OpponentMoveResult would put the
// opponent's move on its boards twice). The clocks run as they always do
// in the API (the remote player's do while their calls fail too).

// botChangeLocked applies and commits a step of the built-in bot (apply)
// as changeLocked does, and when the database refuses, again later as
// described above, releasing the lock in between; current says whether
// the bot's turn is still on. It reports whether the step was saved.
func (t *apiTable) botChangeLocked(ctx context.Context, current func() bool, apply func() error) bool {
	delay := t.srv.saveRetryFirst()
	for {
		e := t.changeLocked(time.Now(), apply)
		if e == nil {
			return true
		}
		if e.status != http.StatusInternalServerError {
			return false // the arbiter refused: the game is over
		}
		t.mu.Unlock()
		timer := time.NewTimer(delay)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
		}
		t.mu.Lock()
		if ctx.Err() != nil || !current() {
			return false
		}
		delay = min(delay*2, t.srv.saveRetryMax())
	}
}

// saveEndLaterLocked commits the game's end, which the clock brought and
// the database just refused, later, as described above.
func (t *apiTable) saveEndLaterLocked() {
	if t.endRetry != nil {
		return
	}
	t.endDelay = t.srv.saveRetryFirst()
	t.endRetry = time.AfterFunc(t.endDelay, t.retryEnd)
}

// retryEnd commits the game's end once more, backing off on failure.
func (t *apiTable) retryEnd() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.rec.Status == store.StatusOver || t.srv.ctx.Err() != nil {
		t.endRetry = nil
		return
	}
	if err := t.commitLocked(t.rec, time.Now()); err != nil {
		t.endDelay = min(t.endDelay*2, t.srv.saveRetryMax())
		t.endRetry = time.AfterFunc(t.endDelay, t.retryEnd)
		return
	}
	t.endRetry = nil
}

// stopEndRetryLocked stops a pending save of the game's end.
func (t *apiTable) stopEndRetryLocked() {
	if t.endRetry != nil {
		t.endRetry.Stop()
		t.endRetry = nil
	}
}
