package web

import (
	"errors"

	"knightwatch/game"
)

// fenProblem says why a start position was refused, for the home page's
// error line: the FEN field at fault and what is wrong, without repeating
// the FEN, which the form shows again in its box. Other errors are
// returned as they are.
func fenProblem(err error) string {
	var fe *game.FENError
	if !errors.As(err, &fe) {
		return err.Error()
	}
	if fe.Field == "position" {
		return fe.Msg
	}
	return fe.Field + ": " + fe.Msg
}
