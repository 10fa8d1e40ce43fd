package play

import (
	"errors"
	"fmt"
	"strings"

	"knightwatch/game"
)

// parseTypedMove reads a move a person typed (SAN like "Nf3" or UCI like
// "g1f3") in any letter case, since phone keyboards type lower case and
// some people capitalise everything. The rule:
//
//  1. The text exactly as typed, read by the game's own parser (SAN, then
//     UCI). Correct notation always means what it says: "bxc3" is the
//     b-pawn's capture and "Bxc3" the bishop's.
//  2. Otherwise its case-folded readings: all lower case (a pawn move,
//     coordinates or castling: "E4", "EXD5", "E2E4", "O-o"), and, when it
//     starts with a piece letter, that letter upper case and the rest lower
//     ("nf3", "NF3", "qxd8", "bxc3" read as "Bxc3").
//  3. When the legal readings name one move, that is the move. They can only
//     name two when "b" is both the b-file and the bishop (no other piece
//     letter is a file); the first letter's case then decides: a lower-case
//     "b" is the pawn, an upper-case "B" the bishop. So "bxc3" is the pawn
//     capture when one fits and the bishop capture only when none does, and
//     "BXC3" the bishop capture when the bishop can take, else the pawn.
//
// The error wraps game.ErrInvalidMove when no reading is a move at all
// ("hello"), game.ErrAmbiguousMove when a reading fits several pieces
// ("Nd2" with both knights able to go there), and game.ErrIllegalMove when
// the text is a move but not a legal one here.
func parseTypedMove(pos *game.Position, typed string) (game.Move, error) {
	s := strings.TrimSpace(typed)
	notMove := fmt.Errorf("%w: %q", game.ErrInvalidMove, s)
	if s == "" {
		return game.NoMove, notMove
	}
	var errs []error
	read := func(text string) game.Move {
		m, err := pos.ParseMove(text)
		if err != nil {
			errs = append(errs, err)
			return game.NoMove
		}
		if m == game.NullMove || m == game.NoMove {
			return game.NoMove // "--" and "0000" pass no turn here
		}
		return m
	}
	if m := read(s); m != game.NoMove {
		return m, nil
	}
	lower := strings.ToLower(s)
	var pawnish, piece game.Move = game.NoMove, game.NoMove
	if lower != s {
		pawnish = read(lower)
	}
	if strings.IndexByte("nbrqk", lower[0]) >= 0 {
		if up := strings.ToUpper(lower[:1]) + lower[1:]; up != s {
			piece = read(up)
		}
	}
	switch {
	case pawnish != game.NoMove && piece != game.NoMove && pawnish != piece:
		// "b…" read both as a pawn on the b-file and as the bishop.
		if s[0] == 'B' {
			return piece, nil
		}
		return pawnish, nil
	case pawnish != game.NoMove:
		return pawnish, nil
	case piece != game.NoMove:
		return piece, nil
	}
	for _, want := range []error{game.ErrAmbiguousMove, game.ErrIllegalMove} {
		for _, err := range errs {
			if errors.Is(err, want) {
				return game.NoMove, fmt.Errorf("%w: %q", want, s)
			}
		}
	}
	return game.NoMove, notMove
}

// typedMoveError words a refused typed move for the person: "not a move"
// for text that is no move in any notation, "illegal move" for a move that
// cannot be played here (the code is illegal_move for both).
func typedMoveError(typed string, err error) *ProtoError {
	s := strings.TrimSpace(typed)
	switch {
	case errors.Is(err, game.ErrAmbiguousMove):
		return Errorf(CodeIllegalMove, "ambiguous move %s: more than one piece can go there; add the piece's file or rank, like Nbd2", s)
	case errors.Is(err, game.ErrIllegalMove):
		return Errorf(CodeIllegalMove, "illegal move %s: it cannot be played in this position", s)
	}
	return Errorf(CodeIllegalMove, "%q is not a move: type one like Nf3, exd5, O-O, e8=Q or g1f3", s)
}
