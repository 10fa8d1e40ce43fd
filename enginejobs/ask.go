package enginejobs

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"knightwatch/enginepool"
	"knightwatch/game"
)

// maxTries is how many times a job is asked for (lost, cancelled by
// another server, failed) before the asker gives up.
const maxTries = 4

// Search asks for a live search (an engine reply, a draw evaluation) of
// owner's game gameID, and waits for its answer or ctx. Requests with the
// same req.Turn are one job (doc); without one a request is its own.
func (j *Jobs) Search(ctx context.Context, owner, gameID string, pos *game.Position, history []uint64, req enginepool.SearchRequest) (enginepool.SearchResult, bool) {
	return j.search(ctx, owner, gameID, pos, history, req, false)
}

// SearchIdle asks for a review's search, worked as the pool's background
// work, and waits for its answer or ctx.
func (j *Jobs) SearchIdle(ctx context.Context, gameID string, pos *game.Position, history []uint64, req enginepool.SearchRequest) (enginepool.SearchResult, bool) {
	return j.search(ctx, "", gameID, pos, history, req, true)
}

func (j *Jobs) search(ctx context.Context, owner, gameID string, pos *game.Position, history []uint64, req enginepool.SearchRequest, idle bool) (enginepool.SearchResult, bool) {
	key := req.Turn
	if key == "" {
		key = "once:" + rand.Text()
	}
	first := newArgs(key, 0, owner, gameID, pos, history, req, idle)
	b, ok := j.ask(ctx, request{
		key: key, owner: owner, queue: first.queue(), idle: idle, timeout: timeout(req),
		args: func(try int) river.JobArgs {
			a := first
			a.Try, a.Unique = try, uniqueOf(key, try)
			return a
		},
	})
	if !ok {
		return enginepool.SearchResult{}, false
	}
	var res enginepool.SearchResult
	if err := json.Unmarshal(b, &res); err != nil {
		j.cfg.Logf("enginejobs: answer %s: %v", key, err)
		return enginepool.SearchResult{}, false
	}
	return res, true
}

// request is one ask: the answer's key, whose work it is, the job's queue
// and timeout, and its arguments for each try.
type request struct {
	key, owner, queue string
	idle              bool // a review's: the lowest priority, no owner's
	timeout           time.Duration
	args              func(try int) river.JobArgs
}

// ask inserts the request's job (the first try, or the one after the last
// lost) and waits for its answer: woken by its notification, or every
// Poll, it reads the answer, then the job; a job cancelled or failed, or
// running Grace past its timeout, is asked for again as the next try. It
// returns the answer as the worker wrote it.
func (j *Jobs) ask(ctx context.Context, r request) (json.RawMessage, bool) {
	ch := j.subscribe(r.key)
	defer j.unsubscribe(r.key, ch)
	try := 0
	job, err := j.insert(ctx, r, try)
	if err != nil {
		j.cfg.Logf("enginejobs: asking for %s: %v", r.key, err)
		return nil, false
	}
	if ctx.Err() != nil {
		j.withdraw(job.ID) // withdrawn while the insert committed
		return nil, false
	}
	tick := time.NewTicker(j.cfg.Poll)
	defer tick.Stop()
	for {
		b, lost, err := j.look(ctx, r.key, job.ID, r.timeout)
		switch {
		case b != nil:
			return b, true
		case err != nil && ctx.Err() == nil:
			j.cfg.Logf("enginejobs: reading the answer and the job of %s: %v", r.key, err)
		case lost:
			if try++; try == maxTries {
				j.cfg.Logf("enginejobs: %s: no answer after %d tries", r.key, try)
				return nil, false
			}
			if job, err = j.insert(ctx, r, try); err != nil {
				j.cfg.Logf("enginejobs: asking again for %s: %v", r.key, err)
				return nil, false
			}
			continue
		}
		select {
		case <-ctx.Done():
			j.withdraw(job.ID)
			return nil, false
		case <-ch:
		case <-tick.C:
		}
	}
}

// insertTimeout bounds an insert, which the asker's context does not
// cut short (insert).
const insertTimeout = 10 * time.Second

// insert inserts the job of r's try, or finds the one another server
// inserted for the same key and try. Its priority is one more than the
// owner's jobs waiting or running (a review's: the last).
//
// The asker's withdrawal does not cut an insert short: a commit cut off
// by a cancelled context may have happened all the same, and a job
// inserted whose ID the asker never learnt could not be withdrawn (a
// worker would search for nobody until its timeout, and again). The
// asker withdraws it once the insert returns.
func (j *Jobs) insert(asker context.Context, r request, try int) (*rivertype.JobRow, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(asker), insertTimeout)
	defer cancel()
	opts := &river.InsertOpts{
		Queue:      r.queue,
		Priority:   4,
		UniqueOpts: river.UniqueOpts{ByArgs: true},
	}
	if !r.idle {
		tag := ownerTag(r.owner)
		var n int
		err := j.db.QueryRow(ctx, `SELECT count(*) FROM river_job
			WHERE state IN ('available', 'running', 'retryable', 'scheduled') AND tags @> ARRAY[$1]::varchar[]`, tag).Scan(&n)
		if err != nil {
			return nil, err
		}
		opts.Priority, opts.Tags = min(1+n, 4), []string{tag}
	}
	res, err := j.client.Insert(ctx, r.args(try), opts)
	if err != nil {
		return nil, err
	}
	return res.Job, nil
}

// look reads, in one statement, key's answer (nil while there is none)
// and whether job id is lost: it will never answer, being cancelled,
// discarded after its attempts, gone, or running Grace past its timeout
// (its worker died; River would rescue it only much later). The time is
// the database's, so that the machines' clocks need not agree.
func (j *Jobs) look(ctx context.Context, key string, id int64, timeout time.Duration) (answer json.RawMessage, lost bool, err error) {
	var state *string
	var overdue *bool
	err = j.db.QueryRow(ctx, `SELECT
		(SELECT answer FROM engine_answers WHERE key = $1),
		(SELECT state::text FROM river_job WHERE id = $2),
		(SELECT state = 'running' AND attempted_at < now() - $3::interval FROM river_job WHERE id = $2)`,
		key, id, (timeout+j.cfg.Grace).String()).Scan(&answer, &state, &overdue)
	if err != nil {
		return nil, false, err
	}
	if answer != nil {
		return answer, false, nil
	}
	switch {
	case state == nil:
		return nil, true, nil // deleted: never answered
	case *state == string(rivertype.JobStateCancelled), *state == string(rivertype.JobStateDiscarded):
		return nil, true, nil
	}
	return nil, overdue != nil && *overdue, nil
}

// answer reads key's answer, if there is one.
func (j *Jobs) answer(ctx context.Context, key string) (json.RawMessage, bool, error) {
	var b []byte
	err := j.db.QueryRow(ctx, "SELECT answer FROM engine_answers WHERE key = $1", key).Scan(&b)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}

// withdraw cancels a job nobody here waits for any more (the turn was
// withdrawn): a worker stops its search. Another server still waiting
// for its key asks again.
func (j *Jobs) withdraw(id int64) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := j.client.JobCancel(ctx, id); err != nil && !errors.Is(err, river.ErrNotFound) {
		j.cfg.Logf("enginejobs: cancelling job %d: %v", id, err)
	}
}
