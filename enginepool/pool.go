package enginepool

import (
	"context"
	"sync"
	"time"

	"knightwatch/game"
	"knightwatch/gaviota"
	"knightwatch/syzygy"
)

// Pool hands out a fixed set of searchers, so that no more searches run at
// once than there are searchers: one regular searcher per core, and a
// quick lane of poolQuickSearchers more (one by default) kept for short
// live requests. A busy server queues engine replies instead of slowing
// every one of them down.
//
// The queue is fair between owners (the players whose games ask for
// searches), not first come first served, so that one player with many
// games, or many requests, cannot starve another (issue 35):
//
//   - Requests queue per owner, in the order they came.
//   - An owner's usage is the engine time its finished searches took,
//     decaying with a half-life of poolHalfLife (a sliding window of
//     recent use), plus the budget of each of its searches still running.
//     It is kept per lane: on the regular searchers and on the quick ones.
//   - When a regular searcher frees, it takes the head request of the
//     owner with the smallest regular key, its usage of the regular
//     searchers plus that request's own budget (MoveTime, or
//     DefaultCost without one); ties go to the request that came
//     first. Adding the budget favours short searches: a level-1 reply (a
//     fraction of a second) goes ahead of a level-8 one (seconds) from an
//     owner who has used about as much.
//
// The quick lane. A request is short when its budget is at most
// poolQuickMax (400 ms: the replies of levels 1 to 5 and the draw
// evaluations; level 6 thinks 600 ms). Without the lane a short request
// that finds both searchers busy with level-8 searches waits for one of
// them to end, up to 3 s. With it:
//
//   - A short request takes a free regular searcher if there is one, else
//     a free quick searcher, else it queues; a long one takes a free
//     regular searcher or queues.
//   - A quick searcher that frees takes, among the owners with a short
//     request queued, the first short request of the owner with the
//     smallest quick key, its usage of both lanes plus that request's
//     budget; ties go to the request that came first. It may pass over long
//     requests of the same owner queued before it: an owner's requests
//     are independent of each other (a game asks for at most one reply
//     and one draw evaluation at a time, web's room.go and draw.go, whose
//     answers are taken in either order; reviews are not per owner, and
//     the steps of Reconnaissance Chess bots are never short). With no
//     short request queued it stays idle: it never serves a long request
//     nor a background one.
//   - Use of the quick lane does not count in the regular key: otherwise
//     an owner's short requests served past its own queued long request
//     would raise that long request's key while it waits, and could hold
//     it back for good while others keep the regular searchers busy.
//
// Bounds, when every regular searcher is busy:
//
//   - A short request starts at once while a quick searcher is free,
//     whatever the regular searchers are doing: a quick searcher is busy
//     only with another short request (a flood of level-8 searches never
//     touches it). If none is free, it gets the next quick searcher to
//     free when it is its owner's first short request and its owner's
//     quick key is the smallest among owners with short requests queued,
//     so it waits at most the shortest remaining search on the quick
//     lane (under poolQuickMax plus the engine's overshoot of a few
//     milliseconds; a level-1 search takes a few milliseconds of CPU),
//     or less if a regular searcher frees first and takes it. Owners who
//     have used less than it may go first, each holding a quick searcher
//     for at most that long.
//   - A request at the head of its owner's queue, whose owner's regular
//     key is the smallest among owners with requests queued, gets the
//     next regular searcher to free, so it waits at most the shortest
//     remaining regular search, that is at most one long search (the
//     longest budget), however many requests others have queued.
//   - No request waits for good unless the server is overloaded by many
//     owners at once. While a request waits at the head of its owner's
//     queue (those before it are served in turn, or leave by the quick
//     lane) its regular key cannot grow (the owner's later requests queue
//     behind it in the regular lane, the quick lane is not counted there,
//     its usage only decays), and every regular searcher is held by owners
//     whose regular usage, reservations included, stays below its key K
//     (its owner's usage plus its budget b, decaying to b). Usage decays
//     by ln 2 / poolHalfLife a second, so an owner whose usage stays below
//     K holds on average at most K·ln 2 / poolHalfLife of a searcher. The
//     request therefore waits for good only if at least
//     n·poolHalfLife / (b·ln 2) other owners keep requests queued all that
//     time (n regular searchers): 20 for a level-8 request (3 s) on 2
//     searchers, 58 for level 7 (1 s). Short requests have the quick lane
//     besides.
//
// A search that ends early is charged what it took, not its budget.
//
// Reconnaissance Chess bots think in the pool too (step.go): each step of
// a bot's turn is a live request of its owner (the person playing it; for
// a game of the HTTP API, the user it plays against) that holds a regular
// searcher without searching (RunStep), its budget what the bot expects
// to think, at most stepMax (3 s, a level-8 search), which
// also cuts its thinking off. It is never short: a step's length is the
// bot's to keep, not the pool's to bound. With them, "one long search" in
// the bounds below includes a bot's step. Bots that choose at once never
// wait for the pool.
// The clocked steps of bots spending their clock (API games) hold no
// searcher at all: they think on the bot cores (botcores.go).
//
// The cost of the lane: one more search than cores may run at once, so
// the CPU is oversubscribed by at most poolQuickSearchers short searches
// (each under poolQuickMax). The long searches beside them are bounded by
// their time, not their depth, so they take no longer; they reach a little
// less deep (docs/robustness.md measures how much). Each quick searcher
// is one more engine, with its hash table (engine.go).
//
// A request whose context ends while it queues (game over, takeback,
// every tab closed, server shutdown) leaves the queue at once and is not
// charged.
//
// Background searches (SearchIdle: the reviews of finished games,
// package review) come below every live request and use only the regular
// searchers: one takes a searcher only when a regular searcher is free and
// no live request queues, and a freed regular searcher goes to a live
// request whenever one queues. More: a live request that has to queue
// stops one running background search (which reports that it was
// preempted, and its position is searched again later), so it waits only
// for that search to stop, not to finish; each queued live request stops
// at most one. They are charged to no owner and count in no owner's usage;
// they queue among themselves first come first served (the review queue,
// not the pool, is fair between owners).
type Pool struct {
	mu  sync.Mutex
	all []*pooled // every searcher, the quick ones last, for tests
	// idle are the free regular searchers, non-empty only while nobody
	// queues; quickIdle the free quick searchers, non-empty only while no
	// short request queues.
	idle, quickIdle []*pooled
	owners          map[string]*poolOwner
	seq             uint64 // numbers requests in the order they came
	// background are the queued background requests (SearchIdle), first
	// come first served; one is handed a searcher only when no live
	// request queues.
	background []*poolWaiter
	// bgRunning are the background searches holding a searcher.
	bgRunning map[*bgSearch]struct{}
	// quickMax is the longest budget of a short request (poolQuickMax;
	// tests scale it down with their searches).
	quickMax time.Duration
	// tb are Config.SyzygyPath's tables, which every engine searcher
	// probes; nil without (config.go).
	tb *syzygy.Tablebase
	// gtb are Config.GaviotaPath's tables, likewise.
	gtb *gaviota.Tablebase
	// hooks are Config.Hooks.
	hooks Hooks
	// botCores is how many clocked bot steps may think at once
	// (Config.BotCores, botcores.go); botRunning how many hold a bot core
	// now, botQueue the clocked steps waiting for one, in the order they
	// came, each to be sent on its channel.
	botCores   int
	botRunning int
	botQueue   []chan struct{}
	// botDrops are the holders of bot cores whose work may be dropped
	// (TryBotCore), each asked to at most once, as a clocked step queues.
	botDrops []*botDrop
}

