package recon

import (
	"fmt"

	"knightwatch/game"
)

// ParseMove reads a move in UCI notation as python-chess's Move.from_uci
// does for the moves Reconnaissance Chess can request: two distinct
// squares and an optional promotion letter (n, b, r or q), lower case. It
// checks the form only; whether the move is allowed is the arbiter's
// question. The result is a plain move (see the package comment).
func ParseMove(s string) (game.Move, error) {
	if len(s) != 4 && len(s) != 5 {
		return game.NoMove, fmt.Errorf("move %q: want 4 or 5 characters of UCI such as e2e4 or e7e8q", s)
	}
	from, err1 := parseLowerSquare(s[0:2])
	to, err2 := parseLowerSquare(s[2:4])
	if err1 != nil || err2 != nil {
		return game.NoMove, fmt.Errorf("move %q: not two squares a1..h8", s)
	}
	if from == to {
		return game.NoMove, fmt.Errorf("move %q: origin and target are the same square", s)
	}
	if len(s) == 4 {
		return game.NewMove(from, to), nil
	}
	var pt game.PieceType
	switch s[4] {
	case 'n':
		pt = game.Knight
	case 'b':
		pt = game.Bishop
	case 'r':
		pt = game.Rook
	case 'q':
		pt = game.Queen
	default:
		return game.NoMove, fmt.Errorf("move %q: promotion must be n, b, r or q", s)
	}
	return game.NewPromotion(from, to, pt), nil
}

func parseLowerSquare(s string) (game.Square, error) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return game.NoSquare, fmt.Errorf("bad square %q", s)
	}
	return game.NewSquare(int(s[0]-'a'), int(s[1]-'1')), nil
}

// UCI writes a plain move in UCI notation ("e2e4", "e7e8q"), and a pass
// (game.NoMove) as "pass".
func UCI(m game.Move) string {
	if m == game.NoMove {
		return "pass"
	}
	s := m.From().String() + m.To().String()
	if m.IsPromotion() {
		s += m.Promotion().String()
	}
	return s
}

// SquareName writes a square ("e4"), or "none" for game.NoSquare.
func SquareName(s game.Square) string {
	if s == game.NoSquare {
		return "none"
	}
	return s.String()
}
