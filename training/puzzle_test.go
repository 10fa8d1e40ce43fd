package training

import (
	"context"
	"errors"
	"testing"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/store"
)

// realPool is an engine pool of one real searcher.
func realPool(t *testing.T) *enginepool.Pool {
	t.Helper()
	p, err := enginepool.New(enginepool.Config{NewSearcher: enginepool.NewEngineSearcher, Searchers: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// TestFind: the real engine finds the one puzzle of the blunder game
// (after 1. Qa4+??, Black's only winning move Rxa4, which wins the
// queen; after it every move wins, so the line ends there), and none in
// a game whose review judged nothing, without a search.
func TestFind(t *testing.T) {
	pool := realPool(t)
	g, plies := blunderGame(t)
	rec := &store.Game{ID: "g_1", Owner: "o1"}
	opts := FindOptions{Nodes: 50_000}
	got, searches, alive := Find(context.Background(), pool, opts, rec, g, plies)
	if !alive || len(got) != 1 {
		t.Fatalf("%d puzzles (alive %v): %+v", len(got), alive, got)
	}
	p := got[0]
	if p.Ply != 1 || p.FEN != blunderFEN || p.LastMove != "d1a4" || p.Line != "a2a4" || p.Mate || p.Owner != "o1" || searches < 3 {
		t.Errorf("puzzle %+v after %d searches", p, searches)
	}
	quiet := append([]store.AnalysisPly(nil), plies...)
	quiet[1].Judgement = store.NoJudgement
	if got, searches, _ := Find(context.Background(), pool, opts, rec, g, quiet); len(got) != 0 || searches != 0 {
		t.Errorf("no judged move: %d puzzles, %d searches", len(got), searches)
	}
	// A mate: Black's 1... a6?? allows 2. Rd8#, White's only mate (other
	// moves win too, but a mate is unique when the second is none).
	mg, err := game.NewGameFromFEN("6k1/p4ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mg.PlayMove("a7a6"); err != nil {
		t.Fatal(err)
	}
	mp := []store.AnalysisPly{{CP: 500, BestUCI: "h7h6"}, {Mate: 1, Judgement: store.Blunder, BestUCI: "d1d8"}}
	got, _, _ = Find(context.Background(), pool, opts, rec, mg, mp)
	if len(got) != 1 || got[0].Line != "d1d8" || !got[0].Mate {
		t.Errorf("the back-rank mate: %+v", got)
	}
}

// TestPuzzlePlay: a wrong move fails the puzzle and lowers the player's
// rating, the solution shown; a second attempt is not rated; another
// player solving it gains; moves that are not the line are refused.
func TestPuzzlePlay(t *testing.T) {
	st := openStore(t)
	r := NewRating()
	pz := []store.Puzzle{{GameID: "g_1", Ply: 1, Owner: "o1", FEN: blunderFEN, LastMove: "d1a4", Line: "a2a4", Rating: r.R, RD: r.RD, Volatility: r.Vol}}
	if err := st.Training().SaveScan("g_1", pz); err != nil {
		t.Fatal(err)
	}
	p, err := st.Training().NextPuzzle("o2", StartRating)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := Solver(p); err != nil || c != game.Black {
		t.Errorf("solver %v, %v", c, err)
	}
	play := Puzzles{Store: st}
	cases := []struct {
		owner   string
		moves   []string
		giveUp  bool
		correct bool
		counted bool
		err     error
	}{
		{"o2", []string{"e8f8"}, false, false, true, nil},
		{"o2", []string{"a2a4"}, false, true, false, nil},
		{"o3", []string{"a2a4"}, false, true, true, nil},
		{"o4", []string{"a2a4", "e1d2"}, false, false, false, ErrBadMoves},
		{"o4", []string{"h2h4"}, false, false, false, ErrIllegal},
		{"o4", nil, true, false, true, nil},
	}
	for _, c := range cases {
		s, err := play.Play(c.owner, p, c.moves, c.giveUp)
		if !errors.Is(err, c.err) || s.Correct != c.correct || s.Counted != c.counted {
			t.Errorf("%s %v: %+v, %v", c.owner, c.moves, s, err)
			continue
		}
		if err == nil && (!s.Done || len(s.Solution) != 1) {
			t.Errorf("%s %v: not over: %+v", c.owner, c.moves, s)
		}
		if s.Counted && (s.After > s.Before) != c.correct {
			t.Errorf("%s %v: rating %.0f -> %.0f", c.owner, c.moves, s.Before, s.After)
		}
	}
	if _, err := st.Training().NextPuzzle("o2", StartRating); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("o2's next puzzle after trying the only one: %v", err)
	}
	after, _ := st.Training().Puzzle(p.ID)
	if after.Plays != 3 {
		t.Errorf("the puzzle was rated %d times, want 3", after.Plays)
	}
}
