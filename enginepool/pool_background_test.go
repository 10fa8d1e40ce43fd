package enginepool

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// submitIdle is submit for a background (review) search.
func (h *poolHarness) submitIdle(ctx context.Context, tag uint64, d time.Duration) (done chan struct{}) {
	done = make(chan struct{})
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		defer close(done)
		_, ok := h.p.SearchIdle(ctx, "review", nil, []uint64{tag}, SearchRequest{Level: 8, MoveTime: d, Nodes: 1})
		h.mu.Lock()
		h.ok[tag] = ok
		h.mu.Unlock()
	}()
	return done
}

// waitStarted waits until n searches have started.
func (h *poolHarness) waitStarted(n int) {
	h.t.Helper()
	h.sig.until(h.t, func() string { return fmt.Sprintf("%d searches started, want %d", len(h.log.order()), n) },
		func() bool { return len(h.log.order()) >= n })
}

// waitQueuedIdle waits until n background requests queue.
func (h *poolHarness) waitQueuedIdle(n int) {
	h.t.Helper()
	h.sig.until(h.t, func() string { return fmt.Sprintf("%d background requests queue, want %d", h.p.waitingIdle(), n) },
		func() bool { return h.p.waitingIdle() == n })
}

// TestPoolBackgroundYieldsToLive: with long background searches on every
// searcher and more queued, a live request that arrives stops one of the
// running ones (which reports it was stopped) and starts at once, before
// any queued background search; the queued ones run after it, the others
// go on.
func TestPoolBackgroundYieldsToLive(t *testing.T) {
	const bg, live, long = 20 * time.Millisecond, 50 * time.Millisecond, 10 * time.Second
	for _, n := range []int{1, 2} {
		h := newPoolHarness(t, n)
		ctx, stop := context.WithCancel(context.Background())
		var done []chan struct{}
		for i := 0; i < n; i++ {
			done = append(done, h.submitIdle(ctx, uint64(1+i), long))
			h.waitStarted(i + 1)
		}
		for i := 0; i < 3; i++ {
			done = append(done, h.submitIdle(ctx, uint64(10+i), bg))
		}
		h.waitQueuedIdle(3)
		asked := time.Now()
		if !h.run(context.Background(), "player", 100, live) {
			t.Fatalf("%d searchers: the live request was not served", n)
		}
		started, _ := h.log.startOf(100)
		order := h.log.order()
		if i := indexOf(order, 100); i != n {
			t.Errorf("%d searchers: the live request started %dth, want right after the %d running background searches (order %v)", n, i+1, n, order)
		}
		// It did not wait for a long search to end: one was stopped.
		h.mu.Lock()
		stopped := 0
		for i := 0; i < n; i++ {
			if ok, ended := h.ok[uint64(1+i)]; ended {
				if ok {
					t.Errorf("%d searchers: background search %d ended as if complete", n, 1+i)
				}
				stopped++
			}
		}
		h.mu.Unlock()
		if stopped != 1 {
			t.Errorf("%d searchers: %d running background searches were stopped for the live request, want 1", n, stopped)
		}
		t.Logf("%d searchers: the live request waited %v", n, started.Sub(asked))
		for _, d := range done[n:] { // the queued background searches follow
			<-d
		}
		stop()
		for _, d := range done {
			<-d
		}
		h.mu.Lock()
		for _, tag := range []uint64{10, 11, 12} {
			if !h.ok[tag] {
				t.Errorf("%d searchers: request %d was not served", n, tag)
			}
		}
		h.mu.Unlock()
	}
}

// TestPoolBackgroundWaitsForLive: while live requests keep every searcher
// busy and more queue, a background request gets none; it runs once the
// live queue is empty, and live requests never queue behind it.
func TestPoolBackgroundWaitsForLive(t *testing.T) {
	const d = 30 * time.Millisecond
	h := newPoolHarness(t, 2)
	var live []chan struct{}
	for i := uint64(1); i <= 6; i++ {
		live = append(live, h.submit(context.Background(), "p"+string(rune('0'+i%3)), i, d))
	}
	h.waitQueued(4)
	bgDone := h.submitIdle(context.Background(), 50, d)
	h.waitQueuedIdle(1)
	for _, c := range live {
		<-c
	}
	<-bgDone
	order := h.log.order()
	if i := indexOf(order, 50); i != 6 {
		t.Errorf("the background search started %dth of %v, want after all 6 live ones", i+1, order)
	}
}

// TestPoolBackgroundIdleStartsAtOnce: with a searcher free and nothing
// queued, a background search starts at once; one whose context ends
// while it queues leaves the queue and is never searched.
func TestPoolBackgroundIdleStartsAtOnce(t *testing.T) {
	h := newPoolHarness(t, 1)
	<-h.submitIdle(context.Background(), 1, time.Millisecond)
	if h.p.waitingIdle() != 0 || len(h.p.idle) != 1 {
		t.Fatalf("after one search: %d queue, %d idle", h.p.waitingIdle(), len(h.p.idle))
	}
	busy, stopBusy := context.WithCancel(context.Background())
	h.submit(busy, "player", 2, 10*time.Second)
	h.waitStarted(2)
	gone, leave := context.WithCancel(context.Background())
	goneDone := h.submitIdle(gone, 3, time.Millisecond)
	h.waitQueuedIdle(1)
	leave()
	<-goneDone
	h.waitQueuedIdle(0)
	stopBusy()
	h.wg.Wait()
	if i := indexOf(h.log.order(), 3); i >= 0 {
		t.Error("a cancelled background request was searched")
	}
	if len(h.p.idle) != 1 {
		t.Errorf("%d of 1 searcher idle after all", len(h.p.idle))
	}
}
