package store

import (
	"errors"
	"testing"
)

// TestStudies: a player saves, lists, updates, loads and deletes their
// analyses; another player reaches none of them.
func TestStudies(t *testing.T) { onBoth(t, testStudies) }

func testStudies(t *testing.T, b backend) {
	s, _ := openTemp(t, b)
	st := s.Studies()
	a := &SavedAnalysis{UserID: 1, Name: "Najdorf idea", StartFEN: "start", PGN: "1. e4 c5 *"}
	if err := st.Save(a); err != nil {
		t.Fatal(err)
	}
	if a.ID == 0 {
		t.Fatal("no ID after saving")
	}
	second := &SavedAnalysis{UserID: 1, Name: "second", StartFEN: "start", PGN: "1. d4 *"}
	if err := st.Save(second); err != nil {
		t.Fatal(err)
	}
	a.PGN, a.Name = "1. e4 c5 (1... e5) *", "Najdorf, with e5"
	if err := st.Save(a); err != nil {
		t.Fatal(err)
	}
	list, err := st.List(1)
	if err != nil || len(list) != 2 || list[0].ID != a.ID || list[0].PGN != "" {
		t.Fatalf("list %+v %v: want the updated one first, without PGN", list, err)
	}
	got, err := st.Get(1, a.ID)
	if err != nil || got.PGN != a.PGN || got.Name != a.Name {
		t.Fatalf("get: %+v %v", got, err)
	}
	cases := []struct {
		name string
		err  error
	}{
		{"another's get", func() error { _, err := st.Get(2, a.ID); return err }()},
		{"another's update", st.Save(&SavedAnalysis{ID: a.ID, UserID: 2, Name: "x", PGN: "*"})},
		{"another's delete", st.Delete(2, a.ID)},
	}
	for _, c := range cases {
		if !errors.Is(c.err, ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound", c.name, c.err)
		}
	}
	if err := st.Delete(1, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get(1, a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("after delete: %v", err)
	}
}
