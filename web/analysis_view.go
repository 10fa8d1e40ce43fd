package web

import (
	"errors"
	"math"

	"knightwatch/game"
	"knightwatch/store"
)

// Review statuses of the analysis message (PROTOCOL.md).
const (
	AnalysisQueued  = "queued"  // waiting for its turn; queue is its place in line
	AnalysisRunning = "running" // being evaluated; progress is the percentage done
	AnalysisDone    = "done"    // complete: plies, white and black
	AnalysisFailed  = "failed"  // the game could not be reviewed
)

// AnalysisMessage is the review of a finished game as its pages get it
// (MsgAnalysis): its status while queued or running, then the whole
// review.
type AnalysisMessage struct {
	Type   string `json:"type"` // MsgAnalysis
	Status string `json:"status"`
	// Queue is the review's place among those not yet started (1: the
	// next to start), while queued.
	Queue int `json:"queue,omitempty"`
	// Progress is the percentage of positions evaluated (0 to 100).
	Progress int `json:"progress"`
	// Plies, White and Black are set when done: one entry per position of
	// the game (the start, then after each move), and each side's summary.
	Plies []AnalysisPlyView `json:"plies,omitempty"`
	White *AnalysisSideView `json:"white,omitempty"`
	Black *AnalysisSideView `json:"black,omitempty"`
}

// AnalysisPlyView is one position of the review.
type AnalysisPlyView struct {
	Ply int `json:"ply"`
	// CP and Mate are the evaluation from White's point of view (Mate:
	// moves to mate, positive when White mates; 0 when none); Mated says
	// the side to move is checkmated.
	CP    int  `json:"cp"`
	Mate  int  `json:"mate"`
	Mated bool `json:"mated,omitempty"`
	// Win is White's Win% (0 to 100, lichess's formula), for the graph.
	Win float64 `json:"win"`
	// Best and BestSAN are the engine's best move here (UCI and SAN);
	// empty where the game is over.
	Best    string `json:"best,omitempty"`
	BestSAN string `json:"bestSan,omitempty"`
	// Judgement is the verdict on the move that led here: "",
	// "inaccuracy", "mistake" or "blunder".
	Judgement string `json:"judgement,omitempty"`
}

