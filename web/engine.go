package web

import (
	"context"
	"fmt"

	"knightwatch/engine"
	"knightwatch/game"
	"knightwatch/syzygy"
)

// engineSearcher adapts the Knightwatch engine to Searcher. The pool's
// engines serve every game, so each search sets the level it plays at.
type engineSearcher struct {
	e *engine.Engine
}

// NewEngineSearcher returns a Searcher backed by a new engine with a
// small hash table (16 MB) and one thread: the pool runs one engine per
// core (and one more for short requests, pool.go), so parallelism comes
// from the games, not from Lazy SMP.
func NewEngineSearcher() Searcher {
	return &engineSearcher{e: engine.New(engine.Options{HashMB: 16, Threads: 1, OwnBook: true})}
}

// Search implements Searcher.
func (s *engineSearcher) Search(ctx context.Context, pos *game.Position, history []uint64, req SearchRequest) SearchResult {
	s.e.SetLevel(req.Level)
	// A Polyglot book is for standard chess; its moves carry no score.
	s.e.SetBook(!req.Evaluate && !pos.Chess960(), "")
	var lim engine.Limits
	if req.WTime > 0 || req.BTime > 0 {
		// The engine budgets from its clock; MoveTime caps it at the
		// level's time (the first limit reached stops the search).
		lim = engine.Limits{WTime: req.WTime, BTime: req.BTime, WInc: req.WInc, BInc: req.BInc, MoveTime: req.MoveTime}
	} else if req.MoveTime > 0 {
		lim.MoveTime = req.MoveTime
	}
	lim.Experience = req.Experience
	lim.Nodes = req.Nodes
	r := s.e.Search(ctx, pos, history, lim, nil)
	return SearchResult{Move: r.Move, CP: r.Score.CP, Mate: r.Score.Mate, Depth: r.Depth, Experience: r.Experience}
}

// setTablebase gives the engine Syzygy tables (Config.SyzygyPath).
func (s *engineSearcher) setTablebase(tb *syzygy.Tablebase) { s.e.SetTablebase(tb) }

// tablebaseUser is a Searcher that can probe Syzygy tables: the real
// engine is one, tests' fakes are not.
type tablebaseUser interface {
	setTablebase(tb *syzygy.Tablebase)
}

// withTablebase opens Config.SyzygyPath's tables, if set, and returns a
// maker of searchers that gives them to every searcher able to use them
// (those of NewEngineSearcher); all share the one set of tables, which
// Close closes. Tables that cannot be read, or none found, are an error.
func (s *Server) withTablebase(mk func() Searcher) (func() Searcher, error) {
	path := s.cfg.SyzygyPath
	if path == "" {
		return mk, nil
	}
	tb, err := syzygy.Open(path)
	if err != nil {
		return nil, fmt.Errorf("web: Syzygy tables %q: %w", path, err)
	}
	if wdl, _ := tb.NumTables(); wdl == 0 {
		tb.Close()
		return nil, fmt.Errorf("web: Syzygy tables %q: no %s table found", path, syzygy.WDLSuffix)
	}
	s.tb = tb
	return func() Searcher {
		sr := mk()
		if u, ok := sr.(tablebaseUser); ok {
			u.setTablebase(tb)
		}
		return sr
	}, nil
}

// closeTablebase closes Config.SyzygyPath's tables, if open.
func (s *Server) closeTablebase() {
	if s.tb != nil {
		s.tb.Close()
	}
}

// NewGame implements Searcher.
func (s *engineSearcher) NewGame() { s.e.NewGame() }

// EngineLevels returns the engine's difficulty levels for Config.Levels.
func EngineLevels() []LevelInfo {
	out := make([]LevelInfo, len(engine.Levels))
	for i, l := range engine.Levels {
		out[i] = LevelInfo{Number: l.Number, Name: l.Name, Description: l.Description, MoveTime: l.MoveTime, ApproxElo: l.ApproxElo}
	}
	return out
}
