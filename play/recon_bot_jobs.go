package play

import (
	"fmt"
	"time"

	"knightwatch/enginejobs"
	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/recon"
)

// playAsJobs plays the bot's turn with each step a job (Config.BotJobs):
// the step asked for with the game's record as it stands, the answer
// applied through t as a step thought here would be. The steps' keys are
// the same on every server holding the game (its ID and the count of its
// actions), so that two servers asking are one job.
func (b *ReconBot) playAsJobs(t *live.Turn, jobs BotJobs) {
	g := b.rules.Arbiter
	ctx := t.Context()
	for {
		var (
			s     enginejobs.BotStep
			phase recon.Phase
		)
		if !t.Read(func(live.Game, live.Moment) {
			phase = g.Phase()
			s = b.jobStep(g)
		}) {
			return
		}
		act, ok := jobs.BotStep(ctx, s)
		if !ok || ctx.Err() != nil {
			return
		}
		if phase == recon.PhaseSense {
			b.games.hookBotAction(b.id, recon.PhaseSense)
			if !t.Step(func(time.Time) error {
				_, err := b.sense(g, act.Sense)
				return err
			}) {
				return
			}
			continue // the move
		}
		b.waitReplyPause(ctx)
		b.games.hookBotAction(b.id, recon.PhaseMove)
		t.Step(func(time.Time) error {
			_, err := b.move(g, act.Move)
			return err
		})
		return
	}
}

// jobStep is the job of the bot's step as game g stands (read under the
// host's lock). A bot playing as a competitor (an API game's, clocked)
// asks for a clocked step: whichever process takes it thinks as long as
// the bot's clock allows, on its bot cores, as this server would.
func (b *ReconBot) jobStep(g *recon.Game) enginejobs.BotStep {
	h := g.History()
	actions := 0
	for c := game.White; c <= game.Black; c++ {
		actions += len(h.Senses[c]) + len(h.RequestedMoves[c])
	}
	cfg := g.Config()
	return enginejobs.BotStep{
		Key: fmt.Sprintf("%s bot %d", b.id, actions), Owner: b.owner, Game: b.id,
		Spec: b.spec, Seed: b.seed, Color: b.color, History: recon.MarshalHistory(h),
		Clock: cfg.Clock, Increment: cfg.Increment, MoveLimit: cfg.MoveLimit, TurnLimit: cfg.TurnLimit,
		Clocks: g.Clocks(), Left: g.SecondsLeft(b.color), Clocked: b.clocked,
	}
}
