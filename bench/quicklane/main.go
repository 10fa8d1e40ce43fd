// Command quicklane measures what the engine pool's quick lane
// (enginepool/pool.go) costs the long searches beside it: the nodes a
// level-8 search reaches in its fixed time while every core runs one (the
// pool's regular searchers, one per core), alone and with a third engine
// (the quick searcher) searching short requests: level-1 searches at the
// pace of one player who answers at once, level-1 searches back to back,
// and draw evaluations (150 ms at full strength) back to back. Back to back
// is the most the lane can take: in the server it runs only while a short
// request waits.
//
//	go run ./bench/quicklane [-rounds 6] [-movetime 3s]
//	(or bash bench/quicklane.sh)
//
// Each round searches the same positions under each condition, in an
// order that turns round by round (the machine's other load spreads over
// all of them); every engine is the pool's (engine.go in web: 16 MB hash,
// one thread) and starts each search with a clear hash.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"knightwatch/engine"
	"knightwatch/game"
	"knightwatch/loadtest"
)

// condition is what the quick searcher does while the long searches run.
type condition struct {
	name   string
	level  int           // the short searches' level; 0: no short searches
	budget time.Duration // their MoveTime
	every  time.Duration // one starts this often (0: back to back)
	// games says whether each short search is another game's, so the
	// engine clears its hash first, as the pool does when a searcher
	// moves to another game.
	games bool
}

var conditions = []condition{
	{"alone", 0, 0, 0, false},
	// One player answering every reply at once: a reply comes no sooner
	// than 150 ms after the move (the level's natural pause).
	{"+ one level-1 game, a move/150 ms", 1, 150 * time.Millisecond, 150 * time.Millisecond, false},
	{"+ level-1 searches back to back", 1, 150 * time.Millisecond, 0, true},
	// A draw evaluation is a full-strength search of 150 ms (web/draw.go),
	// the short request that uses its whole budget.
	{"+ draw evaluations back to back", 8, 150 * time.Millisecond, 0, true},
}

// tally is one condition's long searches.
type tally struct {
	nodes  []float64 // per search
	depths []int
	shorts int64 // short searches done beside them
}

func main() {
	rounds := flag.Int("rounds", 6, "rounds; each searches a position pair under every condition")
	moveTime := flag.Duration("movetime", 3*time.Second, "the long searches' time (level 8: 3 s)")
	flag.Parse()
	if err := run(*rounds, *moveTime); err != nil {
		fmt.Fprintln(os.Stderr, "quicklane:", err)
		os.Exit(1)
	}
}

func run(rounds int, moveTime time.Duration) error {
	long := runtime.NumCPU()
	positions := make([]*game.Position, 0, len(engine.BenchFENs))
	for _, fen := range engine.BenchFENs[1:] { // not the start: the book would answer
		pos, err := game.ParseFEN(fen)
		if err != nil {
			return err
		}
		positions = append(positions, pos)
	}
	longs := make([]*engine.Engine, long)
	for i := range longs {
		longs[i] = newEngine()
	}
	quick := newEngine()
	fmt.Printf("machine: %s; GOMAXPROCS %d; %d level-8 searches of %v at once, %d rounds\n", loadtest.Machine(), runtime.GOMAXPROCS(0), long, moveTime, rounds)
	tallies := make([]tally, len(conditions))
	for r := range rounds {
		for k := range conditions {
			c := (r + k) % len(conditions)
			var ps []*game.Position
			for i := range long {
				ps = append(ps, positions[(r*long+i)%len(positions)])
			}
			nodes, depths, shorts := searchRound(longs, quick, ps, positions, conditions[c], moveTime)
			t := &tallies[c]
			t.nodes = append(t.nodes, nodes...)
			t.depths = append(t.depths, depths...)
			t.shorts += shorts
		}
		fmt.Printf("round %d of %d done\n", r+1, rounds)
	}
	base := mean(tallies[0].nodes)
	fmt.Printf("%-34s %14s %9s %12s %14s\n", "condition", "nodes/search", "vs alone", "depth (med)", "short searches")
	for i, c := range conditions {
		t := tallies[i]
		fmt.Printf("%-34s %14.0f %8.1f%% %12d %14d\n", c.name, mean(t.nodes), 100*(mean(t.nodes)/base-1), median(t.depths), t.shorts)
	}
	return nil
}

// newEngine is an engine as the pool makes one (enginepool.NewEngineSearcher),
// without the book: the positions are past it.
func newEngine() *engine.Engine {
	return engine.New(engine.Options{HashMB: 16, Threads: 1})
}

// searchRound runs one level-8 search of moveTime on each of ps at once,
// one per long engine, while the quick engine searches stream's positions
// at c's level back to back until they end. It returns the long searches'
// nodes and depths and how many short searches ran.
func searchRound(longs []*engine.Engine, quick *engine.Engine, ps, stream []*game.Position, c condition, moveTime time.Duration) (nodes []float64, depths []int, shorts int64) {
	ctx, stop := context.WithCancel(context.Background())
	var done atomic.Int64
	var wg sync.WaitGroup
	if c.level > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			quick.SetLevel(c.level)
			next := time.Now()
			for i := 0; ctx.Err() == nil; i++ {
				if wait := time.Until(next); wait > 0 {
					select {
					case <-time.After(wait):
					case <-ctx.Done():
						return
					}
				}
				next = time.Now().Add(c.every)
				if c.games || i == 0 {
					quick.NewGame()
				}
				quick.Search(ctx, stream[i%len(stream)], nil, engine.Limits{MoveTime: c.budget}, nil)
				done.Add(1)
			}
		}()
	}
	res := make([]engine.Result, len(longs))
	var lw sync.WaitGroup
	for i, e := range longs {
		lw.Add(1)
		go func() {
			defer lw.Done()
			e.SetLevel(8)
			e.NewGame()
			res[i] = e.Search(context.Background(), ps[i], nil, engine.Limits{MoveTime: moveTime}, nil)
		}()
	}
	lw.Wait()
	stop()
	wg.Wait()
	for _, r := range res {
		nodes = append(nodes, float64(r.Nodes))
		depths = append(depths, r.Depth)
	}
	return nodes, depths, done.Load()
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func median(xs []int) int {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
