package store

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"
)

// row returns the experience row of (key, move), failing when absent.
func row(t *testing.T, s *Store, key uint64, move string) Experience {
	t.Helper()
	rows, err := s.Learning().ExperienceFor(key)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Move == move {
			return r
		}
	}
	t.Fatalf("no row for %x %s in %+v", key, move, rows)
	return Experience{}
}

func TestExperienceRecordGame(t *testing.T) { onBoth(t, testExperienceRecordGame) }

func testExperienceRecordGame(t *testing.T, bk backend) {
	s, path := openTemp(t, bk)
	const high = uint64(0xf123456789abcdef) // a key with the top bit set
	g1 := []Lesson{
		{Key: 1, Move: "e2e4", Result: 0, Depth: 5, Weight: 0.6},
		{Key: high, Move: "g8f6", Result: 0, Depth: 1, Weight: 1},
		{Key: 1, Move: "e2e4", Result: 0, Depth: 3, Weight: 0.8}, // the same move again: counts once, nearest the end
		{Key: 2, Move: "d7d5", Result: 1, Depth: 2, Weight: 0.9},
	}
	if ok, err := s.Learning().RecordGame("g1", g1); err != nil || !ok {
		t.Fatalf("RecordGame g1: %v %v", ok, err)
	}
	if ok, err := s.Learning().RecordGame("g1", g1); err != nil || ok {
		t.Fatalf("RecordGame g1 again: %v %v, want false", ok, err)
	}
	g2 := []Lesson{
		{Key: 1, Move: "e2e4", Result: 0.5, Depth: 9, Weight: 0.5},
		{Key: 1, Move: "d2d4", Result: 1, Depth: 7, Weight: 0.5},
	}
	if ok, err := s.Learning().RecordGame("g2", g2); err != nil || !ok {
		t.Fatalf("RecordGame g2: %v %v", ok, err)
	}
	// Bad lessons change nothing, and the game is not marked learnt.
	for i, bad := range []Lesson{
		{Key: 1, Move: "", Result: 1, Depth: 1, Weight: 1},
		{Key: 1, Move: "e2e4", Result: 0.7, Depth: 1, Weight: 1},
		{Key: 1, Move: "e2e4", Result: 1, Depth: 0, Weight: 1},
		{Key: 1, Move: "e2e4", Result: 1, Depth: 1, Weight: math.NaN()},
		{Key: 1, Move: "e2e4", Result: 1, Depth: 1, Weight: 2},
		{Key: 1, Move: "e2e4e2e4e", Result: 1, Depth: 1, Weight: 1},
	} {
		id := fmt.Sprintf("bad%d", i)
		if _, err := s.Learning().RecordGame(id, []Lesson{{Key: 1, Move: "e2e4", Result: 1, Depth: 1, Weight: 1}, bad}); !errors.Is(err, errBadLesson) {
			t.Errorf("%+v: err %v", bad, err)
		}
	}
	if _, err := s.Learning().RecordGame("", g2); err == nil {
		t.Error("RecordGame without an ID: no error")
	}

	// Read through a second handle, as after a restart.
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	cases := []struct {
		key                        uint64
		move                       string
		games, wins, draws, losses int
		weight, points             float64
		depth                      int
	}{
		{1, "e2e4", 2, 0, 1, 1, 1.3, 0.25, 3},
		{1, "d2d4", 1, 1, 0, 0, 0.5, 0.5, 7},
		{high, "g8f6", 1, 0, 0, 1, 1, 0, 1},
		{2, "d7d5", 1, 1, 0, 0, 0.9, 0.9, 2},
	}
	for _, c := range cases {
		r := row(t, s2, c.key, c.move)
		if r.Games != c.games || r.Wins != c.wins || r.Draws != c.draws || r.Losses != c.losses ||
			math.Abs(r.Weight-c.weight) > 1e-9 || math.Abs(r.Points-c.points) > 1e-9 || r.Depth != c.depth || r.PositionKey() != c.key {
			t.Errorf("%x %s: got %+v, want %+v", c.key, c.move, r, c)
		}
	}
	if rows, _ := s2.Learning().ExperienceFor(3); len(rows) != 0 {
		t.Errorf("unknown key: %+v", rows)
	}
	st, err := s2.Learning().ExperienceSummary()
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != 4 || st.Positions != 3 || st.Games != 2 || st.Cap != DefaultExperienceRows || st.LastLearnt.IsZero() {
		t.Errorf("summary %+v", st)
	}
}

