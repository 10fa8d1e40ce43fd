package enginejobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"

	"knightwatch/changefeed"
	"knightwatch/enginepool"
	"knightwatch/recon"
)

// ResultsChannel is the notification channel of the jobs' answers: its
// payload is the answer's key.
const ResultsChannel = "knightwatch_engine"

// Config configures Jobs.
type Config struct {
	// DSN is the PostgreSQL database (a postgres:// URL).
	DSN string
	// Pool is this process's engine pool: it works the jobs this process
	// takes, and runs the bot steps of its games (RunStep). Required.
	Pool *enginepool.Pool
	// Work takes jobs in this process; false: it only asks others.
	// WorkOnly (a worker) never asks, so it holds no connection listening
	// for answers.
	Work, WorkOnly bool
	// NewBot makes the Reconnaissance Chess bots of the bot steps this
	// process takes (bots.NewOneThread, as package play's); required with
	// Work.
	NewBot func(spec string, seed uint64) (recon.Player, error)
	// Logf logs what went wrong (a job that failed, a lost connection);
	// nil: the standard logger's.
	Logf func(format string, args ...any)
	// Poll is how often a waiting search reads its answer and its job
	// again without a notification (default 1 s); Grace how long past
	// its timeout a running job is given before it is asked for again
	// (default 3 s).
	Poll, Grace time.Duration
}

// Jobs asks for searches as jobs in the database and, with Config.Work,
// works them. It is the engine of a server on PostgreSQL (the Search and
// RunStep that package play uses, the SearchIdle and Searchers that
// package review uses), and the whole of a worker.
type Jobs struct {
	cfg  Config
	db   *pgxpool.Pool
	bots *botCache // the bots of the steps this process took
	// restored and continued count the bot steps this process played
	// with a bot fed the whole record, and with the one kept from the
	// step before.
	restored, continued atomic.Int64
	client              *river.Client[pgx.Tx]
	listener            *changefeed.Listener
	stop                context.CancelFunc
	done                chan struct{}
	closed              sync.Once

	mu      sync.Mutex
	waiters map[string]map[chan struct{}]struct{}
}

// Start connects to the database, brings River's tables and the answers'
// table up to date (one process at a time), listens for answers and, with
// Work, starts taking jobs.
func Start(ctx context.Context, cfg Config) (*Jobs, error) {
	if cfg.Pool == nil {
		return nil, errors.New("enginejobs: Config.Pool is required")
	}
	if cfg.Work && cfg.NewBot == nil {
		return nil, errors.New("enginejobs: Config.NewBot is required with Work")
	}
	if cfg.Logf == nil {
		cfg.Logf = func(format string, args ...any) { slog.Default().Warn(fmt.Sprintf(format, args...)) }
	}
	if cfg.Poll <= 0 {
		cfg.Poll = time.Second
	}
	if cfg.Grace <= 0 {
		cfg.Grace = 3 * time.Second
	}
	db, err := pgxpool.New(ctx, cfg.DSN)
	if err != nil {
		return nil, fmt.Errorf("enginejobs: %w", err)
	}
	j := &Jobs{cfg: cfg, db: db, bots: newBotCache(), waiters: map[string]map[chan struct{}]struct{}{}, done: make(chan struct{})}
	if err := j.start(ctx); err != nil {
		j.closeAll()
		return nil, err
	}
	return j, nil
}

