package web

import (
	"context"
	"time"

	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/recon"
)

// reconRules is what every Reconnaissance Chess game has as a live.Game,
// in the browser against a bot as over the API: the arbiter, and the
// answers the host needs of it. The game kinds embed it.
type reconRules struct {
	g *recon.Game
}

// Turn is the mover while the game is on (started, not over).
func (r *reconRules) Turn() (game.Color, bool) {
	return r.g.Turn(), r.g.Started() && !r.g.IsOver()
}

// Over reports whether the arbiter has ended the game.
func (r *reconRules) Over() bool { return r.g.IsOver() }

// Ply counts every sense and every move of both sides.
func (r *reconRules) Ply() int { return actionCount(r.g) }

// actionCount counts the actions taken in g: every sense and every move
// of both sides.
func actionCount(g *recon.Game) int {
	h := g.History()
	n := 0
	for c := game.White; c <= game.Black; c++ {
		n += len(h.Senses[c]) + len(h.RequestedMoves[c])
	}
	return n
}

// Clock is the arbiter's clock.
func (r *reconRules) Clock() *game.Clock { return r.g.Clock() }

// ClockDue: the mover's clock runs from the start to the end.
func (r *reconRules) ClockDue() bool { return r.g.Started() && !r.g.IsOver() }

// Flag ends the game on time when the mover's clock has run out.
func (r *reconRules) Flag(time.Time) bool {
	if r.g.IsOver() {
		return false
	}
	return r.g.CheckClock()
}

// markArbiter returns a function that puts the arbiter back as it is now
// (a value copy, its history included: the arbiter only appends to it).
func (r *reconRules) markArbiter() func() {
	saved := *r.g
	return func() { *r.g = saved }
}

// clockRecord is each side's time and when the mover's started running
// from it (nil: stopped), as a record keeps them.
func clockRecord(c *game.Clock) (whiteMS, blackMS int64, since *time.Time) {
	left := c.Left()
	if _, running := c.Running(); running {
		t := c.Since()
		since = &t
	}
	return left[game.White].Milliseconds(), left[game.Black].Milliseconds(), since
}

// restoreArbiter rebuilds a record's arbiter: its history replayed, each
// side's time set, the mover's charged for the thinking a crash cut short
// (crashCharge), the clock stopped until its host starts it.
func (s *Server) restoreArbiter(cfg recon.Config, h *recon.History, whiteMS, blackMS int64, since *time.Time, bot recon.Player, botColor game.Color) (*recon.Game, error) {
	clocks := [2]time.Duration{time.Duration(whiteMS) * time.Millisecond, time.Duration(blackMS) * time.Millisecond}
	g, err := recon.Restore(cfg, h, clocks, bot, botColor)
	if err != nil {
		return nil, err
	}
	g.Charge(s.crashCharge(since))
	g.Clock().Stop(time.Now())
	return g, nil
}

// testHookBotAction, when set (by tests), runs as a bot in game id has
// chosen its action for phase (a sense or a move), before it is applied
// and saved; no lock is held.
var testHookBotAction func(id string, phase recon.Phase)

// reconBot is a Reconnaissance Chess bot as a live.Automaton: the
// opponent of a browser game, the built-in seat of an API game. Each of
// its steps thinks in the engine pool as owner's work (bot_think.go).
// The bot's calls are made one at a time from the turn's goroutine, its
// MoveResult included; the host starts its next turn only after Play
// returns.
type reconBot struct {
	srv   *Server
	id    string // the game's, for logs and the test hook
	bot   recon.Player
	color game.Color
	// rules holds the host's arbiter, read and changed only in the turn's
	// Read and Step (under the host's lock).
	rules *reconRules
	owner string
	// pause makes the bot's move wait the server's reply pause, so that a
	// person sees the turn pass.
	pause bool
}

func (b *reconBot) Close() { closeBot(b.bot) }

func (b *reconBot) Play(t *live.Turn) {
	g := b.rules.g // the arbiter stays the same object for the game's life
	var (
		phase        recon.Phase
		capture      game.Square
		senseActions []game.Square
		moveActions  []game.Move
	)
	if !t.Read(func(live.Game, live.Moment) {
		v := g.ViewOf(b.color)
		phase, capture, senseActions, moveActions = g.Phase(), v.OpponentCapture, g.SenseActions(), v.MoveActions
	}) {
		return
	}
	clock := func() time.Duration {
		left := time.Duration(0)
		t.Read(func(live.Game, live.Moment) { left = g.SecondsLeft(b.color) })
		return left
	}
	ctx := t.Context()
	var sensed recon.SenseResult
	if phase == recon.PhaseSense {
		var s game.Square
		if !b.srv.botStep(ctx, b.owner, b.bot, clock, func(think context.Context, left time.Duration) {
			b.bot.OpponentMoveResult(capture)
			s = b.bot.ChooseSense(think, senseActions, moveActions, left)
		}) {
			return
		}
		if testHookBotAction != nil {
			testHookBotAction(b.id, recon.PhaseSense)
		}
		if !t.Step(func(time.Time) error {
			var err error
			if sensed, err = g.Sense(s); err != nil && !g.IsOver() {
				b.srv.logf("game %s: bot sensed %s: %v; senses nothing instead", b.id, recon.SquareName(s), err)
				sensed, err = g.Sense(game.NoSquare)
			}
			return err
		}) {
			return
		}
	}
	var m game.Move
	if !b.srv.botStep(ctx, b.owner, b.bot, clock, func(think context.Context, left time.Duration) {
		if phase == recon.PhaseSense {
			b.bot.SenseResult(sensed)
		}
		m = b.bot.ChooseMove(think, moveActions, left)
	}) {
		return
	}
	if pause := b.srv.replyPause(); b.pause && pause > 0 {
		timer := time.NewTimer(pause)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
		}
	}
	if testHookBotAction != nil {
		testHookBotAction(b.id, recon.PhaseMove)
	}
	var res recon.MoveResult
	if !t.Step(func(time.Time) error {
		var err error
		if res, err = g.Move(m); err != nil && !g.IsOver() {
			b.srv.logf("game %s: bot chose %s: %v; passes instead", b.id, recon.UCI(m), err)
			res, err = g.Move(game.NoMove)
		}
		if err == nil && !g.IsOver() {
			err = g.EndTurn()
		}
		return err
	}) {
		return
	}
	b.bot.MoveResult(res)
}
