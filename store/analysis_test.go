package store

import (
	"errors"
	"testing"
	"time"
)

func TestJudgementText(t *testing.T) {
	for _, tc := range []struct {
		j    Judgement
		text string
	}{{NoJudgement, ""}, {Inaccuracy, "inaccuracy"}, {Mistake, "mistake"}, {Blunder, "blunder"}} {
		b, err := tc.j.MarshalText()
		if err != nil || string(b) != tc.text {
			t.Errorf("%d: MarshalText %q, %v; want %q", tc.j, b, err, tc.text)
		}
		var back Judgement
		if err := back.UnmarshalText([]byte(tc.text)); err != nil || back != tc.j {
			t.Errorf("%q: UnmarshalText %d, %v", tc.text, back, err)
		}
	}
	var j Judgement
	if err := j.UnmarshalText([]byte("brilliant")); err == nil {
		t.Error("an unknown judgement was read without error")
	}
	if _, err := Judgement(9).MarshalText(); err == nil {
		t.Error("an invalid judgement was written without error")
	}
}

func finishedGame(t *testing.T, s *Store, owner string, at time.Time) *Game {
	t.Helper()
	g := &Game{Owner: owner, Variant: "standard", StartFEN: "x", Human: White, Level: 1, Status: StatusOver, Result: "1-0", FinishedAt: &at}
	if err := s.Games().CreateGame(g); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestAnalysisRoundTrip: a review saved in parts, then completed, reads
// back whole from another handle on the file (a restarted server); a
// reset drops the plies of the earlier settings.
func TestAnalysisRoundTrip(t *testing.T) { onBoth(t, testAnalysisRoundTrip) }

func testAnalysisRoundTrip(t *testing.T, bk backend) {
	s, path := openTemp(t, bk)
	g := finishedGame(t, s, "o", time.Now())
	if _, _, err := s.Reviews().GameAnalysis(g.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("before any review: %v, want ErrNotFound", err)
	}
	a := &Analysis{GameID: g.ID, Settings: "nodes=1", Positions: 3}
	first := []AnalysisPly{{GameID: g.ID, Ply: 0, CP: 20, Depth: 9, BestUCI: "e2e4", BestSAN: "e4"}}
	if err := s.Reviews().SaveAnalysis(a, first, true); err != nil {
		t.Fatal(err)
	}
	w, b := 91.5, 40.25
	a.Complete, a.WhiteAccuracy, a.BlackAccuracy, a.BlackBlunders = true, &w, &b, 1
	rest := []AnalysisPly{
		{GameID: g.ID, Ply: 1, CP: 35, Depth: 9, BestUCI: "g8f6", BestSAN: "Nf6"},
		{GameID: g.ID, Ply: 2, Mate: 2, Depth: 7, BestUCI: "d1h5", BestSAN: "Qh5", Judgement: Blunder},
	}
	if err := s.Reviews().SaveAnalysis(a, rest, false); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got, plies, err := s2.Reviews().GameAnalysis(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Complete || got.Settings != "nodes=1" || got.Positions != 3 || got.WhiteAccuracy == nil || *got.WhiteAccuracy != w ||
		*got.BlackAccuracy != b || got.BlackBlunders != 1 {
		t.Errorf("row: %+v", got)
	}
	want := append(first, rest...)
	if len(plies) != len(want) {
		t.Fatalf("%d plies, want %d", len(plies), len(want))
	}
	for i := range want {
		if plies[i] != want[i] {
			t.Errorf("ply %d: %+v, want %+v", i, plies[i], want[i])
		}
	}
	// Started again with other settings: the old plies go.
	if err := s.Reviews().SaveAnalysis(&Analysis{GameID: g.ID, Settings: "nodes=2", Positions: 3}, nil, true); err != nil {
		t.Fatal(err)
	}
	got, plies, err = s.Reviews().GameAnalysis(g.ID)
	if err != nil || got.Complete || got.Settings != "nodes=2" || len(plies) != 0 {
		t.Errorf("after a reset: %+v, %d plies, %v", got, len(plies), err)
	}
	if err := s.Reviews().SaveAnalysis(&Analysis{GameID: g.ID}, []AnalysisPly{{GameID: "other", Ply: 0}}, false); err == nil {
		t.Error("a ply of another game was saved")
	}
}

// TestGamesToAnalyse: the queue a restarted server rebuilds holds the
// finished games since reviews began that have no complete review, and
// those with an incomplete one whenever they finished; not games being
// played, complete reviews, or games finished before reviews began.
func TestGamesToAnalyse(t *testing.T) { onBoth(t, testGamesToAnalyse) }

func testGamesToAnalyse(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	since, err := s.Reviews().AnalysisSince()
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.Reviews().AnalysisSince()
	if err != nil || !again.Equal(since) {
		t.Fatalf("AnalysisSince changed: %v then %v (%v)", since, again, err)
	}
	before := finishedGame(t, s, "o", since.Add(-time.Hour))
	beforeHalf := finishedGame(t, s, "o", since.Add(-2*time.Hour))
	none := finishedGame(t, s, "o", since.Add(time.Minute))
	half := finishedGame(t, s, "p", since.Add(2*time.Minute))
	done := finishedGame(t, s, "p", since.Add(3*time.Minute))
	playing := &Game{Owner: "o", Variant: "standard", StartFEN: "x", Human: White, Level: 1}
	if err := s.Games().CreateGame(playing); err != nil {
		t.Fatal(err)
	}
	for _, a := range []*Analysis{
		{GameID: beforeHalf.ID, Settings: "s", Positions: 5},
		{GameID: half.ID, Settings: "s", Positions: 5},
		{GameID: done.ID, Settings: "s", Positions: 5, Complete: true},
	} {
		if err := s.Reviews().SaveAnalysis(a, nil, false); err != nil {
			t.Fatal(err)
		}
	}
	gs, err := s.Reviews().GamesToAnalyse(since)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, g := range gs {
		ids = append(ids, g.ID)
	}
	want := []string{beforeHalf.ID, none.ID, half.ID}
	if len(ids) != len(want) {
		t.Fatalf("queued %v, want %v (not %s)", ids, want, before.ID)
	}
	for i := range want {
		if ids[i] != want[i] {
			t.Errorf("queued %v, want %v", ids, want)
			break
		}
	}
}