func (j *Jobs) start(ctx context.Context) error {
	if err := migrate(ctx, j.db); err != nil {
		return err
	}
	rc := &river.Config{
		FetchCooldown:     time.Millisecond, // an insert soon after another still wakes a worker at once
		FetchPollInterval: time.Second,      // a fallback: LISTEN wakes a worker at once
		JobTimeout:        30 * time.Second, // each search's own (searchWorker.Timeout) is shorter
		// River's own rescue of a dead worker's jobs; the waiters ask
		// again long before (doc). A job whose own timeout is longer (a
		// clocked bot step's, stepTimeout) is left running until it
		// passes: River's rescuer reads the worker's Timeout.
		RescueStuckJobsAfter:        time.Minute,
		MaxAttempts:                 5,
		RetryPolicy:                 retryAtOnce{},
		CompletedJobRetentionPeriod: time.Hour,
		Logger:                      slog.New(slog.NewTextHandler(logWriter{j.cfg.Logf}, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	if j.cfg.Work {
		p := j.cfg.Pool
		workers := river.NewWorkers()
		river.AddWorker(workers, &searchWorker{j: j})
		river.AddWorker(workers, &botWorker{j: j, cache: j.bots})
		rc.Workers = workers
		rc.Queues = map[string]river.QueueConfig{
			// A short request may use any searcher of the pool (its
			// quick lane, or a regular one that is free); a long one only
			// the regular ones; reviews as many as the regular ones, when
			// they are idle.
			queueQuick: {MaxWorkers: p.Searchers() + p.QuickSearchers()},
			queueLong:  {MaxWorkers: p.Searchers()},
			queueIdle:  {MaxWorkers: p.Searchers()},
			queueBot:   {MaxWorkers: p.Searchers()},
			// Clocked bot steps think on the bot cores (bots.go).
			queueBotClocked: {MaxWorkers: clockedWorkers(p)},
		}
	}
	client, err := river.NewClient(riverpgxv5.New(j.db), rc)
	if err != nil {
		return fmt.Errorf("enginejobs: %w", err)
	}
	j.client = client
	if !j.cfg.WorkOnly {
		j.listener, err = changefeed.ListenChannel(ctx, j.cfg.DSN, ResultsChannel, answers{j}, changefeed.Options{Logf: j.cfg.Logf})
		if err != nil {
			return fmt.Errorf("enginejobs: %w", err)
		}
	}
	if !j.cfg.Work {
		close(j.done)
		return nil
	}
	if err := client.Start(context.Background()); err != nil {
		return fmt.Errorf("enginejobs: %w", err)
	}
	cctx, stop := context.WithCancel(context.Background())
	j.stop = stop
	go j.forgetOldAnswers(cctx)
	return nil
}

// migrationLock is the advisory lock that makes processes starting at
// once migrate one after the other.
const migrationLock = 0x6b77656e67696e65 // "kwengine"

// migrate brings River's tables and the answers' table up to date,
// holding a session's advisory lock: River migrates each version in a
// transaction of its own (one adds a value to an enum that the next
// uses), so one transaction cannot hold them all.
func migrate(ctx context.Context, db *pgxpool.Pool) error {
	conn, err := db.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("enginejobs: migrate: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", int64(migrationLock)); err != nil {
		return fmt.Errorf("enginejobs: migrate: %w", err)
	}
	defer conn.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", int64(migrationLock))
	m, err := rivermigrate.New(riverpgxv5.New(db), nil)
	if err != nil {
		return fmt.Errorf("enginejobs: migrate: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("enginejobs: migrate River: %w", err)
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS engine_answers (
		key text PRIMARY KEY,
		answer jsonb NOT NULL,
		created_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return fmt.Errorf("enginejobs: migrate: %w", err)
	}
	return nil
}

// answerLife is how long an answer is kept: far longer than anyone waits
// for it.
const answerLife = 24 * time.Hour

// forgetOldAnswers deletes answers older than answerLife, at the start
// and hourly, until ctx ends.
func (j *Jobs) forgetOldAnswers(ctx context.Context) {
	defer close(j.done)
	tick := time.NewTicker(time.Hour)
	defer tick.Stop()
	for {
		if _, err := j.db.Exec(ctx, "DELETE FROM engine_answers WHERE created_at < now() - $1::interval", answerLife.String()); err != nil && ctx.Err() == nil {
			j.cfg.Logf("enginejobs: forgetting old answers: %v", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// Close stops taking jobs, waiting for those in progress (a server
// stopping lets its searches end; their answers are written), then
// stops listening and disconnects. Later calls do nothing.
func (j *Jobs) Close() { j.closed.Do(j.close) }

func (j *Jobs) close() {
	if j.cfg.Work && j.client != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := j.client.Stop(ctx); err != nil {
			j.cfg.Logf("enginejobs: stopping: %v", err)
		}
		cancel()
	}
	if j.stop != nil {
		j.stop()
	}
	<-j.done
	j.closeAll()
	j.bots.closeAll()
}

func (j *Jobs) closeAll() {
	if j.listener != nil {
		j.listener.Close()
	}
	j.db.Close()
}

// Searchers is how many searches this server's reviews ask for at once
// (review.Engine): as many as its own pool has regular searchers.
func (j *Jobs) Searchers() int { return j.cfg.Pool.Searchers() }

// answers wakes the searches waiting for an answer's key; after a cut in
// the listening, every one (each reads its answer again).
type answers struct{ j *Jobs }

func (a answers) Payload(key string) { a.j.wake(key) }
func (a answers) Resync()            { a.j.wakeAll() }

func (j *Jobs) subscribe(key string) chan struct{} {
	ch := make(chan struct{}, 1)
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.waiters[key] == nil {
		j.waiters[key] = map[chan struct{}]struct{}{}
	}
	j.waiters[key][ch] = struct{}{}
	return ch
}

func (j *Jobs) unsubscribe(key string, ch chan struct{}) {
	j.mu.Lock()
	defer j.mu.Unlock()
	delete(j.waiters[key], ch)
	if len(j.waiters[key]) == 0 {
		delete(j.waiters, key)
	}
}

func (j *Jobs) wake(key string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for ch := range j.waiters[key] {
		poke(ch)
	}
}

func (j *Jobs) wakeAll() {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, chs := range j.waiters {
		for ch := range chs {
			poke(ch)
		}
	}
}

func poke(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// retryAtOnce retries a failed search job at once: a search that failed
// (its worker stopped, its connection dropped) is worth trying again
// while its player waits, not minutes later.
type retryAtOnce struct{}

func (retryAtOnce) NextRetry(*rivertype.JobRow) time.Time { return time.Now() }

// logWriter passes River's log lines to Logf.
type logWriter struct {
	logf func(format string, args ...any)
}

func (w logWriter) Write(b []byte) (int, error) {
	w.logf("enginejobs: river: %s", strings.TrimSpace(string(b)))
	return len(b), nil
}

// RunStep runs a bot's step in this process's own pool: for a server
// whose bots think here (play.Config.BotJobs unset).
func (j *Jobs) RunStep(ctx context.Context, s enginepool.Step) bool {
	return j.cfg.Pool.RunStep(ctx, s)
}
