package web

import (
	"context"
	"time"
)

// Work other than a search that the engine pool schedules: the steps of
// Reconnaissance Chess bots (bot_think.go), which think on the CPU as an
// engine does but do not use a Searcher.

// run waits for a regular searcher as a live request of owner with budget
// cost, fairly between owners as the pool's doc describes, and runs f
// while holding it (the searcher itself unused), charging owner the time
// f took. It never uses the quick lane: f's time is its own to keep, not
// the pool's to bound, and the quick lane's bounds rest on its requests
// ending within poolQuickMax. It reports false, f not run and nothing
// charged, when ctx ended first.
func (p *pool) run(ctx context.Context, owner string, cost time.Duration, f func()) bool {
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
// (a bot's step that could not wait for one, bot_think.go), as if on a
// regular searcher, so that its owner's later requests wait their turn
// for it.
func (p *pool) chargeOutside(owner string, used time.Duration) {
	p.mu.Lock()
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
