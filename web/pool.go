package web

import (
	"context"
	"math"
	"sync"
	"time"

	"knightwatch/engine"
	"knightwatch/game"
)

// SearchRequest is what the web game asks of an engine for one move.
type SearchRequest struct {
	Level int
	// MoveTime caps the search (the level's time per move, or less for a
	// draw evaluation). Zero means the level's own time.
	MoveTime time.Duration
	// Clock fields are zero for an untimed game; when set, the engine
	// budgets its time from them, never beyond MoveTime.
	WTime, BTime, WInc, BInc time.Duration
	// Evaluate asks for an honest evaluation rather than a move to play
	// (a draw offer, a review): no opening book, whose moves carry no
	// score.
	Evaluate bool
	// Experience is what earlier games say about the position's moves
	// (engine.Limits.Experience), read before the request; nil without.
	Experience []engine.MoveRecord
	// Nodes, when set, stops the search after about that many nodes (a
	// review's fixed budget); MoveTime still caps it.
	Nodes uint64
}

// SearchResult is an engine's answer: the move and its score from the
// point of view of the side to move.
type SearchResult struct {
	Move game.Move
	CP   int // centipawns
	Mate int // mate in N (negative: the side to move gets mated); 0 when none seen
	// Depth is how deep the search went; 0 for a book move, whose score
	// means nothing.
	Depth int
	// Experience says what the request's Experience changed about Move
	// (engine.Result.Experience); nil when nothing.
	Experience *engine.ExperienceUse
}

// Searcher is the part of an engine the web game uses. The real engine is
// adapted to it in engine.go; tests substitute quick deterministic ones.
type Searcher interface {
	// Search returns a move for the side to move in pos (a legal one
	// whenever one exists, even when ctx is cancelled early).
	Search(ctx context.Context, pos *game.Position, history []uint64, req SearchRequest) SearchResult
	// NewGame forgets what the searcher learnt in another game.
	NewGame()
}

// LevelInfo describes a difficulty level for the new-game form and the
// state message.
type LevelInfo struct {
	Number      int
	Name        string
	Description string
	MoveTime    time.Duration
	ApproxElo   int
}

// pool hands out a fixed set of searchers, so that no more searches run at
// once than there are searchers (one per core): a busy server queues
// engine replies instead of slowing every one of them down.
//
// The queue is fair between owners (the players whose games ask for
// searches), not first come first served, so that one player with many
// games, or many requests, cannot starve another (issue 35):
//
//   - Requests queue per owner; within one owner they are served in the
//     order they came (FIFO).
//   - An owner's usage is the engine time its finished searches took,
//     decaying with a half-life of poolHalfLife (a sliding window of
//     recent use), plus the budget of each of its searches still running.
//   - When a searcher frees, it takes the head request of the owner with
//     the smallest usage + that request's own budget (MoveTime, or
//     poolDefaultCost without one); ties go to the request that came
//     first. Adding the budget favours short searches: a level-1 reply
//     (a fraction of a second) goes ahead of a level-8 one (seconds) from
//     an owner who has used about as much.
//
// Bounds, when every searcher is busy: a request whose owner has used
// less, budget included, than every other owner with queued requests
// gets the next searcher to free, so it waits at most the shortest
// remaining running search, that is at most one long search (the
// longest budget), however many requests others have queued. No request
// starves: while it waits its key cannot grow (its owner's later requests
// queue behind it and its usage only decays), while every searcher
// handed to another owner raises that owner's key by the request's
// budget, so after finitely many hand-outs it has the smallest key.
// A search that ends early is charged what it took, not its budget.
//
// A request whose context ends while it queues (game over, takeback,
// every tab closed, server shutdown) leaves the queue at once and is not
// charged.
//
// Background searches (searchIdle: the reviews of finished games,
// analysis.go) come below every live request: one takes a searcher only
// when a searcher is free and no live request queues, and a freed
// searcher goes to a live request whenever one queues. More: a live
// request that has to queue stops one running background search (which
// reports that it was preempted, and its position is searched again
// later), so it waits only for that search to stop, not to finish; each
// queued live request stops at most one. They are charged to no owner and
// count in no owner's usage; they queue among themselves first come first
// served (the review queue, not the pool, is fair between owners).
type pool struct {
	mu     sync.Mutex
	all    []*pooled // every searcher, for tests
	idle   []*pooled // free searchers; non-empty only while nobody queues
	owners map[string]*poolOwner
	seq    uint64 // numbers requests in the order they came
	// background are the queued background requests (searchIdle), first
	// come first served; one is handed a searcher only when no live
	// request queues.
	background []*poolWaiter
	// bgRunning are the background searches holding a searcher.
	bgRunning map[*bgSearch]struct{}
}

