package web

import (
	"context"
	"time"

	"knightwatch/game"
)

// SearchRequest is what the web game asks of an engine for one move.
type SearchRequest struct {
	Level int
	// MoveTime caps the search (the level's time per move, or less for a
	// draw evaluation). Zero means the level's own time.
	MoveTime time.Duration
	// Clock fields are zero for an untimed game; when set, the engine
	// budgets its time from them, never beyond MoveTime.
	WTime, BTime, WInc, BInc time.Duration
	// Evaluate asks for an honest evaluation rather than a move to play
	// (a draw offer): no opening book, whose moves carry no score.
	Evaluate bool
}

// SearchResult is an engine's answer: the move and its score from the
// point of view of the side to move.
type SearchResult struct {
	Move game.Move
	CP   int // centipawns
	Mate int // mate in N (negative: the side to move gets mated); 0 when none seen
	// Depth is how deep the search went; 0 for a book move, whose score
	// means nothing.
	Depth int
}

// Searcher is the part of an engine the web game uses. The real engine is
// adapted to it in engine.go; tests substitute quick deterministic ones.
type Searcher interface {
	// Search returns a move for the side to move in pos (a legal one
	// whenever one exists, even when ctx is cancelled early).
	Search(ctx context.Context, pos *game.Position, history []uint64, req SearchRequest) SearchResult
	// NewGame forgets what the searcher learnt in another game.
	NewGame()
}

// LevelInfo describes a difficulty level for the new-game form and the
// state message.
type LevelInfo struct {
	Number      int
	Name        string
	Description string
	MoveTime    time.Duration
	ApproxElo   int
}

// pool hands out a fixed set of searchers, so that no more searches run at
// once than there are searchers (one per core): a busy server queues
// engine replies instead of slowing every one of them down.
type pool struct {
	free chan *pooled
}

type pooled struct {
	s        Searcher
	lastGame string // NewGame is called when the searcher moves to another game
}

func newPool(n int, mk func() Searcher) *pool {
	if n < 1 {
		n = 1
	}
	p := &pool{free: make(chan *pooled, n)}
	for i := 0; i < n; i++ {
		p.free <- &pooled{s: mk()}
	}
	return p
}

// search waits for a free searcher (or ctx) and runs one search for gameID.
// It reports ok=false when ctx ended before a searcher was free.
func (p *pool) search(ctx context.Context, gameID string, pos *game.Position, history []uint64, req SearchRequest) (SearchResult, bool) {
	var e *pooled
	select {
	case e = <-p.free:
	case <-ctx.Done():
		return SearchResult{}, false
	}
	defer func() { p.free <- e }()
	if ctx.Err() != nil {
		return SearchResult{}, false
	}
	if e.lastGame != gameID {
		e.s.NewGame()
		e.lastGame = gameID
	}
	return e.s.Search(ctx, pos, history, req), true
}
