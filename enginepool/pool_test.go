package enginepool

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"knightwatch/game"
)

// sleepSearcher thinks for exactly its budget (req.MoveTime), or until
// cancelled, so tests control how long each search holds a searcher. It
// logs which request started when: the request's tag is history[0]. A
// request whose tag has a gate (poolHarness.hold) first waits for it to
// open.
type sleepSearcher struct {
	log  *startLog
	gate func(tag uint64) chan struct{}
}

type startLog struct {
	mu     sync.Mutex
	starts []poolStart
	sig    *signal // poked as each search starts
}

type poolStart struct {
	tag uint64
	at  time.Time
}

func (s *sleepSearcher) Search(ctx context.Context, _ *game.Position, history []uint64, req SearchRequest) SearchResult {
	s.log.mu.Lock()
	s.log.starts = append(s.log.starts, poolStart{tag: history[0], at: time.Now()})
	s.log.mu.Unlock()
	if s.log.sig != nil {
		s.log.sig.poke()
	}
	if g := s.gate(history[0]); g != nil {
		select {
		case <-g:
		case <-ctx.Done():
		}
	}
	// time itself is what is tested: the pool shares out engine time, so each search takes its budget
	t := time.NewTimer(req.MoveTime)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
	return SearchResult{}
}

func (s *sleepSearcher) NewGame() {}

// order returns the tags in the order their searches started.
func (l *startLog) order() []uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]uint64, len(l.starts))
	for i, s := range l.starts {
		out[i] = s.tag
	}
	return out
}

// startOf returns when tag's search started, or false.
func (l *startLog) startOf(tag uint64) (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.starts {
		if s.tag == tag {
			return s.at, true
		}
	}
	return time.Time{}, false
}

// poolHarness runs requests against a pool of sleepSearchers.
type poolHarness struct {
	t   *testing.T
	p   *Pool
	log *startLog
	wg  sync.WaitGroup
	mu  sync.Mutex
	ok  map[uint64]bool // tag: the request's ok, once it returned
	// gates hold the searches of their tags until closed (hold).
	gates map[uint64]chan struct{}
	// ctx ends as the test ends, before the harness waits for its
	// requests: a test that fails with requests queued does not hang.
	ctx context.Context
	// sig is poked as the pool changes (Hooks.Changed) and as a search
	// starts: the harness waits on it.
	sig *signal
}

// newPoolHarness makes a pool of n searchers and no quick lane: the pool's
// regular lane on its own (pool_quick_test.go adds the quick lane).
func newPoolHarness(t *testing.T, n int) *poolHarness {
	return newQuickHarness(t, n, 0)
}

// newQuickHarness makes a pool of n regular and quick quick searchers.
func newQuickHarness(t *testing.T, n, quick int) *poolHarness {
	h := &poolHarness{t: t, log: &startLog{}, ok: map[uint64]bool{}, gates: map[uint64]chan struct{}{}}
	h.p = newPool(n, quick, func() Searcher { return &sleepSearcher{log: h.log, gate: h.gate} })
	h.sig = watch(h.p)
	h.log.sig = h.sig
	t.Cleanup(h.wg.Wait)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel) // runs before h.wg.Wait
	h.ctx = ctx
	return h
}

// hold makes tag's search, once started, wait until the returned function
// is called (then it thinks its budget as usual).
func (h *poolHarness) hold(tag uint64) (open func()) {
	g := make(chan struct{})
	h.mu.Lock()
	h.gates[tag] = g
	h.mu.Unlock()
	return func() { close(g) }
}

func (h *poolHarness) gate(tag uint64) chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.gates[tag]
}

// submit asks for a search of d for owner, tagged tag, in the background;
// done is closed when it returns.
func (h *poolHarness) submit(ctx context.Context, owner string, tag uint64, d time.Duration) (done chan struct{}) {
	done = make(chan struct{})
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		defer close(done)
		_, ok := h.p.Search(ctx, owner, owner, nil, []uint64{tag}, SearchRequest{Level: 1, MoveTime: d})
		h.mu.Lock()
		h.ok[tag] = ok
		h.mu.Unlock()
	}()
	return done
}

