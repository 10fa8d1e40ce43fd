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
	// SecondBest also searches the second best root move (the engine's
	// MultiPV 2) and reports it in SearchResult.Second: a puzzle's "only
	// winning move" (package training).
	SecondBest bool
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
	// Second is the second best root move of the last completed
	// iteration and its score, when the request asked for it
	// (SecondBest); its Move is game.NoMove otherwise, or when the
	// position has one legal move.
	Second Line
}

// Line is a root move and its score for the side to move.
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
