package recon

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"knightwatch/game"
)

// Config sets a game's clocks and draw limits. DefaultConfig gives the
// reference's defaults; a zero field means "none".
type Config struct {
	// Clock is each player's initial time; zero means no clock.
	Clock time.Duration
	// Increment is added to a player's clock at the end of each of its turns.
	Increment time.Duration
	// MoveLimit draws the game once this many half-moves pass without a
	// capture or pawn move (passes and illegal requests count); zero means
	// no limit. The reference's default is 100.
	MoveLimit int
	// TurnLimit draws the game once Black has completed this many turns;
	// zero means no limit.
	TurnLimit int
	// Now is the clock source; nil means time.Now. Tests set it.
	Now func() time.Time
}

// DefaultConfig returns the reference's defaults: 900 s each, 5 s added per
// turn, a draw after 100 half-moves without a capture or pawn move, no turn
// limit.
func DefaultConfig() Config {
	return Config{Clock: 900 * time.Second, Increment: 5 * time.Second, MoveLimit: 100}
}

// Unlimited is what SecondsLeft reports in a game without a clock.
const Unlimited = time.Duration(math.MaxInt64)

// Phase is where the player to move stands in its turn.
type Phase int

// The phases of a turn, in order, and the end.
const (
	PhaseSense   Phase = iota // choose a square to sense (or none)
	PhaseMove                 // choose a move action (or pass)
	PhaseEndTurn              // the move is made; end the turn
	PhaseOver                 // the game has ended
)

var phaseNames = [...]string{"sense", "move", "end turn", "over"}

// String returns "sense", "move", "end turn" or "over".
func (p Phase) String() string {
	if p < 0 || int(p) >= len(phaseNames) {
		return fmt.Sprintf("phase(%d)", int(p))
	}
	return phaseNames[p]
}

// Errors the arbiter returns; a refused call changes nothing.
var (
	ErrNotStarted = errors.New("the game has not started")
	ErrGameOver   = errors.New("the game is over")
	ErrWrongPhase = errors.New("not the time for that")
	ErrBadSquare  = errors.New("not a square")
)

// MoveResult is what the mover learns from its move: the request as made,
// the move taken (game.NoMove when nothing happened) and the square where it
// captured (game.NoSquare when it did not).
type MoveResult struct {
	Requested game.Move
	Taken     game.Move
	Capture   game.Square
}

// Game is the arbiter of one game. A driver steps it through each turn:
// OpponentCapture and the actions, Sense, Move, EndTurn; the game records
// everything in its History and ends itself when a king is captured, a
// limit is reached or a clock runs out. Game is not safe for concurrent
// use; a server serialises calls to it.
type Game struct {
	cfg     Config
	board   Board
	phase   Phase
	started bool
	// turn is whose turn it is. The board's side to move changes as soon as
	// the move is made; the turn changes only when it ends.
	turn game.Color
	// clock is the players' clock (untimed without cfg.Clock): it runs
	// from Start for the mover, and stops when the game ends. A server may
	// stop and start it between actions (Clock).
	clock game.Clock
	// lastCapture is where the previous move captured: what the player to
	// move is told at the start of its turn.
	lastCapture game.Square
	outcome     Outcome
	history     History
	// cache holds what the arbiter last worked out of a board, to be
	// reused while the board is the same (cache.go).
	cache boardCache
}

// NewGame returns a game in the standard starting position between the
// named players, White to sense first. Its clocks start with Start.
func NewGame(cfg Config, whiteName, blackName string) *Game {
	g := &Game{cfg: cfg, board: NewBoard(), lastCapture: game.NoSquare}
	g.clock = game.NewClock(max(cfg.Clock, 0), cfg.Increment)
	g.history.Names = [2]string{whiteName, blackName}
	return g
}

func (g *Game) now() time.Time {
	if g.cfg.Now != nil {
		return g.cfg.Now()
	}
	return time.Now()
}

// Config returns the game's configuration.
func (g *Game) Config() Config { return g.cfg }

