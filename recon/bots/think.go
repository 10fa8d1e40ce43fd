package bots

import (
	"context"
	"time"

	"knightwatch/recon"
)

// What a server running many games needs to know to schedule the bots'
// work (web's engine pool): how long a bot's next choice may take, and a
// way to keep each bot's thinking on one goroutine.

// Thinker is a bot that says how long its choices take. Every bot of this
// package is one.
type Thinker interface {
	// ThinkTime returns about how long the bot's next step may take with
	// timeLeft on its clock (recon.Unlimited without a clock): a choice
	// (a sense or a move) with the bookkeeping before it. 0 means the bot
	// chooses at once, with nothing worth scheduling.
	ThinkTime(timeLeft time.Duration) time.Duration
}

// ThinkTime implements Thinker: the random bot chooses at once.
func (*Random) ThinkTime(time.Duration) time.Duration { return 0 }

// ThinkTime implements Thinker: the attacker chooses at once.
func (*Attacker) ThinkTime(time.Duration) time.Duration { return 0 }

// troutNodesPerSecond turns a node bound of trout into a time, for a
// trout bounded by nodes alone: about what Knightwatch's engine searches
// on one core.
const troutNodesPerSecond = 1_000_000

// ThinkTime implements Thinker: one engine search, MoveTime or a
// twentieth of the clock, whichever is less (ChooseMove; ChooseSense
// makes at most the same search).
func (t *Trout) ThinkTime(timeLeft time.Duration) time.Duration {
	d := t.cfg.MoveTime
	if d == 0 {
		d = time.Duration(t.cfg.Nodes) * time.Second / troutNodesPerSecond
	}
	if timeLeft < recon.Unlimited && timeLeft/20 < d {
		d = max(timeLeft/20, time.Millisecond)
	}
	return max(d, time.Millisecond)
}

// ThinkTime implements Thinker: about half the turn's budget (the sense
// takes up to 45% of it, the move the rest), as turnBudget would give it
// with the increment inferred so far; the clock is not otherwise read or
// changed.
func (k *Knightwatch) ThinkTime(timeLeft time.Duration) time.Duration {
	return budgetFor(timeLeft, k.turn, k.increment, k.cfg.TurnTime) / 2
}

// Ponderer is a bot that can think on its opponent's turn: Ponder does
// work that its next OpponentMoveResult would otherwise do, without
// changing what the bot then holds or chooses, and returns when ctx ends.
// A server calls it between the bot's MoveResult and its next
// OpponentMoveResult, never beside another call of the bot.
type Ponderer interface {
	Ponder(ctx context.Context)
}

// NewOneThread builds the bot spec names, as New does, thinking on one
// goroutine whatever the spec says (knightwatch's workers=1; trout's
// engines already search on one thread): for a server that gives each
// bot's step one slot of a pool sized to its cores, where a bot on more
// goroutines would use more CPU than its slot.
func NewOneThread(spec string, seed uint64) (recon.Player, error) {
	return build(spec, seed, true)
}