// run is submit, waiting for the search to end; it returns ok.
func (h *poolHarness) run(ctx context.Context, owner string, tag uint64, d time.Duration) bool {
	<-h.submit(ctx, owner, tag, d)
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ok[tag]
}

// waitQueued waits until n requests queue.
func (h *poolHarness) waitQueued(n int) {
	h.t.Helper()
	h.sig.until(h.t, func() string { return fmt.Sprintf("%d requests queue, want %d", h.p.waiting(), n) },
		func() bool { return h.p.waiting() == n })
}

// signal tells waiters that something may have changed (the pool, by
// Hooks.Changed; a test's log): each checks its condition again (until).
// Tests wait on it, never on the clock.
type signal struct {
	mu sync.Mutex
	ch chan struct{}
}

func newSignal() *signal { return &signal{ch: make(chan struct{})} }

// watch returns a signal poked by every change of p.
func watch(p *Pool) *signal {
	s := newSignal()
	p.hooks.Changed = s.poke
	return s
}

// poke wakes every waiter.
func (s *signal) poke() {
	s.mu.Lock()
	close(s.ch)
	s.ch = make(chan struct{})
	s.mu.Unlock()
}

// until waits until ok, checking it again after each poke; after
// waitLimit it fails t with what says: a guard against hanging, not a
// measure of time.
func (s *signal) until(t testing.TB, what func() string, ok func() bool) {
	t.Helper()
	limit := time.NewTimer(waitLimit)
	defer limit.Stop()
	for {
		s.mu.Lock()
		ch := s.ch
		s.mu.Unlock()
		if ok() {
			return
		}
		select {
		case <-ch:
		case <-limit.C:
			t.Fatalf("timed out: %s", what())
		}
	}
}

// waitLimit bounds every wait of a test that fails.
const waitLimit = 10 * time.Second

// waiting returns how many live requests queue.
func (p *Pool) waiting() int { return p.Load().Queued }

// waitingIdle returns how many background requests queue.
func (p *Pool) waitingIdle() int { return p.Load().Background }

func indexOf(order []uint64, tag uint64) int {
	for i, x := range order {
		if x == tag {
			return i
		}
	}
	return -1
}

// TestPoolFairFloodDoesNotDelayOthers: one owner floods the pool with 32
// long (level-8-like) searches; another owner's short (level-1-like)
// request takes the next searcher to free, ahead of the 30 the flood has
// queued: it starts right after the two that were running. First come
// first served, it would start 33rd.
func TestPoolFairFloodDoesNotDelayOthers(t *testing.T) {
	const long, short = 100 * time.Millisecond, 10 * time.Millisecond
	h := newPoolHarness(t, 2)
	flood, stopFlood := context.WithCancel(h.ctx)
	defer stopFlood()
	// The flood's first two searches hold both searchers until the
	// player's request has queued; then only the first goes on, so one
	// searcher frees at a time and the order does not depend on which
	// goroutine the scheduler wakes first.
	open1, open2 := h.hold(1), h.hold(2)
	for i := uint64(1); i <= 32; i++ {
		h.submit(flood, "flooder", i, long)
		if i == 2 {
			h.waitStarted(2) // 1 and 2 hold the searchers
		}
	}
	h.waitQueued(30)
	done := h.submit(h.ctx, "player", 100, short)
	h.waitQueued(31)
	open1()
	<-done
	order := h.log.order()
	open2()
	h.mu.Lock()
	served := h.ok[100]
	h.mu.Unlock()
	if !served {
		t.Fatal("the player's request was not served")
	}
	if i := indexOf(order, 100); i != 2 {
		t.Errorf("the player's request started %dth, want 3rd, right after the two running long searches (order %v)", i+1, order)
	}
	stopFlood()
}

