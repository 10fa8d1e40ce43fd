package web

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/play"
)

// drawSearcher scores every position engineCP for the engine (Black in
// these tests) at the given depth, plays the first legal move, and counts
// the draw evaluations it is asked for.
type drawSearcher struct {
	mu          sync.Mutex
	engineCP    int
	depth       int
	evaluations int
}

func (s *drawSearcher) Search(_ context.Context, pos *game.Position, _ []uint64, req enginepool.SearchRequest) enginepool.SearchResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	if req.Evaluate {
		s.evaluations++
	}
	cp := s.engineCP
	if pos.Side() == game.White {
		cp = -cp
	}
	return enginepool.SearchResult{Move: firstMove(pos), CP: cp, Depth: s.depth}
}

func (s *drawSearcher) NewGame() {}

func (s *drawSearcher) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.evaluations
}

// TestDrawOffer plays draw offers through the game's WebSocket: the
// engine declines in the opening without searching, accepts without mating
// material, accepts late when worse, reuses its own last evaluation, and
// a repeated offer gets a notice instead of an answer.
func TestDrawOffer(t *testing.T) {
	const lateFEN = "6k1/5ppp/8/8/8/8/5PPP/3QR1K1 w - - 0 40"
	tests := []struct {
		name        string
		fen, level  string
		engineCP    int
		depth       int
		move        string // a move for the person to play first, or ""
		wantStatus  string
		wantNotice  string
		wantSearch  int // draw evaluations the offer may cost
		wantReasons string
	}{
		{"move 1 declines without searching", "", "8", -500, 0, "", "playing", "declines", 0, "too early"},
		{"move 2 declines", "", "1", -500, 0, "e2e4", "playing", "declines", 0, "too early"},
		{"no mating material accepts at move 1", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "8", 0, 0, "", "over", "accepts", 0, "mating material"},
		{"late and worse accepts", lateFEN, "8", -200, 0, "", "over", "accepts", 1, "worse"},
		{"late and equal declines", lateFEN, "8", 0, 0, "", "playing", "declines", 1, "play on"},
		{"late, a little worse, level 8 declines", lateFEN, "8", -100, 0, "", "playing", "declines", 1, "play on"},
		{"late, a little worse, level 1 accepts", lateFEN, "1", -100, 0, "", "over", "accepts", 1, "worse"},
		{"reuses the engine's own evaluation", lateFEN, "8", -300, 12, "e1e2", "over", "accepts", 0, "worse"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &drawSearcher{engineCP: tc.engineCP, depth: tc.depth}
			e := newEnv(t, envOpts{searcher: s})
			c := e.browser()
			f := form("white", tc.level, "standard", "none")
			if tc.fen != "" {
				f.Set("fen", tc.fen)
			}
			id := e.newGame(c, f)
			w := e.mustDial(c, id)
			st := w.state()
			if tc.move != "" {
				w.send(`{"type":"move","move":"` + tc.move + `","ply":0}`)
				st = w.stateAt(2)
			}
			w.send(`{"type":"draw","ply":` + itoa(st.Ply) + `}`)
			n := w.waitFor("notice", func(m anyMsg) bool { return m.Type == "notice" && m.Text != "You offer a draw." })
			if !strings.Contains(n.Text, tc.wantNotice) || !strings.Contains(n.Text, tc.wantReasons) {
				t.Fatalf("notice %q, want %q and %q", n.Text, tc.wantNotice, tc.wantReasons)
			}
			got := w.sync()
			if got.Status != tc.wantStatus || e.row(id).Status.String() != tc.wantStatus {
				t.Fatalf("status %s (db %s), want %s", got.Status, e.row(id).Status, tc.wantStatus)
			}
			if tc.wantStatus == "over" && (got.Result != "1/2-1/2" || got.Reason != game.DrawAgreed.String()) {
				t.Fatalf("result %s %s", got.Result, got.Reason)
			}
			if n := s.count(); n != tc.wantSearch {
				t.Errorf("the offer cost %d draw evaluations, want %d", n, tc.wantSearch)
			}
		})
	}
}

// TestDrawOfferRateLimit: a second offer before play.DrawOfferEvery of the
// person's moves gets a notice and no evaluation; after them it is heard.
func TestDrawOfferRateLimit(t *testing.T) {
	s := &drawSearcher{engineCP: 100}
	e := newEnv(t, envOpts{searcher: s})
	c := e.browser()
	f := form("white", "8", "standard", "none")
	f.Set("fen", "6k1/8/8/8/8/p7/P7/6K1 w - - 0 40")
	id := e.newGame(c, f)
	w := e.mustDial(c, id)
	w.state()
	offer := func(ply int) string {
		w.send(`{"type":"draw","ply":` + itoa(ply) + `}`)
		return w.waitFor("notice", func(m anyMsg) bool { return m.Type == "notice" && m.Text != "You offer a draw." }).Text
	}
	if n := offer(0); !strings.Contains(n, "declines") {
		t.Fatalf("first offer: %q", n)
	}
	if n := offer(0); !strings.Contains(n, "again after 5 more of your moves") {
		t.Fatalf("second offer at once: %q", n)
	}
	if got := s.count(); got != 1 {
		t.Fatalf("%d draw evaluations after a refused repeat, want 1", got)
	}
	// The white king shuffles g1-h1-g1… while the engine answers; after
	// five of the person's moves the offer is heard again.
	ply := 0
	for i := 0; i < play.DrawOfferEvery; i++ {
		if i > 0 {
			if n := offer(ply); !strings.Contains(n, "again after") {
				t.Fatalf("offer after %d moves: %q", i, n)
			}
		}
		mv := "g1h1"
		if i%2 == 1 {
			mv = "h1g1"
		}
		w.send(`{"type":"move","move":"` + mv + `","ply":` + itoa(ply) + `}`)
		ply += 2
		w.stateAt(ply)
	}
	if n := offer(ply); !strings.Contains(n, "declines") {
		t.Fatalf("offer after %d moves: %q", play.DrawOfferEvery, n)
	}
	if got := s.count(); got != 2 {
		t.Errorf("%d draw evaluations, want 2", got)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
