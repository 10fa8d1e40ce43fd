package recon

import (
	"strings"

	"knightwatch/game"
)

// View is what one player may know of a game at one moment under the
// rules, and nothing more: its own pieces, where the opponent captured, and
// what it may do. A server builds every message to a player from that
// player's View (and, once the game is over, from the true board), never
// from the board itself, so that no phase of either side's turn can put an
// opponent's piece the player has not sensed into what it is sent.
//
// A player learns of the opponent's move only when its own turn begins: an
// opponent that has moved but not yet ended its turn has, as far as the
// player knows, not moved at all.
type View struct {
	Color game.Color
	// Started is false until both players are ready (Start).
	Started bool
	// ToAct is true while it is Color's turn: it senses, moves or ends its
	// turn now.
	ToAct bool
	// Phase is Color's phase while ToAct, and PhaseOver once the game is
	// over; otherwise it says nothing about the opponent's turn and is
	// PhaseSense.
	Phase Phase
	// Pieces holds Color's own pieces by square (game.NoPiece elsewhere) as
	// Color knows them: after its own last move and the opponent's last
	// completed turn.
	Pieces [64]game.Piece
	// MoveActions are Color's move actions as if it were to move (passing is
	// allowed too). They depend on Color's own pieces alone, as move actions
	// ignore the opponent's pieces. Nil once the game is over.
	MoveActions []game.Move
	// OpponentCapture is where the opponent's last completed turn captured
	// one of Color's pieces, or game.NoSquare: what Color is told at the
	// start of its turn, and still knows until the next one.
	OpponentCapture game.Square
}

// ViewOf returns what c may know of the game now.
func (g *Game) ViewOf(c game.Color) View {
	v := View{Color: c, Started: g.started, OpponentCapture: game.NoSquare}
	switch {
	case g.phase == PhaseOver:
		v.Phase = PhaseOver
	case g.turn == c:
		v.ToAct, v.Phase = g.started, g.phase
	}
	known := g.knownBoard(c)
	for s := game.A1; s <= game.H8; s++ {
		if p := known.PieceAt(s); p != game.NoPiece && p.Color() == c {
			v.Pieces[s] = p
		}
	}
	if g.phase != PhaseOver {
		v.MoveActions = moveActionsAsMover(&known, c)
	}
	caps := g.history.CaptureSquares[c.Other()]
	n := len(caps)
	if g.opponentMidTurn(c) {
		n-- // that move's capture is told when c's turn begins
	}
	if n > 0 {
		v.OpponentCapture = caps[n-1]
	}
	return v
}

// opponentMidTurn reports whether c's opponent has moved and not yet ended
// its turn: a window that exists only between a player's move and its
// end_turn (an HTTP API client makes two calls).
func (g *Game) opponentMidTurn(c game.Color) bool {
	return g.phase == PhaseEndTurn && g.turn == c.Other()
}

// knownBoard returns the board as c knows its own pieces: the true board,
// except while the opponent is between its move and the end of its turn,
// when it is the board before that move.
func (g *Game) knownBoard(c game.Color) Board {
	if g.opponentMidTurn(c) {
		fens := g.history.FENsBefore[c.Other()]
		if b, err := ParseBoard(fens[len(fens)-1]); err == nil {
			return b
		}
	}
	return g.board
}

// moveActionsAsMover returns c's move actions on b as if c were to move.
func moveActionsAsMover(b *Board, c game.Color) []game.Move {
	if c == b.Turn() {
		return b.MoveActions()
	}
	f := strings.Fields(b.FEN())
	f[1], f[3] = "b", "-"
	if c == game.White {
		f[1] = "w"
	}
	flipped, err := ParseBoard(strings.Join(f, " "))
	if err != nil {
		return nil // the arbiter's own board always parses
	}
	return flipped.MoveActions()
}
