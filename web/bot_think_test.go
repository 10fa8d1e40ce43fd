package web

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"knightwatch/enginepool"
	"knightwatch/recon"
)

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
			p := e.pool
			give := holdSearchers(e, 2)
			br := e.browser()
			id := e.newRecon(br, "black", c.opponent, "15+5") // the bot plays first
			w := e.dialRecon(br, id)
			if !c.thinks {
				ourTurn(w)
				if n := p.Load().Queued; n != 0 || len(farm.events()) != 0 {
					t.Errorf("%d requests queued; fake bots asked %v", n, farm.events())
				}
				return
			}
			rec, err := e.store.Games().GetReconGame(id)
			if err != nil {
				t.Fatal(err)
			}
			e.until("the bot's step queued", func() bool { return queuedFor(p, rec.Owner) == 1 })
			if ev := farm.events(); len(ev) != 0 {
				t.Fatalf("the bot chose without a searcher: %v", ev)
			}
			give()
			farm.waitEvent(t, "bot1 sense")
			if running(p, rec.Owner) != 1 {
				t.Errorf("the bot thinks holding %d searchers of its owner, want 1", running(p, rec.Owner))
			}
			// time itself is what is tested: the person is charged the time the bot thinks, enough not to be forgotten at once
			time.Sleep(5 * time.Millisecond)
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
			p := e.pool
			flood := e.browser()
			for i := 1; i <= 4; i++ {
				e.dialRecon(flood, e.newRecon(flood, "black", "knightwatch", "15+5"))
				if i <= 2 {
					farm.waitEvent(t, fmt.Sprintf("bot%d sense", i))
				} else {
					e.until(fmt.Sprintf("bot %d queued", i), func() bool { return p.Load().Queued == i-2 })
				}
			}
			other := e.browser()
			w := e.mustDial(other, e.newGame(other, form("white", fmt.Sprint(level), "standard", "none")))
			w.state()
			w.send(`{"type":"move","move":"e2e4","ply":0}`)
			if level > 4 {
				e.until("the reply queued", func() bool { return p.Load().Queued == 3 })
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
			p := e.pool
			holdSearchers(e, c.held)
			br := e.browser()
			w := e.dialRecon(br, e.newRecon(br, "black", "knightwatch", "15+5"))
			if c.queued {
				e.until("the bot's step queued", func() bool { return p.Load().Queued == 1 })
			} else {
				farm.waitEvent(t, "bot1 sense")
				if n := idleRegulars(p); n != 0 {
					t.Fatalf("%d regular searchers free while the bot thinks, want 0", n)
				}
			}
			w.send(`{"type":"resign"}`)
			w.reconWait("the end", nil, func(f reconFrame) bool { return isState(f) && f.State.Phase == "over" })
			e.until("the bot's searcher free and its step gone", func() bool { return idleRegulars(p) == 2-c.held && p.Load().Queued == 0 })
			if ev := farm.events(); c.queued && len(ev) != 0 {
				t.Errorf("a withdrawn step still ran: %v", ev)
			}
		})
	}
}

// TestAPIBotTurnInPool: a built-in bot of the HTTP API spends its clock
// as a competitor does, on the pool's bot cores (issue 46): with every
// searcher held by another player's work its step waits for none and holds
// none (enginepool's tests check that its time is charged to the user it
// plays); one that chooses at once does not wait either.
func TestAPIBotTurnInPool(t *testing.T) {
	for _, c := range []struct {
		opponent string
		thinks   bool
	}{{"knightwatch", true}, {"random", false}} {
		t.Run(c.opponent, func(t *testing.T) {
			farm := &botFarm{think: time.Second, block: true}
			e := newEnv(t, envOpts{newBot: farm.newBot, rbcClock: 120 * time.Second})
			p := e.pool
			holdSearchers(e, 2)
			alice := e.apiClient("alice", "correct horse")
			alice.register()
			u, err := e.store.API().UserByName("alice")
			if err != nil {
				t.Fatal(err)
			}
			owner := fmt.Sprintf("api-user:%d", u.ID)
			id := alice.invite(c.opponent, false) // the bot plays White
			g := fmt.Sprintf("/api/games/%d/", id)
			alice.must("POST", g+"ready", map[string]any{}, "", nil)
			myTurn := func() bool { return alice.myTurn(g) }
			if !c.thinks {
				e.until("alice's turn", myTurn)
				if n := p.Load().Queued; n != 0 {
					t.Errorf("%d requests queued", n)
				}
				return
			}
			farm.waitEvent(t, "bot1 sense")
			if l := p.Load(); l.BotThinking != 1 || l.Queued != 0 || running(p, owner) != 0 {
				t.Errorf("the bot thinks with %+v, %d searchers charged to alice; want one bot core, nothing queued, no searcher", l, running(p, owner))
			}
			farm.bot(t, 1).release()
			e.until("alice's turn", myTurn)
		})
	}
}

// TestBotClockReachesPool: botStep hands the pool a bot's clock reading as
// it is, so recon's reading without a clock must be the pool's.
func TestBotClockReachesPool(t *testing.T) {
	if enginepool.NoClock != recon.Unlimited {
		t.Errorf("enginepool.NoClock %v, recon.Unlimited %v: a bot without a clock would wait as if it had one", enginepool.NoClock, recon.Unlimited)
	}
}
