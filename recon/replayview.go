package recon

import (
	"knightwatch/game"
)

// SideStep is one step of a replay as one side had been told it by then:
// the start, then each sense and each move of either side, in play order
// (the steps of History.Turns, a sense and, when recorded, a move each).
// A replay's "White's view" and "Black's view" are drawn from these alone,
// so that no step shows what that side could not know: the opponent's
// senses, requests and moves stay hidden, and its captures are told when
// the side's own turn begins, as in play.
type SideStep struct {
	// Final is set on the last step of a finished game: everything is told
	// at the end, and Pieces holds the true board.
	Final bool
	// Pieces holds the side's own pieces as it knew them (every piece, on
	// the Final step).
	Pieces [64]game.Piece
	// Seen holds the opponent's pieces as the side last sensed them, on
	// squares where none of its own pieces stands since.
	Seen [64]game.Piece
	// Sense is the side's own sense at this step (game.NoSquare: none, or
	// the step is not the side's sense).
	Sense game.Square
	// Requested and Taken are the side's own move at this step, with
	// Moved set (a pass or a move that could not be made leaves them
	// game.NoMove); Capture is where it captured.
	Moved            bool
	Requested, Taken game.Move
	Capture          game.Square
	// OpponentCapture is where the opponent's last turn captured, told at
	// the start of the side's turn and shown on its sense step.
	OpponentCapture game.Square
}

// SideSteps replays h and returns every step as c had been told it. It
// fails as the arbiter does on a record that does not replay.
func SideSteps(h *History, c game.Color) ([]SideStep, error) {
	if err := h.Validate(); err != nil {
		return nil, err
	}
	// The limits do not matter for what was told; the record's own end is
	// where the replay stops.
	g := NewGame(Config{}, h.Names[game.White], h.Names[game.Black])
	g.Start()
	var seen [64]game.Piece // what c last sensed on each square (NoPiece: empty or never sensed)
	step := func() SideStep {
		v := g.ViewOf(c)
		s := SideStep{Pieces: v.Pieces, Sense: game.NoSquare, Capture: game.NoSquare, OpponentCapture: game.NoSquare}
		for sq, p := range seen {
			if p != game.NoPiece && p.Color() != c && v.Pieces[sq] == game.NoPiece {
				s.Seen[sq] = p
			}
		}
		return s
	}
	out := []SideStep{step()}
	for _, t := range h.Turns() {
		if g.IsOver() {
			break
		}
		res, err := g.Sense(h.Senses[t.Color][t.Number])
		if err != nil {
			return nil, err
		}
		if t.Color == c {
			for _, sp := range res {
				seen[sp.Square] = sp.Piece
			}
		}
		s := step()
		if t.Color == c {
			s.Sense = h.Senses[c][t.Number]
			s.OpponentCapture = g.ViewOf(c).OpponentCapture
		}
		out = append(out, s)
		if !h.HasMove(t) {
			break
		}
		req := h.RequestedMoves[t.Color][t.Number]
		mr, err := g.Move(req)
		if err != nil {
			return nil, err
		}
		if t.Color == c {
			// The square moved to and the one captured on hold no
			// opponent's piece any more, as far as c knows.
			if mr.Taken != game.NoMove {
				seen[mr.Taken.To()] = game.NoPiece
			}
			if mr.Capture != game.NoSquare {
				seen[mr.Capture] = game.NoPiece
			}
		}
		s = step()
		if t.Color == c {
			s.Moved, s.Requested, s.Taken, s.Capture = true, req, mr.Taken, mr.Capture
		}
		out = append(out, s)
		if !g.IsOver() {
			if err := g.EndTurn(); err != nil {
				return nil, err
			}
		}
	}
	if h.Outcome.Over() {
		last := &out[len(out)-1]
		last.Final = true
		b, err := finalBoard(h)
		if err != nil {
			return nil, err
		}
		last.Seen = [64]game.Piece{}
		for sq := game.A1; sq <= game.H8; sq++ {
			last.Pieces[sq] = b.PieceAt(sq)
		}
	}
	return out, nil
}

// finalBoard is the true board at the end of h: after its last move, or
// the start.
func finalBoard(h *History) (Board, error) {
	if b, ok := lastFEN(h); ok {
		return b, nil
	}
	return NewBoard(), nil
}
