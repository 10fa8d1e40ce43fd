package enginejobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
)

// searchWorker works search jobs in this process's engine pool.
type searchWorker struct {
	river.WorkerDefaults[searchArgs]
	j *Jobs
}

// Timeout is the job's: its search's budget and a margin (a search stops
// at its budget by itself; this stops one that does not).
func (w *searchWorker) Timeout(job *river.Job[searchArgs]) time.Duration {
	return timeout(job.Args.Req)
}

// idleRetry is how long a review's search waits before it is tried again
// after a live search took its searcher.
const idleRetry = time.Second

// Work runs the job's search, unless its key has an answer already, and
// writes the answer with the job's completion.
func (w *searchWorker) Work(ctx context.Context, job *river.Job[searchArgs]) error {
	a := &job.Args
	if answered, err := w.j.answered(ctx, a.Key, a.Try, job.Attempt); err != nil {
		return err
	} else if answered {
		return complete(ctx, w.j, job, a.Key, nil) // an earlier try answered
	}
	pos, err := a.position()
	if err != nil {
		return river.JobCancel(fmt.Errorf("job %d: %w", job.ID, err)) // never valid
	}
	p := w.j.cfg.Pool
	if a.Idle {
		res, ok := p.SearchIdle(ctx, a.Game, pos, a.History, a.Req)
		if !ok {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return river.JobSnooze(idleRetry) // a live search needed the searcher
		}
		return complete(ctx, w.j, job, a.Key, &res)
	}
	res, ok := p.Search(ctx, a.Owner, a.Game, pos, a.History, a.Req)
	if !ok {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errors.New("the search did not run")
	}
	return complete(ctx, w.j, job, a.Key, &res)
}

// answered reports whether key has an answer already, which only a job's
// later try (try > 0) or later attempt can find: the first of the first
// is not asked, to spare the database a read per job.
func (j *Jobs) answered(ctx context.Context, key string, try, attempt int) (bool, error) {
	if try == 0 && attempt <= 1 {
		return false, nil
	}
	_, found, err := j.answer(ctx, key)
	return found, err
}

// complete writes answer as key's (unless one is there: the first answer
// stays), notifies the servers waiting, and completes the job, all in one
// transaction; answer nil completes the job only.
func complete[T river.JobArgs](ctx context.Context, j *Jobs, job *river.Job[T], key string, answer any) error {
	tx, err := j.db.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.Background())
	if answer != nil {
		b, err := json.Marshal(answer)
		if err != nil {
			return river.JobCancel(err)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO engine_answers (key, answer) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", key, b); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "SELECT pg_notify($1, $2)", ResultsChannel, key); err != nil {
			return err
		}
	}
	if _, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
