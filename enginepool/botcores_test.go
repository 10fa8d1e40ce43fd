package enginepool

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// clockedRun is one clocked step run by startClocked: what its Run saw.
type clockedRun struct {
	done     chan bool // RunStep's report
	started  chan struct{}
	release  chan struct{} // closed to let Run return
	mu       sync.Mutex
	called   bool
	ended    bool          // the think context had ended as Run began
	deadline time.Duration // until the think context's deadline (0: none)
	idle     int           // free regular searchers as Run began
}

// startClocked runs a clocked step of owner with left on its clock (read
// the same every time) in the background; its Run waits for release.
func startClocked(p *Pool, ctx context.Context, owner string, cost, left time.Duration) *clockedRun {
	r := &clockedRun{done: make(chan bool, 1), started: make(chan struct{}), release: make(chan struct{})}
	clock := func() time.Duration { return left }
	go func() {
		r.done <- p.RunStep(ctx, Step{Owner: owner, Cost: cost, Left: left, Clock: clock, Clocked: true,
			Run: func(think context.Context, _ time.Duration) {
				r.mu.Lock()
				r.called, r.ended = true, think.Err() != nil
				if dl, ok := think.Deadline(); ok {
					r.deadline = time.Until(dl)
				}
				r.idle = p.Load().IdleRegular
				r.mu.Unlock()
				close(r.started)
				if !r.ended {
					<-r.release
				}
				// time itself is what is tested: a step is charged the time it took, long enough to outlast the pool's forgetting
				time.Sleep(5 * time.Millisecond)
			}})
	}()
	return r
}

// TestClockedStep: a clocked step (a bot spending its clock against a
// remote bot) thinks as long as its clock allows, far beyond a regular
// step's stepMax, on a bot core without holding any searcher; with no bot
// cores it is a regular step again (stepMax, a searcher held).
func TestClockedStep(t *testing.T) {
	cases := []struct {
		name        string
		botCores    int
		left        time.Duration
		minDeadline time.Duration // the think context's deadline at least this far
		maxDeadline time.Duration // and at most this far
		idle        int           // free regular searchers as it thinks
	}{
		{name: "a long clock on a bot core", botCores: 1, left: 900 * time.Second, minDeadline: 800 * time.Second, maxDeadline: 900 * time.Second, idle: 2},
		{name: "no bot cores: a regular step", botCores: 0, left: 900 * time.Second, maxDeadline: stepMax, idle: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPool(2, 1, func() Searcher { return &sleepSearcher{log: &startLog{}, gate: noGate} })
			p.botCores = c.botCores
			r := startClocked(p, context.Background(), "bot", 20*time.Second, c.left)
			<-r.started
			close(r.release)
			if !<-r.done {
				t.Fatal("RunStep reported the step did not run")
			}
			if r.ended || r.deadline < c.minDeadline || r.deadline > c.maxDeadline {
				t.Errorf("the step thought with its context ended %v, deadline in %v; want live, between %v and %v", r.ended, r.deadline, c.minDeadline, c.maxDeadline)
			}
			if r.idle != c.idle {
				t.Errorf("%d regular searchers free as the step thought, want %d", r.idle, c.idle)
			}
			if usageOf(p, "bot") <= 0 {
				t.Error("the owner was not charged for the step")
			}
			if l := p.Load(); l.BotThinking != 0 || l.BotWaiting != 0 {
				t.Errorf("after the step: %+v, want no bot core in use", l)
			}
		})
	}
}

