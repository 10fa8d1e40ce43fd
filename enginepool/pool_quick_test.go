package enginepool

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The quick lane's tests scale its threshold down with their searches:
// a short request here has a budget of at most testQuickMax.
const (
	testQuickMax = 40 * time.Millisecond
	// forever is a long search that runs until the test stops it.
	forever = time.Hour
)

// newLaneHarness is a pool of n regular searchers and one quick one, whose
// short requests are those of at most testQuickMax.
func newLaneHarness(t *testing.T, n int) *poolHarness {
	h := newQuickHarness(t, n, 1)
	h.p.quickMax = testQuickMax
	return h
}

// busyRegulars starts n searches that run until stop is called (tagged
// 1..n, owner "busy"), one on each of the n regular searchers, and waits
// until they have started; busy ends with them.
func (h *poolHarness) busyRegulars(n int) (busy context.Context, stop func()) {
	busy, stop = context.WithCancel(h.ctx)
	for i := range n {
		h.submit(busy, "busy", uint64(1+i), forever)
	}
	h.waitStarted(n)
	return busy, stop
}

// waitUsage waits until owner's usage of the pool (both lanes) reaches d.
func (h *poolHarness) waitUsage(owner string, d time.Duration) {
	h.t.Helper()
	var u float64
	h.sig.until(h.t, func() string { return fmt.Sprintf("%s has used %.3f s of the pool, want %v", owner, u, d) }, func() bool {
		h.p.mu.Lock()
		defer h.p.mu.Unlock()
		u = 0
		if o := h.p.owners[owner]; o != nil {
			u = o.usage(time.Now())
		}
		return u >= d.Seconds()
	})
}

// runWithin is run with the request given up after limit: a liveness
// guard, so that a test of a request that is never served fails instead
// of hanging. It reports whether the request was served.
func (h *poolHarness) runWithin(limit time.Duration, owner string, tag uint64, d time.Duration) bool {
	ctx, cancel := context.WithTimeout(h.ctx, limit)
	defer cancel()
	return h.run(ctx, owner, tag, d)
}

// TestPoolQuickShortServedAtOnce: while every regular searcher runs a long
// search and more long ones queue, a short request (another owner's, or
// the flooding owner's own, passing its queued long ones) takes the quick
// searcher at once: it starts before any queued request and before any
// long search ends. The long ones still queue after it.
func TestPoolQuickShortServedAtOnce(t *testing.T) {
	cases := []struct {
		name    string
		regular int
		owner   string
		budget  time.Duration
	}{
		{"another owner, one regular searcher", 1, "player", testQuickMax / 4},
		{"another owner, two regular searchers", 2, "player", testQuickMax / 4},
		{"a budget at the threshold", 2, "player", testQuickMax},
		{"the flooding owner, past its queued long requests", 2, "flooder", testQuickMax / 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newLaneHarness(t, c.regular)
			flood, stop := context.WithCancel(h.ctx)
			defer stop()
			for i := range c.regular + 3 {
				h.submit(flood, "flooder", uint64(1+i), forever)
			}
			h.waitStarted(c.regular)
			h.waitQueued(3)
			if !h.runWithin(5*time.Second, c.owner, 100, c.budget) {
				t.Fatal("the short request was not served while every regular searcher ran a long search")
			}
			order := h.log.order()
			if i := indexOf(order, 100); i != c.regular {
				t.Errorf("the short request started %dth, want right after the %d running long searches (order %v)", i+1, c.regular, order)
			}
			h.mu.Lock()
			for i := range c.regular {
				if _, ended := h.ok[uint64(1+i)]; ended {
					t.Errorf("long search %d ended before the short request was served", 1+i)
				}
			}
			h.mu.Unlock()
			if n := h.p.waiting(); n != 3 {
				t.Errorf("%d long requests queue after the short one, want 3: the quick searcher took a long one", n)
			}
			stop()
		})
	}
}

