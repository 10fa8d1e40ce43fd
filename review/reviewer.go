package review

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sync"
	"time"

	"knightwatch/engine"
	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/store"
)

// DefaultNodes is Options.Nodes' default: the engine's budget per
// position.
const DefaultNodes = 200_000

const (
	// analysisTimeCap caps one position's search, so that on a very slow
	// machine a live request still waits only a short search.
	analysisTimeCap = 500 * time.Millisecond
	// analysisSaveEvery is how many new evaluations are saved at once.
	analysisSaveEvery = 16
	// analysisProgressEvery spaces progress messages to a game's pages.
	analysisProgressEvery = 250 * time.Millisecond
)

// Engine is what reviews search with: the engine pool's background lane
// (enginepool.Pool is one).
type Engine interface {
	// SearchIdle runs one background search, charged to nobody; ok is
	// false when ctx ended or a live request stopped it.
	SearchIdle(ctx context.Context, gameID string, pos *game.Position, history []uint64, req enginepool.SearchRequest) (enginepool.SearchResult, bool)
	// Searchers is how many background searches may run at once.
	Searchers() int
}

// Options configures a Reviewer.
type Options struct {
	// Store holds the games and their reviews; Engine searches their
	// positions. Both are required.
	Store  *store.Store
	Engine Engine
	// Nodes is the engine's budget per position (default DefaultNodes).
	Nodes int
	// Level is the level the engine reviews at (default the strongest,
	// len(engine.Levels)).
	Level int
	// Workers is how many positions are searched at once (default
	// Engine.Searchers(): reviews may use every idle regular searcher).
	Workers int
	// Logger receives what could not be reviewed or saved (default: the
	// standard logger).
	Logger *log.Logger
	// Learn, when set, is given each complete review once it is saved:
	// the game's positions (the start, then after each move), its moves
	// and the evaluation of each position (experience.Learner.Reviewed).
	// It is called on a worker's goroutine and must not block for long.
	Learn func(gameID string, positions []*game.Position, moves []game.Move, plies []store.AnalysisPly)
	// Reviewed, when set, is called with the ID of each game whose review
	// is over (saved or not), under the queue's lock: for tests that wait
	// for reviews or check their order.
	Reviewed func(gameID string)
}

// Reviewer is the review queue and its workers, from New until Close.
type Reviewer struct {
	store    *store.Store
	engine   Engine
	nodes    uint64
	level    int // the strongest level: reviews search at full strength
	settings string
	logger   *log.Logger
	learn    func(gameID string, positions []*game.Position, moves []game.Move, plies []store.AnalysisPly)
	reviewed func(gameID string)

	mu      sync.Mutex
	cond    *sync.Cond // signalled when work may be there, or on stop
	stopped bool
	jobs    map[string]*reviewJob // queued or running reviews, by game ID
	owners  []*reviewOwner        // owners with reviews, in turn order
	next    int                   // index in owners of the owner served next
	subs    map[string]map[Watcher]struct{}

	cancel  context.CancelFunc
	workers sync.WaitGroup
}

// reviewOwner is one owner's reviews, in the order their games ended.
type reviewOwner struct {
	key  string
	jobs []*reviewJob
}

// Settings names the engine and budget of reviews made with nodes per
// position at level, stored with each review so that a change of either
// makes them again.
func Settings(nodes uint64, level int) string {
	return fmt.Sprintf("knightwatch level %d, %s, %d nodes, at most %v a position", level, engine.BuiltinNetworkName, nodes, analysisTimeCap)
}

