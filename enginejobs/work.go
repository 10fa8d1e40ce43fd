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
	if _, found, err := w.j.answer(ctx, a.Key); err != nil {
		return err
	} else if found {
		return w.complete(ctx, job, nil) // an earlier try answered
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
		return w.complete(ctx, job, &res)
	}
	res, ok := p.Search(ctx, a.Owner, a.Game, pos, a.History, a.Req)
	if !ok {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errors.New("the search did not run")
	}
	return w.complete(ctx, job, &res)
}

// complete writes res as the answer of the job's key (unless one is
// there: the first answer stays), notifies the servers waiting, and
// completes the job, all in one transaction; res nil completes the job
// only.
func (w *searchWorker) complete(ctx context.Context, job *river.Job[searchArgs], res any) error {
	tx, err := w.j.db.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.Background())
	if res != nil {
		b, err := json.Marshal(res)
		if err != nil {
			return river.JobCancel(err)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO engine_answers (key, answer) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", job.Args.Key, b); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "SELECT pg_notify($1, $2)", ResultsChannel, job.Args.Key); err != nil {
			return err
		}
	}
	if _, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
