package enginepool

import (
	"context"
	"time"

	"knightwatch/engine"
	"knightwatch/game"
)

// An analysis (the analysis board's live engine lines) is engine work of
// its owner like a search, but open-ended: it goes on until the person
// leaves the position. Holding a searcher for all that time would break
// the pool's bounds (every one of them rests on a search ending within one
// long search), so Analyse slices it into chunks:
//
//   - Each chunk is a live request of the owner, budget AnalysisRequest.Chunk
//     (AnalysisChunk, 1 s: shorter than a level-8 search), on a regular
//     searcher; never the quick lane, whose bounds rest on its requests
//     being short replies. Between chunks the analysis queues again like
//     any request, so a live reply waits at most one chunk for it, and an
//     owner who analyses for long has a large usage and goes behind those
//     who have not.
//   - The chunks search the same position again: the searcher's hash
//     table keeps what the earlier chunks found (unless another game used
//     the searcher between them), so each chunk goes deeper. Lines are
//     reported only when they are deeper than those already reported.
//   - The analysis ends when ctx ends (the position changes, the page is
//     hidden, the socket closes), when AnalysisRequest.Total engine time
//     is spent, or when a chunk ends before its time (a mate proven, a
//     position with one move: a deeper search says nothing new).
//
// Each chunk is charged to the owner like a search: the time it took.

// AnalysisChunk is the longest one chunk of an analysis holds a searcher
// unless AnalysisRequest.Chunk says otherwise.
const AnalysisChunk = time.Second

// AnalysisRequest is what an analysis asks for.
type AnalysisRequest struct {
	// MultiPV is how many best lines to report, 1..engine.MaxMultiPV.
	MultiPV int
	// Chunk is the longest one chunk holds a searcher (AnalysisChunk
	// when zero).
	Chunk time.Duration
	// Total ends the analysis once its chunks have taken this much engine
	// time (no end when zero).
	Total time.Duration
}

// AnalysisLine is one line of an analysis: the best line of rank Rank
// (1 = best) at Depth, its score from the side to move's point of view,
// and its moves.
type AnalysisLine struct {
	Rank, Depth int
	CP, Mate    int
	Nodes       uint64
	PV          []game.Move
}

// Analyser is a Searcher that reports each completed iteration's lines as
// it deepens (the real engine is one); a Searcher that is not gives one
// line per chunk, its result's.
type Analyser interface {
	// Analyse searches pos with multiPV lines until ctx ends or the search
	// is complete, calling onLine for every line of every completed
	// iteration; it reports whether the search ended by itself (before
	// ctx).
	Analyse(ctx context.Context, pos *game.Position, history []uint64, multiPV int, onLine func(AnalysisLine)) (complete bool)
}

// Analyse runs an analysis of pos (with history, as for Search) for owner
// as the notes above describe, calling onDepth in the calling goroutine
// with the lines of each completed depth deeper than those reported
// before, best first (fewer than MultiPV where the position has fewer
// moves); onDepth must not keep the slice. id names the analysis as a game ID names a game (the searcher's
// hash table is kept between chunks of the same id). It returns the
// engine time its chunks took, when ctx ends or the analysis is complete.
func (p *Pool) Analyse(ctx context.Context, owner, id string, pos *game.Position, history []uint64, req AnalysisRequest, onDepth func([]AnalysisLine)) time.Duration {
	chunk := req.Chunk
	if chunk <= 0 {
		chunk = AnalysisChunk
	}
	multiPV := min(max(req.MultiPV, 1), engine.MaxMultiPV)
	var used time.Duration
	reported := 0 // the deepest depth whose lines were all sent
	for ctx.Err() == nil && (req.Total <= 0 || used < req.Total) {
		budget := chunk
		if req.Total > 0 {
			budget = min(chunk, req.Total-used)
		}
		e := p.hold(ctx, owner, budget, false)
		if e == nil {
			break
		}
		start := time.Now()
		complete := p.analyseChunk(ctx, e, id, pos, history, multiPV, budget, &reported, onDepth)
		took := time.Since(start)
		p.release(owner, budget, e, took)
		used += took
		if complete {
			break
		}
	}
	return used
}

// analyseChunk runs one chunk on e for at most budget, sending lines
// deeper than *reported.
func (p *Pool) analyseChunk(ctx context.Context, e *pooled, id string, pos *game.Position, history []uint64, multiPV int, budget time.Duration, reported *int, onDepth func([]AnalysisLine)) (complete bool) {
	if e.lastGame != id {
		e.s.NewGame()
		e.lastGame = id
	}
	cctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	// Lines come rank by rank for each depth: a depth is reported once
	// whole, so that the page never shows two depths at once.
	var pending []AnalysisLine
	flush := func() {
		if len(pending) > 0 && pending[0].Depth > *reported {
			*reported = pending[0].Depth
			onDepth(pending)
		}
		pending = pending[:0]
	}
	collect := func(l AnalysisLine) {
		if len(pending) > 0 && pending[0].Depth != l.Depth {
			flush()
		}
		pending = append(pending, l)
		if len(pending) >= multiPV {
			flush()
		}
	}
	if a, ok := e.s.(Analyser); ok {
		complete = a.Analyse(cctx, pos, history, multiPV, collect)
		flush()
		return complete && ctx.Err() == nil
	}
	// A plain Searcher gives one line per chunk, numbered as one depth
	// more than the last; one that answers well within its budget has
	// nothing more to find (a fake, or a position with one move).
	start := time.Now()
	r := e.s.Search(cctx, pos, history, SearchRequest{Level: 8, MoveTime: budget, Evaluate: true})
	if r.Move != game.NoMove {
		collect(AnalysisLine{Rank: 1, Depth: max(r.Depth, *reported+1), CP: r.CP, Mate: r.Mate, PV: []game.Move{r.Move}})
		flush()
	}
	return time.Since(start) < budget/2 && ctx.Err() == nil
}

// Analyse implements Analyser: a full-strength search without a book,
// multiPV lines, until ctx ends or the search has nothing more to find.
// The searcher's MultiPV is set back to one for the games' searches.
func (s *engineSearcher) Analyse(ctx context.Context, pos *game.Position, history []uint64, multiPV int, onLine func(AnalysisLine)) bool {
	s.e.SetLevel(8)
	s.e.SetBook(false, "")
	s.e.SetMultiPV(multiPV)
	defer s.e.SetMultiPV(1)
	var ml game.MoveList
	pos.GenerateLegal(&ml)
	if ml.N == 0 {
		return true
	}
	// Depth 0 with Infinite: iterate until ctx ends; the engine stops on
	// its own at its deepest depth.
	s.e.Search(ctx, pos, history, engine.Limits{Infinite: true}, func(in engine.Info) {
		onLine(AnalysisLine{Rank: max(in.MultiPV, 1), Depth: in.Depth, CP: in.Score.CP, Mate: in.Score.Mate, Nodes: in.Nodes, PV: in.PV})
	})
	return ctx.Err() == nil
}
