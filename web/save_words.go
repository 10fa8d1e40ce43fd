package web

import (
	"time"

	"knightwatch/live"
)

// Saving the engine's own actions when the database refuses (issue 35):
// the engine's move and a flag fall are not the person's to repeat, so
// the game's host keeps them and saves them later (live.Host), the clock
// standing still meanwhile: the engine has moved and only the server is
// slow, so charging the engine would hand the person a win on time for
// the server's fault. The person's own actions (move, resign, take-back,
// rematch) fail with the words below and change nothing, so the person
// can simply try again.
const (
	// DefaultSaveRetryFirst and DefaultSaveRetryMax are Config's
	// SaveRetryFirst and SaveRetryMax defaults (the host's own).
	DefaultSaveRetryFirst = live.DefaultSaveRetryFirst
	DefaultSaveRetryMax   = live.DefaultSaveRetryMax

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
