package web

import (
	"context"
	"fmt"
	"sync"
	"time"

	"knightwatch/engine"
)

// The review of finished games (issue 34), as lichess's analysis after
// the game: when a game against the engine ends, in any way, the engine
// evaluates every position of it in the background and names its best
// move there; then each move is judged (inaccuracy, mistake, blunder) and
// each side gets an accuracy (accuracy.go). Results are stored as they
// come (store.Analysis, store.AnalysisPly), so a review appears at once
// next time and a restart carries on from where it was.
//
// CPU: each position gets a fixed budget of Config.AnalysisNodes nodes
// (default 200,000; at 1.1–2 M nodes/s on one core of the 2-core VM that
// is 0.1–0.2 s and depth 12–16, so a 40-move game's 81 positions take
// about 10–15 s of one core), capped at analysisTimeCap. Nodes, not time,
// so that a review says the same on a busy machine as on an idle one.
// Each search goes through the engine pool's background lane
// (enginepool.Pool.SearchIdle): it takes a searcher only when one is free and no live
// request waits, and a live request that has to queue stops one review
// search (whose position is searched again later), so a live game's reply
// waits only for a search to stop; reviews never use more than the pool's
// regular searchers (the quick lane's is for short live requests only).
//
// Fairness: the queue holds reviews per owner, each owner's in the order
// their games ended, and hands out positions to search owner by owner in
// turn, so one player's fifty finished games do not hold up another's
// single review. A player's next review starts while the last positions
// of the previous one are searched.
//
// Durability: positions are saved every analysisSaveEvery evaluations and
// at the end. On start the queue is rebuilt from the store
// (store.GamesToAnalyse): every incomplete review, and every game finished
// since reviews began without one. A game finished before that is
// reviewed when its page is opened, as is a game whose review was made
// with other settings (a changed budget).
//
// Progress reaches the game's open pages (players and spectators) as
// analysis messages (MsgAnalysis, analysis_view.go).

// DefaultAnalysisNodes is Config.AnalysisNodes' default.
const DefaultAnalysisNodes = 200_000

const (
	// analysisTimeCap caps one position's search, so that on a very slow
	// machine a live request still waits only a short search.
	analysisTimeCap = 500 * time.Millisecond
	// analysisSaveEvery is how many new evaluations are saved at once.
	analysisSaveEvery = 16
	// analysisProgressEvery spaces progress messages to a game's pages.
	analysisProgressEvery = 250 * time.Millisecond
)

// analyser is the review queue and its workers.
type analyser struct {
	srv      *Server
	nodes    uint64
	level    int // the strongest level: reviews search at full strength
	settings string

	mu      sync.Mutex
	cond    *sync.Cond // signalled when work may be there, or on stop
	stopped bool
	jobs    map[string]*reviewJob // queued or running reviews, by game ID
	owners  []*reviewOwner        // owners with reviews, in turn order
	next    int                   // index in owners of the owner served next
	subs    map[string]map[*client]struct{}
}

// testHookReviewed, when set (by tests), is called with each game ID whose
// review is complete, under the queue's lock.
var testHookReviewed func(id string)

// reviewOwner is one owner's reviews, in the order their games ended.
type reviewOwner struct {
	key  string
	jobs []*reviewJob
}

// analysisSettings names the engine and budget of reviews, stored with
// each review so that a change of either makes them again.
func analysisSettings(nodes uint64, level int) string {
	return fmt.Sprintf("knightwatch level %d, %s, %d nodes, at most %v a position", level, engine.BuiltinNetworkName, nodes, analysisTimeCap)
}

// startAnalysis makes the review queue, queues what the store says is
// left to review and starts one worker per regular searcher. It does
// nothing without an engine or when reviews are off.
func (s *Server) startAnalysis() error {
	if s.pool == nil || s.cfg.AnalysisNodes < 0 {
		return nil
	}
	nodes := uint64(s.cfg.AnalysisNodes)
	if nodes == 0 {
		nodes = DefaultAnalysisNodes
	}
	a := &analyser{srv: s, nodes: nodes, level: len(s.cfg.Levels), jobs: map[string]*reviewJob{}, subs: map[string]map[*client]struct{}{}}
	a.settings = analysisSettings(nodes, a.level)
	a.cond = sync.NewCond(&a.mu)
	since, err := s.store.AnalysisSince()
	if err != nil {
		return err
	}
	todo, err := s.store.GamesToAnalyse(since)
	if err != nil {
		return err
	}
	for _, g := range todo {
		a.enqueueLocked(g.ID, g.Owner)
	}
	s.analysis = a
	context.AfterFunc(s.ctx, func() {
		a.mu.Lock()
		a.stopped = true
		a.cond.Broadcast()
		a.mu.Unlock()
	})
	for i := 0; i < s.pool.Searchers(); i++ {
		s.conns.Add(1) // Close waits for the search and save in progress
		go func() {
			defer s.conns.Done()
			a.work(s.ctx)
		}()
	}
	return nil
}

