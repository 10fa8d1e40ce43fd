package engine

import (
	"context"
	"testing"
	"time"

	"knightwatch/game"
)

// endlessSearch runs e.Search on the start position in the background. It
// returns the channel the Result arrives on, once the search has completed
// an iteration to depth (so that it is running and PonderHit reaches it).
func endlessSearch(t *testing.T, e *Engine, ctx context.Context, lim Limits, depth int) (*game.Position, <-chan Result) {
	t.Helper()
	p := mustFEN(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	reached := make(chan struct{})
	done := make(chan Result, 1)
	go func() {
		q := *p
		done <- e.Search(ctx, &q, nil, lim, func(info Info) {
			if info.Depth == depth {
				close(reached)
			}
		})
	}()
	select {
	case <-reached:
	case res := <-done:
		t.Fatalf("%+v: returned %v before depth %d was reported", lim, res.Move, depth)
	case <-time.After(20 * time.Second): // a hang guard, not a timing assertion
		t.Fatalf("%+v: depth %d never reported", lim, depth)
	}
	return p, done
}

// quiet checks that no result arrives for a while: a result that must
// not come, which no signal can announce.
func quiet(t *testing.T, what string, done <-chan Result) {
	t.Helper()
	select {
	case res := <-done:
		t.Fatalf("%s: returned %v before being released", what, res.Move)
	case <-time.After(300 * time.Millisecond): // time itself is what is tested: nothing comes within a span (longer than MoveTime, in TestPonderHitAppliesTimeLimit)
	}
}

// released waits for the result after the caller has released the search
// at start: it must come promptly.
func released(t *testing.T, what string, p *game.Position, done <-chan Result, start time.Time) Result {
	t.Helper()
	select {
	case res := <-done:
		took := time.Since(start)
		t.Logf("%s: returned %s %v after release", what, p.UCI(res.Move), took)
		if took > time.Second {
			t.Errorf("%s: took %v to return after release", what, took)
		}
		if !p.IsLegal(res.Move) {
			t.Errorf("%s: illegal move %v", what, res.Move)
		}
		return res
	case <-time.After(10 * time.Second): // a hang guard
		t.Fatalf("%s: never returned after release", what)
	}
	return Result{}
}

// Under go infinite the result waits for stop (ctx cancelled), even when
// a depth limit ended the iterations long before; ponderhit does not
// release it.
func TestInfiniteWaitsForStop(t *testing.T) {
	for _, threads := range []int{1, 2} {
		for _, ponder := range []bool{false, true} {
			e := New(Options{HashMB: 4, Threads: threads})
			ctx, cancel := context.WithCancel(context.Background())
			lim := Limits{Infinite: true, Ponder: ponder, Depth: 3}
			p, done := endlessSearch(t, e, ctx, lim, 3)
			quiet(t, "infinite", done)
			e.PonderHit()
			quiet(t, "infinite after ponderhit", done)
			start := time.Now()
			cancel()
			released(t, "infinite", p, done, start)
		}
	}
}

// While pondering the result waits for ponderhit or stop; a depth limit
// reached while pondering keeps it waiting.
func TestPonderWaitsForPonderHitOrStop(t *testing.T) {
	for _, threads := range []int{1, 2} {
		e := New(Options{HashMB: 4, Threads: threads})
		p, done := endlessSearch(t, e, context.Background(), Limits{Ponder: true, Depth: 3}, 3)
		quiet(t, "ponder", done)
		start := time.Now()
		e.PonderHit()
		if res := released(t, "ponderhit", p, done, start); res.Depth != 3 {
			t.Errorf("ponderhit: depth %d, want 3", res.Depth)
		}

		ctx, cancel := context.WithCancel(context.Background())
		p, done = endlessSearch(t, e, ctx, Limits{Ponder: true, Depth: 3}, 3)
		quiet(t, "ponder", done)
		start = time.Now()
		cancel()
		released(t, "ponder stopped", p, done, start)
		e.PonderHit() // no search runs: nothing happens
	}
}

// While pondering the time limit does not count; ponderhit starts the
// clock, and the search then ends by the limit on its own.
func TestPonderHitAppliesTimeLimit(t *testing.T) {
	e := New(Options{HashMB: 4})
	const moveTime = 100 * time.Millisecond
	p, done := endlessSearch(t, e, context.Background(), Limits{Ponder: true, MoveTime: moveTime}, 1)
	quiet(t, "pondering past MoveTime", done) // 300 ms > moveTime
	start := time.Now()
	e.PonderHit()
	released(t, "ponderhit with MoveTime", p, done, start)
	// The clock restarted at ponderhit: the search did not end at once
	// on the time spent pondering (the soft limit is at least a third of
	// MoveTime).
	if took := time.Since(start); took < moveTime/10 {
		t.Errorf("returned %v after ponderhit: the pondering time counted", took)
	}
}
