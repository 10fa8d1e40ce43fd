package analysisboard

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"knightwatch/enginepool"
	"knightwatch/game"
)

// blockSearcher thinks until cancelled, then answers its first legal move.
type blockSearcher struct{}

func (blockSearcher) Search(ctx context.Context, pos *game.Position, _ []uint64, _ enginepool.SearchRequest) enginepool.SearchResult {
	<-ctx.Done()
	var ml game.MoveList
	pos.GenerateLegal(&ml)
	return enginepool.SearchResult{Move: ml.Slice()[0], CP: 12}
}

func (blockSearcher) NewGame() {}

// inbox collects a session's messages and lets a test wait for one.
type inbox struct {
	mu   sync.Mutex
	msgs []map[string]any
	ch   chan struct{}
}

func newInbox() *inbox { return &inbox{ch: make(chan struct{}, 1000)} }

func (b *inbox) send(data []byte) {
	var m map[string]any
	json.Unmarshal(data, &m)
	b.mu.Lock()
	b.msgs = append(b.msgs, m)
	b.mu.Unlock()
	b.ch <- struct{}{}
}

// wait returns the first message (from the start) that ok accepts,
// waiting for it; a guard fails the test after 10 s.
func (b *inbox) wait(t *testing.T, what string, ok func(m map[string]any) bool) map[string]any {
	t.Helper()
	limit := time.After(10 * time.Second)
	for {
		b.mu.Lock()
		for _, m := range b.msgs {
			if ok(m) {
				b.mu.Unlock()
				return m
			}
		}
		b.mu.Unlock()
		select {
		case <-b.ch:
		case <-limit:
			t.Fatalf("timed out waiting for %s: %v", what, b.msgs)
		}
	}
}

func is(typ string, id float64, state string) func(m map[string]any) bool {
	return func(m map[string]any) bool {
		return m["type"] == typ && m["id"] == id && (state == "" || m["state"] == state)
	}
}

// TestSessionStopsOnNewPosition: a position's analysis streams lines;
// the next position stops it ("stopped") and starts its own; Close stops
// the last and gives the searcher back; a second analysis beyond the
// owner's cap is refused in words.
func TestSessionStopsOnNewPosition(t *testing.T) {
	pool, err := enginepool.New(enginepool.Config{NewSearcher: func() enginepool.Searcher { return blockSearcher{} }, Searchers: 1, QuickSearchers: -1})
	if err != nil {
		t.Fatal(err)
	}
	lim := NewLimiter(Caps{Concurrent: 1})
	box := newInbox()
	s := NewSession(SessionConfig{Owner: "o", ID: "s1", Pool: pool, Limiter: lim, Chunk: 20 * time.Millisecond, Send: box.send})
	s.Message([]byte(`{"type":"position","id":1,"engine":true}`))
	box.wait(t, "lines of 1", is(MsgLines, 1, ""))

	other := newInbox()
	s2 := NewSession(SessionConfig{Owner: "o", ID: "s2", Pool: pool, Limiter: lim, Send: other.send})
	s2.Message([]byte(`{"type":"position","id":7,"engine":true}`))
	refused := other.wait(t, "the refusal", is(MsgEngine, 7, "refused"))
	if refused["text"] == "" {
		t.Errorf("a refusal without words: %v", refused)
	}

	s.Message([]byte(`{"type":"position","id":2,"moves":["e4"],"engine":true}`))
	box.wait(t, "1 stopped", is(MsgEngine, 1, "stopped"))
	box.wait(t, "lines of 2", is(MsgLines, 2, ""))
	s.Close()
	box.wait(t, "2 stopped", is(MsgEngine, 2, "stopped"))
	if o := pool.Owner("o"); o.Running != 0 || o.Queued != 0 {
		t.Errorf("after Close the owner holds %+v", o)
	}
	s.Message([]byte(`{"type":"position","id":3,"engine":true}`))
	box.wait(t, "the position after Close", is(MsgPosition, 3, ""))
	if o := pool.Owner("o"); o.Running != 0 {
		t.Errorf("an analysis ran after Close: %+v", o)
	}
	s2.Close()
}
