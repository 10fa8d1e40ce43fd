package web

import (
	"context"
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
}

type poolStart struct {
	tag uint64
	at  time.Time
}

func (s *sleepSearcher) Search(ctx context.Context, _ *game.Position, history []uint64, req SearchRequest) SearchResult {
	s.log.mu.Lock()
	s.log.starts = append(s.log.starts, poolStart{tag: history[0], at: time.Now()})
	s.log.mu.Unlock()
	if g := s.gate(history[0]); g != nil {
		select {
		case <-g:
		case <-ctx.Done():
		}
	}
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
	p   *pool
	log *startLog
	wg  sync.WaitGroup
	mu  sync.Mutex
	ok  map[uint64]bool // tag: the request's ok, once it returned
	// gates hold the searches of their tags until closed (hold).
	gates map[uint64]chan struct{}
	// ctx ends as the test ends, before the harness waits for its
	// requests: a test that fails with requests queued does not hang.
	ctx context.Context
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
		_, ok := h.p.search(ctx, owner, owner, nil, []uint64{tag}, SearchRequest{Level: 1, MoveTime: d})
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
	deadline := time.Now().Add(5 * time.Second)
	for h.p.waiting() != n {
		if time.Now().After(deadline) {
			h.t.Fatalf("%d requests queue, want %d", h.p.waiting(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

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
// request takes the next searcher to free, so it waits at most about one
// long search instead of the whole flood.
func TestPoolFairFloodDoesNotDelayOthers(t *testing.T) {
	const long, short = 100 * time.Millisecond, 10 * time.Millisecond
	h := newPoolHarness(t, 2)
	flood, stopFlood := context.WithCancel(context.Background())
	defer stopFlood()
	for i := uint64(1); i <= 32; i++ {
		h.submit(flood, "flooder", i, long)
	}
	h.waitQueued(30)
	asked := time.Now()
	if !h.run(context.Background(), "player", 100, short) {
		t.Fatal("the player's request was not served")
	}
	started, _ := h.log.startOf(100)
	wait := started.Sub(asked)
	order := h.log.order()
	t.Logf("waited %v; started %dth of %d", wait, indexOf(order, 100)+1, len(order))
	if i := indexOf(order, 100); i > 4 {
		t.Errorf("the player's request started after %d of the flood's", i)
	}
	if wait > long+150*time.Millisecond {
		t.Errorf("the player's request waited %v, more than about one long search (%v)", wait, long)
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
	const busyFor = 10 * time.Second
	h := newPoolHarness(t, 2)
	// Owner x has used the engine a little.
	if !h.run(context.Background(), "x", 1, 30*time.Millisecond) {
		t.Fatal("x's first request was not served")
	}
	busy, stopBusy := context.WithCancel(context.Background())
	defer stopBusy()
	h.submit(busy, "busy", 2, busyFor)
	h.submit(busy, "busy", 3, busyFor)
	h.waitQueued(0)
	for len(h.log.order()) < 3 {
		time.Sleep(time.Millisecond)
	}
	gone, leave := context.WithCancel(context.Background())
	var goneDone []chan struct{}
	for i := uint64(10); i < 20; i++ {
		goneDone = append(goneDone, h.submit(gone, "gone", i, busyFor))
	}
	h.waitQueued(10)
	leave()
	t0 := time.Now()
	for _, done := range goneDone {
		<-done
	}
	if d := time.Since(t0); d > 500*time.Millisecond {
		t.Errorf("cancelled requests took %v to leave", d)
	}
	h.waitQueued(0)
	xDone := h.submit(context.Background(), "x", 4, 10*time.Millisecond)
	h.waitQueued(1)
	goneAgain := h.submit(context.Background(), "gone", 5, 10*time.Millisecond)
	h.waitQueued(2)
	stopBusy()
	<-xDone
	<-goneAgain
	order := h.log.order()
	for _, tag := range order {
		if tag >= 10 && tag < 20 {
			t.Errorf("cancelled request %d was searched", tag)
		}
	}
	if indexOf(order, 5) > indexOf(order, 4) {
		t.Errorf("the owner whose requests were cancelled was charged for them: order %v", order)
	}
	h.wg.Wait()
	if h.p.waiting() != 0 || len(h.p.idle) != 2 {
		t.Errorf("after all: %d queue, %d of 2 searchers idle", h.p.waiting(), len(h.p.idle))
	}
}

// TestPoolFairNoStarvation: with one owner flooding and four others
// playing games of short and long searches, every request is served, and
// the players each wait at most a few searches, not the flood.
func TestPoolFairNoStarvation(t *testing.T) {
	const floodFor = 50 * time.Millisecond
	h := newPoolHarness(t, 2)
	var floodDone []chan struct{}
	for i := uint64(1); i <= 40; i++ {
		floodDone = append(floodDone, h.submit(context.Background(), "flooder", i, floodFor))
	}
	h.waitQueued(38)
	costs := []time.Duration{10 * time.Millisecond, 80 * time.Millisecond, 30 * time.Millisecond}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var worst time.Duration
	for o := 0; o < 4; o++ {
		wg.Add(1)
		go func(o int) {
			defer wg.Done()
			owner := string(rune('p' + o))
			for i, d := range costs {
				tag := uint64(1000 + 10*o + i)
				asked := time.Now()
				if !h.run(context.Background(), owner, tag, d) {
					t.Errorf("%s's request %d was not served", owner, i)
					return
				}
				started, _ := h.log.startOf(tag)
				mu.Lock()
				if w := started.Sub(asked); w > worst {
					worst = w
				}
				mu.Unlock()
			}
		}(o)
	}
	wg.Wait()
	for _, done := range floodDone {
		<-done
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := uint64(1); i <= 40; i++ {
		if !h.ok[i] {
			t.Errorf("flood request %d was not served", i)
		}
	}
	t.Logf("players' worst wait %v", worst)
	// Four players, searches of at most 80 ms, two searchers: a few
	// searches' worth, far below the flood's second.
	if worst > 400*time.Millisecond {
		t.Errorf("a player waited %v behind the flood", worst)
	}
}

// TestPoolFairRoomRequests: the rooms queue their engine requests under
// the game's owner, and a request leaves the queue at once when its room
// no longer wants it (a takeback, the last tab closing).
func TestPoolFairRoomRequests(t *testing.T) {
	// No quick lane: the level-1 request must queue, not take it.
	e := newEnv(t, envOpts{searcher: &fakeSearcher{block: true}, quickSearchers: -1})
	waitQueued := func(n int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for e.srv.pool.waiting() != n {
			if time.Now().After(deadline) {
				t.Fatalf("%d requests queue, want %d", e.srv.pool.waiting(), n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	// Owner x's two games keep both searchers thinking.
	e.thinkingGames(e.browser(), 2, 8)
	cy := e.browser()
	id := e.newGame(cy, form("white", "1", "standard", "none"))
	w := e.mustDial(cy, id)
	w.state()
	w.send(`{"type":"move","move":"e2e4","ply":0}`)
	w.stateAt(1)
	waitQueued(1)
	owner := e.row(id).Owner
	e.srv.pool.mu.Lock()
	o := e.srv.pool.owners[owner]
	queued := o != nil && len(o.queue) == 1
	e.srv.pool.mu.Unlock()
	if !queued {
		t.Fatal("the request does not queue under its game's owner")
	}
	w.send(`{"type":"takeback","ply":1}`)
	w.stateAt(0)
	waitQueued(0)
	w.send(`{"type":"move","move":"d2d4","ply":0}`)
	w.stateAt(1)
	waitQueued(1)
	w.conn.Close()
	waitQueued(0)
}

// TestPoolFairShortReplyAmongLongGames: while twelve owners each keep a
// long (level-8-like) search queued at all times, a player's short
// (level-1-like) replies each wait at most about one long search.
func TestPoolFairShortReplyAmongLongGames(t *testing.T) {
	const long, short = 100 * time.Millisecond, 10 * time.Millisecond
	h := newPoolHarness(t, 2)
	ctx, stop := context.WithCancel(context.Background())
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
	var worst time.Duration
	for i := 0; i < 5; i++ {
		time.Sleep(20 * time.Millisecond) // the person thinks
		tag := 1_000_000 + uint64(i)
		asked := time.Now()
		if !h.run(context.Background(), "player", tag, short) {
			t.Fatal("the player's request was not served")
		}
		started, _ := h.log.startOf(tag)
		if w := started.Sub(asked); w > worst {
			worst = w
		}
	}
	stop()
	t.Logf("the player's worst wait %v", worst)
	if worst > long+150*time.Millisecond {
		t.Errorf("the player's reply waited %v, more than about one long search (%v)", worst, long)
	}
}