// bgSearch is one background search, which a live request may stop.
type bgSearch struct {
	cancel    context.CancelFunc
	preempted bool // stopped for a live request (under pool.mu)
}

const (
	// poolHalfLife is how fast an owner's past engine use is forgiven.
	poolHalfLife = 20 * time.Second
	// poolDefaultCost is the budget assumed for a request without a
	// MoveTime (the level's own time, unknown to the pool).
	poolDefaultCost = time.Second
)

type pooled struct {
	s        Searcher
	lastGame string // NewGame is called when the searcher moves to another game
}

// poolOwner is one owner's queue and recent use.
type poolOwner struct {
	key      string
	queue    []*poolWaiter // FIFO
	used     float64       // seconds of finished searches, decayed to usedAt
	usedAt   time.Time
	reserved time.Duration // budgets of the owner's running searches
	running  int
}

// poolWaiter is one queued request.
type poolWaiter struct {
	bg       *bgSearch // a background request's search; nil for a live one
	owner    *poolOwner
	cost     time.Duration
	seq      uint64
	assigned bool         // handed a searcher (under pool.mu)
	got      chan *pooled // receives the searcher; buffered
}

func newPool(n int, mk func() Searcher) *pool {
	if n < 1 {
		n = 1
	}
	p := &pool{owners: map[string]*poolOwner{}, bgRunning: map[*bgSearch]struct{}{}}
	for i := 0; i < n; i++ {
		e := &pooled{s: mk()}
		p.all = append(p.all, e)
		p.idle = append(p.idle, e)
	}
	return p
}

// requestCost is the engine time a request is expected to take.
func requestCost(req SearchRequest) time.Duration {
	if req.MoveTime > 0 {
		return req.MoveTime
	}
	return poolDefaultCost
}

// usage returns o's recent engine use at now, in seconds.
func (o *poolOwner) usage(now time.Time) float64 {
	u := o.used
	if u > 0 {
		if dt := now.Sub(o.usedAt); dt > 0 {
			u *= math.Exp2(-dt.Seconds() / poolHalfLife.Seconds())
		}
	}
	return u + o.reserved.Seconds()
}

// search waits for a searcher (or ctx), fairly between owners as the
// pool's doc describes, and runs one search for owner's game gameID.
// It reports ok=false when ctx ended before a searcher was free.
func (p *pool) search(ctx context.Context, owner, gameID string, pos *game.Position, history []uint64, req SearchRequest) (SearchResult, bool) {
	if ctx.Err() != nil {
		return SearchResult{}, false
	}
	cost := requestCost(req)
	e, w := p.acquire(owner, cost)
	if e == nil {
		select {
		case e = <-w.got:
		case <-ctx.Done():
			if p.abandon(w) {
				return SearchResult{}, false
			}
			// Handed a searcher as ctx ended: give it back uncharged.
			p.release(owner, cost, <-w.got, 0)
			return SearchResult{}, false
		}
	}
	if ctx.Err() != nil {
		p.release(owner, cost, e, 0)
		return SearchResult{}, false
	}
	start := time.Now()
	defer func() { p.release(owner, cost, e, time.Since(start)) }()
	if e.lastGame != gameID {
		e.s.NewGame()
		e.lastGame = gameID
	}
	return e.s.Search(ctx, pos, history, req), true
}