// changed runs Hooks.Changed: deferred before the deferred unlock of a
// method that changes the pool, so that it runs after it.
func (p *Pool) changed() {
	if p.hooks.Changed != nil {
		p.hooks.Changed()
	}
}

const (
	// poolHalfLife is how fast an owner's past engine use is forgiven.
	poolHalfLife = 20 * time.Second
	// DefaultCost is the budget assumed for a request without a
	// MoveTime (the level's own time, unknown to the pool), and for a
	// step whose bot does not say how long it thinks.
	DefaultCost = time.Second
	// poolQuickMax is the longest budget of a short request, one the
	// quick lane serves: levels 1 to 5 (150 to 400 ms) and the draw
	// evaluations (web's drawEvalTime, 150 ms). It also bounds how long a
	// quick searcher stays busy, so how long a short request can wait
	// there.
	poolQuickMax = 400 * time.Millisecond
	// poolQuickSearchers is the quick lane's size unless
	// Config.QuickSearchers says otherwise: one, so that the CPU is
	// oversubscribed by at most one short search.
	poolQuickSearchers = 1
)

type pooled struct {
	s        Searcher
	lastGame string // NewGame is called when the searcher moves to another game
	quick    bool   // in the quick lane: serves short live requests only
}

// poolOwner is one owner's queue and recent use.
type poolOwner struct {
	key   string
	queue []*poolWaiter // in the order they came
	// shorts counts the short requests in queue, so that a quick searcher
	// skips owners with none.
	shorts int
	// regular and quick are the owner's use of each lane.
	regular, quick laneUse
	running        int
}

