package web

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/recon"
	"knightwatch/recon/bots"
)

// The fakes of the tests of bots in the engine pool (bot_think_test.go).

// botFarm makes a test's Reconnaissance Chess bots (envOpts.newBot): the
// real random and attacker, which choose at once, and for any other spec
// a stepBot, numbered from 1 in the order made. Every choice asked of a
// stepBot, and every search of a farmSearcher, is logged in order.
type botFarm struct {
	think time.Duration // what each stepBot says its step takes
	block bool          // stepBots think until released or their context ends
	mu    sync.Mutex
	bots  []*stepBot
	log   []string
	sig   signal // poked as a bot is made and as the log grows
}

func (f *botFarm) newBot(spec string, seed uint64) (recon.Player, error) {
	if spec == "random" || spec == "attacker" {
		return bots.NewOneThread(spec, seed)
	}
	defer f.sig.poke()
	f.mu.Lock()
	defer f.mu.Unlock()
	b := &stepBot{farm: f, n: len(f.bots) + 1, think: f.think, block: f.block, gate: make(chan struct{})}
	f.bots = append(f.bots, b)
	return b, nil
}

func (f *botFarm) logf(format string, args ...any) {
	defer f.sig.poke()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.log = append(f.log, fmt.Sprintf(format, args...))
}

// events returns the log so far.
func (f *botFarm) events() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.log)
}

// bot returns stepBot n (from 1), waiting for it to be made.
func (f *botFarm) bot(t *testing.T, n int) *stepBot {
	t.Helper()
	var b *stepBot
	f.sig.until(t, fmt.Sprintf("bot %d made", n), func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		if len(f.bots) >= n {
			b = f.bots[n-1]
		}
		return b != nil
	})
	return b
}

// waitEvent waits until the log holds ev.
func (f *botFarm) waitEvent(t *testing.T, ev string) {
	t.Helper()
	f.sig.until(t, ev, func() bool { return slices.Contains(f.events(), ev) })
}

// stepBot is a fake bot: it senses nothing and passes, logging "botN
// sense" and "botN move" as it is asked (with " ended" when its context
// had already ended), and says its step takes think.
type stepBot struct {
	farm  *botFarm
	n     int
	think time.Duration
	block bool
	gate  chan struct{}
	once  sync.Once
}

// release lets the bot's choices, the one it is thinking on and all
// later ones, end at once.
func (b *stepBot) release() { b.once.Do(func() { close(b.gate) }) }

func (b *stepBot) choose(ctx context.Context, what string) {
	if ctx.Err() != nil {
		what += " ended"
	}
	b.farm.logf("bot%d %s", b.n, what)
	if b.block {
		select {
		case <-b.gate:
		case <-ctx.Done():
		}
	}
}

func (b *stepBot) ThinkTime(time.Duration) time.Duration { return b.think }
func (*stepBot) Start(game.Color, recon.Board, string)   {}
func (*stepBot) OpponentMoveResult(game.Square)          {}
func (b *stepBot) ChooseSense(ctx context.Context, _ []game.Square, _ []game.Move, _ time.Duration) game.Square {
	b.choose(ctx, "sense")
	return game.NoSquare
}
func (*stepBot) SenseResult(recon.SenseResult) {}
func (b *stepBot) ChooseMove(ctx context.Context, _ []game.Move, _ time.Duration) game.Move {
	b.choose(ctx, "move")
	return game.NoMove
}
func (*stepBot) MoveResult(recon.MoveResult)       {}
func (*stepBot) End(recon.Outcome, *recon.History) {}

// farmSearcher answers at once with the first legal move, logging
// "search level N" in its farm's log.
type farmSearcher struct{ f *botFarm }

func (s farmSearcher) Search(_ context.Context, pos *game.Position, _ []uint64, req enginepool.SearchRequest) enginepool.SearchResult {
	s.f.logf("search level %d", req.Level)
	return enginepool.SearchResult{Move: firstMove(pos)}
}

func (farmSearcher) NewGame() {}

// holdSearchers takes n regular searchers of e's pool for owner
// "holder", as long work of another player would (a step without a clock,
// of budget a second); each call of the returned function gives one back.
// The rest are given back as the test ends.
func holdSearchers(e *testEnv, n int) (release func()) {
	t, p := e.t, e.pool
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(wg.Wait)
	t.Cleanup(cancel) // runs first
	give := make(chan struct{})
	noClock := func() time.Duration { return enginepool.NoClock }
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.RunStep(ctx, enginepool.Step{Owner: "holder", Cost: time.Second, Left: enginepool.NoClock, Clock: noClock, Run: func(context.Context, time.Duration) {
				select {
				case <-give:
				case <-ctx.Done():
				}
			}})
		}()
	}
	e.until(fmt.Sprintf("%d searchers held", n), func() bool { return running(p, "holder") == n })
	return func() { give <- struct{}{} }
}

// running returns how many searchers owner holds in p.
func running(p *enginepool.Pool, owner string) int { return p.Owner(owner).Running }

// idleRegulars returns how many regular searchers of p are free.
func idleRegulars(p *enginepool.Pool) int { return p.Load().IdleRegular }

// usageOf returns owner's recent use of p, in seconds (0 once forgotten).
func usageOf(p *enginepool.Pool, owner string) float64 { return p.Owner(owner).Usage.Seconds() }

// queuedFor returns how many requests of owner queue in p.
func queuedFor(p *enginepool.Pool, owner string) int { return p.Owner(owner).Queued }
