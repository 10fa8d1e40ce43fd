// Package experience is the engine's learning from its finished games
// (docs/experience.md): a Learner records what each finished game, and
// each complete review of one, teaches into the store, and reads back
// what the games say about a position's moves before the engine searches
// it. The rule that turns those records into a choice is the engine's
// (engine/experience.go); the engine knows nothing of the store, and this
// package is the bridge.
//
// Learning happens off every lock: a game that ends is only queued
// (Learner.GameEnded, never blocking); one goroutine replays the game and
// records it in one transaction (store.Learning.RecordGame), which marks the game
// learnt, so no game is learnt twice. At start, and whenever the queue
// overflowed, it catches up with the finished games not learnt yet
// (store.Learning.UnlearntGames): a database older than the experience, games that
// ended while the queue was full or just before a stop; paced, so that it
// holds the database's one writer at most half the time.
//
// A complete review of a finished game teaches too: its scores of the
// move played and of the best move at each ply are handed to the learner
// (Learner.Reviewed, never blocking) and recorded in one transaction
// (store.Learning.RecordAnalyses).
//
// Reading happens in the search's goroutine, before it asks the engine
// pool for an engine: one indexed read by the position's key
// (Learner.MovesFor, store.Learning.ExperienceFor).
package experience

import (
	"context"
	"errors"
	"log"
	"sync"
	"sync/atomic"
	"time"

	"knightwatch/engine"
	"knightwatch/game"
	"knightwatch/store"
)

const (
	// learnQueue bounds the games waiting to be learnt from; beyond it
	// the learner catches up from the database instead.
	learnQueue = 256
	// learnBatch is how many unlearnt games one catch-up read fetches.
	learnBatch = 100
	// reviewQueue bounds the reviews waiting to be learnt from; a review
	// that finds it full is not learnt (it is logged), since reviews come
	// at most as fast as the engine can make them.
	reviewQueue = 64
)

// Options configures a Learner.
type Options struct {
	// Store holds the games and the experience; required.
	Store *store.Store
	// Rows caps the experience table (default store.DefaultExperienceRows).
	Rows int
	// Logger receives what could not be learnt or read (default: the
	// standard logger).
	Logger *log.Logger
}

// Learner learns from finished games in the background, from New until
// Close.
type Learner struct {
	store  *store.Store
	logger *log.Logger
	queue  chan string
	// reviews carries complete reviews' analysed moves (reviewLessons).
	reviews chan []store.AnalysedMove
	behind  atomic.Bool // the queue overflowed: catch up from the database
	// learnt counts the games recorded (Learnt), each from just before
	// its write (learn).
	learnt atomic.Int64
	cancel context.CancelFunc
	done   sync.WaitGroup
}

// New starts a learner, which first catches up with the finished games
// not learnt yet.
func New(o Options) (*Learner, error) {
	if o.Store == nil {
		return nil, errors.New("experience: Options.Store is required")
	}
	if o.Rows > 0 {
		o.Store.Learning().SetExperienceCap(o.Rows)
	}
	if o.Logger == nil {
		o.Logger = log.Default()
	}
	l := &Learner{store: o.Store, logger: o.Logger, queue: make(chan string, learnQueue), reviews: make(chan []store.AnalysedMove, reviewQueue)}
	l.behind.Store(true) // the first catch-up, at start
	ctx, cancel := context.WithCancel(context.Background())
	l.cancel = cancel
	l.done.Add(1)
	go func() {
		defer l.done.Done()
		l.run(ctx)
	}()
	return l, nil
}

// Close stops the learner and waits for what it is recording. Games
// queued but not learnt yet are learnt by the next start's catch-up;
// queued reviews are dropped, as when the queue is full.
func (l *Learner) Close() {
	l.cancel()
	l.done.Wait()
}

// Learnt returns how many games the learner has recorded since New.
func (l *Learner) Learnt() int64 { return l.learnt.Load() }

// GameEnded tells the learner that game id has just finished. It never
// blocks: a room calls it under its lock.
func (l *Learner) GameEnded(id string) {
	select {
	case l.queue <- id:
	default:
		l.behind.Store(true)
		l.wake()
	}
}

// Reviewed hands the learner the complete review of game id: its
// positions (the start, then after each move), its moves and the
// review's evaluation of each position (reviewLessons says what they
// teach). It never blocks: a full queue drops the review, logged.
func (l *Learner) Reviewed(id string, positions []*game.Position, moves []game.Move, plies []store.AnalysisPly) {
	lessons := reviewLessons(positions, moves, plies)
	if len(lessons) == 0 {
		return
	}
	select {
	case l.reviews <- lessons:
	default:
		l.logf("experience: the review of game %s is not learnt: %d reviews wait already", id, reviewQueue)
	}
}

// MovesFor returns the engine's records of the moves of pos, or none when
// they cannot be read (the engine then plays without: a slow or refusing
// database must not stop the game).
func (l *Learner) MovesFor(pos *game.Position) []engine.MoveRecord {
	rows, err := l.store.Learning().ExperienceFor(pos.Hash())
	if err != nil {
		l.logf("experience: %v", err)
		return nil
	}
	return MoveRecords(pos, rows)
}

func (l *Learner) logf(format string, args ...any) { l.logger.Printf(format, args...) }

// wake makes a waiting run loop look at behind, without blocking.
func (l *Learner) wake() {
	select {
	case l.queue <- "":
	default:
	}
}

// run learns until ctx ends: queued games, and a catch-up whenever behind.
func (l *Learner) run(ctx context.Context) {
	for {
		if l.behind.Swap(false) {
			l.catchUp(ctx)
		}
		select {
		case <-ctx.Done():
			return
		case moves := <-l.reviews:
			if err := l.store.Learning().RecordAnalyses(moves); err != nil {
				l.logf("experience: %v", err)
			}
		case id := <-l.queue:
			if id == "" {
				continue
			}
			g, err := l.store.Games().GetGame(id)
			if err != nil {
				l.logf("experience: game %s: %v", id, err)
				continue
			}
			l.learn(g)
		}
	}
}

// catchUp learns from every finished game not learnt yet.
func (l *Learner) catchUp(ctx context.Context) {
	for ctx.Err() == nil {
		gs, err := l.store.Learning().UnlearntGames(learnBatch)
		if err != nil {
			l.logf("experience: %v", err)
			return
		}
		for i := range gs {
			start := time.Now()
			if !l.learn(&gs[i]) {
				return // the database refuses: try again at the next catch-up
			}
			// Paced: the writer is free at least half the time for the
			// live games' commits, however many games there are to learn.
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Since(start)):
			}
		}
		if len(gs) < learnBatch {
			return
		}
	}
}

// learn records the finished game g; it reports false when the database
// refused (a game that cannot be replayed is logged and marked learnt).
func (l *Learner) learn(g *store.Game) bool {
	if g.Status != store.StatusOver {
		return true
	}
	lessons, err := GameLessons(g)
	if err != nil {
		l.logf("experience: %v", err)
		lessons = nil // marked learnt, with nothing learnt
	}
	// Counted before the write and taken back when nothing was written:
	// whoever sees the game recorded (the store's write hooks) sees it
	// counted too, never a moment before the count.
	l.learnt.Add(1)
	ok, err := l.store.Learning().RecordGame(g.ID, lessons)
	if err != nil || !ok {
		l.learnt.Add(-1)
	}
	if err != nil {
		l.logf("experience: %v", err)
		l.behind.Store(true)
		return false
	}
	return true
}
