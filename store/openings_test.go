package store

import (
	"errors"
	"testing"
	"time"
)

// TestOpeningSavedWithGame: the opening is one of the columns SaveGame
// writes, and FinishedGames reads it back.
func TestOpeningSavedWithGame(t *testing.T) { onBoth(t, testOpeningSavedWithGame) }

func testOpeningSavedWithGame(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	g := &Game{Owner: "o", Variant: "standard", StartFEN: "x", Human: White, Level: 1}
	if err := s.Games().CreateGame(g); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Games().GetGame(g.ID); got.Opening != nil {
		t.Fatalf("a new game has opening %q", *got.Opening)
	}
	name := "B20 Sicilian Defense"
	now := time.Now()
	g.Moves, g.Status, g.Result, g.FinishedAt, g.Opening = "e2e4 c7c5", StatusOver, "1-0", &now, &name
	if err := s.Games().SaveGame(g); err != nil {
		t.Fatal(err)
	}
	fin, err := s.Games().FinishedGames("o", 10)
	if err != nil || len(fin) != 1 {
		t.Fatalf("FinishedGames: %v %v", fin, err)
	}
	if fin[0].Opening == nil || *fin[0].Opening != name {
		t.Errorf("opening %v, want %q", fin[0].Opening, name)
	}
}

// TestSaveOpenings: names are filled in for games that have none (an old
// row, loaded with none), never over a stored one; "" (no named position)
// is a name, not NULL; an unknown game is passed over. On SQLite the rows
// are an old file's; PostgreSQL has no old files, and the rows are new
// ones without an opening.
func TestSaveOpenings(t *testing.T) { onBoth(t, testSaveOpenings) }

func testSaveOpenings(t *testing.T, bk backend) {
	ids := []string{"g_old", "g_none", "g_named"}
	var s *Store
	if bk.name == sqliteDB.name {
		var err error
		s, err = Open(oldDatabase(t, insertGame("g_old", "white", "over", "resignation"), insertGame("g_none", "white", "over", "resignation"),
			insertGame("g_named", "white", "over", "resignation")))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
	} else {
		s, _ = openTemp(t, bk)
		for _, id := range ids {
			g := &Game{ID: id, Owner: "o", Variant: "standard", StartFEN: "x", Human: White, Level: 1, Status: StatusOver, Result: "0-1"}
			if err := s.Games().CreateGame(g); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, id := range ids {
		if g, err := s.Games().GetGame(id); err != nil || g.Opening != nil {
			t.Fatalf("old row %s: %v %v, want no opening", id, g, err)
		}
	}
	if err := s.Games().SaveOpenings(map[string]string{"g_named": "C60 Ruy Lopez"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Games().SaveOpenings(map[string]string{"g_old": "B20 Sicilian Defense", "g_none": "", "g_named": "A00 Amar Opening", "g_missing": "A00 Amar Opening"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ id, want string }{
		{"g_old", "B20 Sicilian Defense"},
		{"g_none", ""},
		{"g_named", "C60 Ruy Lopez"},
	} {
		g, err := s.Games().GetGame(c.id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Opening == nil || *g.Opening != c.want {
			t.Errorf("%s: opening %v, want %q", c.id, g.Opening, c.want)
		}
	}
	if _, err := s.Games().GetGame("g_missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("SaveOpenings made a game: %v", err)
	}
}
