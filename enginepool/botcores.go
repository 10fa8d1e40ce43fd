package enginepool

import (
	"context"
	"runtime"
	"time"
)

// Clocked steps: a bot that plays as a competitor does, spending its
// clock (the built-in seat of a game of the HTTP API, against a remote
// bot on the competitions' 900 s + 5 s). Such a step thinks as long as the
// bot says from its clock (Step.Cost, the bot's own time management),
// not stepMax; a step that long cannot hold a regular searcher, whose
// bounds on waiting rest on its holders ending within a level-8 search.
// So clocked steps have a lane of their own, the bot cores:
//
//   - At most Config.BotCores clocked steps think at once, server-wide,
//     each on one goroutine (one core); a clocked step never holds a
//     searcher, regular or quick, so the live requests keep every
//     searcher and their bounds on waiting (Pool's doc) hold whatever
//     the bots do. The bot cores run beside the searchers: with every
//     lane busy the CPU is oversubscribed by BotCores threads, which
//     slows a searcher's thinking, not its reply (searches end on their
//     time); the default, half the cores, keeps that share small
//     (docs/recon.md measures live chess replies with the bots busy).
//   - A clocked step beyond the budget waits for a bot core, in the
//     order the steps came. Time spent waiting is the bot's, as in the
//     regular lane: its clock is read again once it holds a core, so it
//     thinks shorter; and it waits at most until half the time its
//     clock showed is gone, then acts at once without thinking.
//   - Its time is charged to its owner as work done outside the
//     searchers (chargeOutside), so that the owner's later live requests
//     wait their turn for it.
//
// With no bot cores (Config.BotCores negative) a clocked step is a
// regular step: it holds a searcher and thinks at most stepMax.

// DefaultBotCores is Config.BotCores's default on a machine of cpus
// cores: half of them, at least one.
func DefaultBotCores(cpus int) int { return max(1, cpus/2) }

// botCoresOf resolves Config.BotCores: 0 is the default, negative none.
func botCoresOf(n int) int {
	switch {
	case n == 0:
		return DefaultBotCores(runtime.NumCPU())
	case n < 0:
		return 0
	}
	return n
}

// BotCores returns how many clocked bot steps may think at once (0: none;
// clocked steps then think as regular ones).
func (p *Pool) BotCores() int {
	if p == nil {
		return 0
	}
	return p.botCores
}

// runClocked runs clocked step s on a bot core, as the notes above say.
func (p *Pool) runClocked(ctx context.Context, s Step) bool {
	wait, stopWait := context.WithCancel(ctx)
	if s.Left != NoClock {
		wait, stopWait = context.WithTimeout(ctx, s.Left/2)
	}
	defer stopWait()
	if p.holdBotCore(wait) {
		defer p.releaseBotCore()
		left := s.Clock()
		think, stop := thinkContext(ctx, left)
		defer stop()
		start := time.Now()
		s.Run(think, left)
		p.chargeOutside(s.Owner, time.Since(start))
		return true
	}
	if ctx.Err() != nil {
		return false
	}
	// Half its time went by waiting for a core: act now, without thinking.
	ended, stop := context.WithCancel(ctx)
	stop()
	start := time.Now()
	s.Run(ended, s.Clock())
	p.chargeOutside(s.Owner, time.Since(start))
	return true
}

// TryBotCore takes a bot core if one is free and no clocked step waits
// for one, for work of a bot that may be dropped (thinking on the
// opponent's turn): when a clocked step comes to wait for a core, drop is
// called (once, with no lock held) so that the work ends and gives its core
// back, and the step does not wait for it to finish. The caller calls
// release once done, dropped or not. ok is false, with nothing taken,
// when none is free.
func (p *Pool) TryBotCore(drop func()) (release func(), ok bool) {
	if p == nil || p.botCores == 0 {
		return nil, false
	}
	p.mu.Lock()
	if p.botRunning >= p.botCores || len(p.botQueue) > 0 {
		p.mu.Unlock()
		return nil, false
	}
	p.botRunning++
	d := &botDrop{drop: drop}
	p.botDrops = append(p.botDrops, d)
	p.mu.Unlock()
	p.changed()
	return func() {
		p.mu.Lock()
		for i, x := range p.botDrops {
			if x == d {
				p.botDrops = append(p.botDrops[:i:i], p.botDrops[i+1:]...)
				break
			}
		}
		p.mu.Unlock()
		p.releaseBotCore()
	}, true
}

// botDrop is work holding a bot core that may be dropped (TryBotCore).
type botDrop struct {
	drop    func()
	dropped bool // drop was called (under Pool.mu)
}

// dropOneLocked picks a droppable holder of a bot core not yet asked to
// drop its work, for a clocked step that has just queued, and returns its
// drop to call once the lock is released (nil: none).
func (p *Pool) dropOneLocked() func() {
	for _, d := range p.botDrops {
		if !d.dropped {
			d.dropped = true
			return d.drop
		}
	}
	return nil
}

// holdBotCore waits for a bot core (or ctx) in the order the steps came;
// it reports whether it holds one, which the caller releases.
func (p *Pool) holdBotCore(ctx context.Context) bool {
	if ctx.Err() != nil {
		return false
	}
	p.mu.Lock()
	if p.botRunning < p.botCores && len(p.botQueue) == 0 {
		p.botRunning++
		p.mu.Unlock()
		p.changed()
		return true
	}
	got := make(chan struct{}, 1)
	p.botQueue = append(p.botQueue, got)
	drop := p.dropOneLocked()
	p.mu.Unlock()
	p.changed()
	if drop != nil {
		drop()
	}
	select {
	case <-got:
		return true
	case <-ctx.Done():
	}
	p.mu.Lock()
	for i, c := range p.botQueue {
		if c == got {
			p.botQueue = append(p.botQueue[:i:i], p.botQueue[i+1:]...)
			p.mu.Unlock()
			p.changed()
			return false
		}
	}
	p.mu.Unlock()
	// Handed a core as ctx ended: give it back.
	<-got
	p.releaseBotCore()
	return false
}

// releaseBotCore hands a bot core to the first step waiting, or frees it.
func (p *Pool) releaseBotCore() {
	p.mu.Lock()
	if len(p.botQueue) > 0 {
		got := p.botQueue[0]
		p.botQueue = p.botQueue[1:]
		got <- struct{}{}
	} else {
		p.botRunning--
	}
	p.mu.Unlock()
	p.changed()
}
