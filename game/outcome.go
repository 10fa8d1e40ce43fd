package game

import "fmt"

// Termination names why a game ended (or that it has not).
type Termination uint8

// Terminations. The first group ends a game by itself; Claimable ones are
// draws a player may claim (FiftyMoves, ThreefoldRepetition); the last
// group comes from outside the board (the web game and match runner use them).
const (
	NotOver Termination = iota
	Checkmate
	Stalemate
	InsufficientMaterial
	SeventyFiveMoves
	FivefoldRepetition
	FiftyMoves
	ThreefoldRepetition
	Resignation
	TimeForfeit
	DrawAgreed
	Adjudication
)

var terminationNames = [...]string{
	NotOver:              "not over",
	Checkmate:            "checkmate",
	Stalemate:            "stalemate",
	InsufficientMaterial: "insufficient material",
	SeventyFiveMoves:     "seventy-five-move rule",
	FivefoldRepetition:   "fivefold repetition",
	FiftyMoves:           "fifty-move rule",
	ThreefoldRepetition:  "threefold repetition",
	Resignation:          "resignation",
	TimeForfeit:          "time forfeit",
	DrawAgreed:           "draw by agreement",
	Adjudication:         "adjudication",
}

// String returns a human-readable name such as "checkmate".
func (t Termination) String() string {
	if int(t) < len(terminationNames) {
		return terminationNames[t]
	}
	return fmt.Sprintf("termination(%d)", int(t))
}

// Result is a game result in PGN form.
type Result string

// The four PGN results.
const (
	WhiteWins  Result = "1-0"
	BlackWins  Result = "0-1"
	Draw       Result = "1/2-1/2"
	NoResult   Result = "*"
	resultNone Result = ""
)

// Outcome is how a game ended: the result, the reason and the winner.
type Outcome struct {
	Result      Result
	Termination Termination
}

// Over reports whether the outcome ends the game.
func (o Outcome) Over() bool { return o.Termination != NotOver }

// Winner returns the winning colour and true, or false for a draw or no result.
func (o Outcome) Winner() (Color, bool) {
	switch o.Result {
	case WhiteWins:
		return White, true
	case BlackWins:
		return Black, true
	}
	return White, false
}

// String returns e.g. "1-0 (checkmate)".
func (o Outcome) String() string {
	if !o.Over() {
		return string(NoResult)
	}
	return fmt.Sprintf("%s (%s)", o.Result, o.Termination)
}

// WinFor returns the decisive result in favour of c.
func WinFor(c Color) Result {
	if c == White {
		return WhiteWins
	}
	return BlackWins
}

// IsCheckmate reports whether the side to move is checkmated.
func (p *Position) IsCheckmate() bool { return p.InCheck() && !p.HasLegalMoves() }

// IsStalemate reports whether the side to move has no legal move and is not in check.
func (p *Position) IsStalemate() bool { return !p.InCheck() && !p.HasLegalMoves() }

// IsInsufficientMaterial reports whether neither side can possibly mate:
// king against king, a lone minor piece, or only bishops all on squares of
// one colour. (Positions where mate is possible but cannot be forced, such
// as K+N+N v K, are not included, matching FIDE and python-chess.)
func (p *Position) IsInsufficientMaterial() bool {
	return p.HasInsufficientMaterial(White) && p.HasInsufficientMaterial(Black)
}

// HasInsufficientMaterial reports whether c cannot checkmate by any series
// of legal moves, whatever the opponent does (used to score a flag fall).
func (p *Position) HasInsufficientMaterial(c Color) bool {
	own := p.byColor[c]
	if own&(p.byType[Pawn]|p.byType[Rook]|p.byType[Queen]) != 0 {
		return false
	}
	if own&p.byType[Knight] != 0 {
		// A lone knight mates only with help: the opponent needs pieces
		// other than the king and queens to block his own king in.
		return own.Count() <= 2 && p.byColor[c.Other()]&^p.byType[King]&^p.byType[Queen] == 0
	}
	if own&p.byType[Bishop] != 0 {
		// Bishops all on one colour cannot mate unless the opponent has a
		// pawn, knight or a bishop of the other colour to block with.
		bishops := p.byType[Bishop]
		sameColour := bishops&DarkSquares == 0 || bishops&LightSquares == 0
		return sameColour && p.byType[Pawn] == 0 && p.byType[Knight] == 0
	}
	return true
}
