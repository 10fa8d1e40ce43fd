package web

import (
	"context"
	"time"

	"knightwatch/recon"
	"knightwatch/recon/bots"
)

// Reconnaissance Chess bots think in the engine pool (issue 35): the
// knightwatch bot searches many boards, trout runs an engine, and N games
// thinking each on its own goroutines would slow every engine reply of
// every player. So each step of a bot's turn, in a browser game
// (recon_room.go) as in an API game (api_table.go), is engine work of its
// owner, scheduled by the pool like a search:
//
//   - A turn has two steps: the opponent's capture and the sense
//     (OpponentMoveResult, ChooseSense; knightwatch grows its boards by
//     the opponent's possible moves there), then the sense's result and
//     the move (SenseResult, ChooseMove). The sense is saved between them,
//     without a searcher held. MoveResult, the bot's own move put on its
//     boards (no search), runs as soon as the move is saved, outside the
//     pool: knightwatch measures its turn up to it, so a wait there would
//     skew how it infers the clock's increment, and it is small beside a
//     step.
//   - A step holds one regular searcher (pool.run, never the quick lane),
//     charged to the owner with the time it took. Its budget (cost) is
//     what the bot says the step may take (bots.Thinker) from its clock,
//     at most botStepMax.
//   - The bot's thinking is cut off botStepMax after the step starts, or
//     when its clock runs out if sooner: the time left is read after the
//     searcher is acquired, so a step that queued thinks only with what
//     its clock still holds. With botStepMax a step holds a searcher about
//     as long as a level-8 search, and the pool's bounds on waiting (one
//     long search) hold with bots in it. What no deadline cuts short
//     (knightwatch growing a large set of boards) can add to it.
//   - The bots think on one goroutine each (bots.NewOneThread), so one
//     searcher is one core.
//   - Bots that choose at once (random, attacker: ThinkTime 0) never wait
//     for the pool; nor does any bot on a server without one (NoEngine).
//   - Time spent queued is the bot's: its clock runs, as the reference's
//     runs while a player thinks. A step waits at most until half the time
//     its clock showed when the step asked for a searcher is gone; then it
//     acts at once outside the pool without thinking (its choice asked
//     under a context already ended, as when a record is replayed:
//     knightwatch senses nothing and passes unless it can take the king
//     on every board; trout's engine answers at once), charged to its
//     owner (pool.chargeOutside). So the queue alone never makes a bot
//     lose on time. Without a clock a step waits as long as it takes.
//
// A step that is withdrawn while it queues (the game ends, the person
// resigns, every tab closes, the server stops) leaves the queue and runs
// nothing; one withdrawn while it thinks has its thinking cancelled and
// gives its searcher back as the bot returns.

// botStepMax is the longest a bot's step thinks: as long as the longest
// engine level's search (level 8, 3 s).
const botStepMax = 3 * time.Second

// botStep runs one step of a bot's turn for owner, as described above: f
// makes the bot's calls of the step, given the context its thinking ends
// with and the time on the bot's clock; clock returns the bot's time left
// now (recon.Unlimited without a clock). It reports false, f not run,
// when ctx ended first.
func (s *Server) botStep(ctx context.Context, owner string, bot recon.Player, clock func() time.Duration, f func(think context.Context, left time.Duration)) bool {
	if ctx.Err() != nil {
		return false
	}
	left := clock()
	cost := botThinkTime(bot, left)
	if s.pool == nil || cost == 0 {
		think, stop := thinkContext(ctx, left)
		defer stop()
		f(think, left)
		return true
	}
	wait, stopWait := context.WithCancel(ctx)
	if left != recon.Unlimited {
		wait, stopWait = context.WithTimeout(ctx, left/2)
	}
	defer stopWait()
	ran := s.pool.run(wait, owner, min(cost, botStepMax), func() {
		left := clock()
		think, stop := context.WithTimeout(ctx, min(left, botStepMax))
		defer stop()
		f(think, left)
	})
	if ran || ctx.Err() != nil {
		return ran
	}
	// Half its time went by in the queue: act now, without thinking.
	ended, stop := context.WithCancel(ctx)
	stop()
	start := time.Now()
	f(ended, clock())
	s.pool.chargeOutside(owner, time.Since(start))
	return true
}

// botThinkTime returns what bot says its next step may take with left on
// its clock; a player that does not say is taken to think a second.
func botThinkTime(bot recon.Player, left time.Duration) time.Duration {
	if t, ok := bot.(bots.Thinker); ok {
		return t.ThinkTime(left)
	}
	return poolDefaultCost
}

// thinkContext bounds a bot's thinking by the time it has left.
func thinkContext(ctx context.Context, left time.Duration) (context.Context, context.CancelFunc) {
	if left == recon.Unlimited {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, left)
}