// poolWaiter is one queued request.
type poolWaiter struct {
	bg       *bgSearch // a background request's search; nil for a live one
	owner    *poolOwner
	cost     time.Duration
	seq      uint64
	short    bool         // a live request the quick lane may serve
	assigned bool         // handed a searcher (under pool.mu)
	got      chan *pooled // receives the searcher; buffered
}

// newPool makes a pool of n regular searchers (at least one) and quick
// quick ones (none when quick < 1).
func newPool(n, quick int, mk func() Searcher) *Pool {
	n = max(n, 1)
	p := &Pool{owners: map[string]*poolOwner{}, bgRunning: map[*bgSearch]struct{}{}, quickMax: poolQuickMax}
	for i := 0; i < n+max(quick, 0); i++ {
		e := &pooled{s: mk(), quick: i >= n}
		p.all = append(p.all, e)
		if e.quick {
			p.quickIdle = append(p.quickIdle, e)
		} else {
			p.idle = append(p.idle, e)
		}
	}
	return p
}

// requestCost is the engine time a request is expected to take.
func requestCost(req SearchRequest) time.Duration {
	if req.MoveTime > 0 {
		return req.MoveTime
	}
	return DefaultCost
}

// Search waits for a searcher (or ctx), fairly between owners as the
// pool's doc describes, and runs one search for owner's game gameID: a
// live request (an engine reply, a draw evaluation). It reports ok=false
// when ctx ended before a searcher was free.
func (p *Pool) Search(ctx context.Context, owner, gameID string, pos *game.Position, history []uint64, req SearchRequest) (SearchResult, bool) {
	cost := requestCost(req)
	e := p.hold(ctx, owner, cost, p.isShort(cost))
	if e == nil {
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

// hold waits for a searcher for owner's live request of budget cost
// (short: the quick lane may serve it), fairly between owners, and
// returns it, reserved to owner; the caller releases it. It returns nil,
// having charged nothing, when ctx ended first.
func (p *Pool) hold(ctx context.Context, owner string, cost time.Duration, short bool) *pooled {
	if ctx.Err() != nil {
		return nil
	}
	e, w := p.acquire(owner, cost, short)
	if e == nil {
		select {
		case e = <-w.got:
		case <-ctx.Done():
			if p.abandon(w) {
				return nil
			}
			// Handed a searcher as ctx ended: give it back uncharged.
			p.release(owner, cost, <-w.got, 0)
			return nil
		}
	}
	if ctx.Err() != nil {
		p.release(owner, cost, e, 0)
		return nil
	}
	return e
}

// acquire returns a free searcher, charged to owner: a regular one, else
// a quick one for a short request; or else queues a request and returns
// its waiter.
func (p *Pool) acquire(owner string, cost time.Duration, short bool) (*pooled, *poolWaiter) {
	p.mu.Lock()
	defer p.changed()
	defer p.mu.Unlock()
	o := p.owners[owner]
	if o == nil {
		o = &poolOwner{key: owner}
		p.owners[owner] = o
	}
	var e *pooled
	if n := len(p.idle); n > 0 {
		e, p.idle = p.idle[n-1], p.idle[:n-1]
	} else if n := len(p.quickIdle); n > 0 && short {
		e, p.quickIdle = p.quickIdle[n-1], p.quickIdle[:n-1]
	}
	if e != nil {
		o.lane(e).reserved += cost
		o.running++
		return e, nil
	}
	p.seq++
	w := &poolWaiter{owner: o, cost: cost, seq: p.seq, short: short, got: make(chan *pooled, 1)}
	o.queue = append(o.queue, w)
	if w.short {
		o.shorts++
	}
	p.preemptLocked()
	return nil, w
}

// preemptLocked stops one running background search not already stopped,
// for a live request that has just queued.
func (p *Pool) preemptLocked() {
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
func (p *Pool) abandon(w *poolWaiter) bool {
	p.mu.Lock()
	defer p.changed()
	defer p.mu.Unlock()
	if w.assigned {
		return false
	}
	o := w.owner
	for i, x := range o.queue {
		if x == w {
			o.dequeue(i)
			break
		}
	}
	p.forgetLocked(o, time.Now())
	return true
}

// dequeue takes the request at i out of o's queue.
func (o *poolOwner) dequeue(i int) {
	if o.queue[i].short {
		o.shorts--
	}
	o.queue = append(o.queue[:i:i], o.queue[i+1:]...)
}

// release charges owner for a search that took used (its budget was
// cost) and hands e to the next request, or leaves it idle.
func (p *Pool) release(owner string, cost time.Duration, e *pooled, used time.Duration) {
	p.mu.Lock()
	defer p.changed()
	defer p.mu.Unlock()
	now := time.Now()
	o := p.owners[owner]
	o.lane(e).charge(now, cost, used)
	o.running--
	p.forgetLocked(o, now)
	p.handOutLocked(e, now)
}

// handOutLocked gives the free searcher e to the request that comes next
// in its lane, or leaves it idle: a regular searcher to the live request
// with the smallest regular key, else to the first background request; a
// quick one to the short request with the smallest quick key
// (handOutQuickLocked).
func (p *Pool) handOutLocked(e *pooled, now time.Time) {
	if e.quick {
		p.handOutQuickLocked(e, now)
		return
	}
	var best *poolWaiter
	var bestKey float64
	for _, x := range p.owners {
		if len(x.queue) == 0 {
			continue
		}
		w := x.queue[0]
		k := x.regular.at(now) + w.cost.Seconds()
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
	p.assignLocked(best, 0, e)
}

// assignLocked hands e to w, at index i of its owner's queue, and charges
// the request's budget to the owner's use of e's lane until it ends.
func (p *Pool) assignLocked(w *poolWaiter, i int, e *pooled) {
	o := w.owner
	o.dequeue(i)
	o.lane(e).reserved += w.cost
	o.running++
	w.assigned = true
	w.got <- e
}

// forgetLocked drops o once it has nothing queued or running and its
// past use is all but forgiven, so the map holds only active owners.
func (p *Pool) forgetLocked(o *poolOwner, now time.Time) {
	if len(o.queue) == 0 && o.running == 0 && o.usage(now) < 0.001 {
		delete(p.owners, o.key)
	}
}
