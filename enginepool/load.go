package enginepool

import "time"

// Load is what the pool is doing at one moment: for monitoring, and for
// tests that wait until a request queues or a searcher frees.
type Load struct {
	// Queued and Background count the live and background requests
	// waiting for a searcher.
	Queued, Background int
	// IdleRegular and IdleQuick count the free searchers of each lane.
	IdleRegular, IdleQuick int
	// BotThinking counts the bot cores in use (clocked steps, and a bot's
	// thinking on its opponent's turn); BotWaiting the clocked steps
	// waiting for one.
	BotThinking, BotWaiting int
}

// Load returns what the pool is doing now.
func (p *Pool) Load() Load {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := Load{Background: len(p.background), IdleRegular: len(p.idle), IdleQuick: len(p.quickIdle),
		BotThinking: p.botRunning, BotWaiting: len(p.botQueue)}
	for _, o := range p.owners {
		l.Queued += len(o.queue)
	}
	return l
}

// OwnerLoad is one owner's part in the pool at one moment.
type OwnerLoad struct {
	// Queued counts the owner's requests waiting, Running the searchers
	// (or steps) it holds.
	Queued, Running int
	// Usage is the owner's recent use of both lanes, as the quick lane's
	// key counts it: past use decayed, plus the budgets of what runs.
	Usage time.Duration
}

// Owner returns owner's part in the pool now; zero for an owner the pool
// does not know or has forgotten (nothing queued or running, past use
// all but forgiven).
func (p *Pool) Owner(owner string) OwnerLoad {
	p.mu.Lock()
	defer p.mu.Unlock()
	o := p.owners[owner]
	if o == nil {
		return OwnerLoad{}
	}
	return OwnerLoad{Queued: len(o.queue), Running: o.running, Usage: time.Duration(o.usage(time.Now()) * float64(time.Second))}
}
