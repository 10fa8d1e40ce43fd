package web

import (
	"context"
	"errors"
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
// fields below state are the analyser's (under its mu), except those
// prepare sets once before the state becomes jobReady, which are read
// without the lock from then on.
type reviewJob struct {
	id, owner string
	state     jobState
	started   bool // a position was handed out in this run of the server

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
func (a *analyser) prepare(j *reviewJob) {
	st := a.srv.store
	rec, err := st.GetGame(j.id)
	var g *game.Game
	if err == nil && rec.Status != store.StatusOver {
		err = errors.New("the game is not over")
	}
	if err == nil {
		g, _, err = buildGame(rec)
	}
	var row *store.Analysis
	var saved []store.AnalysisPly
	if err == nil {
		row, saved, err = st.GameAnalysis(j.id)
		if errors.Is(err, store.ErrNotFound) {
			row, err = nil, nil
		}
	}
	a.mu.Lock()
	if err != nil {
		a.srv.logf("review of %s: %v", j.id, err)
		j.state = jobDone
		a.sendLocked(j.id, encodeAnalysisFailed())
		a.removeLocked(j)
		a.mu.Unlock()
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
			_ = replay.Play(j.moves[i]) // legal: buildGame played it
		}
	}
	j.over = rec.Reason.Termination
	j.plies = make([]store.AnalysisPly, n)
	j.have = make([]bool, n)
	j.busy = make([]bool, n)
	j.row = store.Analysis{GameID: j.id, Settings: a.settings, Positions: n}
	if row == nil || row.Settings != a.settings || row.Positions != n {
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
		a.finalizeLocked(j)
	} else {
		a.cond.Broadcast()
		a.sendLocked(j.id, a.messageLocked(j))
	}
	a.mu.Unlock()
	if complete {
		a.save(j, true)
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
// the search was stopped (a live game's request came, or the server
// stops).
func (a *analyser) evaluate(ctx context.Context, j *reviewJob, ply int) (p store.AnalysisPly, searched bool) {
	pos := j.positions[ply]
	p = store.AnalysisPly{GameID: j.id, Ply: ply}
	if !pos.HasLegalMoves() {
		p.Mated = pos.InCheck() // else stalemate: 0
		return p, true
	}
	if ply == len(j.positions)-1 && drawnByRule(j.over) {
		return p, true
	}
	req := enginepool.SearchRequest{Level: a.level, MoveTime: analysisTimeCap, Nodes: a.nodes, Evaluate: true}
	// One pool key for every review: a searcher moving from one review to
	// another keeps its hash table (entries of other games' positions are
	// harmless, and the next position's are useful), clearing it only
	// when a live game takes it.
	res, ok := a.srv.pool.SearchIdle(ctx, "review", pos, j.hist[ply], req)
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
func (a *analyser) record(u reviewUnit, p store.AnalysisPly) {
	j := u.job
	a.mu.Lock()
	j.inFlight--
	j.busy[u.ply] = false
	if j.state != jobReady || j.have[u.ply] {
		a.mu.Unlock()
		return
	}
	j.plies[u.ply] = p
	j.have[u.ply] = true
	j.done++
	j.unsaved = append(j.unsaved, u.ply)
	complete := j.done == len(j.plies)
	if complete {
		a.finalizeLocked(j)
	} else if now := time.Now(); now.Sub(j.progress) >= analysisProgressEvery {
		j.progress = now
		a.sendLocked(j.id, a.messageLocked(j))
	}
	save := complete || len(j.unsaved) >= analysisSaveEvery
	a.mu.Unlock()
	if save {
		a.save(j, complete)
	}
}

// giveBack returns a unit whose search was stopped (for a live game's
// request, or as the server stops), to be handed out again; a stopping
// server saves what the review has.
func (a *analyser) giveBack(u reviewUnit, stopping bool) {
	a.mu.Lock()
	u.job.inFlight--
	u.job.busy[u.ply] = false
	u.job.next = min(u.job.next, u.ply)
	pending := len(u.job.unsaved) > 0
	a.mu.Unlock()
	if stopping && pending {
		a.save(u.job, false)
	}
}

// evalOfPly is a saved evaluation as the review's maths takes it; toMove
// is the side to move in the position.
func evalOfPly(p store.AnalysisPly, toMove game.Color) reviewEval {
	if p.Mated {
		if toMove == game.White {
			return reviewEval{Mate: -1}
		}
		return reviewEval{Mate: 1}
	}
	return reviewEval{CP: p.CP, Mate: p.Mate}
}

// finalizeLocked judges every move of j and sums each side up.
//
// One departure from lila: a move that is the engine's own best move in
// the position before it is never judged, even when the evaluation one
// ply later (a search of its own, which may see further) is worse. At a
// budget of 200,000 nodes that happens, and telling a player that the
// move the review itself recommends was an inaccuracy would be nonsense.
func (a *analyser) finalizeLocked(j *reviewJob) {
	n := len(j.plies)
	evals := make([]reviewEval, n)
	wins := make([]float64, n)
	for i, p := range j.plies {
		evals[i] = evalOfPly(p, j.positions[i].Side())
		wins[i] = winPercent(evals[i])
	}
	var counts [2][4]int
	j.plies[0].Judgement = store.NoJudgement
	for i := 1; i < n; i++ {
		before := j.positions[i-1]
		mover := before.Side()
		jd := judgeMove(evals[i-1], evals[i], mover)
		if jd != store.NoJudgement && j.plies[i-1].BestUCI == before.UCI(j.moves[i-1]) {
			jd = store.NoJudgement
		}
		j.plies[i].Judgement = jd
		counts[mover][jd]++
	}
	w, b, wok, bok := gameAccuracy(wins, j.positions[0].Side())
	r := &j.row
	r.Complete = true
	r.WhiteAccuracy, r.BlackAccuracy = nil, nil
	if wok {
		r.WhiteAccuracy = &w
	}
	if bok {
		r.BlackAccuracy = &b
	}
	r.WhiteInaccuracies, r.WhiteMistakes, r.WhiteBlunders = counts[game.White][store.Inaccuracy], counts[game.White][store.Mistake], counts[game.White][store.Blunder]
	r.BlackInaccuracies, r.BlackMistakes, r.BlackBlunders = counts[game.Black][store.Inaccuracy], counts[game.Black][store.Mistake], counts[game.Black][store.Blunder]
	j.unsaved = j.unsaved[:0]
	for i := range j.plies {
		j.unsaved = append(j.unsaved, i) // every ply: each has its verdict now
	}
	j.state = jobDone
}

// save writes j's new plies (all of them, judged, when final) and its
// row. The complete review, once saved, leaves the queue.
func (a *analyser) save(j *reviewJob, final bool) {
	j.saveMu.Lock()
	defer j.saveMu.Unlock()
	if j.saved {
		return
	}
	a.mu.Lock()
	if final != (j.state == jobDone) {
		a.mu.Unlock()
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
	a.mu.Unlock()

	err := a.srv.store.SaveAnalysis(&row, rows, reset)
	if err != nil {
		a.srv.logf("review of %s: %v", j.id, err)
	}
	if final && err == nil {
		// Complete and saved: j's positions, moves and plies no longer
		// change, and the engine learns from them (experience.Learner).
		if l := a.srv.learner; l != nil {
			l.Reviewed(j.id, j.positions, j.moves, j.plies)
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
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
		a.sendLocked(j.id, a.messageLocked(j))
		a.removeLocked(j)
		a.broadcastQueueLocked()
		if testHookReviewed != nil {
			testHookReviewed(j.id)
		}
	}
}
