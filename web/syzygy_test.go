package web

import (
	"context"
	"io"
	"log"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"knightwatch/game"
	"knightwatch/store"
)

// syzygyConfig is a server configuration with real engines and the given
// SyzygyPath.
func syzygyConfig(t *testing.T, path string) Config {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "kw.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return Config{
		Store: st, Templates: fallbackTemplates, Static: fstest.MapFS{"app.js": {Data: []byte("//js")}},
		NewSearcher: NewEngineSearcher, Searchers: 2, Levels: EngineLevels(),
		ReplyPause: -1, Logger: log.New(io.Discard, "", 0), MatchEvery: -1,
		SyzygyPath: path,
	}
}

// TestSyzygyPathGivesEnginesTables: a server started with SyzygyPath
// makes engines that probe the tables (they see a tablebase win in KRvK
// at once); without it they have none.
func TestSyzygyPathGivesEnginesTables(t *testing.T) {
	for _, path := range []string{"../syzygy/testdata", ""} {
		srv, err := New(syzygyConfig(t, path))
		if err != nil {
			t.Fatal(err)
		}
		got := srv.pool.all // no game runs: every searcher is idle
		if len(got) != 3 {  // two and the quick lane's one
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
			r := p.s.Search(context.Background(), pos, nil, SearchRequest{Level: len(EngineLevels()), MoveTime: 100 * time.Millisecond})
			if r.Mate <= 0 && r.CP < 19000 {
				t.Errorf("KRvK: %+v, want a tablebase win", r)
			}
		}
		srv.Close()
		if path != "" && srv.tb.MaxPieces() != 4 {
			t.Error("tables lost")
		}
	}
}

// TestSyzygyPathBad: a path that cannot be read, or that holds no table,
// fails New with an error naming it.
func TestSyzygyPathBad(t *testing.T) {
	empty := t.TempDir()
	for _, path := range []string{filepath.Join(empty, "missing"), empty} {
		srv, err := New(syzygyConfig(t, path))
		if err == nil {
			srv.Close()
			t.Fatalf("%s: no error", path)
		}
		if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "Syzygy") {
			t.Errorf("%s: %v", path, err)
		}
	}
}
