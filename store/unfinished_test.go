package store

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestUnfinishedGames: the list of a person's unfinished games holds
// every unfinished game of that owner and nothing else, most recently
// active first, cut at the limit while the count stays whole.
func TestUnfinishedGames(t *testing.T) { onBoth(t, testUnfinishedGames) }

func testUnfinishedGames(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	// name -> owner, status, minutes after base of the last activity
	seed := []struct {
		name, owner string
		status      Status
		at          int
	}{
		{"a1", "alice", StatusPlaying, 10},
		{"a2", "alice", StatusPlaying, 30},
		{"a3", "alice", StatusPlaying, 20},
		{"a4", "alice", StatusOver, 40},
		{"a5", "alice", StatusDeleted, 50},
		{"b1", "bob", StatusPlaying, 60},
		{"b2", "bob", StatusOver, 5},
		{"c1", "carol", StatusOver, 1},
	}
	ids := map[string]string{}
	for _, g := range seed {
		rec := &Game{ID: "g_" + g.name, Owner: g.owner, Variant: "standard", StartFEN: "x", Human: White, Level: 1,
			Status: g.status, CreatedAt: base, UpdatedAt: base.Add(time.Duration(g.at) * time.Minute)}
		if err := s.Games().CreateGame(rec); err != nil {
			t.Fatal(err)
		}
		ids[rec.ID] = g.name
	}
	tests := []struct {
		owner string
		limit int
		want  []string
		count int64
	}{
		{"alice", 50, []string{"a2", "a3", "a1"}, 3},
		{"alice", 2, []string{"a2", "a3"}, 3},
		{"alice", 0, []string{}, 3},
		{"bob", 50, []string{"b1"}, 1},
		{"carol", 50, []string{}, 0},
		{"nobody", 50, []string{}, 0},
		{"", 50, []string{}, 0},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s-%d", tc.owner, tc.limit), func(t *testing.T) {
			gs, n, err := s.Games().UnfinishedGames(tc.owner, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, g := range gs {
				got = append(got, ids[g.ID])
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) || n != tc.count {
				t.Errorf("got %v (count %d), want %v (count %d)", got, n, tc.want, tc.count)
			}
		})
	}
}

// TestUnfinishedReconGames: the same for Reconnaissance Chess.
func TestUnfinishedReconGames(t *testing.T) { onBoth(t, testUnfinishedReconGames) }

func testUnfinishedReconGames(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	mk := func(id, owner string, st Status, at int) {
		t.Helper()
		g := &ReconGame{ID: id, Owner: owner, Human: Black, Opponent: "random", Status: st,
			CreatedAt: base, UpdatedAt: base.Add(time.Duration(at) * time.Minute)}
		if err := s.Games().CreateReconGame(g); err != nil {
			t.Fatal(err)
		}
	}
	mk("r_1", "alice", StatusPlaying, 1)
	mk("r_2", "alice", StatusPlaying, 3)
	mk("r_3", "alice", StatusOver, 9)
	mk("r_4", "bob", StatusPlaying, 7)
	for _, tc := range []struct {
		owner string
		limit int
		want  string
		count int64
	}{
		{"alice", 50, "[r_2 r_1]", 2},
		{"alice", 1, "[r_2]", 2},
		{"bob", 50, "[r_4]", 1},
		{"carol", 50, "[]", 0},
	} {
		gs, n, err := s.Games().UnfinishedReconGames(tc.owner, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, g := range gs {
			got = append(got, g.ID)
		}
		if fmt.Sprint(got) != tc.want && !(tc.want == "[]" && len(got) == 0) || n != tc.count {
			t.Errorf("%s/%d: got %v (count %d), want %s (count %d)", tc.owner, tc.limit, got, n, tc.want, tc.count)
		}
	}
}

// TestDeleteGame: only the owner's unfinished game is deleted, softly: it
// still loads (as deleted) but is listed nowhere.
func TestDeleteGame(t *testing.T) { onBoth(t, testDeleteGame) }

func testDeleteGame(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	mk := func(owner string, st Status) string {
		t.Helper()
		g := &Game{Owner: owner, Variant: "standard", StartFEN: "x", Human: White, Level: 1, Status: st}
		if err := s.Games().CreateGame(g); err != nil {
			t.Fatal(err)
		}
		return g.ID
	}
	playing, over, bobs := mk("alice", StatusPlaying), mk("alice", StatusOver), mk("bob", StatusPlaying)
	tests := []struct {
		name, id, owner string
		wantErr         error
		wantStatus      Status
	}{
		{"someone else's", bobs, "alice", ErrNotFound, StatusPlaying},
		{"no owner", playing, "", ErrNotFound, StatusPlaying},
		{"finished", over, "alice", ErrNotFound, StatusOver},
		{"missing", "g_nope", "alice", ErrNotFound, StatusUnset},
		{"own unfinished", playing, "alice", nil, StatusDeleted},
		{"twice", playing, "alice", ErrNotFound, StatusDeleted},
	}
	for _, tc := range tests {
		err := s.Games().DeleteGame(tc.id, tc.owner)
		if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
			t.Errorf("%s: err %v, want %v", tc.name, err, tc.wantErr)
		}
		if tc.wantStatus == StatusUnset {
			continue
		}
		g, err := s.Games().GetGame(tc.id)
		if err != nil || g.Status != tc.wantStatus {
			t.Errorf("%s: after: %v %v, want status %v", tc.name, g, err, tc.wantStatus)
		}
	}
	if gs, n, _ := s.Games().UnfinishedGames("alice", 50); len(gs) != 0 || n != 0 {
		t.Errorf("deleted game still listed: %d %v", n, gs)
	}
	if g, _ := s.Games().LatestUnfinished("alice"); g != nil {
		t.Errorf("deleted game is still the one to continue: %s", g.ID)
	}
	if gs, _ := s.Games().FinishedGames("alice", 50); len(gs) != 1 || gs[0].ID != over {
		t.Errorf("finished games after the delete: %v", gs)
	}
	r := &ReconGame{Owner: "alice", Human: White, Opponent: "random"}
	if err := s.Games().CreateReconGame(r); err != nil {
		t.Fatal(err)
	}
	if err := s.Games().DeleteReconGame(r.ID, "bob"); !errors.Is(err, ErrNotFound) {
		t.Errorf("bob deleted alice's recon game: %v", err)
	}
	if err := s.Games().DeleteReconGame(r.ID, "alice"); err != nil {
		t.Fatal(err)
	}
	if g, err := s.Games().GetReconGame(r.ID); err != nil || g.Status != StatusDeleted {
		t.Errorf("recon game after delete: %v %v", g, err)
	}
}
