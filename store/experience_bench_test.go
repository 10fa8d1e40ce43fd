package store

import (
	"fmt"
	"testing"
)

// fullExperience fills s's experience table to its default cap with
// synthetic rows (8 moves in each of 25,000 positions, keys spread over
// the positive 63-bit range) in one statement, as a long-used server's.
func fullExperience(b *testing.B, s *Store) {
	b.Helper()
	err := s.db.Exec(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1)
INSERT INTO experiences (key, move, games, wins, draws, losses, weight, points, depth, analysis_cp, analysis_depth, updated_at)
SELECT (i / 8) * 368934881474191 + 1, 'm' || (i % 8), 1, 0, 0, 1, 0.5, 0, 9, 0, 0, datetime('now') FROM n`, DefaultExperienceRows).Error
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkExperienceFor is the engine's cost per move: the one indexed
// read of its root position's rows, in a table at its cap (8 rows found),
// and for a position the table does not know.
func BenchmarkExperienceFor(b *testing.B) {
	s, err := Open(b.TempDir() + "/kw.db")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	fullExperience(b, s)
	for _, c := range []struct {
		name string
		key  uint64
		rows int
	}{{"known", uint64(1234*368934881474191 + 1), 8}, {"unknown", 42, 0}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				rows, err := s.Learning().ExperienceFor(c.key)
				if err != nil || len(rows) != c.rows {
					b.Fatalf("%d rows, %v", len(rows), err)
				}
			}
		})
	}
}

// BenchmarkRecordGame is learning from one finished game of 80 plies into
// a table at its cap: one transaction, the eviction included (one game in
// about 125 trims 5% of the table).
func BenchmarkRecordGame(b *testing.B) {
	s, err := Open(b.TempDir() + "/kw.db")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	fullExperience(b, s)
	i := 0
	for b.Loop() {
		i++
		lessons := make([]Lesson, 80)
		for p := range lessons {
			lessons[p] = Lesson{Key: uint64(i*1000 + p), Move: "e2e4", Result: 1, Depth: 80 - p, Weight: 0.5}
		}
		if _, err := s.Learning().RecordGame(fmt.Sprintf("g%d", i), lessons); err != nil {
			b.Fatal(err)
		}
	}
}