// TestBotCoresBudget: with N bot cores, N+1 clocked steps at once: N
// think, one waits, and it thinks as soon as one of them ends; never more
// than N at once. A waiting step withdrawn leaves the queue without
// running; one whose wait outlasts half its clock acts without thinking.
func TestBotCoresBudget(t *testing.T) {
	for _, n := range []int{1, 2, 3} {
		t.Run(fmt.Sprintf("%d cores", n), func(t *testing.T) {
			p := newPool(2, 1, func() Searcher { return &sleepSearcher{log: &startLog{}, gate: noGate} })
			p.botCores = n
			sig := watch(p)
			var runs []*clockedRun
			for i := range n + 1 {
				runs = append(runs, startClocked(p, context.Background(), fmt.Sprintf("bot %d", i), 10*time.Second, 900*time.Second))
			}
			sig.until(t, func() string { return fmt.Sprintf("%+v, want %d thinking and 1 waiting", p.Load(), n) },
				func() bool { l := p.Load(); return l.BotThinking == n && l.BotWaiting == 1 })
			// The pool counts a core as thinking before its step's Run has
			// begun: wait for n Runs to begin, then the last must not have.
			began := make(chan *clockedRun, n+1)
			for _, r := range runs {
				go func() { <-r.started; began <- r }()
			}
			thinking := map[*clockedRun]bool{}
			for range n {
				thinking[<-began] = true
			}
			var waiting *clockedRun
			for _, r := range runs {
				if !thinking[r] {
					waiting = r
				}
			}
			select {
			case <-waiting.started:
				t.Fatalf("%d steps started, want %d", n+1, n)
			default:
			}
			for _, r := range runs {
				if r != waiting {
					close(r.release)
					break
				}
			}
			<-waiting.started
			if l := p.Load(); l.BotThinking != n || l.BotWaiting != 0 {
				t.Errorf("once one ended: %+v, want %d thinking, none waiting", l, n)
			}
			for _, r := range runs {
				select {
				case <-r.release:
				default:
					close(r.release)
				}
				<-r.done
			}
			if l := p.Load(); l.BotThinking != 0 {
				t.Errorf("at the end %d bot cores in use", l.BotThinking)
			}
		})
	}
	t.Run("withdrawn while waiting", func(t *testing.T) {
		p := newPool(1, 1, func() Searcher { return &sleepSearcher{log: &startLog{}, gate: noGate} })
		p.botCores = 1
		sig := watch(p)
		busy := startClocked(p, context.Background(), "a", time.Second, 900*time.Second)
		<-busy.started
		ctx, cancel := context.WithCancel(context.Background())
		r := startClocked(p, ctx, "b", time.Second, 900*time.Second)
		sig.until(t, func() string { return "the second step never waited" }, func() bool { return p.Load().BotWaiting == 1 })
		cancel()
		if <-r.done || r.called {
			t.Error("a step withdrawn while it waited ran")
		}
		if l := p.Load(); l.BotWaiting != 0 || l.BotThinking != 1 {
			t.Errorf("after the withdrawal: %+v, want one thinking, none waiting", l)
		}
		close(busy.release)
		<-busy.done
	})
	t.Run("a wait past half its clock", func(t *testing.T) {
		p := newPool(1, 1, func() Searcher { return &sleepSearcher{log: &startLog{}, gate: noGate} })
		p.botCores = 1
		busy := startClocked(p, context.Background(), "a", time.Second, 900*time.Second)
		<-busy.started
		r := startClocked(p, context.Background(), "b", time.Second, 40*time.Millisecond)
		if !<-r.done || !r.called || !r.ended {
			t.Errorf("a step out of time: ran %v, its context ended %v; want run without thinking", r.called, r.ended)
		}
		if usageOf(p, "b") <= 0 {
			t.Error("the step acting without thinking was not charged")
		}
		close(busy.release)
		<-busy.done
	})
}

// TestLiveRepliesWithBotsBusy: every bot core busy with a long clocked
// step and more steps waiting, a live reply of another player starts at
// once, on a regular searcher or the quick lane, short or long: the bots
// never hold a searcher.
func TestLiveRepliesWithBotsBusy(t *testing.T) {
	h := newQuickHarness(t, 2, 1)
	h.p.botCores = 2
	var runs []*clockedRun
	for i := range 4 {
		runs = append(runs, startClocked(h.p, h.ctx, fmt.Sprintf("bot %d", i), 30*time.Second, 900*time.Second))
	}
	h.sig.until(t, func() string { return fmt.Sprintf("%+v, want 2 thinking and 2 waiting", h.p.Load()) },
		func() bool { l := h.p.Load(); return l.BotThinking == 2 && l.BotWaiting == 2 })
	for i, d := range []time.Duration{time.Millisecond, 2 * time.Millisecond, 3 * time.Millisecond} {
		if !h.run(h.ctx, "person", uint64(i+1), d) {
			t.Fatalf("reply %d did not run", i+1)
		}
	}
	if n := len(h.log.order()); n != 3 {
		t.Errorf("%d replies ran, want 3", n)
	}
	if l := h.p.Load(); l.BotThinking != 2 || l.BotWaiting != 2 || l.Queued != 0 {
		t.Errorf("after the replies: %+v, want the bots as they were and nothing queued", l)
	}
	for _, r := range runs {
		close(r.release)
	}
	for _, r := range runs {
		<-r.done
	}
}

// TestTryBotCore: thinking that may be dropped takes a bot core only when
// one is free and no clocked step waits for one, and is dropped (once)
// when a clocked step comes to wait, which then thinks on its core.
func TestTryBotCore(t *testing.T) {
	p := newPool(1, 1, func() Searcher { return &sleepSearcher{log: &startLog{}, gate: noGate} })
	sig := watch(p)
	if _, ok := p.TryBotCore(func() {}); ok {
		t.Fatal("a pool without bot cores gave one")
	}
	p.botCores = 1
	drops := 0
	dropped := make(chan struct{}, 2)
	release, ok := p.TryBotCore(func() { drops++; dropped <- struct{}{} })
	if !ok {
		t.Fatal("a free bot core was refused")
	}
	if _, ok := p.TryBotCore(func() {}); ok {
		t.Error("a second core given beyond the budget of one")
	}
	r := startClocked(p, context.Background(), "bot", time.Second, 900*time.Second)
	<-dropped // the step queued and asked the pondering to stop
	sig.until(t, func() string { return "the step never waited" }, func() bool { return p.Load().BotWaiting == 1 })
	if _, ok := p.TryBotCore(func() {}); ok {
		t.Error("a core given while a clocked step waits")
	}
	release()
	<-r.started
	close(r.release)
	if !<-r.done || drops != 1 {
		t.Errorf("the step ran %v; the pondering was dropped %d times, want once", r.called, drops)
	}
	if l := p.Load(); l.BotThinking != 0 || l.BotWaiting != 0 || len(p.botDrops) != 0 {
		t.Errorf("at the end %+v, %d droppable holders", l, len(p.botDrops))
	}
	var nilPool *Pool
	if _, ok := nilPool.TryBotCore(func() {}); ok {
		t.Error("a nil pool gave a bot core")
	}
}