// acquire returns an idle searcher, charged to owner, or else queues a
// request and returns its waiter.
func (p *pool) acquire(owner string, cost time.Duration) (*pooled, *poolWaiter) {
	p.mu.Lock()
	defer p.mu.Unlock()
	o := p.owners[owner]
	if o == nil {
		o = &poolOwner{key: owner, usedAt: time.Now()}
		p.owners[owner] = o
	}
	if n := len(p.idle); n > 0 {
		e := p.idle[n-1]
		p.idle = p.idle[:n-1]
		o.reserved += cost
		o.running++
		return e, nil
	}
	p.seq++
	w := &poolWaiter{owner: o, cost: cost, seq: p.seq, got: make(chan *pooled, 1)}
	o.queue = append(o.queue, w)
	p.preemptLocked()
	return nil, w
}

// preemptLocked stops one running background search not already stopped,
// for a live request that has just queued.
func (p *pool) preemptLocked() {
	for b := range p.bgRunning {
		if !b.preempted {
			b.preempted = true
			b.cancel()
			return
		}
	}
}

// abandon takes w out of its queue, unless it was already handed a
// searcher (then it reports false and the searcher is in w.got).
func (p *pool) abandon(w *poolWaiter) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if w.assigned {
		return false
	}
	o := w.owner
	for i, x := range o.queue {
		if x == w {
			o.queue = append(o.queue[:i:i], o.queue[i+1:]...)
			break
		}
	}
	p.forgetLocked(o, time.Now())
	return true
}

// release charges owner for a search that took used (its budget was
// cost) and hands e to the next request, or leaves it idle.
func (p *pool) release(owner string, cost time.Duration, e *pooled, used time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	o := p.owners[owner]
	o.used = o.usage(now) - o.reserved.Seconds() + used.Seconds()
	o.usedAt = now
	o.reserved -= cost
	o.running--
	p.forgetLocked(o, now)
	p.handOutLocked(e, now)
}

// handOutLocked gives the free searcher e to the live request that comes
// next, else to the first background request, else leaves it idle.
func (p *pool) handOutLocked(e *pooled, now time.Time) {
	var best *poolWaiter
	var bestKey float64
	for _, x := range p.owners {
		if len(x.queue) == 0 {
			continue
		}
		w := x.queue[0]
		k := x.usage(now) + w.cost.Seconds()
		if best == nil || k < bestKey || (k == bestKey && w.seq < best.seq) {
			best, bestKey = w, k
		}
	}
	if best == nil {
		if len(p.background) > 0 {
			w := p.background[0]
			p.background = p.background[1:]
			w.assigned = true
			p.bgRunning[w.bg] = struct{}{}
			w.got <- e
			return
		}
		p.idle = append(p.idle, e)
		return
	}
	bo := best.owner
	bo.queue = bo.queue[1:]
	bo.reserved += best.cost
	bo.running++
	best.assigned = true
	best.got <- e
}

// forgetLocked drops o once it has nothing queued or running and its
// past use is all but forgiven, so the map holds only active owners.
func (p *pool) forgetLocked(o *poolOwner, now time.Time) {
	if len(o.queue) == 0 && o.running == 0 && o.usage(now) < 0.001 {
		delete(p.owners, o.key)
	}
}

// waiting returns how many requests queue (for tests).
func (p *pool) waiting() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, o := range p.owners {
		n += len(o.queue)
	}
	return n
}

// searchIdle runs one background search for gameID (a review) once a
// searcher is free and no live request queues, as the pool's doc says; it
// is charged to nobody. It reports ok=false when ctx ended first or a
// live request stopped it (then ctx.Err() is nil): its result is then
// nothing to go by.
func (p *pool) searchIdle(ctx context.Context, gameID string, pos *game.Position, history []uint64, req SearchRequest) (SearchResult, bool) {
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

// acquireIdle returns an idle searcher (there is one only while nothing
// queues) for background search b, or else queues b and returns its
// waiter.
func (p *pool) acquireIdle(b *bgSearch) (*pooled, *poolWaiter) {
	p.mu.Lock()
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
func (p *pool) abandonIdle(w *poolWaiter) bool {
	p.mu.Lock()
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
func (p *pool) releaseIdle(e *pooled, b *bgSearch) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.bgRunning, b)
	p.handOutLocked(e, time.Now())
}

// waitingIdle returns how many background requests queue (for tests).
func (p *pool) waitingIdle() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.background)
}
