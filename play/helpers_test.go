package play

import (
	"context"
	"io"
	"log"
	"sort"
	"testing"
	"time"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/store"
)

// testLevels are eight levels that think little.
var testLevels = func() []enginepool.LevelInfo {
	var ls []enginepool.LevelInfo
	for i := 1; i <= 8; i++ {
		ls = append(ls, enginepool.LevelInfo{Number: i, Name: "L" + string(rune('0'+i)), Description: "test level", MoveTime: time.Duration(i) * 100 * time.Millisecond, ApproxElo: 800 + 200*i})
	}
	return ls
}()

// firstSearcher plays the alphabetically first legal move (in UCI), at
// once.
type firstSearcher struct{}

func (firstSearcher) Search(_ context.Context, pos *game.Position, _ []uint64, _ enginepool.SearchRequest) enginepool.SearchResult {
	ms := pos.LegalMoves()
	if len(ms) == 0 {
		return enginepool.SearchResult{Move: game.NoMove}
	}
	sort.Slice(ms, func(i, j int) bool { return pos.UCI(ms[i]) < pos.UCI(ms[j]) })
	return enginepool.SearchResult{Move: ms[0]}
}

func (firstSearcher) NewGame() {}

// newTestGames returns games on st in a registry of their own, with a pool
// of two firstSearchers, no pause and a silent log, and what else each of
// with sets; everything closes when tb ends.
func newTestGames(tb testing.TB, st *store.Store, with ...func(*Config)) (*Games, *live.Registry) {
	tb.Helper()
	pool, err := enginepool.New(enginepool.Config{NewSearcher: func() enginepool.Searcher { return firstSearcher{} }, Searchers: 2})
	if err != nil {
		tb.Fatal(err)
	}
	reg := live.NewRegistry()
	cfg := Config{Store: st, Pool: pool, Levels: testLevels, ReplyPause: -1, UntouchedAfter: -1,
		Logger: log.New(io.Discard, "", 0)}
	for _, f := range with {
		f(&cfg)
	}
	gs, err := New(cfg, reg)
	if err != nil {
		pool.Close()
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		reg.Close()
		gs.Close()
		pool.Close()
	})
	return gs, reg
}

// testTab is a tab without a connection: what the game sends it is read
// and dropped, and it may always create games.
type testTab struct {
	viewer live.Viewer
	send   chan []byte
	done   chan struct{}
}

func newTestTab(v live.Viewer) *testTab {
	t := &testTab{viewer: v, send: make(chan []byte, 4096), done: make(chan struct{})}
	go func() {
		for {
			select {
			case <-t.send:
			case <-t.done:
				return
			}
		}
	}()
	return t
}

func (t *testTab) Viewer() live.Viewer { return t.viewer }

func (t *testTab) Send(b []byte) {
	select {
	case t.send <- b:
	case <-t.done:
	}
}

func (t *testTab) MayCreate(string) bool { return true }
