package enginepool

import (
	"context"

	"knightwatch/engine"
	"knightwatch/game"
	"knightwatch/gaviota"
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
// from the games, not from Lazy SMP. It is Config.NewSearcher's default.
func NewEngineSearcher() Searcher {
	return EngineSearcher(engine.New(engine.Options{HashMB: 16, Threads: 1, OwnBook: true}))
}

// EngineSearcher adapts e, an engine made elsewhere (with options or a
// seed of its own), to Searcher; its hash table and threads are e's.
func EngineSearcher(e *engine.Engine) Searcher { return &engineSearcher{e: e} }

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
	var onInfo func(engine.Info)
	var second Line
	if req.SecondBest {
		// The engine serves every game: MultiPV is this search's only.
		s.e.SetMultiPV(2)
		defer s.e.SetMultiPV(1)
		onInfo = func(in engine.Info) {
			switch {
			case in.MultiPV == 1:
				second = Line{} // a new iteration
			case in.MultiPV == 2 && len(in.PV) > 0:
				second = Line{Move: in.PV[0], CP: in.Score.CP, Mate: in.Score.Mate}
			}
		}
	}
	r := s.e.Search(ctx, pos, history, lim, onInfo)
	return SearchResult{Move: r.Move, CP: r.Score.CP, Mate: r.Score.Mate, Depth: r.Depth, Experience: r.Experience, Second: second}
}

// NewGame implements Searcher.
func (s *engineSearcher) NewGame() { s.e.NewGame() }

// setTablebase gives the engine Syzygy tables (Config.SyzygyPath).
func (s *engineSearcher) setTablebase(tb *syzygy.Tablebase) { s.e.SetTablebase(tb) }

// setGaviota gives the engine Gaviota tables (Config.GaviotaPath).
func (s *engineSearcher) setGaviota(tb *gaviota.Tablebase) { s.e.SetGaviota(tb) }

// tablebaseUser is a Searcher that can probe Syzygy and Gaviota tables:
// the real engine is one, tests' fakes are not.
type tablebaseUser interface {
	setTablebase(tb *syzygy.Tablebase)
	setGaviota(tb *gaviota.Tablebase)
}

// Levels returns the engine's difficulty levels, for the new-game form
// and the level each game plays at.
func Levels() []LevelInfo {
	out := make([]LevelInfo, len(engine.Levels))
	for i, l := range engine.Levels {
		out[i] = LevelInfo{Number: l.Number, Name: l.Name, Description: l.Description, MoveTime: l.MoveTime, ApproxElo: l.ApproxElo}
	}
	return out
}