// Start starts White's clock. Actions before Start are refused.
func (g *Game) Start() {
	if !g.started {
		g.started = true
		g.clock.Start(game.White, g.now())
	}
}

// Clock returns the game's clock, which the arbiter presses at each end of
// a turn: a server may stop it while nobody plays the game and start it
// again for the mover (game.Clock's Stop and Start), between actions.
func (g *Game) Clock() *game.Clock { return &g.clock }

// Started reports whether the game has started (Start).
func (g *Game) Started() bool { return g.started }

// Turn returns the colour whose turn it is.
func (g *Game) Turn() game.Color { return g.turn }

// Phase returns the phase of the current turn, or PhaseOver.
func (g *Game) Phase() Phase { return g.phase }

// Outcome returns how the game ended; the zero Outcome while it runs.
func (g *Game) Outcome() Outcome { return g.outcome }

// IsOver reports whether the game has ended.
func (g *Game) IsOver() bool { return g.phase == PhaseOver }

// History returns the game's record so far. It belongs to the game: read
// it, copy it, do not change it.
func (g *Game) History() *History { return &g.history }

// Board returns a copy of the true board. Only the arbiter, the end-of-game
// reveal and tests may look at it; a player must never be shown it.
func (g *Game) Board() Board { return g.board }

// OpponentCapture returns the square where the opponent's last move
// captured one of the mover's pieces, or game.NoSquare.
func (g *Game) OpponentCapture() game.Square { return g.lastCapture }

// SenseActions returns the squares the mover may sense: all 64 (sensing
// none is allowed too). Nil when the game is over.
func (g *Game) SenseActions() []game.Square {
	if g.phase == PhaseOver {
		return nil
	}
	s := make([]game.Square, 64)
	for i := range s {
		s[i] = game.Square(i)
	}
	return s
}

// MoveActions returns the mover's move actions (passing is allowed too).
// Nil when the game is over.
func (g *Game) MoveActions() []game.Move {
	if g.phase == PhaseOver {
		return nil
	}
	return slices.Clone(g.cache.moveActions(&g.board.pos))
}

// MoveActionsOf returns c's move actions as if it were to move, as c
// knows its pieces (ViewOf): the mover's MoveActions, or for the other side
// the moves of its own pieces. They depend on c's own pieces only, so a
// server may answer either player at any moment without revealing
// anything. Nil when the game is over.
func (g *Game) MoveActionsOf(c game.Color) []game.Move {
	return g.ViewOf(c).MoveActions
}

// SecondsLeft returns c's remaining time, counting the running turn for the
// mover; Unlimited without a clock.
func (g *Game) SecondsLeft(c game.Color) time.Duration {
	if !g.clock.Timed() {
		return Unlimited
	}
	return g.clock.Remaining(c, g.now())
}

// Deadline returns the moment the mover's clock runs out, and false when
// there is none (no clock, not started, stopped, or the game is over).
func (g *Game) Deadline() (time.Time, bool) {
	if !g.started || g.phase == PhaseOver {
		return time.Time{}, false
	}
	return g.clock.Deadline()
}

// CheckClock ends the game on time when the mover's clock has run out, and
// reports whether the game is over. Drivers call it when a player's time
// may have run out (a server's timer); every action calls it first.
func (g *Game) CheckClock() bool {
	if g.phase == PhaseOver {
		return true
	}
	if g.started && g.clock.Timed() { // an untimed clock never falls: no time read
		now := g.now()
		if _, out := g.clock.Flagged(now); out {
			g.clock.Stop(now)
			g.finish(Win(g.Turn().Other(), Timeout))
		}
	}
	return g.phase == PhaseOver
}

// ready checks that an action may be taken in phase want.
func (g *Game) ready(want Phase) error {
	if !g.started {
		return ErrNotStarted
	}
	if g.CheckClock() {
		return fmt.Errorf("%w (%s)", ErrGameOver, g.outcome)
	}
	if g.phase != want {
		return fmt.Errorf("%w: %s to %s, not to %s", ErrWrongPhase, g.Turn(), g.phase, want)
	}
	return nil
}

