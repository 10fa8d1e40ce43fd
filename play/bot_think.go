package play

import (
	"context"
	"time"

	"knightwatch/enginepool"
	"knightwatch/recon"
	"knightwatch/recon/bots"
)

// Reconnaissance Chess bots think in the engine pool (issue 35), each
// step of a bot's turn, in a browser game as in an API game (ReconBot), as
// engine work of its owner: how the pool schedules a step, bounds its
// thinking and never lets the queue alone make a bot lose on time is
// enginepool's (step.go). What is the bot's is which calls make a step,
// and asking the bot how long it thinks:
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
//   - A step's budget is what the bot says it may take (bots.Thinker)
//     from its clock; the pool caps it at a level-8 search (3 s), except
//     for the built-in seat of an API game (NewReconBot), which plays as
//     a competitor does: its steps are clocked (enginepool's
//     botcores.go), thinking as long as its clock allows on one of the
//     server's bot cores (serve --rbc-bot-cores), and it thinks on the
//     opponent's turn too (ponder.go). On a site (Config.BotJobs) its
//     steps are clocked jobs (playAsJobs), thought on the bot cores of
//     the process that takes them (worker --rbc-bot-cores); it does not
//     ponder there, the servers holding no bot.
//   - The bots think on one goroutine each (bots.NewOneThread), so one
//     searcher is one core.

// botStep runs one step of a bot's turn for owner in the pool: f makes
// the bot's calls of the step, given the context its thinking ends with
// and the time on the bot's clock; clock returns the bot's time left now
// (recon.Unlimited without a clock, which is enginepool.NoClock). It
// reports false, f not run, when ctx ended first.
// clocked marks the step of a bot spending its clock (Step.Clocked).
func (gs *Games) botStep(ctx context.Context, owner string, bot recon.Player, clock func() time.Duration, clocked bool, f func(think context.Context, left time.Duration)) bool {
	if ctx.Err() != nil {
		return false
	}
	left := clock()
	pool := gs.cfg.Pool
	if pool == nil {
		pool = (*enginepool.Pool)(nil) // runs every step at once
	}
	return pool.RunStep(ctx, enginepool.Step{Owner: owner, Cost: botThinkTime(bot, left), Left: left, Clock: clock, Clocked: clocked, Run: f})
}

// botThinkTime returns what bot says its next step may take with left on
// its clock; a player that does not say is taken to think a second
// (enginepool.DefaultCost).
func botThinkTime(bot recon.Player, left time.Duration) time.Duration {
	if t, ok := bot.(bots.Thinker); ok {
		return t.ThinkTime(left)
	}
	return enginepool.DefaultCost
}
