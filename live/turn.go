package live

import (
	"context"
	"errors"
	"time"

	"knightwatch/game"
)

// Turn is one turn of an automaton: what its Play applies its steps
// through. The turn is on while it is the automaton's colour to act, the
// game is as the turn last left it (its Ply), and nothing withdrew it.
type Turn struct {
	h      *Host
	color  game.Color
	ply    int
	since  time.Time // the change that gave the automaton the move
	ctx    context.Context
	cancel context.CancelFunc
	// withdrawn is set (under the host's lock) when the game went on
	// without the turn: its context is cancelled, its steps refused.
	withdrawn bool
}

// Color returns the automaton's colour.
func (t *Turn) Color() game.Color { return t.color }

// Since is the moment the turn began: that of the change that gave the
// automaton the move (the person's move, say), or of the host's start or
// a player's arrival for a turn picked up then. An automaton that answers
// no sooner than a pause after the person's move counts from here, not
// from when its goroutine got the host's lock.
func (t *Turn) Since() time.Time { return t.since }

// Context ends when the turn is withdrawn, when the mover's clock runs out
// (if it runs) and when the server stops: an automaton's thinking stops
// with it.
func (t *Turn) Context() context.Context { return t.ctx }

// onLocked reports whether the turn is still on.
func (t *Turn) onLocked() bool {
	if t.withdrawn || t.h.closed || t.h.pending != nil {
		return false
	}
	mover, on := t.h.g.Turn()
	return on && mover == t.color && t.h.g.Ply() == t.ply
}

// withdrawLocked withdraws the turn: its thinking is cancelled and no step
// of it applies. The host keeps it as its turn until Play returns, so that
// no other turn of the automaton starts meanwhile.
func (t *Turn) withdrawLocked() {
	t.withdrawn = true
	t.cancel()
}

// Read runs f under the host's lock with the game, while the turn is on;
// it reports whether it ran.
func (t *Turn) Read(f func(g Game, m Moment)) bool {
	h := t.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if !t.onLocked() {
		return false
	}
	f(h.g, h.momentLocked(time.Now()))
	return true
}

// Step applies the automaton's step f (a move; a sense) under the host's
// lock while the turn is on, and commits it. A step the rules refuse
// applies nothing (f should fall back to one they take, a pass, itself).
// When the database refuses, the step is kept and saved later: Step waits
// for that, without the lock, and every subscriber is told. It reports
// whether the step is saved and the turn still on; when not, the turn is
// over for the automaton.
func (t *Turn) Step(f func(now time.Time) error) bool {
	h := t.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if !t.onLocked() {
		return false
	}
	now := time.Now()
	if h.flagIfDueLocked(now) {
		return false
	}
	switch err := h.changeLocked(now, f); {
	case errors.Is(err, ErrUnsaved):
		p := h.keepLocked(now, f, false)
		h.mu.Unlock()
		<-p.done
		h.mu.Lock()
		if !p.saved || t.withdrawn || h.closed {
			return false
		}
		t.ply = h.g.Ply()
		return true // saved, and told, by the retry
	case err != nil:
		h.logf("the automaton's step refused: %v", err)
		return false
	}
	t.ply = h.g.Ply()
	h.afterLocked(now, t)
	return true
}

// maybeStartTurnLocked starts the turn of the automaton to move, if any,
// when none runs, nothing waits to be saved, and (in a game played in
// person) a player has the game open; now is the moment of the change
// that calls for it.
func (h *Host) maybeStartTurnLocked(now time.Time) {
	if h.closed || h.turn != nil || h.pending != nil || h.cfg.Context.Err() != nil {
		return
	}
	mover, on := h.g.Turn()
	if !on || h.autos[mover] == nil || !h.cfg.Always && h.players == 0 {
		return
	}
	ctx, cancel := context.WithCancel(h.cfg.Context)
	if d, ok := h.g.Clock().Deadline(); ok {
		ctx, cancel = context.WithDeadline(h.cfg.Context, d)
	}
	t := &Turn{h: h, color: mover, ply: h.g.Ply(), since: now, ctx: ctx, cancel: cancel}
	h.turn = t
	a := h.autos[mover]
	go func() {
		defer h.turnEnded(t)
		a.Play(t)
	}()
}

// turnEnded runs as an automaton's Play returns: the turn is no longer the
// host's, a closed host's automata are closed, a flag that fell meanwhile
// is dealt with, and the next turn (after a restart mid-turn, say, or in a
// game between two automata) starts.
func (h *Host) turnEnded(t *Turn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t.cancel()
	if h.turn != t {
		return
	}
	h.turn = nil
	defer h.notifyQuietLocked()
	if h.closed {
		h.closeAutomataLocked()
		return
	}
	if now := time.Now(); !h.flagIfDueLocked(now) {
		h.maybeStartTurnLocked(now)
	}
}