// AnalysisSideView sums up one side's play.
type AnalysisSideView struct {
	// Accuracy is 0 to 100, one decimal; null when the side made no move.
	Accuracy     *float64 `json:"accuracy"`
	Inaccuracies int      `json:"inaccuracies"`
	Mistakes     int      `json:"mistakes"`
	Blunders     int      `json:"blunders"`
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

func sideView(acc *float64, inacc, mistakes, blunders int) *AnalysisSideView {
	v := &AnalysisSideView{Inaccuracies: inacc, Mistakes: mistakes, Blunders: blunders}
	if acc != nil {
		r := round1(*acc)
		v.Accuracy = &r
	}
	return v
}

// encodeAnalysisDone is the message of a complete review; first is the
// side to move in the game's start position.
func encodeAnalysisDone(row *store.Analysis, plies []store.AnalysisPly, first game.Color) []byte {
	m := AnalysisMessage{Type: MsgAnalysis, Status: AnalysisDone, Progress: 100, Plies: make([]AnalysisPlyView, len(plies)),
		White: sideView(row.WhiteAccuracy, row.WhiteInaccuracies, row.WhiteMistakes, row.WhiteBlunders),
		Black: sideView(row.BlackAccuracy, row.BlackInaccuracies, row.BlackMistakes, row.BlackBlunders)}
	for i, p := range plies {
		toMove := first
		if p.Ply%2 == 1 {
			toMove = first.Other()
		}
		m.Plies[i] = AnalysisPlyView{Ply: p.Ply, CP: p.CP, Mate: p.Mate, Mated: p.Mated,
			Win: round1(winPercent(evalOfPly(p, toMove))), Best: p.BestUCI, BestSAN: p.BestSAN, Judgement: p.Judgement.String()}
	}
	return mustJSON(m)
}

func encodeAnalysisFailed() []byte {
	return mustJSON(AnalysisMessage{Type: MsgAnalysis, Status: AnalysisFailed})
}

// messageLocked is job j's message as it stands.
func (a *analyser) messageLocked(j *reviewJob) []byte {
	if j.ended {
		return encodeAnalysisDone(&j.row, j.plies, j.positions[0].Side())
	}
	m := AnalysisMessage{Type: MsgAnalysis, Status: AnalysisRunning}
	if n := len(j.plies); n > 0 {
		m.Progress = j.done * 100 / n
	}
	if !j.started {
		m.Status, m.Queue = AnalysisQueued, a.queuePositionLocked(j)
	}
	return mustJSON(m)
}

// queuePositionLocked is j's place in line among the reviews not yet
// started, 1 being the next to start: the owners are served in turn, so
// ahead of j's k-th waiting review (k from 0) are the k before it of its
// own and up to k+1 of each other owner's.
func (a *analyser) queuePositionLocked(j *reviewJob) int {
	waiting := func(x *reviewJob) bool { return !x.started && x.state != jobDone }
	ahead := 0
	for _, o := range a.owners {
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
	for _, o := range a.owners {
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

// sendLocked sends b to the open pages of game id.
func (a *analyser) sendLocked(id string, b []byte) {
	for c := range a.subs[id] {
		c.trySend(b)
	}
}

// broadcastQueueLocked tells the open pages of every review not yet done
// where it stands, after the queue changed.
func (a *analyser) broadcastQueueLocked() {
	for id := range a.subs {
		if j := a.jobs[id]; j != nil && !j.ended {
			a.sendLocked(id, a.messageLocked(j))
		}
	}
}

// watchReview subscribes socket c (a player's or a spectator's) to the
// review of game rec and sends what there is: the queued or running
// review's status, or the stored review of a finished game, whose review
// is queued if there is none (a game finished before reviews began) or it
// was made with other settings. It must run before c's pumps start, and
// unwatchReview when c leaves.
func (s *Server) watchReview(c *client, rec *store.Game) {
	a := s.analysis
	if a == nil {
		return
	}
	a.mu.Lock()
	c.review = rec.ID
	if a.subs[rec.ID] == nil {
		a.subs[rec.ID] = map[*client]struct{}{}
	}
	a.subs[rec.ID][c] = struct{}{}
	if j := a.jobs[rec.ID]; j != nil {
		c.trySend(a.messageLocked(j))
		a.mu.Unlock()
		return
	}
	a.mu.Unlock()
	if rec.Status != store.StatusOver {
		return // the review is queued, and sent here, when the game ends
	}
	row, plies, err := s.store.GameAnalysis(rec.ID)
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, still := a.subs[rec.ID][c]; !still {
		return
	}
	if j := a.jobs[rec.ID]; j != nil { // queued meanwhile
		c.trySend(a.messageLocked(j))
		return
	}
	switch {
	case err == nil && row.Complete && row.Settings == a.settings && len(plies) == row.Positions:
		first := game.White
		if p, perr := game.ParseFEN(rec.StartFEN); perr == nil {
			first = p.Side()
		}
		c.trySend(encodeAnalysisDone(row, plies, first))
	case err == nil || errors.Is(err, store.ErrNotFound):
		a.enqueueLocked(rec.ID, rec.Owner)
		a.broadcastQueueLocked()
	default:
		s.logf("review of %s: %v", rec.ID, err)
	}
}

// unwatchReview forgets socket c's subscription.
func (s *Server) unwatchReview(c *client) {
	a := s.analysis
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if m := a.subs[c.review]; m != nil {
		delete(m, c)
		if len(m) == 0 {
			delete(a.subs, c.review)
		}
	}
}
