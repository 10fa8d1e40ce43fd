package enginepool

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// usageOf returns owner's recent use of p, in seconds (0 once forgotten).
func usageOf(p *Pool, owner string) float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	if o := p.owners[owner]; o != nil {
		return o.usage(time.Now())
	}
	return 0
}

// queuedFor returns how many requests of owner queue in p.
func queuedFor(p *Pool, owner string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if o := p.owners[owner]; o != nil {
		return len(o.queue)
	}
	return 0
}

// TestStep: one step of a bot's turn through the pool. A bot that
// chooses at once never waits; a thinking one holds a regular searcher
// (never the quick one), is charged for it, thinks at most stepMax and
// is given its clock as it stands once the searcher is its; with every
// searcher busy it waits, unless half its time goes by first (then it acts
// at once without thinking, charged all the same) or the step is
// withdrawn (then nothing runs and nothing is charged).
func TestStep(t *testing.T) {
	const unlimited = NoClock
	cases := []struct {
		name     string
		think    time.Duration   // what the bot says its step takes
		clocks   []time.Duration // the clock's readings in turn (the last repeats)
		busy     bool            // the regular searcher held by another owner
		free     bool            // given back once the step queues
		withdraw bool            // the step's context ends once it queues
		ran      bool
		left     time.Duration // the time left given to the bot
		held     bool          // the bot held a searcher as it chose
		ended    bool          // its context had ended as it chose
		maxThink time.Duration // its context's deadline at the latest (0: none checked)
		charged  bool
	}{
		{name: "instant bot, every searcher busy", think: 0, clocks: []time.Duration{10 * time.Second}, busy: true,
			ran: true, left: 10 * time.Second, maxThink: 10 * time.Second},
		{name: "thinker, a searcher free: the clock read once it is held", think: time.Second, clocks: []time.Duration{10 * time.Second, 4 * time.Second},
			ran: true, left: 4 * time.Second, held: true, maxThink: stepMax, charged: true},
		{name: "thinker on a short clock", think: time.Second, clocks: []time.Duration{2 * time.Second, time.Second},
			ran: true, left: time.Second, held: true, maxThink: time.Second, charged: true},
		{name: "thinker without a clock waits for a searcher", think: 5 * time.Second, clocks: []time.Duration{unlimited}, busy: true, free: true,
			ran: true, left: unlimited, held: true, maxThink: stepMax, charged: true},
		{name: "thinker whose wait outlasts half its clock acts without thinking", think: time.Second, clocks: []time.Duration{40 * time.Millisecond}, busy: true,
			ran: true, left: 40 * time.Millisecond, ended: true, charged: true},
		{name: "thinker withdrawn while it queues", think: time.Second, clocks: []time.Duration{unlimited}, busy: true, withdraw: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPool(1, 1, func() Searcher { return &sleepSearcher{log: &startLog{}, gate: noGate} })
			sig := watch(p)
			var give func()
			if c.busy {
				give = holdSearchers(t, p, sig, 1)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			reads := 0
			clock := func() time.Duration {
				v := c.clocks[min(reads, len(c.clocks)-1)]
				reads++
				return v
			}
			var (
				called                    bool
				left, untilDeadline       time.Duration
				held, ended, hasDeadline  bool
				queuedThen, quickIdleThen int
			)
			done := make(chan bool)
			go func() {
				step := Step{Owner: "bot", Cost: c.think, Left: clock(), Clock: clock, Run: func(think context.Context, l time.Duration) {
					called, left, ended = true, l, think.Err() != nil
					held = running(p, "bot") == 1
					var dl time.Time
					dl, hasDeadline = think.Deadline()
					untilDeadline = time.Until(dl)
					queuedThen = p.waiting()
					p.mu.Lock()
					quickIdleThen = len(p.quickIdle)
					p.mu.Unlock()
					// time itself is what is tested: a step is charged the time it took, long enough to outlast the pool's forgetting
					time.Sleep(5 * time.Millisecond)
				}}
				done <- p.RunStep(ctx, step)
			}()
			if c.free || c.withdraw {
				sig.until(t, func() string { return "the step never queued" }, func() bool { return queuedFor(p, "bot") == 1 })
				if c.free {
					give()
				} else {
					cancel()
				}
			}
			ran := <-done
			if ran != c.ran || called != c.ran {
				t.Fatalf("RunStep reported %v, f called %v; want %v", ran, called, c.ran)
			}
			if p.waiting() != 0 {
				t.Errorf("%d requests still queue", p.waiting())
			}
			if charged := usageOf(p, "bot") > 0; charged != c.charged {
				t.Errorf("owner charged: %v, want %v", charged, c.charged)
			}
			if !c.ran {
				return
			}
			if left != c.left {
				t.Errorf("the bot was given %v left, want %v", left, c.left)
			}
			if held != c.held || ended != c.ended {
				t.Errorf("the bot chose holding a searcher %v, its context ended %v; want %v, %v", held, ended, c.held, c.ended)
			}
			if queuedThen != 0 || quickIdleThen != 1 {
				t.Errorf("as the bot chose, %d requests queued and %d quick searchers were free; want 0 and 1", queuedThen, quickIdleThen)
			}
			if c.maxThink > 0 && (!hasDeadline || untilDeadline > c.maxThink) {
				t.Errorf("the bot's thinking ends in %v (deadline %v), want at most %v", untilDeadline, hasDeadline, c.maxThink)
			}
		})
	}
}

// noGate holds no search (sleepSearcher's gate).
func noGate(uint64) chan struct{} { return nil }

// holdSearchers takes n regular searchers of p for owner "holder", as
// long work of another player would; each call of the returned function
// gives one back. The rest are given back as the test ends.
func holdSearchers(t *testing.T, p *Pool, sig *signal, n int) (release func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(wg.Wait)
	t.Cleanup(cancel) // runs first
	give := make(chan struct{})
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.run(ctx, "holder", time.Second, func() {
				select {
				case <-give:
				case <-ctx.Done():
				}
			})
		}()
	}
	sig.until(t, func() string { return fmt.Sprintf("%d searchers held, want %d", running(p, "holder"), n) },
		func() bool { return running(p, "holder") == n })
	return func() { give <- struct{}{} }
}

// running returns how many searchers owner holds in p.
func running(p *Pool, owner string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if o := p.owners[owner]; o != nil {
		return o.running
	}
	return 0
}
