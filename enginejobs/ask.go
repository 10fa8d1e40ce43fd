package enginejobs

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"knightwatch/enginepool"
	"knightwatch/game"
)

// maxTries is how many times a search is asked for (its job lost,
// cancelled by another server or failed) before the asker gives up.
const maxTries = 4

// Search asks for a live search (an engine reply, a draw evaluation) of
// owner's game gameID, and waits for its answer or ctx. Requests with the
// same req.Turn are one job (doc); without one a request is its own.
func (j *Jobs) Search(ctx context.Context, owner, gameID string, pos *game.Position, history []uint64, req enginepool.SearchRequest) (enginepool.SearchResult, bool) {
	return j.ask(ctx, owner, gameID, pos, history, req, false)
}

// SearchIdle asks for a review's search, worked as the pool's background
// work, and waits for its answer or ctx.
func (j *Jobs) SearchIdle(ctx context.Context, gameID string, pos *game.Position, history []uint64, req enginepool.SearchRequest) (enginepool.SearchResult, bool) {
	return j.ask(ctx, "", gameID, pos, history, req, true)
}

// RunStep runs a bot's step in this server's own pool (doc).
func (j *Jobs) RunStep(ctx context.Context, s enginepool.Step) bool {
	return j.cfg.Pool.RunStep(ctx, s)
}

// ask inserts the search's job (the first try, or the one after the last
// lost) and waits for its answer: woken by its notification, or every
// Poll, it reads the answer, then the job; a job cancelled or failed, or
// running Grace past its timeout, is asked for again as the next try.
func (j *Jobs) ask(ctx context.Context, owner, gameID string, pos *game.Position, history []uint64, req enginepool.SearchRequest, idle bool) (enginepool.SearchResult, bool) {
	key := req.Turn
	if key == "" {
		key = "once:" + rand.Text()
	}
	ch := j.subscribe(key)
	defer j.unsubscribe(key, ch)
	try := 0
	args := newArgs(key, try, owner, gameID, pos, history, req, idle)
	job, err := j.insert(ctx, args)
	if err != nil {
		j.cfg.Logf("enginejobs: asking for %s: %v", key, err)
		return enginepool.SearchResult{}, false
	}
	tick := time.NewTicker(j.cfg.Poll)
	defer tick.Stop()
	for {
		res, found, err := j.answer(ctx, key)
		switch {
		case found:
			return res, true
		case err != nil && ctx.Err() == nil:
			j.cfg.Logf("enginejobs: reading the answer %s: %v", key, err)
		}
		switch lost, err := j.lost(ctx, job.ID, args.Req); {
		case err != nil && ctx.Err() == nil:
			j.cfg.Logf("enginejobs: reading the job of %s: %v", key, err)
		case lost:
			if try++; try == maxTries {
				j.cfg.Logf("enginejobs: %s: no answer after %d tries", key, try)
				return enginepool.SearchResult{}, false
			}
			args = newArgs(key, try, owner, gameID, pos, history, req, idle)
			if job, err = j.insert(ctx, args); err != nil {
				j.cfg.Logf("enginejobs: asking again for %s: %v", key, err)
				return enginepool.SearchResult{}, false
			}
			continue
		}
		select {
		case <-ctx.Done():
			j.withdraw(job.ID)
			return enginepool.SearchResult{}, false
		case <-ch:
		case <-tick.C:
		}
	}
}

// insert inserts the job of args, or finds the one another server
// inserted for the same key and try. Its priority is one more than the
// owner's jobs waiting or running (a review's: the last).
func (j *Jobs) insert(ctx context.Context, args searchArgs) (*rivertype.JobRow, error) {
	opts := &river.InsertOpts{
		Queue:      args.queue(),
		Priority:   4,
		UniqueOpts: river.UniqueOpts{ByArgs: true},
	}
	if !args.Idle {
		tag := ownerTag(args.Owner)
		var n int
		err := j.db.QueryRow(ctx, `SELECT count(*) FROM river_job
			WHERE state IN ('available', 'running', 'retryable', 'scheduled') AND tags @> ARRAY[$1]::varchar[]`, tag).Scan(&n)
		if err != nil {
			return nil, err
		}
		opts.Priority, opts.Tags = min(1+n, 4), []string{tag}
	}
	res, err := j.client.Insert(ctx, args, opts)
	if err != nil {
		return nil, err
	}
	return res.Job, nil
}

// answer reads key's answer, if there is one.
func (j *Jobs) answer(ctx context.Context, key string) (enginepool.SearchResult, bool, error) {
	var b []byte
	err := j.db.QueryRow(ctx, "SELECT answer FROM engine_answers WHERE key = $1", key).Scan(&b)
	if errors.Is(err, pgx.ErrNoRows) {
		return enginepool.SearchResult{}, false, nil
	}
	if err != nil {
		return enginepool.SearchResult{}, false, err
	}
	var res enginepool.SearchResult
	if err := json.Unmarshal(b, &res); err != nil {
		return enginepool.SearchResult{}, false, fmt.Errorf("answer %s: %w", key, err)
	}
	return res, true, nil
}

// lost reports whether job id will never answer: cancelled, discarded
// after its attempts, or running Grace past the timeout of its request
// (its worker died; River would rescue it only much later). The time is
// the database's, so that the machines' clocks need not agree.
func (j *Jobs) lost(ctx context.Context, id int64, req enginepool.SearchRequest) (bool, error) {
	var state string
	var overdue bool
	err := j.db.QueryRow(ctx, `SELECT state, state = 'running' AND attempted_at < now() - $2::interval
		FROM river_job WHERE id = $1`, id, (timeout(req)+j.cfg.Grace).String()).Scan(&state, &overdue)
	if errors.Is(err, pgx.ErrNoRows) {
		return true, nil // deleted: never answered, or answered and long forgotten
	}
	if err != nil {
		return false, err
	}
	return overdue || state == string(rivertype.JobStateCancelled) || state == string(rivertype.JobStateDiscarded), nil
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