// gameFinished queues the review of a game that has just ended. The
// room calls it under its lock: it takes only the queue's.
func (s *Server) gameFinished(id, owner string) {
	if a := s.analysis; a != nil {
		a.mu.Lock()
		a.enqueueLocked(id, owner)
		a.broadcastQueueLocked()
		a.mu.Unlock()
	}
}

// enqueueLocked queues game id's review unless it is queued or running.
func (a *analyser) enqueueLocked(id, owner string) *reviewJob {
	if j := a.jobs[id]; j != nil {
		return j
	}
	j := &reviewJob{id: id, owner: owner}
	a.jobs[id] = j
	var o *reviewOwner
	for _, x := range a.owners {
		if x.key == owner {
			o = x
		}
	}
	if o == nil {
		o = &reviewOwner{key: owner}
		a.owners = append(a.owners, o)
	}
	o.jobs = append(o.jobs, j)
	a.cond.Broadcast()
	return j
}

// removeLocked takes job j out of the queue.
func (a *analyser) removeLocked(j *reviewJob) {
	delete(a.jobs, j.id)
	for i, o := range a.owners {
		if o.key != j.owner {
			continue
		}
		for k, x := range o.jobs {
			if x == j {
				o.jobs = append(o.jobs[:k:k], o.jobs[k+1:]...)
				break
			}
		}
		if len(o.jobs) == 0 {
			a.owners = append(a.owners[:i:i], a.owners[i+1:]...)
			if i < a.next {
				a.next--
			}
			if a.next >= len(a.owners) {
				a.next = 0
			}
		}
		return
	}
}

// reviewUnit is one piece of work: preparing a job (ply < 0) or
// evaluating one of its positions.
type reviewUnit struct {
	job *reviewJob
	ply int
}

// take waits for the next unit, owners in turn, and hands it out; ok is
// false once the server stops.
func (a *analyser) take() (reviewUnit, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for {
		if a.stopped {
			return reviewUnit{}, false
		}
		n := len(a.owners)
		for k := 0; k < n; k++ {
			i := (a.next + k) % n
			if u, ok := a.owners[i].nextUnitLocked(); ok {
				a.next = (i + 1) % n
				if u.ply >= 0 && !u.job.started {
					u.job.started = true
					a.broadcastQueueLocked() // the queue moved on
				}
				return u, true
			}
		}
		a.cond.Wait()
	}
}

// nextUnitLocked is o's next unit: its first job not yet prepared, or the
// next position of its first job with positions left.
func (o *reviewOwner) nextUnitLocked() (reviewUnit, bool) {
	for _, j := range o.jobs {
		switch {
		case j.state == jobNew:
			j.state = jobPreparing
			return reviewUnit{job: j, ply: -1}, true
		case j.state == jobPreparing || j.state == jobDone:
			continue
		}
		for j.next < len(j.plies) && (j.have[j.next] || j.busy[j.next]) {
			j.next++
		}
		if j.next < len(j.plies) {
			j.busy[j.next] = true
			j.next++
			j.inFlight++
			return reviewUnit{job: j, ply: j.next - 1}, true
		}
	}
	return reviewUnit{}, false
}

// work is one worker: it takes units and does them until the server stops.
func (a *analyser) work(ctx context.Context) {
	for {
		u, ok := a.take()
		if !ok {
			return
		}
		if u.ply < 0 {
			a.prepare(u.job)
			continue
		}
		p, searched := a.evaluate(ctx, u.job, u.ply)
		if !searched {
			// Stopped for a live game's request (searched again later),
			// or the server is stopping.
			stopping := ctx.Err() != nil
			a.giveBack(u, stopping)
			if stopping {
				return
			}
			continue
		}
		a.record(u, p)
	}
}
