package web

import (
	"knightwatch/recon"
	"knightwatch/store"
)

// winReasonWords says how a Reconnaissance Chess game ended, for the
// lists of finished games (the home page's and /bots's): the stored
// reason is the reference's name (KING_CAPTURE), which is for files and
// the API, not for people. As static/js/recon_words.js says it in a game.
func winReasonWords(r store.WinReason) string {
	switch r.WinReason {
	case recon.KingCapture:
		return "king captured"
	case recon.Timeout:
		return "on time"
	case recon.Resign:
		return "by resignation"
	case recon.TurnLimit:
		return "turn limit reached"
	case recon.MoveLimit:
		return "50 moves each without a capture or a pawn move"
	case recon.NoReason:
		return ""
	}
	return "ended"
}
