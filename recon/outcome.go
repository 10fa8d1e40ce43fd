package recon

import (
	"fmt"

	"knightwatch/game"
)

// WinReason says why a game ended, with the reference's names and numbers.
// The zero value, NoReason, means the game has not ended (or ended without
// a recorded reason, as the reference's histories of crashed games do).
type WinReason int

// The reasons, numbered as reconchess.WinReason numbers them. TurnLimit and
// MoveLimit end the game drawn; the others have a winner.
const (
	NoReason    WinReason = 0
	KingCapture WinReason = 1 // a king was captured
	Timeout     WinReason = 2 // a player's clock ran out
	Resign      WinReason = 3 // a player resigned
	TurnLimit   WinReason = 4 // the full-turn limit was passed
	MoveLimit   WinReason = 5 // 100 (by default) half-moves without a capture or pawn move
)

var reasonNames = [...]string{"", "KING_CAPTURE", "TIMEOUT", "RESIGN", "TURN_LIMIT", "MOVE_LIMIT"}

// String returns the reference's name ("KING_CAPTURE", ...), or "none".
func (r WinReason) String() string {
	if r <= NoReason || int(r) >= len(reasonNames) {
		return "none"
	}
	return reasonNames[r]
}

// ParseWinReason reads a reference name such as "KING_CAPTURE".
func ParseWinReason(s string) (WinReason, error) {
	for i := 1; i < len(reasonNames); i++ {
		if reasonNames[i] == s {
			return WinReason(i), nil
		}
	}
	return NoReason, fmt.Errorf("unknown win reason %q (want KING_CAPTURE, TIMEOUT, RESIGN, TURN_LIMIT or MOVE_LIMIT)", s)
}

// Draws reports whether a game ended for this reason has no winner.
func (r WinReason) Draws() bool { return r == TurnLimit || r == MoveLimit }

// Outcome is how a game ended: the reason and, unless it is a draw, the
// winner. The zero value is "not over".
type Outcome struct {
	Reason WinReason
	// Winner is meaningful only when Decisive is set.
	Winner   game.Color
	Decisive bool
}

// Over reports whether the game has ended.
func (o Outcome) Over() bool { return o.Reason != NoReason }

// Win returns the outcome "winner wins for reason".
func Win(winner game.Color, reason WinReason) Outcome {
	return Outcome{Reason: reason, Winner: winner, Decisive: true}
}

// Draw returns the drawn outcome for reason.
func Draw(reason WinReason) Outcome { return Outcome{Reason: reason} }

// String describes the outcome: "white wins by KING_CAPTURE", "draw by
// MOVE_LIMIT", "not over".
func (o Outcome) String() string {
	switch {
	case !o.Over() && !o.Decisive:
		return "not over"
	case o.Decisive:
		return fmt.Sprintf("%s wins by %s", o.Winner, o.Reason)
	}
	return "draw by " + o.Reason.String()
}
