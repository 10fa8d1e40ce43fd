// Package enginepool runs the engine for every game of the server on a
// fixed set of engines: one regular searcher per core and a quick lane
// kept for short live requests, handed out fairly between owners (the
// players whose games ask), with a background lane below every live
// request for the reviews of finished games, and the steps of
// Reconnaissance Chess bots scheduled as their owners' engine work. Pool's
// doc has the rules and the bounds on waiting they give.
//
// The pool knows games only by their IDs and owners by their keys; it
// knows nothing of HTTP, rooms or the database. Its interface:
//
//   - New builds a Pool from a Config (the real engine with optional
//     Syzygy and Gaviota tables by default); Close closes the tables.
//   - Pool.Search: a live request of an owner (an engine reply, a draw
//     evaluation).
//   - Pool.SearchIdle: a background request (a review's position).
//   - Pool.RunStep: a bot's step, holding a regular searcher without
//     searching, or, clocked, one of the bot cores (Config.BotCores);
//     Pool.TryBotCore: a free bot core for thinking that may be dropped.
//   - Pool.Analyse: the analysis board's open-ended engine lines, as its
//     owner's work in chunks of at most a second (analyse.go).
//   - Pool.Load and Pool.Owner: what the pool is doing, for monitoring
//     and tests.
//
// Searcher is the part of an engine the pool uses; NewEngineSearcher
// adapts the real one, tests substitute quick deterministic ones.
package enginepool
