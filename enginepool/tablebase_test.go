package enginepool

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"knightwatch/game"
)

// syzygyConfig is a pool configuration with real engines and the given
// SyzygyPath.
func syzygyConfig(path string) Config {
	return Config{NewSearcher: NewEngineSearcher, Searchers: 2, SyzygyPath: path}
}

// TestSyzygyPathGivesEnginesTables: a pool made with SyzygyPath makes
// engines that probe the tables (they see a tablebase win in KRvK at
// once); without it they have none.
func TestSyzygyPathGivesEnginesTables(t *testing.T) {
	for _, path := range []string{"../syzygy/testdata", ""} {
		pool, err := New(syzygyConfig(path))
		if err != nil {
			t.Fatal(err)
		}
		got := pool.all    // no game runs: every searcher is idle
		if len(got) != 3 { // two and the quick lane's one
			t.Fatalf("%d searchers", len(got))
		}
		for _, p := range got {
			es, ok := p.s.(*engineSearcher)
			if !ok {
				t.Fatalf("searcher %T", p.s)
			}
			tb := es.e.Options().Tablebase
			if path == "" {
				if tb != nil {
					t.Error("tables without SyzygyPath")
				}
				continue
			}
			if tb == nil || tb.MaxPieces() != 4 {
				t.Fatalf("engine without the tables: %v", tb)
			}
			pos, err := game.ParseFEN("8/8/8/3k4/8/8/8/R3K3 w - - 0 1")
			if err != nil {
				t.Fatal(err)
			}
			r := p.s.Search(context.Background(), pos, nil, SearchRequest{Level: len(Levels()), MoveTime: 100 * time.Millisecond})
			if r.Mate <= 0 && r.CP < 19000 {
				t.Errorf("KRvK: %+v, want a tablebase win", r)
			}
		}
		pool.Close()
		if path != "" && pool.tb.MaxPieces() != 4 {
			t.Error("tables lost")
		}
	}
}

// TestSyzygyPathBad: a path that cannot be read, or that holds no table,
// fails New with an error naming it.
func TestSyzygyPathBad(t *testing.T) {
	empty := t.TempDir()
	for _, path := range []string{filepath.Join(empty, "missing"), empty} {
		pool, err := New(syzygyConfig(path))
		if err == nil {
			pool.Close()
			t.Fatalf("%s: no error", path)
		}
		if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "Syzygy") {
			t.Errorf("%s: %v", path, err)
		}
	}
}
