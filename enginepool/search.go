package enginepool

import (
	"context"
	"time"

	"knightwatch/engine"
	"knightwatch/game"
)

// SearchRequest is what a game asks of an engine for one move.
type SearchRequest struct {
	Level int
	// MoveTime caps the search (the level's time per move, or less for a
	// draw evaluation). Zero means the level's own time.
	MoveTime time.Duration
	// Clock fields are zero for an untimed game; when set, the engine
	// budgets its time from them, never beyond MoveTime.
	WTime, BTime, WInc, BInc time.Duration
	// Evaluate asks for an honest evaluation rather than a move to play
	// (a draw offer, a review): no opening book, whose moves carry no
	// score.
	Evaluate bool
	// Experience is what earlier games say about the position's moves
	// (engine.Limits.Experience), read before the request; nil without.
	Experience []engine.MoveRecord
	// Nodes, when set, stops the search after about that many nodes (a
	// review's fixed budget); MoveTime still caps it.
	Nodes uint64
	// MultiPV, when 2 or more, also searches the next best root moves
	// (engine.Options.MultiPV) and reports them in SearchResult.Lines: a
	// puzzle's "only winning move" (package training). 0 or 1: the best
	// move alone.
	MultiPV int
	// Turn names the turn the search is for, the same on every server
	// that holds the game (its ID and the revision of its record): on a
	// site of several servers two requests for one turn are one search
	// (package enginejobs). Empty: the request is its own. The pool
	// itself ignores it.
	Turn string
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
	// Experience says what the request's Experience changed about Move
	// (engine.Result.Experience); nil when nothing.
	Experience *engine.ExperienceUse
	// PV is the best line, starting with Move (Move alone when no line
	// was completed).
	PV []game.Move `json:",omitempty"`
	// Lines are the best root moves of the last completed iteration when
	// the request asked for MultiPV of 2 or more, best first, each with its
	// score for the side to move; nil otherwise.
	Lines []Line `json:",omitempty"`
}

// Line is one root move of a MultiPV search and its score for the side to
// move.
type Line struct {
	Move game.Move
	CP   int
	Mate int
}

// Searcher is the part of an engine the pool uses. The real engine is
// adapted to it by NewEngineSearcher; tests substitute quick
// deterministic ones.
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