// Sense senses the 3x3 window around s for the mover (game.NoSquare
// senses nothing) and returns what it shows.
func (g *Game) Sense(s game.Square) (SenseResult, error) {
	if err := g.ready(PhaseSense); err != nil {
		return nil, err
	}
	if s != game.NoSquare && (s < 0 || s > 63) {
		return nil, fmt.Errorf("%w: %d", ErrBadSquare, s)
	}
	r := g.board.Sense(s)
	g.history.recordSense(g.Turn(), s, r)
	g.phase = PhaseMove
	return r, nil
}

// Move plays the mover's request: game.NoMove passes, anything else must
// be a move action (a pawn reaching the last rank without a promotion piece
// becomes a queen). The game ends at once when a king is captured or a
// draw limit is reached.
func (g *Game) Move(request game.Move) (MoveResult, error) {
	if err := g.ready(PhaseMove); err != nil {
		return MoveResult{}, err
	}
	us := g.Turn()
	move, err := g.cache.checkMoveAction(&g.board.pos, request)
	if err != nil {
		return MoveResult{}, err
	}
	before := g.cache.fen(&g.board)
	taken, capture := g.board.moveChecked(move)
	g.history.recordMove(us, request, taken, capture, before, g.cache.fen(&g.board))
	g.lastCapture = capture
	g.phase = PhaseEndTurn
	// The reference's order of precedence among the board's reasons.
	if loser, ok := g.board.KingCaptured(); ok {
		g.finish(Win(loser.Other(), KingCapture))
	} else if g.cfg.TurnLimit > 0 && g.board.FullmoveNumber() > g.cfg.TurnLimit {
		g.finish(Draw(TurnLimit))
	} else if g.cfg.MoveLimit > 0 && g.board.HalfmoveClock() >= g.cfg.MoveLimit {
		g.finish(Draw(MoveLimit))
	}
	return MoveResult{Requested: request, Taken: taken, Capture: capture}, nil
}

// EndTurn ends the mover's turn: its clock is charged with the time the
// turn took and credited with the increment, and the opponent's turn and
// clock begin.
func (g *Game) EndTurn() error {
	if err := g.ready(PhaseEndTurn); err != nil {
		return err
	}
	now := g.now()
	us := g.Turn()
	if g.clock.Timed() {
		// The reference's order: the turn's time charged and the increment
		// credited, then the flag.
		g.clock.Stop(now)
		left := g.clock.Left()[us] + g.cfg.Increment
		g.clock.SetLeft(us, left, now)
		if left <= 0 {
			g.finish(Win(us.Other(), Timeout))
			return nil
		}
	}
	g.turn = us.Other()
	g.clock.Start(g.turn, now)
	g.phase = PhaseSense
	return nil
}

// Resign ends the game with c resigning. It may come at any moment of
// either player's turn.
func (g *Game) Resign(c game.Color) error {
	if !g.started {
		return ErrNotStarted
	}
	if g.CheckClock() {
		return fmt.Errorf("%w (%s)", ErrGameOver, g.outcome)
	}
	g.finish(Win(c.Other(), Resign))
	return nil
}

// Forfeit ends the game as if c's clock had run out, at any moment of
// either player's turn: what a server does when c's program reports that
// it has failed, instead of waiting for the flag to fall.
func (g *Game) Forfeit(c game.Color) error {
	if !g.started {
		return ErrNotStarted
	}
	if g.CheckClock() {
		return fmt.Errorf("%w (%s)", ErrGameOver, g.outcome)
	}
	if g.clock.Timed() {
		now := g.now()
		g.clock.Stop(now)
		g.clock.SetLeft(c, 0, now)
	}
	g.finish(Win(c.Other(), Timeout))
	return nil
}

// finish ends the game with o, stopping the mover's clock.
func (g *Game) finish(o Outcome) {
	if g.phase == PhaseOver {
		return
	}
	g.clock.Stop(g.now())
	g.phase = PhaseOver
	g.outcome = o
	g.history.Outcome = o
}