// New makes the review queue, queues what the store says is left to
// review and starts the workers.
func New(o Options) (*Reviewer, error) {
	if o.Store == nil || o.Engine == nil {
		return nil, errors.New("review: Options.Store and Options.Engine are required")
	}
	if o.Nodes <= 0 {
		o.Nodes = DefaultNodes
	}
	if o.Level <= 0 {
		o.Level = len(engine.Levels)
	}
	if o.Workers <= 0 {
		o.Workers = o.Engine.Searchers()
	}
	if o.Logger == nil {
		o.Logger = log.Default()
	}
	r := &Reviewer{store: o.Store, engine: o.Engine, nodes: uint64(o.Nodes), level: o.Level, logger: o.Logger,
		learn: o.Learn, reviewed: o.Reviewed, jobs: map[string]*reviewJob{}, subs: map[string]map[Watcher]struct{}{}}
	r.settings = Settings(r.nodes, r.level)
	r.cond = sync.NewCond(&r.mu)
	since, err := o.Store.Reviews().AnalysisSince()
	if err != nil {
		return nil, err
	}
	todo, err := o.Store.Reviews().GamesToAnalyse(since)
	if err != nil {
		return nil, err
	}
	for _, g := range todo {
		r.enqueueLocked(g.ID, g.Owner)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	for i := 0; i < o.Workers; i++ {
		r.workers.Add(1)
		go func() {
			defer r.workers.Done()
			r.work(ctx)
		}()
	}
	return r, nil
}

// Close stops the workers and waits for the search and save in progress;
// a review stopped halfway saves what it has and carries on at the next
// start.
func (r *Reviewer) Close() {
	r.cancel()
	r.mu.Lock()
	r.stopped = true
	r.cond.Broadcast()
	r.mu.Unlock()
	r.workers.Wait()
}

// Finished queues the review of game id, of owner, which has just ended.
// It takes only the queue's lock: a room may call it under its own.
func (r *Reviewer) Finished(id, owner string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.enqueueLocked(id, owner)
	r.broadcastQueueLocked()
}

// Pending returns how many reviews are queued or running.
func (r *Reviewer) Pending() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.jobs)
}

func (r *Reviewer) logf(format string, args ...any) { r.logger.Printf(format, args...) }

// enqueueLocked queues game id's review unless it is queued or running.
func (r *Reviewer) enqueueLocked(id, owner string) *reviewJob {
	if j := r.jobs[id]; j != nil {
		return j
	}
	j := &reviewJob{id: id, owner: owner}
	r.jobs[id] = j
	var o *reviewOwner
	for _, x := range r.owners {
		if x.key == owner {
			o = x
		}
	}
	if o == nil {
		o = &reviewOwner{key: owner}
		r.owners = append(r.owners, o)
	}
	o.jobs = append(o.jobs, j)
	r.cond.Broadcast()
	return j
}

// removeLocked takes job j out of the queue.
func (r *Reviewer) removeLocked(j *reviewJob) {
	delete(r.jobs, j.id)
	for i, o := range r.owners {
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
			r.owners = append(r.owners[:i:i], r.owners[i+1:]...)
			if i < r.next {
				r.next--
			}
			if r.next >= len(r.owners) {
				r.next = 0
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
// false once the reviewer stops.
func (r *Reviewer) take() (reviewUnit, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		if r.stopped {
			return reviewUnit{}, false
		}
		n := len(r.owners)
		for k := 0; k < n; k++ {
			i := (r.next + k) % n
			if u, ok := r.owners[i].nextUnitLocked(); ok {
				r.next = (i + 1) % n
				if u.ply >= 0 && !u.job.started {
					u.job.started = true
					r.broadcastQueueLocked() // the queue moved on
				}
				return u, true
			}
		}
		r.cond.Wait()
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

// work is one worker: it takes units and does them until the reviewer
// stops.
func (r *Reviewer) work(ctx context.Context) {
	for {
		u, ok := r.take()
		if !ok {
			return
		}
		if u.ply < 0 {
			r.prepare(u.job)
			continue
		}
		p, searched := r.evaluate(ctx, u.job, u.ply)
		if !searched {
			// Stopped for a live game's request (searched again later),
			// or the reviewer is stopping.
			stopping := ctx.Err() != nil
			r.giveBack(u, stopping)
			if stopping {
				return
			}
			continue
		}
		r.record(u, p)
	}
}
