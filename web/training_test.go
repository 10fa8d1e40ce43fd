package web

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/store"
	"knightwatch/training"
)

// TestTrainingPostsRefused: the learn and puzzle posts refuse a
// cross-origin page, a browser without a session, a body that is not
// theirs, a too large one, another's game and a missing puzzle, each with
// its status and changing nothing; the one good post is recorded once.
func TestTrainingPostsRefused(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	r := training.NewRating()
	if err := e.store.Training().SaveScan("g_x", []store.Puzzle{{GameID: "g_x", Ply: 1, Owner: "someone", FEN: "4k3/8/8/8/8/8/r7/3QK3 w - - 0 1",
		LastMove: "d1a4", Line: "a2a4", Rating: r.R, RD: r.RD, Volatility: r.Vol}}); err != nil {
		t.Fatal(err)
	}
	p, err := e.store.Training().NextPuzzle("x", 1500)
	if err != nil {
		t.Fatal(err)
	}
	c := e.browser()
	resp, err := c.Get(e.ts.URL + "/puzzles")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") == "" {
		t.Fatalf("/puzzles: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	mine := e.newGame(c, form("white", "1", "standard", "none"))
	other := e.newGame(e.browser(), form("white", "1", "standard", "none"))
	move := "/puzzles/" + itoa(int(p.ID)) + "/move"
	cases := []struct {
		name, path, origin, body string
		client                   *http.Client
		want                     int
	}{
		{"cross-origin", move, "http://evil.example", `{"moves":["a2a4"]}`, c, http.StatusForbidden},
		{"no session", move, "", `{"moves":["a2a4"]}`, http.DefaultClient, http.StatusForbidden},
		{"not JSON", move, "", `moves=a2a4`, c, http.StatusBadRequest},
		{"unknown field", move, "", `{"moves":["a2a4"],"win":true}`, c, http.StatusBadRequest},
		{"too large", move, "", `{"moves":["` + strings.Repeat("a", 3000) + `"]}`, c, http.StatusRequestEntityTooLarge},
		{"not the line", move, "", `{"moves":["a2a4","e1d2","a4a1"]}`, c, http.StatusConflict},
		{"missing puzzle", "/puzzles/999/move", "", `{"moves":["a2a4"]}`, c, http.StatusNotFound},
		{"bad id", "/puzzles/x/move", "", `{"moves":["a2a4"]}`, c, http.StatusNotFound},
		{"another's game", "/game/" + other + "/learn", "", `{"index":0,"move":"e2e4"}`, c, http.StatusNotFound},
		{"a game not over", "/game/" + mine + "/learn", "", `{"index":0,"move":"e2e4"}`, c, http.StatusNotFound},
		{"learn: bad action", "/game/" + mine + "/learn", "", `{"index":0,"action":"win"}`, c, http.StatusBadRequest},
	}
	for _, tc := range cases {
		req, _ := http.NewRequest(http.MethodPost, e.ts.URL+tc.path, bytes.NewBufferString(tc.body))
		req.Header.Set("Content-Type", "application/json")
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		resp, err := tc.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want || !strings.Contains(string(b), `"error"`) {
			t.Errorf("%s: %d %s, want %d and an error in words", tc.name, resp.StatusCode, b, tc.want)
		}
	}
	if n, _ := e.store.Training().PuzzleCount(); n != 1 {
		t.Errorf("%d puzzles", n)
	}
	if after, _ := e.store.Training().Puzzle(p.ID); after.Plays != 0 {
		t.Errorf("refused posts rated the puzzle %d times", after.Plays)
	}
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+move, strings.NewReader(`{"moves":["a2a4"]}`))
	resp, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the solution: %d", resp.StatusCode)
	}
	if after, _ := e.store.Training().Puzzle(p.ID); after.Plays != 1 {
		t.Errorf("the puzzle was rated %d times, want 1", after.Plays)
	}
	for _, path := range []string{"/game/" + other + "/learn", "/game/" + other + "/learn.json", "/puzzles/999", "/puzzles/0"} {
		resp, err := c.Get(e.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d", path, resp.StatusCode)
		}
	}
	if _, err := e.store.Training().LearnSession(other); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a learn session of another's game: %v", err)
	}
}

// gateSearcher tells started of each search and holds it until release
// closes.
type gateSearcher struct {
	started chan struct{}
	release chan struct{}
}

func (g *gateSearcher) Search(ctx context.Context, pos *game.Position, _ []uint64, _ enginepool.SearchRequest) enginepool.SearchResult {
	g.started <- struct{}{}
	select {
	case <-g.release:
	case <-ctx.Done():
	}
	return enginepool.SearchResult{Move: firstMove(pos), CP: 500, Depth: 1}
}

func (g *gateSearcher) NewGame() {}

// TestLearnOneTryAtATime: while a player's tried move is searched, a
// second try is refused with 429 in words, and the first is answered.
func TestLearnOneTryAtATime(t *testing.T) {
	gate := &gateSearcher{started: make(chan struct{}, 4), release: make(chan struct{})}
	e := newEnv(t, envOpts{searcher: gate})
	c := e.browser()
	made, err := e.store.Games().GetGame(e.newGame(c, form("white", "1", "standard", "none")))
	if err != nil {
		t.Fatal(err)
	}
	rec := &store.Game{Owner: made.Owner, Variant: store.VariantStandard, StartFEN: "4k3/8/8/8/8/8/r7/3QK3 w - - 0 1",
		Human: store.ColorOf(game.White), Level: 1, Status: store.StatusOver, Result: "0-1"}
	rec.SetMoveList([]string{"d1a4", "a2a4"})
	if err := e.store.Games().CreateGame(rec); err != nil {
		t.Fatal(err)
	}
	plies := []store.AnalysisPly{
		{GameID: rec.ID, Ply: 0, CP: 400, BestUCI: "d1e2", BestSAN: "Qe2"},
		{GameID: rec.ID, Ply: 1, CP: -500, BestUCI: "a2a4", BestSAN: "Rxa4", Judgement: store.Blunder},
		{GameID: rec.ID, Ply: 2, CP: -500},
	}
	if err := e.store.Reviews().SaveAnalysis(&store.Analysis{GameID: rec.ID, Positions: 3, Complete: true}, plies, false); err != nil {
		t.Fatal(err)
	}
	post := func() (int, string) {
		resp, err := c.Post(e.ts.URL+"/game/"+rec.ID+"/learn", "application/json", strings.NewReader(`{"index":0,"move":"d1d2"}`))
		if err != nil {
			t.Error(err)
			return 0, ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	type answer struct {
		status int
		body   string
	}
	first := make(chan answer, 1)
	go func() {
		s, b := post()
		first <- answer{s, b}
	}()
	<-gate.started
	if s, b := post(); s != http.StatusTooManyRequests || !strings.Contains(b, "one at a time") {
		t.Errorf("a second try meanwhile: %d %s", s, b)
	}
	close(gate.release)
	if a := <-first; a.status != http.StatusOK || !strings.Contains(a.body, `"verdict"`) {
		t.Errorf("the first try: %d %s", a.status, a.body)
	}
	if s, b := post(); s != http.StatusOK {
		t.Errorf("a try after it: %d %s", s, b)
	}
}
