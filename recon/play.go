package recon

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"knightwatch/game"
)

// ErrPlayerFailed wraps what went wrong with a player during Play: a panic,
// a sense or move that is not among its actions, or a call that did not
// return after its time ran out.
var ErrPlayerFailed = errors.New("player failed")

// hungGrace is how long Play waits for a player's call to return after
// that player's clock ran out and its context was cancelled.
const hungGrace = 5 * time.Second

// Play runs g between two players to the end, as the reference's
// play_local_game does, and returns the outcome. The players' calls for a
// turn run on the mover's clock; when it runs out the game ends on time
// even if a call has not returned. When a player fails (see
// ErrPlayerFailed) the game stops without a result and the error says
// which player and why; g.History() keeps the record up to that point.
// Cancelling ctx stops the game the same way.
func Play(ctx context.Context, g *Game, white, black Player) (Outcome, error) {
	return PlayObserved(ctx, g, white, black, nil)
}

// Step names a point of a turn at which PlayObserved calls its observer.
type Step int

// The steps: after the player heard of the opponent's capture, after it
// heard its sense result, after it heard its move result.
const (
	AfterOpponentMove Step = iota
	AfterSense
	AfterMove
)

// PlayObserved is Play, calling observe (when not nil) after each of the
// steps above with the player it concerns. The observer runs in the
// driver's goroutine, with the player's call finished, so it may look at g
// and ask the player questions (a match report asks a bot whether the true
// board is among those it holds possible).
func PlayObserved(ctx context.Context, g *Game, white, black Player, observe func(c game.Color, step Step)) (Outcome, error) {
	players := [2]Player{white, black}
	names := g.History().Names
	hung := [2]bool{}
	board := g.Board()
	for c := game.White; c <= game.Black; c++ {
		c := c
		if err := guard(ctx, g, c, func(context.Context) { players[c].Start(c, board, names[c.Other()]) }); err != nil {
			return Outcome{}, err
		}
	}
	g.Start()
	err := playTurns(ctx, g, players, observe)
	if err != nil {
		if errors.Is(err, errHung) {
			hung[g.Turn()] = true
		} else {
			return Outcome{}, err
		}
	}
	outcome, history := g.Outcome(), g.History()
	for c := game.White; c <= game.Black; c++ {
		if !hung[c] {
			c := c
			if err := guard(context.Background(), nil, c, func(context.Context) { players[c].End(outcome, history) }); err != nil {
				return g.Outcome(), err
			}
		}
	}
	return g.Outcome(), nil
}

// errHung marks a call abandoned after the game ended on time.
var errHung = errors.New("player did not return after its time ran out")

func playTurns(ctx context.Context, g *Game, players [2]Player, observe func(game.Color, Step)) error {
	// One turn's calls, made by t.call: one value for the whole game, so
	// that a turn allocates no closures.
	t := &turnCalls{}
	call := t.call
	for !g.IsOver() {
		if err := ctx.Err(); err != nil {
			return err
		}
		c := g.Turn()
		*t = turnCalls{p: players[c], senseActions: g.SenseActions(), moveActions: g.MoveActions(), capture: g.OpponentCapture()}
		for i := range turnSteps {
			// left is read in this goroutine, before each call: the calls
			// run in goroutines of their own and must not touch g.
			t.step, t.left = i, g.SecondsLeft(c)
			if err := guard(ctx, g, c, call); err != nil {
				return err
			}
			if g.CheckClock() {
				return nil
			}
			if observe != nil {
				switch i {
				case 0:
					observe(c, AfterOpponentMove)
				case 2:
					observe(c, AfterSense)
				case 4:
					observe(c, AfterMove)
				}
			}
			var err error
			switch i {
			case 1:
				if t.senseResult, err = g.Sense(t.sense); err != nil {
					return fmt.Errorf("%w: %s sensed %d: %v", ErrPlayerFailed, c, t.sense, err)
				}
			case 3:
				if t.moveResult, err = g.Move(t.move); err != nil {
					return fmt.Errorf("%w: %s chose %s: %v", ErrPlayerFailed, c, UCI(t.move), err)
				}
			}
		}
		if g.IsOver() {
			return nil
		}
		if err := g.EndTurn(); err != nil && !errors.Is(err, ErrGameOver) {
			return err
		}
	}
	return nil
}

// turnSteps is how many calls a turn makes of its player: the opponent's
// capture, the sense, its result, the move, its result.
const turnSteps = 5

// turnCalls holds one turn's calls of its player and what they need and
// answer; call makes the call numbered step.
type turnCalls struct {
	p              Player
	step           int
	senseActions   []game.Square
	moveActions    []game.Move
	capture, sense game.Square
	move           game.Move
	senseResult    SenseResult
	moveResult     MoveResult
	left           time.Duration
}

func (t *turnCalls) call(ctx context.Context) {
	switch t.step {
	case 0:
		t.p.OpponentMoveResult(t.capture)
	case 1:
		t.sense = t.p.ChooseSense(ctx, t.senseActions, t.moveActions, t.left)
	case 2:
		t.p.SenseResult(t.senseResult)
	case 3:
		t.move = t.p.ChooseMove(ctx, t.moveActions, t.left)
	case 4:
		t.p.MoveResult(t.moveResult)
	}
}

// guard runs one player call for colour c, turning a panic into an error.
// When g is given and c's clock runs out before the call returns, the
// game ends on time, the call's context is cancelled and guard waits a
// short grace for it before giving up on it (errHung).
func guard(ctx context.Context, g *Game, c game.Color, f func(context.Context)) (err error) {
	var deadline time.Time
	hasDeadline := false
	if g != nil {
		deadline, hasDeadline = g.Deadline()
	}
	if !hasDeadline {
		// No clock to watch: call in this goroutine, which is much cheaper.
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%w: %s panicked: %v\n%s", ErrPlayerFailed, c, r, debug.Stack())
			}
		}()
		f(ctx)
		return ctx.Err()
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("%w: %s panicked: %v\n%s", ErrPlayerFailed, c, r, debug.Stack())
			}
		}()
		f(ctx)
		done <- nil
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	if g != nil && g.CheckClock() {
		// Out of time: the game is decided; give the call a moment to
		// notice its cancelled context.
		select {
		case err := <-done:
			return err
		case <-time.After(hungGrace):
			return errHung
		}
	}
	// ctx was cancelled from outside (the whole match is stopping).
	select {
	case err := <-done:
		if err != nil {
			return err
		}
		return ctx.Err()
	case <-time.After(hungGrace):
		return fmt.Errorf("%w: %s did not return after the game was cancelled", ErrPlayerFailed, c)
	}
}
