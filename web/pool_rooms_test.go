package web

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"knightwatch/enginepool"
	"knightwatch/game"
)

// The engine pool seen from the rooms: they queue their requests under
// the game's owner, withdraw them when no longer wanted, and a short
// level's reply takes the quick lane (the pool's own tests are in
// enginepool).

// TestPoolFairRoomRequests: the rooms queue their engine requests under
// the game's owner, and a request leaves the queue at once when its room
// no longer wants it (a takeback, the last tab closing).
func TestPoolFairRoomRequests(t *testing.T) {
	// No quick lane: the level-1 request must queue, not take it.
	e := newEnv(t, envOpts{searcher: &fakeSearcher{block: true}, quickSearchers: -1})
	waitQueued := func(n int) {
		t.Helper()
		e.until(fmt.Sprintf("%d requests to queue", n), func() bool { return e.pool.Load().Queued == n })
	}
	// Owner x's two games keep both searchers thinking.
	e.thinkingGames(e.browser(), 2, 8)
	cy := e.browser()
	id := e.newGame(cy, form("white", "1", "standard", "none"))
	w := e.mustDial(cy, id)
	w.state()
	w.send(`{"type":"move","move":"e2e4","ply":0}`)
	w.stateAt(1)
	waitQueued(1)
	owner := e.row(id).Owner
	queued := e.pool.Owner(owner).Queued == 1
	if !queued {
		t.Fatal("the request does not queue under its game's owner")
	}
	w.send(`{"type":"takeback","ply":1}`)
	w.stateAt(0)
	waitQueued(0)
	w.send(`{"type":"move","move":"d2d4","ply":0}`)
	w.stateAt(1)
	waitQueued(1)
	w.conn.Close()
	waitQueued(0)
}

// levelBlockSearcher thinks until cancelled at levels above maxQuick and
// answers at once below, so a test can hold the regular searchers with
// long games.
type levelBlockSearcher struct{ maxQuick int }

func (s levelBlockSearcher) Search(ctx context.Context, pos *game.Position, _ []uint64, req enginepool.SearchRequest) enginepool.SearchResult {
	if req.Level > s.maxQuick {
		<-ctx.Done()
	}
	return enginepool.SearchResult{Move: firstMove(pos)}
}

func (levelBlockSearcher) NewGame() {}

// thinkingGames starts n games at level for browser c, the person's first
// move played in each and the engine thinking on it.
func (e *testEnv) thinkingGames(c *http.Client, n, level int) {
	e.t.Helper()
	for range n {
		id := e.newGame(c, form("white", fmt.Sprint(level), "standard", "none"))
		w := e.mustDial(c, id)
		w.state()
		w.send(`{"type":"move","move":"e2e4","ply":0}`)
		if s := w.stateAt(1); !s.Thinking {
			e.t.Fatal("engine not thinking")
		}
	}
}

// TestPoolQuickRoomReply: through the rooms, with the server's default
// quick lane: while two level-8 games keep both searchers thinking,
// another owner's game at a short level gets its reply. Without a quick
// lane it waits for a level-8 search to end.
func TestPoolQuickRoomReply(t *testing.T) {
	for _, level := range []int{1, 4} { // testLevels: 100 and 400 ms
		t.Run(fmt.Sprintf("level %d", level), func(t *testing.T) {
			e := newEnv(t, envOpts{searcher: levelBlockSearcher{maxQuick: 4}})
			e.thinkingGames(e.browser(), 2, 8)
			cy := e.browser()
			id := e.newGame(cy, form("white", fmt.Sprint(level), "standard", "none"))
			w := e.mustDial(cy, id)
			w.state()
			w.send(`{"type":"move","move":"e2e4","ply":0}`)
			if s := w.stateAt(2); s.Thinking {
				t.Error("the engine still thinks after its reply")
			}
		})
	}
}
