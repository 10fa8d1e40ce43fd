package enginepool

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/gaviota"
)

// TestGaviotaPathGivesEnginesTables: a pool made with GaviotaPath (Debian's
// tables, which scripts/deps.sh installs) makes engines that play the
// tables' shortest mate, and hands the tables out; without it there are
// none. A path that cannot be read or holds no table fails New, naming it.
func TestGaviotaPathGivesEnginesTables(t *testing.T) {
	pool, err := New(Config{NewSearcher: NewEngineSearcher, Searchers: 1, GaviotaPath: gaviota.DebianPath})
	if err != nil {
		t.Fatalf("%v (scripts/deps.sh installs Debian's gaviotatb)", err)
	}
	defer pool.Close()
	gtb := pool.Gaviota()
	if gtb == nil || gtb.MaxPieces() != 3 {
		t.Fatalf("pool's Gaviota tables: %v", gtb)
	}
	pos, err := game.ParseFEN("8/8/8/8/8/1k6/7q/K7 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	want, err := gtb.ProbeDTM(pos)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pool.all {
		if p.s.(*engineSearcher).e.Options().Gaviota != gtb {
			t.Fatal("an engine without the pool's tables")
		}
		r := p.s.Search(context.Background(), pos, nil, SearchRequest{Level: 1, MoveTime: 50 * time.Millisecond})
		child := *pos
		child.MakeMove(r.Move)
		if got, err := gtb.ProbeDTM(&child); err != nil || got != -(want-1) {
			t.Errorf("level 1 played %s, reaching DTM %d (%v), want %d", r.Move, got, err, -(want - 1))
		}
	}
	plain, err := New(Config{NewSearcher: NewEngineSearcher, Searchers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Gaviota() != nil {
		t.Error("Gaviota tables without GaviotaPath")
	}
	plain.Close()
	empty := t.TempDir()
	for _, path := range []string{filepath.Join(empty, "missing"), empty} {
		pool, err := New(Config{NewSearcher: NewEngineSearcher, Searchers: 1, GaviotaPath: path})
		if err == nil {
			pool.Close()
			t.Fatalf("%s: no error", path)
		}
		if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "Gaviota") {
			t.Errorf("%s: %v", path, err)
		}
	}
}