// TestPoolQuickNeverLongNorBackground: with every regular searcher busy,
// a long live request (over the threshold, or without a budget) and a
// background one queue although the quick searcher is free; a short
// request then takes it at once, and when it frees it stays idle, the
// long or background request still queued. It runs once a regular
// searcher frees.
func TestPoolQuickNeverLongNorBackground(t *testing.T) {
	cases := []struct {
		name       string
		background bool
		budget     time.Duration
	}{
		{"just over the threshold", false, testQuickMax + time.Millisecond},
		{"a long request", false, 2 * testQuickMax},
		{"no budget (the level's own time)", false, 0},
		{"a background request", true, testQuickMax / 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newLaneHarness(t, 2)
			_, stopBusy := h.busyRegulars(2)
			defer stopBusy()
			var done chan struct{}
			queued := func() int { return h.p.waiting() }
			if c.background {
				done = h.submitIdle(h.ctx, 10, c.budget)
				queued = h.p.waitingIdle
				h.waitQueuedIdle(1)
			} else {
				done = h.submit(h.ctx, "other", 10, c.budget)
				h.waitQueued(1)
			}
			// The quick searcher is free: a short request starts at once.
			if !h.runWithin(5*time.Second, "player", 20, testQuickMax/4) {
				t.Fatal("a short request was not served: the quick searcher was taken")
			}
			if n := queued(); n != 1 {
				t.Fatalf("%d requests queue after the quick searcher freed, want 1: it served the %s", n, c.name)
			}
			if i := indexOf(h.log.order(), 10); i >= 0 {
				t.Errorf("the %s started on the quick searcher", c.name)
			}
			stopBusy()
			<-done
			h.mu.Lock()
			defer h.mu.Unlock()
			if !h.ok[10] {
				t.Errorf("the %s was not served once a regular searcher freed", c.name)
			}
		})
	}
}

// TestPoolQuickTakesFirstShortRequest: with every regular searcher busy,
// the quick searcher, when it frees, takes the first short request of the
// owner with the smallest key, passing over long requests (also its own
// owner's, queued before), and with only long ones queued stays idle.
func TestPoolQuickTakesFirstShortRequest(t *testing.T) {
	const short, long = testQuickMax / 4, 10 * testQuickMax
	type req struct {
		owner  string
		tag    uint64
		budget time.Duration
	}
	cases := []struct {
		name   string
		queue  []req
		want   uint64 // the request the freed quick searcher takes; 0: none
		queued int    // requests left queued then
	}{
		{"its owner's long request queued first", []req{{"a", 10, long}, {"a", 11, short}}, 11, 1},
		{"another owner's long request queued first", []req{{"b", 10, long}, {"a", 11, short}}, 11, 1},
		{"the same owner's short requests in order", []req{{"a", 10, short}, {"a", 11, short}}, 10, 1},
		{"between new owners the smaller budget", []req{{"a", 10, testQuickMax}, {"b", 11, short}}, 11, 1},
		{"only long requests: it stays idle", []req{{"a", 10, long}, {"b", 11, long}}, 0, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newLaneHarness(t, 2)
			busy, stopBusy := h.busyRegulars(2)
			defer stopBusy()
			open := h.hold(3)
			holderDone := h.submit(h.ctx, "holder", 3, short)
			h.waitStarted(3) // on the quick searcher, held
			var dones []chan struct{}
			for i, r := range c.queue {
				dones = append(dones, h.submit(busy, r.owner, r.tag, r.budget))
				h.waitQueued(i + 1)
			}
			open()
			<-holderDone
			if c.want != 0 {
				h.waitStarted(4)
			}
			if n := h.p.waiting(); n != c.queued {
				t.Errorf("%d requests queue after the quick searcher freed, want %d", n, c.queued)
			}
			order := h.log.order()
			got := uint64(0)
			if len(order) > 3 {
				got = order[3]
			}
			if got != c.want {
				t.Errorf("the quick searcher took request %d, want %d (order %v)", got, c.want, order)
			}
			if c.want == 0 && !h.runWithin(5*time.Second, "player", 20, short) {
				t.Error("the idle quick searcher did not serve a short request")
			}
			stopBusy()
			for _, d := range dones {
				<-d
			}
		})
	}
}

