package web

// The reviews of finished games (package review, Parts.Reviews; play
// queues each game that ends) as a game's pages see them: each socket of a finished game, a player's or a
// spectator's, follows its review, and gets its status as the analysis
// message (play.MsgAnalysis, PROTOCOL.md) while queued or running, then the
// whole review.

import (
	"encoding/json"
	"math"

	"knightwatch/game"
	"knightwatch/play"
	"knightwatch/review"
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
// (play.MsgAnalysis): its status while queued or running, then the whole
// review.
type AnalysisMessage struct {
	Type   string `json:"type"` // play.MsgAnalysis
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

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("web: marshal: " + err.Error()) // only our own plain structs get here
	}
	return b
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
	m := AnalysisMessage{Type: play.MsgAnalysis, Status: AnalysisDone, Progress: 100, Plies: make([]AnalysisPlyView, len(plies)),
		White: sideView(row.WhiteAccuracy, row.WhiteInaccuracies, row.WhiteMistakes, row.WhiteBlunders),
		Black: sideView(row.BlackAccuracy, row.BlackInaccuracies, row.BlackMistakes, row.BlackBlunders)}
	for i, p := range plies {
		toMove := first
		if p.Ply%2 == 1 {
			toMove = first.Other()
		}
		m.Plies[i] = AnalysisPlyView{Ply: p.Ply, CP: p.CP, Mate: p.Mate, Mated: p.Mated,
			Win: round1(review.WinPercent(review.PlyEval(p, toMove))), Best: p.BestUCI, BestSAN: p.BestSAN, Judgement: p.Judgement.String()}
	}
	return mustJSON(m)
}

// encodeReviewStatus is the analysis message of a review's status.
func encodeReviewStatus(st review.Status) []byte {
	switch st.State {
	case review.Done:
		return encodeAnalysisDone(st.Analysis, st.Plies, st.First)
	case review.Failed:
		return mustJSON(AnalysisMessage{Type: play.MsgAnalysis, Status: AnalysisFailed})
	}
	m := AnalysisMessage{Type: play.MsgAnalysis, Status: AnalysisRunning, Progress: st.Progress}
	if st.State == review.Queued {
		m.Status, m.Queue = AnalysisQueued, st.Queue
	}
	return mustJSON(m)
}

// ReviewStatus implements review.Watcher: the socket gets the review's
// status as an analysis message (under the reviewer's lock; trySend never
// blocks).
func (c *client) ReviewStatus(st review.Status) { c.trySend(encodeReviewStatus(st)) }

// watchReview subscribes socket c (a player's or a spectator's) to the
// review of game rec, which sends it what there is (review.Reviewer.Watch).
// It must run before c's pumps start, and unwatchReview when c leaves.
func (s *sockets) watchReview(c *client, rec *store.Game) {
	if s.reviews == nil {
		return
	}
	c.review = rec.ID
	s.reviews.Watch(rec, c)
}

// unwatchReview forgets socket c's subscription.
func (s *sockets) unwatchReview(c *client) {
	if s.reviews != nil && c.review != "" {
		s.reviews.Unwatch(c.review, c)
	}
}
