package recon

import (
	"context"
	"fmt"
	"time"

	"knightwatch/game"
)

// Restore rebuilds a game from its record so far, as a server does after a
// restart: the recorded senses and requested moves are played again (each
// result checked against the record), so the arbiter stands exactly where
// the record stops, in the move phase when the last turn has its sense but
// not its move. A record that ended by a timeout or a resignation ends so
// again. The clocks are set to clocks, each side's time at the start of its
// current or next turn, and the mover's starts running now.
//
// When bot is not nil it is fed botColor's side of the record, so that it
// holds what it knew; its choices are asked for under a context that is
// already cancelled (the record says what was chosen) and not compared.
func Restore(cfg Config, h *History, clocks [2]time.Duration, bot Player, botColor game.Color) (*Game, error) {
	return restore(cfg, h, clocks, bot, botColor, false)
}

// RestoreOpenTurn is Restore for a record whose last move's turn has not
// ended: the mover moved and has yet to end the turn (the reconchess API
// takes the two as separate calls, and the history has no mark for the
// end of a turn). The arbiter stands in that turn's end-turn phase.
func RestoreOpenTurn(cfg Config, h *History, clocks [2]time.Duration, bot Player, botColor game.Color) (*Game, error) {
	return restore(cfg, h, clocks, bot, botColor, true)
}

func restore(cfg Config, h *History, clocks [2]time.Duration, bot Player, botColor game.Color, openTurn bool) (*Game, error) {
	if err := h.Validate(); err != nil {
		return nil, err
	}
	g := NewGame(cfg, h.Names[game.White], h.Names[game.Black])
	g.Start()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := replay(ctx, g, h, feed{bot: bot, color: botColor, time: clocks[botColor], openTurn: openTurn}); err != nil {
		return nil, err
	}
	if (h.Outcome.Reason == Timeout || h.Outcome.Reason == Resign) && !g.IsOver() {
		g.finish(h.Outcome)
	}
	if g.Outcome() != h.Outcome {
		return nil, fmt.Errorf("the record says %s, the game is %s", h.Outcome, g.Outcome())
	}
	if g.clock.Timed() {
		g.clock = game.RestoreClock(g.clock.Initial(), g.clock.Increment(), clocks, !g.IsOver(), g.Turn(), g.now())
	}
	return g, nil
}

// Clocks returns each side's time at the start of its current or next
// turn, as Restore takes them: the mover's does not count the running turn
// (it is the clock's Left).
func (g *Game) Clocks() [2]time.Duration { return g.clock.Left() }

// Charge takes d off the mover's clock as time its running turn has
// already used: what a server restoring a game after a crash charges for
// the thinking between the record's last action and the crash. Nothing
// happens without a clock, before the start, after the end, or for d <= 0.
func (g *Game) Charge(d time.Duration) {
	if g.clock.Timed() && g.started && g.phase != PhaseOver && d > 0 {
		now := g.now()
		g.clock.SetLeft(g.Turn(), g.clock.Remaining(g.Turn(), now)-d, now)
	}
}