func TestExperienceRecordAnalysis(t *testing.T) { onBoth(t, testExperienceRecordAnalysis) }

func testExperienceRecordAnalysis(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	if _, err := s.Learning().RecordGame("g", []Lesson{{Key: 7, Move: "a2a3", Result: 0, Depth: 1, Weight: 1}}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		move      string
		cp, depth int
		wantCP    int
		wantDepth int
	}{
		{"a2a3", -120, 12, -120, 12},
		{"a2a3", 50, 8, -120, 12}, // shallower: ignored
		{"a2a3", -90, 16, -90, 16},
		{"b2b4", 30, 16, 30, 16},
	}
	for _, st := range steps {
		if err := recordAnalysis(s, 7, st.move, st.cp, st.depth); err != nil {
			t.Fatal(err)
		}
		r := row(t, s, 7, st.move)
		if r.AnalysisCP != st.wantCP || r.AnalysisDepth != st.wantDepth {
			t.Errorf("after %+v: %+v", st, r)
		}
	}
	if r := row(t, s, 7, "a2a3"); r.Games != 1 || r.Losses != 1 || r.Weight != 1 {
		t.Errorf("the game's record changed: %+v", r)
	}
	for _, bad := range []struct {
		move      string
		cp, depth int
	}{{"", 0, 5}, {"a2a3", 0, 0}, {"a2a3", 1 << 30, 5}, {"a2a3a2a3a", 0, 5}} {
		if err := recordAnalysis(s, 7, bad.move, bad.cp, bad.depth); err == nil {
			t.Errorf("RecordAnalysis%+v: no error", bad)
		}
	}
}

// TestExperienceCap: over the cap, the rows whose games say least go
// first (weight, an analysis counting as a whole game), the least
// recently taught first among equals, down to 95% of the cap.
func TestExperienceCap(t *testing.T) { onBoth(t, testExperienceCap) }

func testExperienceCap(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	s.Learning().SetExperienceCap(40)
	if s.Learning().rowCap() != 40 {
		t.Fatalf("cap %d", s.Learning().rowCap())
	}
	// Game 0 holds the valuable rows: lessons near the end and one
	// analysed row of no game weight.
	var strong []Lesson
	for i := 0; i < 10; i++ {
		strong = append(strong, Lesson{Key: uint64(1000 + i), Move: "e2e4", Result: 0, Depth: 1, Weight: 1})
	}
	if _, err := s.Learning().RecordGame("strong", strong); err != nil {
		t.Fatal(err)
	}
	if err := recordAnalysis(s, 5000, "d2d4", -200, 14); err != nil {
		t.Fatal(err)
	}
	// Then games of weak lessons, oldest first, until well over the cap.
	for g := 0; g < 6; g++ {
		var weak []Lesson
		for i := 0; i < 10; i++ {
			weak = append(weak, Lesson{Key: uint64(g*100 + i), Move: "g1f3", Result: 1, Depth: 40, Weight: 0.01})
		}
		if _, err := s.Learning().RecordGame(fmt.Sprintf("weak%d", g), weak); err != nil {
			t.Fatal(err)
		}
	}
	st, err := s.Learning().ExperienceSummary()
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows > 40 || st.Rows < 38 {
		t.Errorf("%d rows with a cap of 40", st.Rows)
	}
	for i := 0; i < 10; i++ {
		row(t, s, uint64(1000+i), "e2e4")
	}
	row(t, s, 5000, "d2d4")
	// The newest weak game survives whole; the oldest went first.
	for i := 0; i < 10; i++ {
		row(t, s, uint64(500+i), "g1f3")
	}
	if rows, _ := s.Learning().ExperienceFor(0); len(rows) != 0 {
		t.Errorf("the oldest weak row survived: %+v", rows)
	}
	s.Learning().SetExperienceCap(0)
	if s.Learning().rowCap() != DefaultExperienceRows {
		t.Errorf("cap 0: %d", s.Learning().rowCap())
	}
}

