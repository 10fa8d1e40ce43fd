package enginejobs

import (
	"hash/fnv"
	"strconv"
	"time"

	"knightwatch/enginepool"
	"knightwatch/game"
)

// The queues of engine jobs (doc: fairness across workers).
const (
	queueQuick = "engine_quick"
	queueLong  = "engine_long"
	queueIdle  = "engine_idle"
)

// searchArgs are a search job's arguments: everything the search needs.
type searchArgs struct {
	// Unique makes the requests of one key and try one job: River
	// hashes it alone (the other fields may differ between two servers
	// asking, their clocks read a moment apart).
	Unique string `json:"unique" river:"unique"`
	// Key names the answer; Try counts the asks after a job was lost.
	Key string `json:"key"`
	Try int    `json:"try"`
	// Owner is whose work it is; Game names the game (the searcher
	// forgets what it learnt in another).
	Owner    string                   `json:"owner"`
	Game     string                   `json:"game"`
	FEN      string                   `json:"fen"`
	Chess960 bool                     `json:"chess960,omitempty"`
	History  []uint64                 `json:"history"`
	Req      enginepool.SearchRequest `json:"req"`
	// Idle: a review's search, run as the pool's background work.
	Idle bool `json:"idle,omitempty"`
}

// Kind is River's name of the job kind.
func (searchArgs) Kind() string { return "engine_search" }

// newArgs makes the arguments of a search for key's try.
func newArgs(key string, try int, owner, gameID string, pos *game.Position, history []uint64, req enginepool.SearchRequest, idle bool) searchArgs {
	return searchArgs{
		Unique: uniqueOf(key, try), Key: key, Try: try,
		Owner: owner, Game: gameID, FEN: pos.FEN(), Chess960: pos.Chess960(),
		History: history, Req: req, Idle: idle,
	}
}

// uniqueOf is what makes the asks of one key and try one job.
func uniqueOf(key string, try int) string { return key + "#" + strconv.Itoa(try) }

// position rebuilds the job's position.
func (a *searchArgs) position() (*game.Position, error) {
	pos, err := game.ParseFEN(a.FEN)
	if err != nil {
		return nil, err
	}
	pos.SetChess960(a.Chess960)
	return pos, nil
}

// queue is the queue of a.
func (a *searchArgs) queue() string {
	switch {
	case a.Idle:
		return queueIdle
	case enginepool.Quick(a.Req):
		return queueQuick
	}
	return queueLong
}

// jobSlack is what a job's timeout allows beyond its search's budget:
// the time to read the job and write its answer, and a search's
// overshoot.
const jobSlack = 5 * time.Second

// timeout is how long a search job may run: its budget (the request's
// MoveTime, or the pool's default) and jobSlack.
func timeout(req enginepool.SearchRequest) time.Duration {
	d := req.MoveTime
	if d <= 0 {
		d = enginepool.DefaultCost
	}
	return d + jobSlack
}

// ownerTag is the River tag of owner's jobs: tags allow letters, digits,
// _ and - only, so the owner is hashed.
func ownerTag(owner string) string {
	h := fnv.New64a()
	h.Write([]byte(owner))
	return "o_" + strconv.FormatUint(h.Sum64(), 16)
}