// TestPoolFairTwoOwnersShare: two owners with many queued requests each
// share the searchers about evenly, whoever queued first.
func TestPoolFairTwoOwnersShare(t *testing.T) {
	const d = 20 * time.Millisecond
	h := newPoolHarness(t, 2)
	var dones []chan struct{}
	for i := uint64(1); i <= 20; i++ {
		dones = append(dones, h.submit(context.Background(), "a", i, d))
	}
	h.waitQueued(18)
	for i := uint64(101); i <= 120; i++ {
		dones = append(dones, h.submit(context.Background(), "b", i, d))
	}
	for _, done := range dones {
		<-done
	}
	order := h.log.order()
	if len(order) != 40 {
		t.Fatalf("%d searches ran, want 40", len(order))
	}
	for _, n := range []int{10, 20, 30} {
		a := 0
		for _, tag := range order[:n] {
			if tag < 100 {
				a++
			}
		}
		// Owner a had two running before b came; otherwise an even split.
		if a < n*3/10 || a > n*7/10+2 {
			t.Errorf("of the first %d searches owner a had %d, want about half (order %v)", n, a, order)
		}
	}
}

// TestPoolFairCancelLeavesQueue: requests whose context ends (the room
// went away) leave the queue at once, are never searched, hold no
// searcher, and are not charged to their owner: the owner's next request
// goes ahead of one from an owner who has used the engine.
func TestPoolFairCancelLeavesQueue(t *testing.T) {
	h := newPoolHarness(t, 2)
	// Owner x has used the engine a little.
	if !h.run(h.ctx, "x", 1, 30*time.Millisecond) {
		t.Fatal("x's first request was not served")
	}
	// Two searches that run until stopped, each on its own, hold both
	// searchers: only a cancellation can take a request out of the queue.
	busy2, stop2 := context.WithCancel(h.ctx)
	defer stop2()
	busy3, stop3 := context.WithCancel(h.ctx)
	defer stop3()
	h.submit(busy2, "busy", 2, forever)
	h.submit(busy3, "busy", 3, forever)
	h.waitStarted(3)
	gone, leave := context.WithCancel(h.ctx)
	var goneDone []chan struct{}
	for i := uint64(10); i < 20; i++ {
		goneDone = append(goneDone, h.submit(gone, "gone", i, forever))
	}
	h.waitQueued(10)
	leave()
	for _, done := range goneDone {
		<-done
	}
	if n := h.p.waiting(); n != 0 {
		t.Errorf("%d requests still queue after their context ended", n)
	}
	h.mu.Lock()
	for i := uint64(10); i < 20; i++ {
		if h.ok[i] {
			t.Errorf("cancelled request %d reports it was served", i)
		}
	}
	for _, i := range []uint64{2, 3} {
		if _, ended := h.ok[i]; ended {
			t.Errorf("busy search %d ended: a cancelled request took its searcher", i)
		}
	}
	h.mu.Unlock()
	// Had the ten cancelled requests been charged their budgets, gone's
	// key would be far above x's.
	xDone := h.submit(h.ctx, "x", 4, 10*time.Millisecond)
	h.waitQueued(1)
	goneAgain := h.submit(h.ctx, "gone", 5, 10*time.Millisecond)
	h.waitQueued(2)
	// One searcher frees: it serves the smaller key, then, as that
	// search ends, the other request. The order is the pool's choice
	// alone, whichever goroutine the scheduler wakes first.
	stop2()
	<-xDone
	<-goneAgain
	order := h.log.order()
	for _, tag := range order {
		if tag >= 10 && tag < 20 {
			t.Errorf("cancelled request %d was searched", tag)
		}
	}
	if i, j := indexOf(order, 5), indexOf(order, 4); i < 0 || j < 0 || i > j {
		t.Errorf("the owner whose requests were cancelled was charged for them: order %v", order)
	}
	stop3()
	h.wg.Wait()
	h.p.mu.Lock()
	idle := len(h.p.idle)
	h.p.mu.Unlock()
	if n := h.p.waiting(); n != 0 || idle != 2 {
		t.Errorf("after all: %d queue, %d of 2 searchers idle", n, idle)
	}
}

