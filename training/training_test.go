package training

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/review"
	"knightwatch/store"
)

// blunderFEN: 1. Qa4?? drops the queen to the rook on a2 (the e2e
// review test's game).
const blunderFEN = "4k3/8/8/8/8/8/r7/3QK3 w - - 0 1"

// blunderGame is 1. Qa4 Rxa4 from blunderFEN, with a review that judges
// 1. Qa4 a blunder.
func blunderGame(t *testing.T) (*game.Game, []store.AnalysisPly) {
	t.Helper()
	g, err := game.NewGameFromFEN(blunderFEN)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"d1a4", "a2a4"} {
		if _, err := g.PlayMove(u); err != nil {
			t.Fatal(err)
		}
	}
	plies := []store.AnalysisPly{
		{Ply: 0, CP: 400, BestUCI: "d1e2", BestSAN: "Qe2"},
		{Ply: 1, CP: -500, BestUCI: "a2a4", BestSAN: "Rxa4", Judgement: store.Blunder},
		{Ply: 2, CP: -500, BestUCI: "e1d2", BestSAN: "Kd2"},
	}
	return g, plies
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "kw.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestMistakes: the player's mistakes and blunders, each with what
// happened in words; the opponent's and lesser ones are left out.
func TestMistakes(t *testing.T) {
	g, plies := blunderGame(t)
	cases := []struct {
		name  string
		human game.Color
		edit  func([]store.AnalysisPly)
		want  []string
	}{
		{"the queen lost", game.White, nil, []string{"You played Qa4+ and lost your queen."}},
		{"the opponent's move", game.Black, nil, nil},
		{"an inaccuracy is not listed", game.White, func(p []store.AnalysisPly) { p[1].Judgement = store.Inaccuracy }, nil},
		{"a mate allowed", game.White, func(p []store.AnalysisPly) { p[1].CP, p[1].Mate = 0, -3 }, []string{"You played Qa4+ and allowed a forced mate."}},
		{"no capture: winning chances", game.White, func(p []store.AnalysisPly) { p[1].BestUCI = "e8d7" }, []string{fmt.Sprintf("You played Qa4+: your winning chances went from %.0f%% to %.0f%%.", review.WinPercent(review.Eval{CP: 400}), review.WinPercent(review.Eval{CP: -500}))}},
	}
	for _, c := range cases {
		ps := append([]store.AnalysisPly(nil), plies...)
		if c.edit != nil {
			c.edit(ps)
		}
		var got []string
		for _, m := range Mistakes(g, c.human, ps) {
			got = append(got, m.Said)
			if m.Ply != 0 || m.Played != "d1a4" || m.Best != "d1e2" || m.FEN != blunderFEN {
				t.Errorf("%s: %+v", c.name, m)
			}
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if m := Mistakes(g, game.White, plies[:2]); m != nil {
		t.Errorf("an incomplete review gave %v", m)
	}
}

// fakeLive answers every search with one score for the side to move.
type fakeLive struct {
	cp       int
	searches int
}

func (f *fakeLive) Search(_ context.Context, _, _ string, pos *game.Position, _ []uint64, _ enginepool.SearchRequest) (enginepool.SearchResult, bool) {
	f.searches++
	return enginepool.SearchResult{Move: pos.LegalMoves()[0], CP: f.cp}, true
}

// TestCheck: a tried move is good when the review would not judge it
// against the position's evaluation (+4 for White here), searched as the
// player's work; the best move needs no search; the game's move and an
// illegal one are told apart.
func TestCheck(t *testing.T) {
	g, plies := blunderGame(t)
	mk := Mistakes(g, game.White, plies)[0]
	cases := []struct {
		move     string
		blackCP  int // the search's score after the move, for Black to move
		good     bool
		same     bool
		err      error
		searched bool
	}{
		{"d1e2", 0, true, false, nil, false},
		{"d1a4", 0, false, true, nil, false},
		{"d1d2", -380, true, false, nil, true},
		{"d1d8", 600, false, false, nil, true},
		{"d1h8", 0, false, false, ErrIllegal, false},
		{"zz", 0, false, false, ErrIllegal, false},
	}
	for _, c := range cases {
		f := &fakeLive{cp: c.blackCP}
		v, err := Checker{Engine: f}.Check(context.Background(), "o", "g", g, mk, c.move)
		if !errors.Is(err, c.err) || v.Good != c.good || v.Same != c.same || (f.searches > 0) != c.searched {
			t.Errorf("%s: %+v, %v (%d searches)", c.move, v, err, f.searches)
		}
	}
}

// TestSessionResumes: a learn session's results are kept: a good move
// marks the position solved, the next page load starts at the next one,
// a try at another position is refused and changes nothing.
func TestSessionResumes(t *testing.T) {
	st := openStore(t)
	g, plies := blunderGame(t)
	rec := &store.Game{Owner: "o1", Variant: store.VariantStandard, StartFEN: blunderFEN, Human: store.ColorOf(game.White), Level: 1, Status: store.StatusOver, Result: "0-1"}
	rec.SetMoveList(g.UCIMoves())
	if err := st.Games().CreateGame(rec); err != nil {
		t.Fatal(err)
	}
	s := Sessions{Store: st, Checker: Checker{Engine: &fakeLive{cp: 600}}}
	if ls, _, err := s.State(rec); err != nil || ls.Ready {
		t.Fatalf("before the review: %+v, %v", ls, err)
	}
	for i := range plies {
		plies[i].GameID = rec.ID
	}
	if err := st.Reviews().SaveAnalysis(&store.Analysis{GameID: rec.ID, Positions: 3, Complete: true}, plies, false); err != nil {
		t.Fatal(err)
	}
	ls, _, err := s.State(rec)
	if err != nil || !ls.Ready || len(ls.Mistakes) != 1 || ls.Current != 0 || ls.Results != "." {
		t.Fatalf("reviewed: %+v, %v", ls, err)
	}
	if _, _, err := s.Try(context.Background(), rec, 1, "d1e2"); !errors.Is(err, ErrWrongPosition) {
		t.Errorf("a try at position 1: %v", err)
	}
	if ls, v, err := s.Try(context.Background(), rec, 0, "d1d8"); err != nil || v.Good || ls.Current != 0 {
		t.Errorf("a bad try: %+v %+v %v", ls, v, err)
	}
	if ls, v, err := s.Try(context.Background(), rec, 0, "d1e2"); err != nil || !v.Good || ls.Current != 1 || ls.Results != "s" {
		t.Errorf("the best move: %+v %+v %v", ls, v, err)
	}
	if ls, _, err := s.State(rec); err != nil || ls.Current != 1 || ls.Results != "s" {
		t.Errorf("read again: %+v %v", ls, err)
	}
	if _, err := s.Give(rec, 0, Skipped); !errors.Is(err, ErrWrongPosition) {
		t.Errorf("skipping a done position: %v", err)
	}
	if ls, err := s.Restart(rec); err != nil || ls.Current != 0 {
		t.Errorf("restart: %+v %v", ls, err)
	}
	if ls, err := s.Give(rec, 0, Shown); err != nil || ls.Results != "r" {
		t.Errorf("the solution shown: %+v %v", ls, err)
	}
}
