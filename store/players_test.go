package store

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// seedPlayerGames writes chess games for the player-page tests: alice's
// finished games a1..a6 (finished a1 first, a6 last; a0 finished without
// a time, as old rows are), one of hers unfinished and one deleted, and
// bob's finished one. It returns the short names by ID.
func seedPlayerGames(t *testing.T, s *Store) map[string]string {
	t.Helper()
	base := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	seed := []struct {
		name, owner string
		status      Status
		human       Color
		level       int
		result      string
		at          int // minutes after base it finished; -1: no finishing time
	}{
		{"a0", "alice", StatusOver, White, 2, "0-1", -1},
		{"a1", "alice", StatusOver, White, 1, "1-0", 1},
		{"a2", "alice", StatusOver, Black, 1, "1-0", 2},
		{"a3", "alice", StatusOver, Black, 1, "0-1", 3},
		{"a4", "alice", StatusOver, White, 3, "1/2-1/2", 4},
		{"a5", "alice", StatusOver, Black, 3, "1/2-1/2", 5},
		{"a6", "alice", StatusOver, White, 1, "1-0", 6},
		{"ap", "alice", StatusPlaying, White, 1, "*", -1},
		{"ad", "alice", StatusDeleted, White, 1, "*", 7},
		{"b1", "bob", StatusOver, White, 5, "0-1", 8},
	}
	names := map[string]string{}
	for _, g := range seed {
		rec := &Game{ID: "g_" + g.name, Owner: g.owner, Variant: "standard", StartFEN: "x", Human: g.human, Level: g.level,
			Status: g.status, Result: g.result, CreatedAt: base, UpdatedAt: base}
		if g.at >= 0 {
			f := base.Add(time.Duration(g.at) * time.Minute)
			rec.FinishedAt = &f
		}
		if err := s.Games().CreateGame(rec); err != nil {
			t.Fatal(err)
		}
		names[rec.ID] = g.name
	}
	return names
}

// TestFinishedGamesPage: a player's finished games, newest first (one
// without a finishing time last), a page at a time, with the whole count;
// nobody else's, no unfinished or deleted one.
func TestFinishedGamesPage(t *testing.T) { onBoth(t, testFinishedGamesPage) }

func testFinishedGamesPage(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	names := seedPlayerGames(t, s)
	tests := []struct {
		owner         string
		offset, limit int
		want          []string
		count         int64
		err           error
	}{
		{"alice", 0, 50, []string{"a6", "a5", "a4", "a3", "a2", "a1", "a0"}, 7, nil},
		{"alice", 0, 3, []string{"a6", "a5", "a4"}, 7, nil},
		{"alice", 3, 3, []string{"a3", "a2", "a1"}, 7, nil},
		{"alice", 6, 3, []string{"a0"}, 7, nil},
		{"alice", 7, 3, []string{}, 7, nil},
		{"alice", 100, 3, []string{}, 7, nil},
		{"bob", 0, 50, []string{"b1"}, 1, nil},
		{"nobody", 0, 50, []string{}, 0, nil},
		{"", 0, 50, []string{}, 0, nil},
		{"alice", -1, 50, nil, 0, ErrBadPage},
		{"alice", 0, 0, nil, 0, ErrBadPage},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s-%d-%d", tc.owner, tc.offset, tc.limit), func(t *testing.T) {
			gs, n, err := s.Games().FinishedGamesPage(tc.owner, tc.offset, tc.limit)
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			got := []string{}
			for _, g := range gs {
				got = append(got, names[g.ID])
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) || n != tc.count {
				t.Errorf("got %v (count %d), want %v (count %d)", got, n, tc.want, tc.count)
			}
		})
	}
}

// TestFinishedGameIDsAndOwnedGames: the export's IDs in the page's order,
// and the games of a batch of them loaded in that order, none of another
// owner's.
func TestFinishedGameIDsAndOwnedGames(t *testing.T) {
	onBoth(t, func(t *testing.T, bk backend) {
		s, _ := openTemp(t, bk)
		names := seedPlayerGames(t, s)
		short := func(ids []string) []string {
			out := []string{}
			for _, id := range ids {
				out = append(out, names[id])
			}
			return out
		}
		for _, tc := range []struct {
			owner string
			want  []string
		}{
			{"alice", []string{"a6", "a5", "a4", "a3", "a2", "a1", "a0"}},
			{"bob", []string{"b1"}},
			{"nobody", []string{}},
			{"", []string{}},
		} {
			ids, err := s.Games().FinishedGameIDs(tc.owner)
			if err != nil || fmt.Sprint(short(ids)) != fmt.Sprint(tc.want) {
				t.Errorf("%q: %v, %v; want %v", tc.owner, short(ids), err, tc.want)
			}
		}
		for _, tc := range []struct {
			owner string
			ids   []string
			want  []string
		}{
			{"alice", []string{"g_a2", "g_a6", "g_a0"}, []string{"a2", "a6", "a0"}},
			{"alice", []string{"g_b1", "g_a1", "g_missing"}, []string{"a1"}},
			{"bob", []string{"g_a1"}, []string{}},
			{"alice", nil, []string{}},
			{"", []string{"g_a1"}, []string{}},
		} {
			gs, err := s.Games().OwnedGames(tc.owner, tc.ids)
			got := []string{}
			for _, g := range gs {
				got = append(got, names[g.ID])
			}
			if err != nil || fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("%q %v: %v, %v; want %v", tc.owner, tc.ids, got, err, tc.want)
			}
		}
	})
}

