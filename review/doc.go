// Package review reviews finished games against the engine (issue 34), as
// lichess's analysis after the game: when a game ends, in any way, the
// engine evaluates every position of it in the background and names its
// best move there; then each move is judged (inaccuracy, mistake,
// blunder) and each side gets an accuracy (accuracy.go, lichess's maths).
// Results are stored as they come (store.Analysis, store.AnalysisPly), so
// a review appears at once next time and a restart carries on from where
// it was. The verdicts of Syzygy and Gaviota tables on a finished game's
// positions are here too (TablebaseVerdicts), and on any one position
// (PositionVerdict, which the analysis board asks).
//
// Its interface: New starts a Reviewer on the store and the engine pool's
// background lane, queueing what the store says is left to review;
// Finished queues the review of a game that has just ended; Watch and
// Unwatch let a game's open pages follow its review (Watcher, Status);
// Close stops the workers. What a page shows of a Status is the caller's
// (web's analysis message).
//
// CPU: each position gets a fixed budget of Options.Nodes nodes (default
// DefaultNodes, 200,000; at 1.1–2 M nodes/s on one core of the 2-core VM
// that is 0.1–0.2 s and depth 12–16, so a 40-move game's 81 positions
// take about 10–15 s of one core), capped at analysisTimeCap. Nodes, not
// time, so that a review says the same on a busy machine as on an idle
// one. Each search goes through the engine pool's background lane
// (enginepool.Pool.SearchIdle): it takes a searcher only when one is free
// and no live request waits, and a live request that has to queue stops
// one review search (whose position is searched again later), so a live
// game's reply waits only for a search to stop; reviews never use more
// than the pool's regular searchers (the quick lane's is for short live
// requests only).
//
// Fairness: the queue holds reviews per owner, each owner's in the order
// their games ended, and hands out positions to search owner by owner in
// turn, so one player's fifty finished games do not hold up another's
// single review. A player's next review starts while the last positions
// of the previous one are searched.
//
// Durability: positions are saved every analysisSaveEvery evaluations and
// at the end. On start the queue is rebuilt from the store
// (store.Reviews.GamesToAnalyse): every incomplete review, and every game finished
// since reviews began without one. A game finished before that is
// reviewed when its page is opened (Watch), as is a game whose review was
// made with other settings (a changed budget).
package review
