package web

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"knightwatch/recon"
)

// usageOf returns owner's recent use of p, in seconds (0 once forgotten).
func usageOf(p *pool, owner string) float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	if o := p.owners[owner]; o != nil {
		return o.usage(time.Now())
	}
	return 0
}

// queuedFor returns how many requests of owner queue in p.
func queuedFor(p *pool, owner string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if o := p.owners[owner]; o != nil {
		return len(o.queue)
	}
	return 0
}

// TestBotStep: one step of a bot's turn through the pool. A bot that
// chooses at once never waits; a thinking one holds a regular searcher
// (never the quick one), is charged for it, thinks at most botStepMax and
// is given its clock as it stands once the searcher is its; with every
// searcher busy it waits, unless half its time goes by first (then it acts
// at once without thinking, charged all the same) or the step is
// withdrawn (then nothing runs and nothing is charged).
func TestBotStep(t *testing.T) {
	const unlimited = recon.Unlimited
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
			ran: true, left: 4 * time.Second, held: true, maxThink: botStepMax, charged: true},
		{name: "thinker on a short clock", think: time.Second, clocks: []time.Duration{2 * time.Second, time.Second},
			ran: true, left: time.Second, held: true, maxThink: time.Second, charged: true},
		{name: "thinker without a clock waits for a searcher", think: 5 * time.Second, clocks: []time.Duration{unlimited}, busy: true, free: true,
			ran: true, left: unlimited, held: true, maxThink: botStepMax, charged: true},
		{name: "thinker whose wait outlasts half its clock acts without thinking", think: time.Second, clocks: []time.Duration{40 * time.Millisecond}, busy: true,
			ran: true, left: 40 * time.Millisecond, ended: true, charged: true},
		{name: "thinker withdrawn while it queues", think: time.Second, clocks: []time.Duration{unlimited}, busy: true, withdraw: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &Server{pool: newPool(1, 1, func() Searcher { return &fakeSearcher{} })}
			p := s.pool
			var give func()
			if c.busy {
				give = holdSearchers(t, p, 1)
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
				done <- s.botStep(ctx, "bot", &stepBot{farm: &botFarm{}, think: c.think}, clock, func(think context.Context, l time.Duration) {
					called, left, ended = true, l, think.Err() != nil
					held = running(p, "bot") == 1
					var dl time.Time
					dl, hasDeadline = think.Deadline()
					untilDeadline = time.Until(dl)
					queuedThen = p.waiting()
					p.mu.Lock()
					quickIdleThen = len(p.quickIdle)
					p.mu.Unlock()
					// Long enough for the charge to outlast the pool's
					// forgetting of owners who used next to nothing.
					time.Sleep(5 * time.Millisecond)
				})
			}()
			if c.free || c.withdraw {
				waitUntil(t, "the step queued", func() bool { return queuedFor(p, "bot") == 1 })
				if c.free {
					give()
				} else {
					cancel()
				}
			}
			ran := <-done
			if ran != c.ran || called != c.ran {
				t.Fatalf("botStep reported %v, f called %v; want %v", ran, called, c.ran)
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

// dialRecon opens recon game id for browser c and waits for its first state.
func (e *testEnv) dialRecon(c *http.Client, id string) *wsConn {
	e.t.Helper()
	w := e.mustDial(c, id)
	w.reconWait("state", nil, isState)
	return w
}

// ourTurn waits until the person may sense.
func ourTurn(w *wsConn) {
	w.reconWait("the person's turn", nil, func(f reconFrame) bool { return isState(f) && f.State.Phase == "sense" })
}

// TestReconBotTurnInPool: in a browser game a thinking bot's turn waits
// for a searcher while every one is busy, and holds one, charged to the
// person playing it, once it is free; random and attacker, which choose at
// once, play their turn without waiting.
func TestReconBotTurnInPool(t *testing.T) {
	for _, c := range []struct {
		opponent string
		thinks   bool
	}{{"knightwatch", true}, {"trout:engine=knightwatch", true}, {"random", false}, {"attacker", false}} {
		t.Run(c.opponent, func(t *testing.T) {
			farm := &botFarm{think: time.Second, block: true}
			e := newEnv(t, envOpts{newBot: farm.newBot})
			p := e.srv.pool
			give := holdSearchers(t, p, 2)
			br := e.browser()
			id := e.newRecon(br, "black", c.opponent, "15+5") // the bot plays first
			w := e.dialRecon(br, id)
			if !c.thinks {
				ourTurn(w)
				if n := p.waiting(); n != 0 || len(farm.events()) != 0 {
					t.Errorf("%d requests queued; fake bots asked %v", n, farm.events())
				}
				return
			}
			rec, err := e.store.GetReconGame(id)
			if err != nil {
				t.Fatal(err)
			}
			waitUntil(t, "the bot's step queued", func() bool { return queuedFor(p, rec.Owner) == 1 })
			if ev := farm.events(); len(ev) != 0 {
				t.Fatalf("the bot chose without a searcher: %v", ev)
			}
			give()
			farm.waitEvent(t, "bot1 sense")
			if running(p, rec.Owner) != 1 {
				t.Errorf("the bot thinks holding %d searchers of its owner, want 1", running(p, rec.Owner))
			}
			time.Sleep(5 * time.Millisecond) // a charge the pool does not forget at once
			farm.bot(t, 1).release()
			ourTurn(w)
			if ev := farm.events(); !slices.Equal(ev, []string{"bot1 sense", "bot1 move"}) {
				t.Errorf("the bot was asked %v", ev)
			}
			if usageOf(p, rec.Owner) == 0 {
				t.Error("the person was not charged for the bot's thinking")
			}
		})
	}
}

// TestReconBotsFairToOthers: one person floods the server with games
// against thinking bots (two hold both regular searchers, two more queue);
// another person's chess reply is served before the flood's next step: at
// level 1 at once by the quick lane, at level 8 by the first regular
// searcher to free.
func TestReconBotsFairToOthers(t *testing.T) {
	for _, level := range []int{1, 8} {
		t.Run(fmt.Sprintf("level %d", level), func(t *testing.T) {
			farm := &botFarm{think: time.Second, block: true}
			e := newEnv(t, envOpts{newBot: farm.newBot, searcher: farmSearcher{farm}})
			p := e.srv.pool
			flood := e.browser()
			for i := 1; i <= 4; i++ {
				e.dialRecon(flood, e.newRecon(flood, "black", "knightwatch", "15+5"))
				if i <= 2 {
					farm.waitEvent(t, fmt.Sprintf("bot%d sense", i))
				} else {
					waitUntil(t, fmt.Sprintf("bot %d queued", i), func() bool { return p.waiting() == i-2 })
				}
			}
			other := e.browser()
			w := e.mustDial(other, e.newGame(other, form("white", fmt.Sprint(level), "standard", "none")))
			w.state()
			w.send(`{"type":"move","move":"e2e4","ply":0}`)
			if level > 4 {
				waitUntil(t, "the reply queued", func() bool { return p.waiting() == 3 })
				farm.bot(t, 1).release()
			}
			w.stateAt(2)
			ev := farm.events()
			search := slices.Index(ev, fmt.Sprintf("search level %d", level))
			for _, next := range []string{"bot3 sense", "bot4 sense"} {
				if i := slices.Index(ev, next); i >= 0 && i < search {
					t.Errorf("the flood's %s went before the other person's reply: %v", next, ev)
				}
			}
		})
	}
}

// TestReconBotWithdrawnFreesSearcher: the person resigns while the bot
// thinks (its searcher is given back as it stops) or while its step
// queues (it leaves the queue, never having thought).
func TestReconBotWithdrawnFreesSearcher(t *testing.T) {
	for _, c := range []struct {
		name   string
		held   int // searchers held by another owner
		queued bool
	}{{"while thinking", 1, false}, {"while queued", 2, true}} {
		t.Run(c.name, func(t *testing.T) {
			farm := &botFarm{think: time.Second, block: true}
			e := newEnv(t, envOpts{newBot: farm.newBot})
			p := e.srv.pool
			holdSearchers(t, p, c.held)
			br := e.browser()
			w := e.dialRecon(br, e.newRecon(br, "black", "knightwatch", "15+5"))
			if c.queued {
				waitUntil(t, "the bot's step queued", func() bool { return p.waiting() == 1 })
			} else {
				farm.waitEvent(t, "bot1 sense")
				if n := idleRegulars(p); n != 0 {
					t.Fatalf("%d regular searchers free while the bot thinks, want 0", n)
				}
			}
			w.send(`{"type":"resign"}`)
			w.reconWait("the end", nil, func(f reconFrame) bool { return isState(f) && f.State.Phase == "over" })
			waitUntil(t, "the bot's searcher free and its step gone", func() bool { return idleRegulars(p) == 2-c.held && p.waiting() == 0 })
			if ev := farm.events(); c.queued && len(ev) != 0 {
				t.Errorf("a withdrawn step still ran: %v", ev)
			}
		})
	}
}

// TestAPIBotTurnInPool: a built-in bot of the HTTP API thinks in the pool
// too, as the work of the user it plays; one that chooses at once does
// not wait.
func TestAPIBotTurnInPool(t *testing.T) {
	for _, c := range []struct {
		opponent string
		thinks   bool
	}{{"knightwatch", true}, {"random", false}} {
		t.Run(c.opponent, func(t *testing.T) {
			farm := &botFarm{think: time.Second, block: true}
			e := newEnv(t, envOpts{newBot: farm.newBot, rbcClock: 120 * time.Second})
			p := e.srv.pool
			give := holdSearchers(t, p, 2)
			alice := e.apiClient("alice", "correct horse")
			alice.register()
			u, err := e.store.UserByName("alice")
			if err != nil {
				t.Fatal(err)
			}
			owner := fmt.Sprintf("api-user:%d", u.ID)
			id := alice.invite(c.opponent, false) // the bot plays White
			g := fmt.Sprintf("/api/games/%d/", id)
			alice.must("POST", g+"ready", map[string]any{}, "", nil)
			myTurn := func() bool { return alice.myTurn(g) }
			if !c.thinks {
				waitUntil(t, "alice's turn", myTurn)
				if n := p.waiting(); n != 0 {
					t.Errorf("%d requests queued", n)
				}
				return
			}
			waitUntil(t, "the bot's step queued for alice", func() bool { return queuedFor(p, owner) == 1 })
			give()
			farm.waitEvent(t, "bot1 sense")
			if running(p, owner) != 1 {
				t.Errorf("the bot thinks holding %d searchers charged to alice, want 1", running(p, owner))
			}
			farm.bot(t, 1).release()
			waitUntil(t, "alice's turn", myTurn)
		})
	}
}