// TestRecordByLevel: wins, draws and losses per level from the player's
// side, whichever colour the player had; unfinished and deleted games and
// other players' count nowhere.
func TestRecordByLevel(t *testing.T) {
	onBoth(t, func(t *testing.T, bk backend) {
		s, _ := openTemp(t, bk)
		seedPlayerGames(t, s)
		for _, tc := range []struct {
			owner string
			want  []LevelRecord
		}{
			// a1 (white, 1-0) and a6 won, a2 (black, 1-0) lost, a3 (black, 0-1) won;
			// a0 (white, 0-1) lost at level 2; a4 and a5 drawn at level 3.
			{"alice", []LevelRecord{{Level: 1, Wins: 3, Losses: 1}, {Level: 2, Losses: 1}, {Level: 3, Draws: 2}}},
			{"bob", []LevelRecord{{Level: 5, Losses: 1}}},
			{"nobody", []LevelRecord{}},
			{"", []LevelRecord{}},
		} {
			got, err := s.Games().RecordByLevel(tc.owner)
			if err != nil || fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("%q: %v, %v; want %v", tc.owner, got, err, tc.want)
			}
		}
	})
}

// TestFinishedReconGames: a player's finished Reconnaissance Chess games,
// newest first, cut at the limit with the whole count.
func TestFinishedReconGames(t *testing.T) {
	onBoth(t, func(t *testing.T, bk backend) {
		s, _ := openTemp(t, bk)
		base := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
		for _, g := range []struct {
			id, owner string
			status    Status
			at        int
		}{
			{"r_a1", "alice", StatusOver, 1},
			{"r_a2", "alice", StatusOver, 3},
			{"r_a3", "alice", StatusOver, 2},
			{"r_ap", "alice", StatusPlaying, 4},
			{"r_b1", "bob", StatusOver, 5},
		} {
			f := base.Add(time.Duration(g.at) * time.Minute)
			rec := &ReconGame{ID: g.id, Owner: g.owner, Human: White, Opponent: "random", Status: g.status, CreatedAt: base, UpdatedAt: f}
			if g.status == StatusOver {
				rec.FinishedAt = &f
			}
			if err := s.Games().CreateReconGame(rec); err != nil {
				t.Fatal(err)
			}
		}
		for _, tc := range []struct {
			owner string
			limit int
			want  []string
			count int64
			err   error
		}{
			{"alice", 10, []string{"r_a2", "r_a3", "r_a1"}, 3, nil},
			{"alice", 2, []string{"r_a2", "r_a3"}, 3, nil},
			{"bob", 10, []string{"r_b1"}, 1, nil},
			{"nobody", 10, []string{}, 0, nil},
			{"", 10, []string{}, 0, nil},
			{"alice", 0, nil, 0, ErrBadPage},
		} {
			gs, n, err := s.Games().FinishedReconGames(tc.owner, tc.limit)
			if !errors.Is(err, tc.err) {
				t.Errorf("%q %d: error %v, want %v", tc.owner, tc.limit, err, tc.err)
				continue
			}
			if err != nil {
				continue
			}
			got := []string{}
			for _, g := range gs {
				got = append(got, g.ID)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) || n != tc.count {
				t.Errorf("%q %d: %v (count %d), want %v (count %d)", tc.owner, tc.limit, got, n, tc.want, tc.count)
			}
		}
	})
}

// TestCompleteAnalyses: the complete reviews of the games asked for, and
// nothing for a game whose review is unfinished or missing.
func TestCompleteAnalyses(t *testing.T) {
	onBoth(t, func(t *testing.T, bk backend) {
		s, _ := openTemp(t, bk)
		seedPlayerGames(t, s)
		acc := 87.5
		for _, a := range []*Analysis{
			{GameID: "g_a1", Settings: "x", Positions: 1, Complete: true, WhiteAccuracy: &acc},
			{GameID: "g_a2", Settings: "x", Positions: 1, Complete: false},
			{GameID: "g_b1", Settings: "x", Positions: 1, Complete: true},
		} {
			if err := s.Reviews().SaveAnalysis(a, nil, false); err != nil {
				t.Fatal(err)
			}
		}
		for _, tc := range []struct {
			ids  []string
			want []string
		}{
			{[]string{"g_a1", "g_a2", "g_a3"}, []string{"g_a1"}},
			{[]string{"g_a1", "g_b1"}, []string{"g_a1", "g_b1"}},
			{nil, []string{}},
		} {
			got, err := s.Reviews().CompleteAnalyses(tc.ids)
			if err != nil || len(got) != len(tc.want) {
				t.Errorf("%v: %v, %v; want %v", tc.ids, got, err, tc.want)
				continue
			}
			for _, id := range tc.want {
				if _, ok := got[id]; !ok {
					t.Errorf("%v: %s missing", tc.ids, id)
				}
			}
		}
		if got, _ := s.Reviews().CompleteAnalyses([]string{"g_a1"}); got["g_a1"].WhiteAccuracy == nil || *got["g_a1"].WhiteAccuracy != acc {
			t.Errorf("a1's accuracy: %+v", got["g_a1"])
		}
	})
}
