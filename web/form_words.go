package web

import (
	"strings"
)

// formSentence turns a refused new-game field, as parseNewGame and
// createRecon give it ("fen: no white king"), into what the home page says
// above the form: a sentence about the game asked for and what to do next,
// without the field's code name. It also returns the field ("fen"), which
// the page carries in data-field. Text without a field passes through: the
// creation limits and the database's refusals are sentences already.
func formSentence(msg string) (field, sentence string) {
	field, what, ok := strings.Cut(msg, ": ")
	if !ok || strings.ContainsAny(field, " ;,.") {
		return "", msg
	}
	switch field {
	case "color":
		return field, "Choose your colour, White, Black or Random, and press Play again."
	case "level":
		return field, "Choose the computer's strength from the list and press Play again."
	case "variant":
		return field, "Choose the game, Standard, Chess960 or Reconnaissance, and press Play again."
	case "clock":
		return field, "Choose a clock from the list and press Play again."
	case "opponent":
		return field, "Choose an opponent from the list and press Play again."
	case "fen":
		return field, fenSentence(what)
	}
	return field, "The game could not start: " + what + ". Check the form and press Play again."
}

// fenSentence says why a start position was refused and what to do.
func fenSentence(what string) string {
	const fix = " Correct it below, on the editor's board or in the FEN box, or empty the FEN box to play from the usual start."
	switch {
	case strings.HasPrefix(what, "a start position can only be given"):
		return "A start position can only be set for standard chess: choose Standard, or empty the FEN box below."
	case what == "too long":
		return "The text in the FEN box is too long to be a position." + fix
	case strings.HasPrefix(what, "the position is already over"):
		return "That position is " + strings.TrimPrefix(what, "the position is ") + ", so no game can start from it." + fix
	}
	// A fault in one of the FEN's fields comes as "field: what is wrong".
	if field, msg, ok := strings.Cut(what, ": "); ok && fenFields[field] {
		return "The game could not start from this position: " + msg + " (in the FEN's " + field + ")." + fix
	}
	return "The game could not start from this position: " + what + "." + fix
}

// fenFields are the names game.FENError gives a FEN's fields.
var fenFields = map[string]bool{"piece placement": true, "side to move": true, "castling": true, "en passant": true,
	"halfmove clock": true, "fullmove number": true}
