package store

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestTrainingRows: the games to search for puzzles are the reviewed,
// finished ones not searched yet, the asking owner's first; a puzzle saved
// twice, or found again in another game, is kept once; the next puzzle is the owner's own first, then the
// nearest in rating, never one tried; a second attempt is refused and
// changes nothing; learn sessions read back as saved.
func TestTrainingRows(t *testing.T) { onBoth(t, testTrainingRows) }

func testTrainingRows(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	tr := s.Training()
	now := time.Now()
	a := finishedGame(t, s, "alice", now.Add(-2*time.Hour))
	b := finishedGame(t, s, "bob", now.Add(-3*time.Hour))
	unreviewed := finishedGame(t, s, "bob", now.Add(-4*time.Hour))
	for _, g := range []*Game{a, b} {
		if err := s.Reviews().SaveAnalysis(&Analysis{GameID: g.ID, Positions: 1, Complete: true}, nil, false); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		owner string
		want  []string
	}{{"", []string{b.ID, a.ID}}, {"alice", []string{a.ID, b.ID}}, {"carol", []string{b.ID, a.ID}}}
	for _, c := range cases {
		gs, err := tr.GamesToScan(c.owner, 10)
		if err != nil || len(gs) != len(c.want) || gs[0].ID != c.want[0] || gs[1].ID != c.want[1] {
			t.Errorf("to scan for %q: %v %v, want %v (not %s)", c.owner, ids(gs), err, c.want, unreviewed.ID)
		}
	}
	pz := func(game string, ply int, owner string, rating float64) Puzzle {
		return Puzzle{GameID: game, Ply: ply, Owner: owner, FEN: fmt.Sprintf("x%d", ply), LastMove: "e2e4", Line: "e7e5", Rating: rating, RD: 350, Volatility: 0.06}
	}
	if err := tr.SaveScan(b.ID, []Puzzle{pz(b.ID, 3, "bob", 1400), pz(b.ID, 5, "bob", 1900)}); err != nil {
		t.Fatal(err)
	}
	if err := tr.SaveScan(a.ID, []Puzzle{pz(a.ID, 7, "alice", 1600)}); err != nil {
		t.Fatal(err)
	}
	if err := tr.SaveScan(a.ID, []Puzzle{pz(a.ID, 7, "alice", 1000)}); err != nil {
		t.Fatal(err)
	}
	same := pz(unreviewed.ID, 9, "bob", 1500) // another game's, the position and move of b's first
	same.FEN = "x3"
	if err := tr.SaveScan(unreviewed.ID, []Puzzle{same}); err != nil {
		t.Fatal(err)
	}
	if n, _ := tr.PuzzleCount(); n != 3 {
		t.Errorf("%d puzzles, want 3", n)
	}
	if gs, _ := tr.GamesToScan("", 10); len(gs) != 0 {
		t.Errorf("searched games still to search: %v", ids(gs))
	}
	next := func(owner string, rating float64) *Puzzle {
		p, err := tr.NextPuzzle(owner, rating)
		if err != nil {
			t.Fatalf("next for %s: %v", owner, err)
		}
		return p
	}
	if p := next("alice", 1400); p.GameID != a.ID {
		t.Errorf("alice's next: %+v, want her own", p)
	}
	if p := next("carol", 1800); p.Rating != 1900 {
		t.Errorf("carol at 1800: %+v, want the 1900 one", p)
	}
	own := next("alice", 1500)
	att := &PuzzleAttempt{Owner: "alice", PuzzleID: own.ID, Win: true, RatingBefore: 1500, RatingAfter: 1600}
	pl := &PuzzlePlayer{Owner: "alice", Rating: 1600, RD: 300, Volatility: 0.06, Plays: 1}
	rated := *own
	rated.Rating = 1550
	if err := tr.SaveAttempt(att, pl, &rated); err != nil {
		t.Fatal(err)
	}
	again := &PuzzleAttempt{Owner: "alice", PuzzleID: own.ID, Win: false, RatingBefore: 1600, RatingAfter: 1200}
	if err := tr.SaveAttempt(again, &PuzzlePlayer{Owner: "alice", Rating: 1200, RD: 300, Volatility: 0.06, Plays: 2}, own); !errors.Is(err, ErrAttempted) {
		t.Errorf("a second attempt: %v", err)
	}
	if p, _ := tr.PuzzlePlayer("alice"); p.Rating != 1600 || p.Plays != 1 {
		t.Errorf("alice after two tries: %+v", p)
	}
	if p, _ := tr.Puzzle(own.ID); p.Rating != 1550 || p.Plays != 1 {
		t.Errorf("the puzzle after two tries: %+v", p)
	}
	if p := next("alice", 1600); p.GameID == a.ID {
		t.Errorf("alice's next is the one she tried: %+v", p)
	}
	if _, err := tr.LearnSession(a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("no session yet: %v", err)
	}
	for _, r := range []string{"..", "s.", "sr"} {
		if err := tr.SaveLearnSession(&LearnSession{GameID: a.ID, Results: r}); err != nil {
			t.Fatal(err)
		}
		if ls, err := tr.LearnSession(a.ID); err != nil || ls.Results != r {
			t.Errorf("session %q read back as %+v, %v", r, ls, err)
		}
	}
}

func ids(gs []Game) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return out
}
