package review

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/store"
)

// jobState is where a review is.
type jobState uint8

const (
	jobNew       jobState = iota // queued; its game not yet read
	jobPreparing                 // a worker reads its game and saved plies
	jobReady                     // positions to evaluate are handed out
	jobDone                      // every position evaluated and judged
)

// reviewJob is one game's review while it is queued or running. The
// fields below state are the Reviewer's (under its mu), except those
// prepare sets once before the state becomes jobReady, which are read
// without the lock from then on.
type reviewJob struct {
	id, owner string
	state     jobState
	started   bool // a position was handed out since New

	// Set by prepare, then read-only.
	positions []*game.Position // the start, then after each move
	moves     []game.Move
	hist      [][]uint64 // the engine's repetition history at each position
	over      game.Termination

	plies    []store.AnalysisPly // one per position, filled as evaluated
	have     []bool
	busy     []bool // handed out, not yet evaluated
	next     int    // the positions before next are handed out or evaluated
	inFlight int
	done     int   // positions evaluated
	unsaved  []int // plies evaluated since the last save
	reset    bool  // the first save replaces a review made with other settings
	row      store.Analysis
	progress time.Time // when the last progress message went out

	saveMu sync.Mutex // one save of this review at a time
	saved  bool       // the complete review is saved (under saveMu)
	// ended is set once the complete review's save is over: from then on
	// its pages get it whole (so a PGN asked for then has it too).
	ended bool
}

// prepare reads job j's game and what of its review is saved already.
func (r *Reviewer) prepare(j *reviewJob) {
	st := r.store
	rec, err := st.Games().GetGame(j.id)
	var g *game.Game
	if err == nil && rec.Status != store.StatusOver {
		err = errors.New("the game is not over")
	}
	if err == nil {
		g, err = rec.Replay()
	}
	var row *store.Analysis
	var saved []store.AnalysisPly
	if err == nil {
		row, saved, err = st.Reviews().GameAnalysis(j.id)
		if errors.Is(err, store.ErrNotFound) {
			row, err = nil, nil
		}
	}
	r.mu.Lock()
	if err != nil {
		r.logf("review of %s: %v", j.id, err)
		j.state = jobDone
		r.sendLocked(j.id, Status{State: Failed})
		r.removeLocked(j)
		r.mu.Unlock()
		return
	}
	n := g.Len() + 1
	j.positions = make([]*game.Position, n)
	j.hist = make([][]uint64, n)
	j.moves = g.Moves()
	replay := game.NewGameFrom(g.StartPosition())
	for i := 0; i < n; i++ {
		j.positions[i] = g.PositionAt(i)
		j.hist[i] = replay.HashHistory()
		if i < len(j.moves) {
			_ = replay.Play(j.moves[i]) // legal: Replay played it
		}
	}
	j.over = rec.Reason.Termination
	j.plies = make([]store.AnalysisPly, n)
	j.have = make([]bool, n)
	j.busy = make([]bool, n)
	j.row = store.Analysis{GameID: j.id, Settings: r.settings, Positions: n}
	if row == nil || row.Settings != r.settings || row.Positions != n {
		j.reset = row != nil
	} else {
		// Carry on from the plies saved before (a restart).
		for _, p := range saved {
			if p.Ply >= 0 && p.Ply < n && !j.have[p.Ply] {
				j.plies[p.Ply] = p
				j.have[p.Ply] = true
				j.done++
			}
		}
	}
	j.state = jobReady
	complete := j.done == n
	if complete {
		// Evaluated but not judged or saved complete (stopped in between).
		r.finalizeLocked(j)
	} else {
		r.cond.Broadcast()
		r.sendLocked(j.id, r.statusLocked(j))
	}
	r.mu.Unlock()
	if complete {
		r.save(j, true)
	}
}

// drawnByRule reports whether a game that ended with t ended in a draw
// the board itself decides: its last position is worth 0, whatever a
// search would say of playing on.
func drawnByRule(t game.Termination) bool {
	switch t {
	case game.Stalemate, game.InsufficientMaterial, game.SeventyFiveMoves, game.FivefoldRepetition, game.FiftyMoves, game.ThreefoldRepetition:
		return true
	}
	return false
}

// evaluate evaluates position ply of j: by the rules where the game is
// over on the board, else by a background search. searched is false when
// the search was stopped (a live game's request came, or the reviewer
// stops).
func (r *Reviewer) evaluate(ctx context.Context, j *reviewJob, ply int) (p store.AnalysisPly, searched bool) {
	pos := j.positions[ply]
	p = store.AnalysisPly{GameID: j.id, Ply: ply}
	if !pos.HasLegalMoves() {
		p.Mated = pos.InCheck() // else stalemate: 0
		return p, true
	}
	if ply == len(j.positions)-1 && drawnByRule(j.over) {
		return p, true
	}
	req := enginepool.SearchRequest{
		Level: r.level, MoveTime: analysisTimeCap, Nodes: r.nodes, Evaluate: true,
		// Two servers reviewing one game share each position's search.
		Turn: fmt.Sprintf("review %s %d %d %d", j.id, ply, r.level, r.nodes),
	}
	// One pool key for every review: a searcher moving from one review to
	// another keeps its hash table (entries of other games' positions are
	// harmless, and the next position's are useful), clearing it only
	// when a live game takes it.
	res, ok := r.engine.SearchIdle(ctx, "review", pos, j.hist[ply], req)
	if !ok {
		return p, false
	}
	sign := 1
	if pos.Side() == game.Black {
		sign = -1
	}
	p.Depth = res.Depth
	if res.Mate != 0 {
		p.Mate = sign * res.Mate
	} else {
		p.CP = sign * res.CP
	}
	if res.Move != game.NoMove && pos.IsLegal(res.Move) {
		p.BestUCI, p.BestSAN = pos.UCI(res.Move), pos.SAN(res.Move)
	}
	return p, true
}

