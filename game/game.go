package game

import "errors"

// ErrGameOver is returned when a move is offered in a finished game.
var ErrGameOver = errors.New("game is over")

// Game is a game from a start position: the moves played, the positions
// they led to (for repetition and take-backs) and how it ended.
type Game struct {
	positions []Position // positions[0] is the start, positions[len(moves)] the current one
	moves     []Move
	ended     Outcome // set by Resign, AgreeDraw, SetOutcome; zero while playing
}

// NewGame starts a game from the standard position.
func NewGame() *Game { return NewGameFrom(NewPosition()) }

// NewGameFrom starts a game from a copy of p.
func NewGameFrom(p *Position) *Game {
	return &Game{positions: []Position{*p}}
}

// NewGameFromFEN starts a game from a FEN.
func NewGameFromFEN(fen string) (*Game, error) {
	p, err := ParseFEN(fen)
	if err != nil {
		return nil, err
	}
	return NewGameFrom(p), nil
}

// Position returns a copy of the current position.
func (g *Game) Position() *Position {
	p := g.positions[len(g.positions)-1]
	return &p
}

// StartPosition returns a copy of the start position.
func (g *Game) StartPosition() *Position {
	p := g.positions[0]
	return &p
}

func (g *Game) current() *Position { return &g.positions[len(g.positions)-1] }

// Moves returns the moves played so far.
func (g *Game) Moves() []Move { return append([]Move(nil), g.moves...) }

// Len returns the number of half-moves played.
func (g *Game) Len() int { return len(g.moves) }

// SANMoves returns the moves in SAN.
func (g *Game) SANMoves() []string {
	out := make([]string, len(g.moves))
	for i, m := range g.moves {
		out[i] = g.positions[i].SAN(m)
	}
	return out
}

// UCIMoves returns the moves in UCI notation.
func (g *Game) UCIMoves() []string {
	out := make([]string, len(g.moves))
	for i, m := range g.moves {
		out[i] = g.positions[i].UCI(m)
	}
	return out
}

// PositionAt returns a copy of the position after the first n half-moves.
func (g *Game) PositionAt(n int) *Position {
	p := g.positions[n]
	return &p
}

// Play plays a legal move. It refuses illegal moves and moves in a finished
// game, leaving the game unchanged.
func (g *Game) Play(m Move) error {
	if g.Outcome().Over() {
		return ErrGameOver
	}
	p := g.current()
	if !p.IsLegal(m) {
		return ErrIllegalMove
	}
	g.push(m)
	return nil
}

func (g *Game) push(m Move) {
	next := *g.current()
	if m == NullMove {
		next.MakeNullMove()
	} else {
		next.MakeMove(m)
	}
	g.positions = append(g.positions, next)
	g.moves = append(g.moves, m)
}

// PlayMove parses a move in SAN or UCI notation and plays it.
func (g *Game) PlayMove(s string) (Move, error) {
	if g.Outcome().Over() {
		return NoMove, ErrGameOver
	}
	m, err := g.current().ParseMove(s)
	if err != nil {
		return NoMove, err
	}
	if m == NullMove {
		return NoMove, ErrIllegalMove
	}
	g.push(m)
	return m, nil
}

// Undo takes back the last half-move and reopens the game if it had ended.
// It reports false when there is nothing to take back.
func (g *Game) Undo() (Move, bool) {
	if len(g.moves) == 0 {
		return NoMove, false
	}
	m := g.moves[len(g.moves)-1]
	g.moves = g.moves[:len(g.moves)-1]
	g.positions = g.positions[:len(g.positions)-1]
	g.ended = Outcome{}
	return m, true
}

// Resign ends the game with c resigning.
func (g *Game) Resign(c Color) {
	g.ended = Outcome{Result: WinFor(c.Other()), Termination: Resignation}
}

// AgreeDraw ends the game as a draw by agreement.
func (g *Game) AgreeDraw() { g.ended = Outcome{Result: Draw, Termination: DrawAgreed} }

// SetOutcome ends the game for a reason from outside the board (time, adjudication).
func (g *Game) SetOutcome(o Outcome) { g.ended = o }

// RepetitionCount returns how many times the current position has occurred
// (1 when it is new), comparing by RepetitionKey since the last capture or
// pawn move.
func (g *Game) RepetitionCount() int {
	cur := g.current()
	key := cur.RepetitionKey()
	n := 1
	for i := len(g.positions) - 3; i >= 0 && i >= len(g.positions)-1-cur.halfmove; i -= 2 {
		if g.positions[i].RepetitionKey() == key {
			n++
		}
	}
	return n
}

// HashHistory returns the Polyglot keys of the positions before the current
// one since the last capture or pawn move, oldest first; the engine uses
// them to see repetitions inside its search.
func (g *Game) HashHistory() []uint64 {
	cur := g.current()
	start := len(g.positions) - 1 - cur.halfmove
	if start < 0 {
		start = 0
	}
	out := make([]uint64, 0, len(g.positions)-1-start)
	for i := start; i < len(g.positions)-1; i++ {
		out = append(out, g.positions[i].Hash())
	}
	return out
}

// Outcome returns how the game ended, counting only endings that need no
// claim: checkmate, stalemate, insufficient material, the 75-move rule and
// fivefold repetition, or an ending set from outside (resignation, time).
func (g *Game) Outcome() Outcome {
	if g.ended.Over() {
		return g.ended
	}
	p := g.current()
	if !p.HasLegalMoves() {
		if p.InCheck() {
			return Outcome{WinFor(p.side.Other()), Checkmate}
		}
		return Outcome{Draw, Stalemate}
	}
	if p.IsInsufficientMaterial() {
		return Outcome{Draw, InsufficientMaterial}
	}
	if p.halfmove >= 150 {
		return Outcome{Draw, SeventyFiveMoves}
	}
	if g.RepetitionCount() >= 5 {
		return Outcome{Draw, FivefoldRepetition}
	}
	return Outcome{NoResult, NotOver}
}

// ClaimableDraw returns the draw a player may claim now (fifty-move rule or
// threefold repetition), or an outcome that is not over.
func (g *Game) ClaimableDraw() Outcome {
	if g.current().halfmove >= 100 {
		return Outcome{Draw, FiftyMoves}
	}
	if g.RepetitionCount() >= 3 {
		return Outcome{Draw, ThreefoldRepetition}
	}
	return Outcome{NoResult, NotOver}
}

// OutcomeWithClaims is Outcome, but treating a claimable draw as claimed:
// the rule engines and arbiters use when they adjudicate.
func (g *Game) OutcomeWithClaims() Outcome {
	if o := g.Outcome(); o.Over() {
		return o
	}
	return g.ClaimableDraw()
}
