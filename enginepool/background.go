package enginepool

import (
	"context"
	"time"

	"knightwatch/game"
)

// Background searches (the pool's doc): the reviews of finished games,
// below every live request, on the regular searchers only.

// bgSearch is one background search, which a live request may stop.
type bgSearch struct {
	cancel    context.CancelFunc
	preempted bool // stopped for a live request (under Pool.mu)
}

// SearchIdle runs one background search for gameID (a review's position)
// once a searcher is free and no live request queues, as the pool's doc
// says; it is charged to nobody. It reports ok=false when ctx ended first
// or a live request stopped it (then ctx.Err() is nil): its result is
// then nothing to go by.
func (p *Pool) SearchIdle(ctx context.Context, gameID string, pos *game.Position, history []uint64, req SearchRequest) (SearchResult, bool) {
	if ctx.Err() != nil {
		return SearchResult{}, false
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	b := &bgSearch{cancel: cancel}
	e, w := p.acquireIdle(b)
	if e == nil {
		select {
		case e = <-w.got:
		case <-ctx.Done():
			if p.abandonIdle(w) {
				return SearchResult{}, false
			}
			p.releaseIdle(<-w.got, b) // handed one as ctx ended
			return SearchResult{}, false
		}
	}
	defer p.releaseIdle(e, b)
	if sctx.Err() != nil {
		return SearchResult{}, false
	}
	if e.lastGame != gameID {
		e.s.NewGame()
		e.lastGame = gameID
	}
	res := e.s.Search(sctx, pos, history, req)
	p.mu.Lock()
	stopped := b.preempted
	p.mu.Unlock()
	if stopped || ctx.Err() != nil {
		return SearchResult{}, false
	}
	return res, true
}

// acquireIdle returns an idle regular searcher (there is one only while
// nothing queues; the quick ones are not for background searches) for
// background search b, or else queues b and returns its
// waiter.
func (p *Pool) acquireIdle(b *bgSearch) (*pooled, *poolWaiter) {
	p.mu.Lock()
	defer p.changed()
	defer p.mu.Unlock()
	if n := len(p.idle); n > 0 {
		e := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.bgRunning[b] = struct{}{}
		return e, nil
	}
	p.seq++
	w := &poolWaiter{bg: b, seq: p.seq, got: make(chan *pooled, 1)}
	p.background = append(p.background, w)
	return nil, w
}

// abandonIdle takes background request w out of the queue, unless it was
// already handed a searcher (then it reports false).
func (p *Pool) abandonIdle(w *poolWaiter) bool {
	p.mu.Lock()
	defer p.changed()
	defer p.mu.Unlock()
	if w.assigned {
		return false
	}
	for i, x := range p.background {
		if x == w {
			p.background = append(p.background[:i:i], p.background[i+1:]...)
			break
		}
	}
	return true
}

// releaseIdle hands back the searcher background search b held.
func (p *Pool) releaseIdle(e *pooled, b *bgSearch) {
	p.mu.Lock()
	defer p.changed()
	defer p.mu.Unlock()
	delete(p.bgRunning, b)
	p.handOutLocked(e, time.Now())
}
