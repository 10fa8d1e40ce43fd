package web

import (
	"knightwatch/enginepool"
	"knightwatch/experience"
	"knightwatch/review"
)

// Parts are the parts of Knightwatch that are not HTTP, built by the
// caller (cli/serve, the composition root; tests' newEnv) and handed to
// New. The Server uses them until Close; the caller closes them after it,
// so that nothing the Server started still uses them.
type Parts struct {
	// Pool runs the engine for every game: the engine's replies, draw
	// evaluations, the reviews' searches and the Reconnaissance Chess
	// bots' thinking. Required unless Config.NoEngine; without one, bots
	// think at once outside any pool and nothing is reviewed.
	Pool *enginepool.Pool
	// Learner learns from finished games and tells the engine what they
	// say before each of its moves (docs/experience.md); nil: the engine
	// plays as if it had never played (tests and benchmarks that need
	// reproducible play).
	Learner *experience.Learner
	// Reviews reviews every finished game in the background, on the
	// pool's background lane, and tells the game's open pages how far it
	// is; nil: no reviews (nor the evaluation graph, nor %eval in PGNs of
	// games finished meanwhile).
	Reviews *review.Reviewer
}
