package recon

import (
	"fmt"

	"knightwatch/game"
)

// History is the record of a game in the reference's form
// (reconchess.GameHistory): for each colour, one entry per turn of every
// list, indexed by game.Color. A turn cut short by the clock may have a
// sense without a move.
type History struct {
	// Names are White's and Black's names. An empty name is written as
	// JSON null, the reference's "no name".
	Names [2]string
	// Senses holds each turn's sensed square (game.NoSquare: none).
	Senses [2][]game.Square
	// SenseResults holds what each sense showed (empty when none).
	SenseResults [2][]SenseResult
	// RequestedMoves holds each move as requested (game.NoMove: pass).
	RequestedMoves [2][]game.Move
	// TakenMoves holds each move as taken (game.NoMove: nothing happened).
	TakenMoves [2][]game.Move
	// CaptureSquares holds where each move captured (game.NoSquare: nowhere).
	CaptureSquares [2][]game.Square
	// FENsBefore and FENsAfter hold the true board before and after each
	// move, as the reference writes FENs (see Board.FEN).
	FENsBefore [2][]string
	FENsAfter  [2][]string
	// Outcome is how the game ended (the zero Outcome when the record ends
	// without a result).
	Outcome Outcome
}

// Turn names one player's turn: its colour and how many turns that player
// had before it (White's first turn is Turn{White, 0}).
type Turn struct {
	Color  game.Color
	Number int
}

// String writes "white 3".
func (t Turn) String() string { return fmt.Sprintf("%s %d", t.Color, t.Number) }

// Next returns the turn that follows t.
func (t Turn) Next() Turn {
	if t.Color == game.White {
		return Turn{game.Black, t.Number}
	}
	return Turn{game.White, t.Number + 1}
}

func (h *History) recordSense(c game.Color, s game.Square, r SenseResult) {
	h.Senses[c] = append(h.Senses[c], s)
	h.SenseResults[c] = append(h.SenseResults[c], r)
}

func (h *History) recordMove(c game.Color, requested, taken game.Move, capture game.Square, before, after string) {
	h.RequestedMoves[c] = append(h.RequestedMoves[c], requested)
	h.TakenMoves[c] = append(h.TakenMoves[c], taken)
	h.CaptureSquares[c] = append(h.CaptureSquares[c], capture)
	h.FENsBefore[c] = append(h.FENsBefore[c], before)
	h.FENsAfter[c] = append(h.FENsAfter[c], after)
}

// NumTurns returns the number of turns recorded, both colours together.
func (h *History) NumTurns() int { return len(h.Senses[game.White]) + len(h.Senses[game.Black]) }

// Turns returns every recorded turn in the order played.
func (h *History) Turns() []Turn {
	out := make([]Turn, 0, h.NumTurns())
	for t := (Turn{game.White, 0}); t.Number < len(h.Senses[t.Color]); t = t.Next() {
		out = append(out, t)
	}
	return out
}

// HasMove reports whether turn t has a move (a turn ended by the clock
// after its sense has none).
func (h *History) HasMove(t Turn) bool { return t.Number < len(h.RequestedMoves[t.Color]) }

// Validate checks the record's shape: matching list lengths, turns that
// alternate from White's first, a move missing only from the last turn,
// squares on the board. It is what a record must satisfy before a replay;
// Decode calls it.
func (h *History) Validate() error {
	for c := game.White; c <= game.Black; c++ {
		n := len(h.Senses[c])
		if len(h.SenseResults[c]) != n {
			return fmt.Errorf("%s: %d senses but %d sense results", c, n, len(h.SenseResults[c]))
		}
		m := len(h.RequestedMoves[c])
		for name, l := range map[string]int{
			"taken moves": len(h.TakenMoves[c]), "capture squares": len(h.CaptureSquares[c]),
			"FENs before the move": len(h.FENsBefore[c]), "FENs after the move": len(h.FENsAfter[c]),
		} {
			if l != m {
				return fmt.Errorf("%s: %d requested moves but %d %s", c, m, l, name)
			}
		}
		if m != n && m != n-1 {
			return fmt.Errorf("%s: %d senses but %d moves", c, n, m)
		}
		for i, s := range h.Senses[c] {
			if s != game.NoSquare && (s < 0 || s > 63) {
				return fmt.Errorf("%s turn %d: sense %d is not a square", c, i, s)
			}
			for _, sp := range h.SenseResults[c][i] {
				if sp.Square < 0 || sp.Square > 63 {
					return fmt.Errorf("%s turn %d: sense result square %d is not a square", c, i, sp.Square)
				}
			}
		}
		for i, s := range h.CaptureSquares[c] {
			if s != game.NoSquare && (s < 0 || s > 63) {
				return fmt.Errorf("%s turn %d: capture square %d is not a square", c, i, s)
			}
		}
	}
	w, b := len(h.Senses[game.White]), len(h.Senses[game.Black])
	if w != b && w != b+1 {
		return fmt.Errorf("white has %d turns and black %d: turns must alternate from white's first", w, b)
	}
	// Only the very last turn of the game may lack its move.
	last := Turn{game.Black, b - 1}
	if w > b {
		last = Turn{game.White, w - 1}
	}
	for c := game.White; c <= game.Black; c++ {
		if len(h.RequestedMoves[c]) < len(h.Senses[c]) && (w+b == 0 || last.Color != c) {
			return fmt.Errorf("%s's turn %d has no move but is not the last turn", c, len(h.Senses[c])-1)
		}
	}
	return nil
}
