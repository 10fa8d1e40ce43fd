package recon

import (
	"fmt"
	"strings"

	"knightwatch/game"
)

// KingCaptureMove returns the move that took a king in h, in short
// algebraic form ("Qxe8", "dxe8=Q"), with its turn; ok is false when no
// king was taken. It is the last recorded move of a game that ended by
// KingCapture; the record's FEN before that move names the piece that moved.
func (h *History) KingCaptureMove() (t Turn, san string, ok bool) {
	if h.Outcome.Reason != KingCapture || !h.Outcome.Decisive {
		return Turn{}, "", false
	}
	c := h.Outcome.Winner
	n := len(h.TakenMoves[c]) - 1
	if n < 0 || n >= len(h.FENsBefore[c]) || h.TakenMoves[c][n] == game.NoMove {
		return Turn{}, "", false
	}
	m := h.TakenMoves[c][n]
	b, err := ParseBoard(h.FENsBefore[c][n])
	if err != nil {
		return Turn{}, "", false
	}
	return Turn{c, n}, captureSAN(b.PieceAt(m.From()), m), true
}

// captureSAN writes a capture in short algebraic form. The piece's letter
// and the target square say enough for a reader of a finished game; no
// disambiguation is needed because the replay shows the move's squares.
func captureSAN(p game.Piece, m game.Move) string {
	var sb strings.Builder
	if p == game.NoPiece || p.Type() == game.Pawn {
		sb.WriteString(m.From().String()[:1])
	} else {
		sb.WriteByte(p.Type().Letter() - 'a' + 'A')
	}
	sb.WriteString("x" + m.To().String())
	if m.IsPromotion() {
		sb.WriteString("=" + string(m.Promotion().Letter()-'a'+'A'))
	}
	return sb.String()
}

// colorName is "White" or "Black", for sentences.
func colorName(c game.Color) string {
	if c == game.White {
		return "White"
	}
	return "Black"
}

// ResultWords says how a recorded game ended, for a person: "White
// captured the king with Qxe8.", "Draw: 50 full turns.", "Black's time ran
// out: White won.", and "The record ends before the game did." when no
// result is recorded. A limit's number is read from the last board, as
// Playback reads it, since a history does not name its limits.
func ResultWords(h *History) string {
	o := h.Outcome
	if !o.Over() {
		return "The record ends before the game did."
	}
	w, l := colorName(o.Winner), colorName(o.Winner.Other())
	switch o.Reason {
	case KingCapture:
		if _, san, ok := h.KingCaptureMove(); ok {
			return fmt.Sprintf("%s captured the king with %s.", w, san)
		}
		return w + " captured the king."
	case Timeout:
		return fmt.Sprintf("%s's time ran out: %s won.", l, w)
	case Resign:
		return fmt.Sprintf("%s resigned: %s won.", l, w)
	case TurnLimit:
		if last, ok := lastFEN(h); ok {
			return fmt.Sprintf("Draw: %d full turns.", last.FullmoveNumber()-1)
		}
		return "Draw: the turn limit was reached."
	case MoveLimit:
		if last, ok := lastFEN(h); ok {
			return fmt.Sprintf("Draw: %d moves each without a capture or a pawn move.", last.HalfmoveClock()/2)
		}
		return "Draw: the move limit was reached."
	}
	if o.Decisive {
		return w + " won."
	}
	return "Draw."
}
