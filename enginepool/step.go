package enginepool

import (
	"context"
	"math"
	"time"
)

// Work other than a search that the pool schedules: the steps of
// Reconnaissance Chess bots (the clocked steps of bots spending their
// clock, in API games, have a lane of their own: botcores.go), which think on the CPU as an engine does but
// do not use a Searcher. The knightwatch bot searches many boards, trout
// runs an engine, and N games thinking each on its own goroutines would
// slow every engine reply of every player; so each step of a bot's turn is
// engine work of its owner, scheduled like a search (which calls of a bot
// make a step is the caller's: web's bot_think.go):
//
//   - A step holds one regular searcher (run, never the quick lane),
//     charged to the owner with the time it took. Its budget is what the
//     bot says the step may take from its clock (Step.Cost), at most
//     stepMax.
//   - The step's thinking is cut off stepMax after it starts, or when its
//     clock runs out if sooner: the time left is read after the searcher
//     is acquired, so a step that queued thinks only with what its clock
//     still holds. With stepMax a step holds a searcher about as long as a
//     level-8 search, and the pool's bounds on waiting (one long search)
//     hold with bots in it. What no deadline cuts short (knightwatch
//     growing a large set of boards) can add to it.
//   - Steps that choose at once (Cost 0: the random and attacker bots)
//     never wait for the pool; nor does any step on a server without one
//     (a nil Pool).
//   - Time spent queued is the bot's: its clock runs, as the reference's
//     runs while a player thinks. A step waits at most until half the time
//     its clock showed when the step asked for a searcher is gone; then it
//     acts at once outside the pool without thinking (Run given a context
//     already ended, as when a record is replayed: knightwatch senses
//     nothing and passes unless it can take the king on every board;
//     trout's engine answers at once), charged to its owner
//     (chargeOutside). So the queue alone never makes a bot lose on time.
//     Without a clock a step waits as long as it takes.
//
// A step that is withdrawn while it queues (its context ends: the game
// ends, the person resigns, every tab closes, the server stops) leaves the
// queue and runs nothing; one withdrawn while it thinks has its thinking
// cancelled and gives its searcher back as Run returns.

// stepMax is the longest a step thinks: as long as the longest engine
// level's search (level 8, 3 s).
const stepMax = 3 * time.Second

// NoClock is a step's clock reading without a clock: recon.Unlimited's
// value, so that a Reconnaissance Chess clock's reading is passed on as it
// is.
const NoClock = time.Duration(math.MaxInt64)

// Step is one step of CPU work of an owner that is not a search, run by
// RunStep: a step of a Reconnaissance Chess bot's turn.
type Step struct {
	// Owner is whose work it is: the person playing the bot (for a game
	// of the HTTP API, the user it plays against).
	Owner string
	// Cost is what the step says it may think with Left on its clock (the
	// bot's ThinkTime; DefaultCost when it does not say); 0: it chooses at
	// once and never waits for the pool.
	Cost time.Duration
	// Left is the time on the step's clock as it asks (NoClock without a
	// clock); Clock reads it again, once the step holds a searcher.
	Left  time.Duration
	Clock func() time.Duration
	// Run makes the step's calls, given the context its thinking ends
	// with and the time on its clock.
	Run func(think context.Context, left time.Duration)
	// Clocked marks the step of a bot playing as a competitor does,
	// spending its clock: it thinks as long as its clock allows on one of
	// the pool's bot cores, not a searcher (botcores.go).
	Clocked bool
}

// RunStep runs step s as the notes above describe. It reports false, Run
// not called, when ctx ended first. On a nil Pool (a server without an
// engine) every step runs at once.
func (p *Pool) RunStep(ctx context.Context, s Step) bool {
	if ctx.Err() != nil {
		return false
	}
	if p == nil || s.Cost == 0 {
		think, stop := thinkContext(ctx, s.Left)
		defer stop()
		s.Run(think, s.Left)
		return true
	}
	if s.Clocked && p.botCores > 0 {
		return p.runClocked(ctx, s)
	}
	wait, stopWait := context.WithCancel(ctx)
	if s.Left != NoClock {
		wait, stopWait = context.WithTimeout(ctx, s.Left/2)
	}
	defer stopWait()
	ran := p.run(wait, s.Owner, min(s.Cost, stepMax), func() {
		left := s.Clock()
		think, stop := context.WithTimeout(ctx, min(left, stepMax))
		defer stop()
		s.Run(think, left)
	})
	if ran || ctx.Err() != nil {
		return ran
	}
	// Half its time went by in the queue: act now, without thinking.
	ended, stop := context.WithCancel(ctx)
	stop()
	start := time.Now()
	s.Run(ended, s.Clock())
	p.chargeOutside(s.Owner, time.Since(start))
	return true
}

// thinkContext bounds a step's thinking by the time it has left.
func thinkContext(ctx context.Context, left time.Duration) (context.Context, context.CancelFunc) {
	if left == NoClock {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, left)
}

// run waits for a regular searcher as a live request of owner with budget
// cost, fairly between owners as the pool's doc describes, and runs f
// while holding it (the searcher itself unused), charging owner the time
// f took. It never uses the quick lane: f's time is its own to keep, not
// the pool's to bound, and the quick lane's bounds rest on its requests
// ending within poolQuickMax. It reports false, f not run and nothing
// charged, when ctx ended first.
func (p *Pool) run(ctx context.Context, owner string, cost time.Duration, f func()) bool {
	e := p.hold(ctx, owner, cost, false)
	if e == nil {
		return false
	}
	start := time.Now()
	defer func() { p.release(owner, cost, e, time.Since(start)) }()
	f()
	return true
}

// chargeOutside charges owner for used of work done without a searcher
// (a step that could not wait for one), as if on a regular searcher, so
// that its owner's later requests wait their turn for it.
func (p *Pool) chargeOutside(owner string, used time.Duration) {
	p.mu.Lock()
	defer p.changed()
	defer p.mu.Unlock()
	now := time.Now()
	o := p.owners[owner]
	if o == nil {
		o = &poolOwner{key: owner}
		p.owners[owner] = o
	}
	o.regular.charge(now, 0, used)
	p.forgetLocked(o, now)
}
