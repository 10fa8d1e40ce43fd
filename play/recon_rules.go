package play

import (
	"time"

	"knightwatch/game"
	"knightwatch/recon"
)

// ReconRules is what every Reconnaissance Chess game has as a live.Game,
// in the browser against a bot as over the API (package rbcapi): the
// arbiter, and the answers the host needs of it. The kinds of game embed
// it and add the record: Mark, Commit, View and Notice.
type ReconRules struct {
	// Arbiter is the game's arbiter. It stays the same object for the
	// game's life, as a bot holds it (a game whose arbiter is made anew,
	// an API game starting, copies the new one into it).
	Arbiter *recon.Game
}

// Turn is the mover while the game is on (started, not over).
func (r *ReconRules) Turn() (game.Color, bool) {
	return r.Arbiter.Turn(), r.Arbiter.Started() && !r.Arbiter.IsOver()
}

// Over reports whether the arbiter has ended the game.
func (r *ReconRules) Over() bool { return r.Arbiter.IsOver() }

// Ply counts every sense and every move of both sides.
func (r *ReconRules) Ply() int { return actionCount(r.Arbiter) }

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
func (r *ReconRules) Clock() *game.Clock { return r.Arbiter.Clock() }

// ClockDue: the mover's clock runs from the start to the end.
func (r *ReconRules) ClockDue() bool { return r.Arbiter.Started() && !r.Arbiter.IsOver() }

// Flag ends the game on time when the mover's clock has run out.
func (r *ReconRules) Flag(time.Time) bool {
	if r.Arbiter.IsOver() {
		return false
	}
	return r.Arbiter.CheckClock()
}

// MarkArbiter returns a function that puts the arbiter back as it is now
// (a value copy, its history included: the arbiter only appends to it),
// for a kind's Mark.
func (r *ReconRules) MarkArbiter() func() {
	saved := *r.Arbiter
	return func() { *r.Arbiter = saved }
}

// ClockRecord is each side's time and when the mover's started running
// from it (nil: stopped), as a record keeps them.
func ClockRecord(c *game.Clock) (whiteMS, blackMS int64, since *time.Time) {
	left := c.Left()
	if _, running := c.Running(); running {
		t := c.Since().Truncate(time.Microsecond) // as PostgreSQL keeps it
		since = &t
	}
	return left[game.White].Milliseconds(), left[game.Black].Milliseconds(), since
}

// SettleClock sets c to what ClockRecord made of it once that is
// committed: the time left cut to the millisecond, the start to the
// microsecond, as every server that reads the record has the clock, so
// that the server that committed it computes the same time left as they
// do (at most a millisecond a commit more than it had).
func SettleClock(c *game.Clock, whiteMS, blackMS int64, since *time.Time) {
	side, running := c.Running()
	var t time.Time
	if since != nil {
		t = *since
	}
	*c = game.RestoreClock(c.Initial(), c.Increment(),
		[2]time.Duration{time.Duration(whiteMS) * time.Millisecond, time.Duration(blackMS) * time.Millisecond}, running && since != nil, side, t)
}

// RestoreArbiter rebuilds a record's arbiter with cfg: its history h
// replayed (bot, when not nil, the player of botColor, fed its side of
// it; openTurn: the last move's turn not ended, recon.RestoreOpenTurn),
// each side's time set, the mover's charged for the thinking a crash cut
// short (since: when the record says its clock started running; nil:
// stopped), the clock stopped until its host starts it.
func (gs *Games) RestoreArbiter(cfg recon.Config, h *recon.History, openTurn bool, whiteMS, blackMS int64, since *time.Time, bot recon.Player, botColor game.Color) (*recon.Game, error) {
	clocks := [2]time.Duration{time.Duration(whiteMS) * time.Millisecond, time.Duration(blackMS) * time.Millisecond}
	restore := recon.Restore
	if openTurn {
		restore = recon.RestoreOpenTurn
	}
	g, err := restore(cfg, h, clocks, bot, botColor)
	if err != nil {
		return nil, err
	}
	g.Charge(gs.crashCharge(since))
	g.Clock().Stop(time.Now())
	return g, nil
}
