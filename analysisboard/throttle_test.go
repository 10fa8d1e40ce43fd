package analysisboard

import (
	"context"
	"encoding/json"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"knightwatch/enginepool"
	"knightwatch/game"
)

// TestLineThrottle: the first message goes out at once; the ones that
// follow within the interval wait, each replacing the last, and end sends
// the latest (finished) or drops it (stopped); nothing goes out after end.
func TestLineThrottle(t *testing.T) {
	for _, tc := range []struct {
		name   string
		offers []string
		flush  bool
		want   []string
	}{
		{"one", []string{"a"}, true, []string{"a"}},
		{"finished: the latest held back goes out", []string{"a", "b", "c"}, true, []string{"a", "c"}},
		{"stopped: the one held back is dropped", []string{"a", "b", "c"}, false, []string{"a"}},
		{"none", nil, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			th := newLineThrottle(func(b []byte) { got = append(got, string(b)) }, time.Hour)
			for _, o := range tc.offers {
				th.offer([]byte(o))
			}
			th.end(tc.flush)
			th.offer([]byte("after the end"))
			if !slices.Equal(got, tc.want) {
				t.Errorf("sent %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLineThrottleDue: a message held back goes out by itself once the
// interval is up, without waiting for another or for the end.
func TestLineThrottleDue(t *testing.T) {
	sent := make(chan string, 4)
	th := newLineThrottle(func(b []byte) { sent <- string(b) }, 5*time.Millisecond)
	defer th.end(false)
	th.offer([]byte("first"))
	th.offer([]byte("second"))
	th.offer([]byte("third"))
	for _, want := range []string{"first", "third"} {
		select {
		case got := <-sent:
			if got != want {
				t.Fatalf("sent %q, want %q", got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%q never sent", want)
		}
	}
}

// floodAnalyser completes depths 1..floodDepths at once, as the engine
// does in a dead position, and then has nothing more to find.
type floodAnalyser struct{}

const floodDepths = 200

func (floodAnalyser) Search(context.Context, *game.Position, []uint64, enginepool.SearchRequest) enginepool.SearchResult {
	return enginepool.SearchResult{}
}

func (floodAnalyser) NewGame() {}

func (floodAnalyser) Analyse(ctx context.Context, pos *game.Position, _ []uint64, multiPV int, onLine func(enginepool.AnalysisLine)) bool {
	var ml game.MoveList
	pos.GenerateLegal(&ml)
	for d := 1; d <= floodDepths; d++ {
		for r := 1; r <= min(multiPV, ml.N); r++ {
			onLine(enginepool.AnalysisLine{Rank: r, Depth: d, PV: []game.Move{ml.Slice()[r-1]}})
		}
	}
	return true
}

// TestSessionFloodFitsTheQueue: an analysis whose depths all complete at
// once (K+N v K: 55 depths before CI's page could read one) sends a few
// lines messages, not one a depth: a socket's writer queue of 32 (the
// web's, which closes the socket when full) holds them with the position
// and the engine's states, and the last lines before "done" are the
// deepest. Before, the flood closed the socket and lost the move the page
// had asked about.
func TestSessionFloodFitsTheQueue(t *testing.T) {
	pool, err := enginepool.New(enginepool.Config{NewSearcher: func() enginepool.Searcher { return floodAnalyser{} }, Searchers: 1, QuickSearchers: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	queue := make(chan []byte, 32)
	var overflow atomic.Int64
	send := func(b []byte) {
		select {
		case queue <- b:
		default:
			overflow.Add(1)
		}
	}
	s := NewSession(SessionConfig{Owner: "o", ID: "flood", Pool: pool, Limiter: NewLimiter(Caps{}), Send: send})
	defer s.Close()
	s.Message([]byte(`{"type":"position","id":1,"fen":"4N3/8/8/8/8/8/k7/4K3 b - - 0 1","engine":true,"multipv":3}`))
	var linesMsgs, lastDepth int
	for {
		var m struct {
			Type, State string
			Depth       int
		}
		select {
		case b := <-queue:
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the analysis never said it was done; %d messages found the queue of 32 full", overflow.Load())
		}
		if m.Type == MsgLines {
			linesMsgs++
			lastDepth = m.Depth
		}
		if m.Type == MsgEngine && m.State != "running" {
			if m.State != "done" {
				t.Fatalf("the analysis ended %q, want done", m.State)
			}
			break
		}
	}
	if n := overflow.Load(); n > 0 {
		t.Errorf("%d messages found the queue of 32 full", n)
	}
	if linesMsgs > 3 || lastDepth != floodDepths {
		t.Errorf("%d lines messages, the last at depth %d; want at most 3, the last at depth %d", linesMsgs, lastDepth, floodDepths)
	}
}