// TestPoolQuickFairBetweenOwners: with every regular searcher busy, one
// owner floods the quick lane with short requests; another owner's short
// requests, one after another, each take the quick searcher next (at
// most one of the flood's searches starts while each waits), whether the
// flood's budgets are as long as the player's or shorter.
func TestPoolQuickFairBetweenOwners(t *testing.T) {
	cases := []struct {
		name          string
		flood, player time.Duration
	}{
		{"the same budgets", testQuickMax / 2, testQuickMax / 2},
		{"the flood's budgets shorter", testQuickMax / 8, testQuickMax},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newLaneHarness(t, 2)
			_, stopBusy := h.busyRegulars(2)
			defer stopBusy()
			flood, stopFlood := context.WithCancel(h.ctx)
			defer stopFlood()
			for i := uint64(0); i < 200; i++ {
				h.submit(flood, "flooder", 1000+i, c.flood)
			}
			// Before the player comes, the flooder has used the quick
			// searcher for half a second, far more than the player's
			// three requests will use even on a stalling machine: by
			// usage the player's requests all come first.
			h.waitUsage("flooder", 500*time.Millisecond)
			for i := uint64(0); i < 3; i++ {
				tag := 100 + i
				asked := len(h.log.order())
				if !h.runWithin(5*time.Second, "player", tag, c.player) {
					t.Fatalf("the player's request %d was not served", i)
				}
				order := h.log.order()
				if n := indexOf(order, tag) - asked; n > 1 {
					t.Errorf("request %d: %d of the flood's searches started while it waited, want at most 1 (order %v)", i, n, order[asked:])
				}
			}
			if h.p.waiting() == 0 {
				t.Error("the flood ran dry: the test proved nothing")
			}
			stopFlood()
			stopBusy()
		})
	}
}

// TestPoolQuickLongNotStarved: a long request queued while owners keep
// the pool busy with short requests is served while they go on, not
// overtaken forever; also when its own owner's short requests pass it
// through the quick lane while two other owners flood (were the quick
// lane's use counted in the regular lane's key, those would keep its
// owner's key as high as the others' and hold the long request back for
// good).
func TestPoolQuickLongNotStarved(t *testing.T) {
	const short, long = testQuickMax / 8, 4 * testQuickMax
	const limit = 2000 // searches the floods may run before the long one starts
	cases := []struct {
		name    string
		floods  []string // owners streaming short requests, four at a time each
		longFor string   // the long request's owner
	}{
		{"another owner floods", []string{"y"}, "x"},
		{"two others flood, its own owner's short requests pass it", []string{"x", "y1", "y2"}, "x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newLaneHarness(t, 2)
			ctx, stop := context.WithCancel(h.ctx)
			defer stop()
			var next atomic.Uint64
			next.Store(1_000_000)
			var streams sync.WaitGroup
			for _, owner := range c.floods {
				for range 4 {
					streams.Add(1)
					go func() {
						defer streams.Done()
						for ctx.Err() == nil && len(h.log.order()) < limit {
							h.run(ctx, owner, next.Add(1), short)
						}
					}()
				}
			}
			h.waitStarted(20)
			if !h.run(h.ctx, c.longFor, 1, long) {
				t.Fatal("the long request was not served")
			}
			order := h.log.order()
			stop()
			streams.Wait()
			i := indexOf(order, 1)
			t.Logf("the long request started %dth", i+1)
			if i >= limit {
				t.Errorf("the long request started only after the floods stopped (%dth)", i+1)
			}
		})
	}
}
