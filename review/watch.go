package review

import (
	"errors"

	"knightwatch/game"
	"knightwatch/store"
)

// State is where a review stands.
type State uint8

// The states of a review as its pages are told.
const (
	// Queued: waiting for its turn; Status.Queue is its place in line.
	Queued State = iota
	// Running: being evaluated; Status.Progress is the percentage done.
	Running
	// Done: complete; Status.Analysis, Plies and First are set.
	Done
	// Failed: the game could not be reviewed.
	Failed
)

// Status is where a game's review stands, as its open pages are told.
type Status struct {
	State State
	// Queue is the review's place among those not yet started (1: the
	// next to start), while Queued.
	Queue int
	// Progress is the percentage of positions evaluated (0 to 100), while
	// Queued (a review carried on after a restart has some) or Running.
	Progress int
	// Analysis and Plies are the complete review, one ply per position of
	// the game (the start, then after each move); First is the side to
	// move in the game's start position. Set when Done, read-only.
	Analysis *store.Analysis
	Plies    []store.AnalysisPly
	First    game.Color
}

// Watcher is an open page of a game that follows its review: a player's
// or a spectator's socket.
type Watcher interface {
	// ReviewStatus tells the page where the review stands. It is called
	// under the reviewer's lock: it must not block, nor call the
	// Reviewer.
	ReviewStatus(Status)
}

// Watch subscribes w to the review of game rec and tells it what there
// is: the queued or running review's status, or the stored review of a
// finished game, whose review is queued if there is none (a game finished
// before reviews began) or it was made with other settings. Unwatch
// forgets w.
func (r *Reviewer) Watch(rec *store.Game, w Watcher) {
	r.mu.Lock()
	if r.subs[rec.ID] == nil {
		r.subs[rec.ID] = map[Watcher]struct{}{}
	}
	r.subs[rec.ID][w] = struct{}{}
	if j := r.jobs[rec.ID]; j != nil {
		w.ReviewStatus(r.statusLocked(j))
		r.mu.Unlock()
		return
	}
	r.mu.Unlock()
	if rec.Status != store.StatusOver {
		return // the review is queued, and sent here, when the game ends
	}
	row, plies, err := r.store.Reviews().GameAnalysis(rec.ID)
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, still := r.subs[rec.ID][w]; !still {
		return
	}
	if j := r.jobs[rec.ID]; j != nil { // queued meanwhile
		w.ReviewStatus(r.statusLocked(j))
		return
	}
	switch {
	case err == nil && row.Complete && row.Settings == r.settings && len(plies) == row.Positions:
		first := game.White
		if p, perr := game.ParseFEN(rec.StartFEN); perr == nil {
			first = p.Side()
		}
		w.ReviewStatus(Status{State: Done, Progress: 100, Analysis: row, Plies: plies, First: first})
	case err == nil || errors.Is(err, store.ErrNotFound):
		r.enqueueLocked(rec.ID, rec.Owner)
		r.broadcastQueueLocked()
	default:
		r.logf("review of %s: %v", rec.ID, err)
	}
}

// Unwatch forgets w's subscription to the review of game id.
func (r *Reviewer) Unwatch(id string, w Watcher) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m := r.subs[id]; m != nil {
		delete(m, w)
		if len(m) == 0 {
			delete(r.subs, id)
		}
	}
}

// statusLocked is job j's status as it stands.
func (r *Reviewer) statusLocked(j *reviewJob) Status {
	if j.ended {
		return Status{State: Done, Progress: 100, Analysis: &j.row, Plies: j.plies, First: j.positions[0].Side()}
	}
	st := Status{State: Running}
	if n := len(j.plies); n > 0 {
		st.Progress = j.done * 100 / n
	}
	if !j.started {
		st.State, st.Queue = Queued, r.queuePositionLocked(j)
	}
	return st
}

// queuePositionLocked is j's place in line among the reviews not yet
// started, 1 being the next to start: the owners are served in turn, so
// ahead of j's k-th waiting review (k from 0) are the k before it of its
// own and up to k+1 of each other owner's.
func (r *Reviewer) queuePositionLocked(j *reviewJob) int {
	waiting := func(x *reviewJob) bool { return !x.started && x.state != jobDone }
	ahead := 0
	for _, o := range r.owners {
		if o.key != j.owner {
			continue
		}
		for _, x := range o.jobs {
			if x == j {
				break
			}
			if waiting(x) {
				ahead++
			}
		}
	}
	k := ahead
	for _, o := range r.owners {
		if o.key == j.owner {
			continue
		}
		w := 0
		for _, x := range o.jobs {
			if waiting(x) {
				w++
			}
		}
		ahead += min(w, k+1)
	}
	return ahead + 1
}

// sendLocked tells the watchers of game id's review st.
func (r *Reviewer) sendLocked(id string, st Status) {
	for w := range r.subs[id] {
		w.ReviewStatus(st)
	}
}

// broadcastQueueLocked tells the watchers of every review not yet done
// where it stands, after the queue changed.
func (r *Reviewer) broadcastQueueLocked() {
	for id := range r.subs {
		if j := r.jobs[id]; j != nil && !j.ended {
			r.sendLocked(id, r.statusLocked(j))
		}
	}
}