// TestExperienceConcurrent: games finishing at once all count, readers
// meanwhile see whole games or none (run with -race).
func TestExperienceConcurrent(t *testing.T) { onBoth(t, testExperienceConcurrent) }

func testExperienceConcurrent(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	const games = 24
	var wg sync.WaitGroup
	errs := make(chan error, 2*games)
	for g := 0; g < games; g++ {
		wg.Add(2)
		go func(g int) {
			defer wg.Done()
			ls := []Lesson{
				{Key: 42, Move: "e2e4", Result: float64(g%2) / 1, Depth: 1, Weight: 1},
				{Key: 43, Move: "e7e5", Result: float64(1 - g%2), Depth: 2, Weight: 1},
			}
			if _, err := s.Learning().RecordGame(fmt.Sprintf("c%d", g), ls); err != nil {
				errs <- err
			}
		}(g)
		go func() {
			defer wg.Done()
			rows, err := s.Learning().ExperienceFor(42)
			if err != nil {
				errs <- err
				return
			}
			for _, r := range rows {
				if r.Games != r.Wins+r.Draws+r.Losses {
					errs <- fmt.Errorf("torn row %+v", r)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if r := row(t, s, 42, "e2e4"); r.Games != games || r.Wins != games/2 || r.Losses != games/2 {
		t.Errorf("after %d games: %+v", games, r)
	}
}

func TestUnlearntGames(t *testing.T) { onBoth(t, testUnlearntGames) }

func testUnlearntGames(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	var ids []string
	for i := 0; i < 3; i++ {
		g := &Game{Owner: "o", Variant: "standard", StartFEN: "x", Human: White, Level: 1}
		if err := s.Games().CreateGame(g); err != nil {
			t.Fatal(err)
		}
		if i < 2 {
			g.Status, g.Result, g.Reason = StatusOver, "1-0", TerminationOf(1)
			if err := s.Games().SaveGame(g); err != nil {
				t.Fatal(err)
			}
		}
		ids = append(ids, g.ID)
	}
	got, err := s.Learning().UnlearntGames(10)
	if err != nil || len(got) != 2 {
		t.Fatalf("UnlearntGames: %d games, %v", len(got), err)
	}
	// A game learnt from, even with nothing to teach, is done with.
	if _, err := s.Learning().RecordGame(ids[0], nil); err != nil {
		t.Fatal(err)
	}
	got, _ = s.Learning().UnlearntGames(10)
	if len(got) != 1 || got[0].ID != ids[1] {
		t.Errorf("after learning %s: %+v", ids[0], got)
	}
}

func TestExperienceNotes(t *testing.T) { onBoth(t, testExperienceNotes) }

func testExperienceNotes(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	g := &Game{Owner: "o", Variant: "standard", StartFEN: "x", Human: White, Level: 1}
	if err := s.Games().CreateGame(g); err != nil {
		t.Fatal(err)
	}
	notes := []ExperienceNote{
		{Ply: 1, Move: "e7e5", Avoided: true, Losses: 2},
		{Ply: 5, Move: "g8f6", Avoided: true, Losses: 1, Draws: 1},
		{Ply: 7, Move: "d7d6", Wins: 3, AnalysisCP: 40, AnalysisDepth: 12},
	}
	g.SetNotes(notes)
	if err := s.Games().SaveGame(g); err != nil {
		t.Fatal(err)
	}
	got, err := s.Games().GetGame(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	back, err := got.Notes()
	if err != nil || len(back) != 3 || back[2] != notes[2] {
		t.Fatalf("notes %+v, %v", back, err)
	}
	if !got.KeepNotesBefore(5) {
		t.Error("a take-back to ply 5 dropped nothing")
	}
	if back, _ := got.Notes(); len(back) != 1 || back[0] != notes[0] {
		t.Errorf("after take-back: %+v", back)
	}
	if got.KeepNotesBefore(5) {
		t.Error("dropped again")
	}
	got.KeepNotesBefore(0)
	if got.ExperienceNotes != "" {
		t.Errorf("no notes left: %q", got.ExperienceNotes)
	}
	got.ExperienceNotes = "{not json"
	if n, err := got.Notes(); err == nil || n != nil {
		t.Errorf("bad column: %v %v", n, err)
	}
}

func TestRecentLearntGames(t *testing.T) { onBoth(t, testRecentLearntGames) }

func testRecentLearntGames(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	var ids []string
	for i := 0; i < 3; i++ {
		g := &Game{Owner: "o", Variant: "standard", StartFEN: "x", Human: Black, Level: i + 1, Moves: "e2e4 e7e5",
			Status: StatusOver, Result: "1-0", Reason: TerminationOf(1)}
		if err := s.Games().CreateGame(g); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Learning().RecordGame(g.ID, []Lesson{{Key: uint64(i), Move: "e2e4", Result: 1, Depth: 2, Weight: 0.9}}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
		// time itself is what is tested: newest first by learnt_at, so each game needs an instant of its own
		time.Sleep(2 * time.Millisecond)
	}
	got, err := s.Learning().RecentLearntGames(2)
	if err != nil || len(got) != 2 {
		t.Fatalf("%d games, %v", len(got), err)
	}
	if got[0].GameID != ids[2] || got[0].Level != 3 || got[0].Human != Black || got[0].Result != "1-0" ||
		got[0].Reason.Termination != 1 || got[0].Lessons != 1 || got[0].Moves != "e2e4 e7e5" || got[0].LearntAt.IsZero() || got[1].GameID != ids[1] {
		t.Errorf("got %+v", got)
	}
}

// TestExperienceRecordAnalysesBatch: a batch is written whole, and one
// invalid entry refuses it all, writing nothing.
func TestExperienceRecordAnalysesBatch(t *testing.T) { onBoth(t, testExperienceRecordAnalysesBatch) }

func testExperienceRecordAnalysesBatch(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	bad := []AnalysedMove{{Key: 9, Move: "e2e4", CP: 30, Depth: 12}, {Key: 9, Move: "", CP: 0, Depth: 12}}
	if err := s.Learning().RecordAnalyses(bad); err == nil {
		t.Fatal("a batch with an empty move: no error")
	}
	if rows, err := s.Learning().ExperienceFor(9); err != nil || len(rows) != 0 {
		t.Fatalf("after a refused batch: %v, %v; want nothing written", rows, err)
	}
	good := []AnalysedMove{{Key: 9, Move: "e2e4", CP: 30, Depth: 12}, {Key: 9, Move: "g2g4", CP: -180, Depth: 12}, {Key: 10, Move: "e7e5", CP: -25, Depth: 11}}
	if err := s.Learning().RecordAnalyses(good); err != nil {
		t.Fatal(err)
	}
	for _, m := range good {
		if r := row(t, s, m.Key, m.Move); r.AnalysisCP != m.CP || r.AnalysisDepth != m.Depth || r.Games != 0 {
			t.Errorf("%+v stored as %+v", m, r)
		}
	}
}

// recordAnalysis stores one analysed move (see Learning.RecordAnalyses).
func recordAnalysis(s *Store, key uint64, move string, cp, depth int) error {
	return s.Learning().RecordAnalyses([]AnalysedMove{{Key: key, Move: move, CP: cp, Depth: depth}})
}
