package recon

import (
	"fmt"
	"strconv"
	"strings"

	"knightwatch/game"
)

// Board is the true board of a game, kept as the reference keeps it: a
// game.Position, and beside it the en passant square python-chess records
// after every double step. (game keeps that square only while a pawn can
// capture there, which is all the rules need; the reference writes it into
// every FEN.) The zero value is not a board; use NewBoard or ParseBoard.
type Board struct {
	pos game.Position
	ep  game.Square
}

// NewBoard returns the standard starting position.
func NewBoard() Board {
	return Board{pos: *game.NewPosition(), ep: game.NoSquare}
}

// ParseBoard reads a FEN as the reference writes it (the en passant field
// set after every double step). The position need not be one standard
// chess allows: a king may be missing or in check with the other side to
// move, as happens in Reconnaissance Chess.
func ParseBoard(fen string) (Board, error) {
	p, err := game.ParseBoardFEN(fen)
	if err != nil {
		return Board{}, err
	}
	b := Board{pos: *p, ep: game.NoSquare}
	if f := strings.Fields(fen); f[3] != "-" {
		// ParseBoardFEN has checked that a pawn just passed this square.
		b.ep, _ = game.ParseSquare(f[3])
	}
	return b, nil
}

// Position returns a copy of the board as a game.Position.
func (b *Board) Position() game.Position { return b.pos }

// Turn returns the colour to move.
func (b *Board) Turn() game.Color { return b.pos.Side() }

// PieceAt returns the piece on s, or game.NoPiece.
func (b *Board) PieceAt(s game.Square) game.Piece { return b.pos.PieceAt(s) }

// KingCaptured reports whether a king is missing from the board, and whose.
func (b *Board) KingCaptured() (game.Color, bool) {
	for c := game.White; c <= game.Black; c++ {
		if b.pos.KingSquare(c) == game.NoSquare {
			return c, true
		}
	}
	return game.White, false
}

// HalfmoveClock returns the plies since the last capture or pawn move; a
// pass and an illegal request count as plies.
func (b *Board) HalfmoveClock() int { return b.pos.HalfmoveClock() }

// FullmoveNumber returns the FEN move number: 1 at the start, incremented
// after each of Black's turns.
func (b *Board) FullmoveNumber() int { return b.pos.FullmoveNumber() }

// MoveActions returns the move actions of the side to move.
func (b *Board) MoveActions() []game.Move { return MoveActions(&b.pos) }

// Sense returns the 3x3 window of the board centred on s and clipped at the
// edges, ordered as the reference orders it: the rank above first, each
// rank from the a-file side. game.NoSquare (no sense) gives an empty result.
func (b *Board) Sense(s game.Square) SenseResult {
	if s == game.NoSquare {
		return SenseResult{}
	}
	out := make(SenseResult, 0, 9)
	for dr := 1; dr >= -1; dr-- {
		for df := -1; df <= 1; df++ {
			r, f := s.Rank()+dr, s.File()+df
			if r < 0 || r > 7 || f < 0 || f > 7 {
				continue
			}
			sq := game.NewSquare(f, r)
			out = append(out, SquarePiece{Square: sq, Piece: b.pos.PieceAt(sq)})
		}
	}
	return out
}

// Move plays the side to move's request: pass (game.NoMove) or a move
// action, to which a missing promotion is added as a queen. It returns
// the move taken (game.NoMove when nothing happened) and the square of the
// captured piece (game.NoSquare when none). A request that is not a move
// action is refused with an error and changes nothing.
func (b *Board) Move(request game.Move) (taken game.Move, capture game.Square, err error) {
	move, err := CheckMoveAction(&b.pos, request)
	if err != nil {
		return game.NoMove, game.NoSquare, err
	}
	taken, capture = b.moveChecked(move)
	return taken, capture, nil
}

// moveChecked is Move for a request CheckMoveAction has passed: move is
// what it returned.
func (b *Board) moveChecked(move game.Move) (taken game.Move, capture game.Square) {
	taken, encoded := Revise(&b.pos, move)
	capture = CaptureSquare(&b.pos, encoded)
	b.push(taken, encoded)
	return taken, capture
}

// push makes the taken move (or a null move) and records the en passant
// square the way python-chess does.
func (b *Board) push(taken, encoded game.Move) {
	b.ep = game.NoSquare
	if taken != game.NoMove && b.pos.PieceAt(taken.From()).Type() == game.Pawn {
		if d := int(taken.To()) - int(taken.From()); d == 16 || d == -16 {
			b.ep = (taken.From() + taken.To()) / 2
		}
	}
	Apply(&b.pos, encoded)
}

// FEN returns the board's FEN exactly as python-chess's
// Board.fen(en_passant="fen") writes it for the reference's histories: the
// en passant square after every double step, and no castling rights for a
// side whose king has been captured.
func (b *Board) FEN() string {
	var buf [96]byte // a FEN's longest, without allocating but for the string
	out := b.pos.AppendBoardFEN(buf[:0])
	if b.pos.Side() == game.White {
		out = append(out, " w "...)
	} else {
		out = append(out, " b "...)
	}
	n := len(out)
	for c := game.White; c <= game.Black; c++ {
		k := b.pos.Pieces(c, game.King) & backRank(c)
		if k == 0 { // no king at home: no rights (a captured king's vanish)
			continue
		}
		for i, side := range [2]int{game.KingSide, game.QueenSide} {
			if _, ok := castlingRook(&b.pos, c, side, k.First()); ok {
				letter := "KQ"[i]
				if c == game.Black {
					letter += 'a' - 'A'
				}
				out = append(out, letter)
			}
		}
	}
	if len(out) == n {
		out = append(out, '-')
	}
	out = append(out, ' ')
	out = append(out, b.ep.String()...)
	out = append(out, ' ')
	out = strconv.AppendInt(out, int64(b.pos.HalfmoveClock()), 10)
	out = append(out, ' ')
	out = strconv.AppendInt(out, int64(b.pos.FullmoveNumber()), 10)
	return string(out)
}

// SquarePiece is one square of a sense result and what stands on it
// (game.NoPiece when empty).
type SquarePiece struct {
	Square game.Square
	Piece  game.Piece
}

// SenseResult is what a sense reveals: up to nine squares in the
// reference's order; empty when the player did not sense.
type SenseResult []SquarePiece

// String writes the result compactly, e.g. "e4=P e5=- ...".
func (r SenseResult) String() string {
	parts := make([]string, len(r))
	for i, sp := range r {
		l := "-"
		if sp.Piece != game.NoPiece {
			l = sp.Piece.String()
		}
		parts[i] = fmt.Sprintf("%s=%s", sp.Square, l)
	}
	return strings.Join(parts, " ")
}

// Equal reports whether two sense results list the same squares and pieces
// in the same order.
func (r SenseResult) Equal(o SenseResult) bool {
	if len(r) != len(o) {
		return false
	}
	for i := range r {
		if r[i] != o[i] {
			return false
		}
	}
	return true
}
