package web

import (
	"knightwatch/enginepool"
	"knightwatch/live"
	"knightwatch/play"
	"knightwatch/rbcapi"
	"knightwatch/review"
	"knightwatch/store"
	"knightwatch/training"
)

// Parts are the parts of Knightwatch that are not HTTP, built by the
// caller (cli/serve, the composition root; tests' newEnv) and handed to
// New. The Server uses them until Close, which closes the registry; the
// caller closes the rest after it, so that nothing the Server started
// still uses them.
type Parts struct {
	// Store holds the games, the accounts and the session secret.
	Store *store.Store
	// Registry hosts every live game (the kinds of play and of the HTTP
	// API register their loaders there); the sockets join and leave its
	// hosts.
	Registry *live.Registry
	// Games are the games played in the browser against the engine and
	// the bots, hosted in Registry; the pages read their levels.
	Games *play.Games
	// API is the reconchess HTTP API, whose routes are served under /api/
	// and which the Bots page signs in, invites and plays through.
	API *rbcapi.API
	// Pool holds the Syzygy and Gaviota tables of the tablebase route;
	// nil: none.
	Pool *enginepool.Pool
	// Reviews reviews every finished game in the background and tells the
	// game's open pages how far it is; nil: no reviews (nor the
	// evaluation graph, nor %eval in PGNs of games finished meanwhile).
	Reviews *review.Reviewer
	// LiveEngine searches the moves tried in "learn from your mistakes"
	// as their player's work (the pool's Search, or a site's jobs); nil:
	// Pool.
	LiveEngine training.LiveEngine
	// Puzzles is the background puzzle generator, told who asks for
	// puzzles; nil: none runs (the puzzles found before still play).
	Puzzles *training.Generator
}
