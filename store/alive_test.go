package store

import (
	"errors"
	"testing"
	"time"

	"knightwatch/game"
)

func TestAlive(t *testing.T) { onBoth(t, testAlive) }

func testAlive(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	if _, ok := s.LastAlive(); ok {
		t.Error("alive before any mark")
	}
	for _, at := range []time.Time{time.Now().Add(-time.Hour), time.Now()} {
		if err := s.MarkAlive(at); err != nil {
			t.Fatal(err)
		}
		if got, ok := s.LastAlive(); !ok || got.Sub(at).Abs() > time.Millisecond {
			t.Errorf("last alive %v (%v), marked %v", got, ok, at)
		}
	}
}

// SetGameClock writes the clocks of either kind of game, and nothing else
// (its last activity stays).
func TestSetGameClock(t *testing.T) { onBoth(t, testSetGameClock) }

func testSetGameClock(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	g := &Game{Owner: "o", Variant: "standard", StartFEN: game.StartFEN, Human: ColorOf(game.White), Level: 1, ClockInitialMS: 60000}
	r := &ReconGame{Owner: "o", Human: ColorOf(game.White), Opponent: "random", ClockInitialMS: 60000}
	if err := s.CreateGame(g); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateReconGame(r); err != nil {
		t.Fatal(err)
	}
	// To the microsecond: what PostgreSQL keeps of a time.
	since := time.Now().Add(-time.Minute).Truncate(time.Microsecond)
	for _, tc := range []struct {
		id    string
		since *time.Time
	}{{g.ID, &since}, {r.ID, &since}, {g.ID, nil}, {r.ID, nil}} {
		if err := s.SetGameClock(tc.id, 1234, 5678, tc.since); err != nil {
			t.Fatal(err)
		}
		var w, b int64
		var at *time.Time
		var updated time.Time
		if gg, err := s.GetGame(tc.id); err == nil {
			w, b, at, updated = gg.WhiteMS, gg.BlackMS, gg.ClockSince, gg.UpdatedAt
		} else if rr, err := s.GetReconGame(tc.id); err == nil {
			w, b, at, updated = rr.WhiteMS, rr.BlackMS, rr.ClockSince, rr.UpdatedAt
		} else {
			t.Fatal(err)
		}
		if w != 1234 || b != 5678 || (at == nil) != (tc.since == nil) || at != nil && !at.Equal(*tc.since) {
			t.Errorf("%s: clocks %d %d since %v, want 1234 5678 since %v", tc.id, w, b, at, tc.since)
		}
		if !updated.Equal(g.UpdatedAt) && !updated.Equal(r.UpdatedAt) {
			t.Errorf("%s: updated_at moved to %v", tc.id, updated)
		}
	}
	if err := s.SetGameClock("g_nothere", 1, 1, nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("a missing game: %v", err)
	}
}