// TestPoolFairNoStarvation: with one owner flooding and four others
// playing games of short and long searches, every request is served, and
// the players' requests go ahead of the flood's queue instead of behind
// it.
//
// By the keys no search of the flood starts while a player's request
// waits: a search never takes less than its budget, so the flood's key is
// at least 50 ms per search it has started plus 50 ms, 150 ms from the
// start, and a player's at most its earlier searches (10 + 80 ms) plus
// 30 ms. A few more may start: one per searcher handed out before the
// request queued but logged after the request was asked for, and one per
// 50 ms that a loaded machine adds to a player's earlier searches. First
// come first served, a player's first request would wait for the 38
// queued.
func TestPoolFairNoStarvation(t *testing.T) {
	const floodFor = 50 * time.Millisecond
	const floodTags = 40
	const allowed = 4
	h := newPoolHarness(t, 2)
	var floodDone []chan struct{}
	for i := uint64(1); i <= floodTags; i++ {
		floodDone = append(floodDone, h.submit(h.ctx, "flooder", i, floodFor))
	}
	h.waitQueued(38)
	costs := []time.Duration{10 * time.Millisecond, 80 * time.Millisecond, 30 * time.Millisecond}
	var wg sync.WaitGroup
	var mu sync.Mutex
	worst := 0
	for o := 0; o < 4; o++ {
		wg.Add(1)
		go func(o int) {
			defer wg.Done()
			owner := string(rune('p' + o))
			for i, d := range costs {
				tag := uint64(1000 + 10*o + i)
				asked := len(h.log.order())
				if !h.run(h.ctx, owner, tag, d) {
					t.Errorf("%s's request %d was not served", owner, i)
					return
				}
				order := h.log.order()
				passed := 0
				for _, x := range order[asked:max(indexOf(order, tag), asked)] {
					if x <= floodTags {
						passed++
					}
				}
				mu.Lock()
				worst = max(worst, passed)
				mu.Unlock()
				if passed > allowed {
					t.Errorf("%s's request %d: %d of the flood's searches started while it waited, want at most %d (order %v)", owner, i, passed, allowed, order[asked:])
				}
			}
		}(o)
	}
	wg.Wait()
	for _, done := range floodDone {
		<-done
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := uint64(1); i <= floodTags; i++ {
		if !h.ok[i] {
			t.Errorf("flood request %d was not served", i)
		}
	}
	t.Logf("at most %d of the flood's searches started while a player's request waited", worst)
}

// TestPoolFairShortReplyAmongLongGames: while twelve owners each keep a
// long (level-8-like) search queued at all times, a player's short
// (level-1-like) replies each take the next searcher to free: by the keys
// none of the long searches starts while a reply waits (an owner's key is
// at least the long budget, 100 ms; the player's, its earlier replies plus
// 10 ms, about 50 ms at the fifth). At most allowed may: one per searcher
// handed out before the reply queued but logged after it was asked for,
// and one more for a loaded machine's slow timers. First come first
// served, a reply would wait behind the ten queued long searches.
func TestPoolFairShortReplyAmongLongGames(t *testing.T) {
	const long, short = 100 * time.Millisecond, 10 * time.Millisecond
	const allowed = 3
	h := newPoolHarness(t, 2)
	ctx, stop := context.WithCancel(h.ctx)
	defer stop()
	var tagMu sync.Mutex
	next := uint64(1)
	newTag := func() uint64 {
		tagMu.Lock()
		defer tagMu.Unlock()
		next++
		return next
	}
	for o := 0; o < 12; o++ {
		h.wg.Add(1)
		go func(owner string) {
			defer h.wg.Done()
			for ctx.Err() == nil {
				h.run(ctx, owner, newTag(), long)
			}
		}(string(rune('A' + o)))
	}
	h.waitQueued(10)
	worst := 0
	for i := 0; i < 5; i++ {
		// The person thinks while one more long search starts.
		started := len(h.log.order())
		h.sig.until(t, func() string { return "no long search started" }, func() bool { return len(h.log.order()) > started })
		tag := 1_000_000 + uint64(i)
		asked := len(h.log.order())
		if !h.run(h.ctx, "player", tag, short) {
			t.Fatal("the player's request was not served")
		}
		order := h.log.order()
		passed := max(indexOf(order, tag)-asked, 0)
		worst = max(worst, passed)
		if passed > allowed {
			t.Errorf("reply %d: %d long searches started while it waited, want at most %d (order %v)", i, passed, allowed, order[asked:])
		}
	}
	stop()
	t.Logf("at most %d long searches started while a reply waited", worst)
}