// record keeps an evaluation, judges the game once every position has
// one, and saves and reports progress as it goes.
func (r *Reviewer) record(u reviewUnit, p store.AnalysisPly) {
	j := u.job
	r.mu.Lock()
	j.inFlight--
	j.busy[u.ply] = false
	if j.state != jobReady || j.have[u.ply] {
		r.mu.Unlock()
		return
	}
	j.plies[u.ply] = p
	j.have[u.ply] = true
	j.done++
	j.unsaved = append(j.unsaved, u.ply)
	complete := j.done == len(j.plies)
	if complete {
		r.finalizeLocked(j)
	} else if now := time.Now(); now.Sub(j.progress) >= analysisProgressEvery {
		j.progress = now
		r.sendLocked(j.id, r.statusLocked(j))
	}
	save := complete || len(j.unsaved) >= analysisSaveEvery
	r.mu.Unlock()
	if save {
		r.save(j, complete)
	}
}

// giveBack returns a unit whose search was stopped (for a live game's
// request, or as the reviewer stops), to be handed out again; a stopping
// reviewer saves what the review has.
func (r *Reviewer) giveBack(u reviewUnit, stopping bool) {
	r.mu.Lock()
	u.job.inFlight--
	u.job.busy[u.ply] = false
	u.job.next = min(u.job.next, u.ply)
	pending := len(u.job.unsaved) > 0
	r.mu.Unlock()
	if stopping && pending {
		r.save(u.job, false)
	}
}

// finalizeLocked judges every move of j and sums each side up.
//
// One departure from lila: a move that is the engine's own best move in
// the position before it is never judged, even when the evaluation one
// ply later (a search of its own, which may see further) is worse. At a
// budget of 200,000 nodes that happens, and telling a player that the
// move the review itself recommends was an inaccuracy would be nonsense.
func (r *Reviewer) finalizeLocked(j *reviewJob) {
	n := len(j.plies)
	evals := make([]Eval, n)
	wins := make([]float64, n)
	for i, p := range j.plies {
		evals[i] = PlyEval(p, j.positions[i].Side())
		wins[i] = WinPercent(evals[i])
	}
	var counts [2][4]int
	j.plies[0].Judgement = store.NoJudgement
	for i := 1; i < n; i++ {
		before := j.positions[i-1]
		mover := before.Side()
		jd := JudgeMove(evals[i-1], evals[i], mover)
		if jd != store.NoJudgement && j.plies[i-1].BestUCI == before.UCI(j.moves[i-1]) {
			jd = store.NoJudgement
		}
		j.plies[i].Judgement = jd
		counts[mover][jd]++
	}
	w, b, wok, bok := gameAccuracy(wins, j.positions[0].Side())
	row := &j.row
	row.Complete = true
	row.WhiteAccuracy, row.BlackAccuracy = nil, nil
	if wok {
		row.WhiteAccuracy = &w
	}
	if bok {
		row.BlackAccuracy = &b
	}
	row.WhiteInaccuracies, row.WhiteMistakes, row.WhiteBlunders = counts[game.White][store.Inaccuracy], counts[game.White][store.Mistake], counts[game.White][store.Blunder]
	row.BlackInaccuracies, row.BlackMistakes, row.BlackBlunders = counts[game.Black][store.Inaccuracy], counts[game.Black][store.Mistake], counts[game.Black][store.Blunder]
	j.unsaved = j.unsaved[:0]
	for i := range j.plies {
		j.unsaved = append(j.unsaved, i) // every ply: each has its verdict now
	}
	j.state = jobDone
}

// save writes j's new plies (all of them, judged, when final) and its
// row. The complete review, once saved, leaves the queue.
func (r *Reviewer) save(j *reviewJob, final bool) {
	j.saveMu.Lock()
	defer j.saveMu.Unlock()
	if j.saved {
		return
	}
	r.mu.Lock()
	if final != (j.state == jobDone) {
		r.mu.Unlock()
		return // a partial save after the final one was decided: moot
	}
	idx := j.unsaved
	j.unsaved = nil
	rows := make([]store.AnalysisPly, len(idx))
	for k, i := range idx {
		rows[k] = j.plies[i]
	}
	row, reset := j.row, j.reset
	j.reset = false
	r.mu.Unlock()

	err := r.store.Reviews().SaveAnalysis(&row, rows, reset)
	if err != nil {
		r.logf("review of %s: %v", j.id, err)
	}
	if final && err == nil {
		// Complete and saved: j's positions, moves and plies no longer
		// change, and the engine learns from them (Options.Learn).
		if r.learn != nil {
			r.learn(j.id, j.positions, j.moves, j.plies)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil && !final {
		// Kept for the next save.
		j.unsaved = append(j.unsaved, idx...)
		j.reset = j.reset || reset
		return
	}
	if final {
		// Saved, or not savable now: either way the review is done
		// here; an unsaved one is made again when the game is next
		// opened or the server restarts.
		j.saved = err == nil
		j.ended = true
		r.sendLocked(j.id, r.statusLocked(j))
		r.removeLocked(j)
		r.broadcastQueueLocked()
		if r.reviewed != nil {
			r.reviewed(j.id)
		}
	}
}
