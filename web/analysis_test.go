package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/play"
	"knightwatch/review"
	"knightwatch/store"
)

// materialSearcher is a enginepool.Searcher that looks one ply ahead at material
// (pawn 100, knight and bishop 300, rook 500, queen 900): its move is the
// one that leaves the mover best off in material (the alphabetically
// first in UCI among equals), its score that material from the side to
// move's point of view; so tests know what a review must say, and a piece
// left to be taken shows as lost. It counts its searches, and with delay
// set each one takes that long.
type materialSearcher struct {
	delay time.Duration
	mu    sync.Mutex
	n     int
}

func (m *materialSearcher) Search(ctx context.Context, pos *game.Position, _ []uint64, _ enginepool.SearchRequest) enginepool.SearchResult {
	m.mu.Lock()
	m.n++
	m.mu.Unlock()
	if m.delay > 0 {
		// time itself is what is tested: a search that takes its time, as the engine's do, for live requests to stop
		t := time.NewTimer(m.delay)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
	mv, cp := onePly(pos)
	return enginepool.SearchResult{Move: mv, CP: cp, Depth: 1}
}

func (m *materialSearcher) NewGame() {}

func (m *materialSearcher) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.n
}

// materialCP is the material balance from the side to move's point of view.
func materialCP(pos *game.Position) int {
	values := [...]int{game.Pawn: 100, game.Knight: 300, game.Bishop: 300, game.Rook: 500, game.Queen: 900}
	cp := 0
	for pt := game.Pawn; pt <= game.Queen; pt++ {
		cp += values[pt] * (pos.Pieces(game.White, pt).Count() - pos.Pieces(game.Black, pt).Count())
	}
	if pos.Side() == game.Black {
		cp = -cp
	}
	return cp
}

// onePly is materialSearcher's move and score.
func onePly(pos *game.Position) (game.Move, int) {
	ms := pos.LegalMoves()
	sort.Slice(ms, func(i, j int) bool { return pos.UCI(ms[i]) < pos.UCI(ms[j]) })
	best, score := game.NoMove, math.MinInt
	for _, m := range ms {
		after := *pos
		after.MakeMove(m)
		if v := -materialCP(&after); v > score {
			best, score = m, v
		}
	}
	if best == game.NoMove {
		return best, 0
	}
	return best, score
}

// review waits for the analysis message that says the review is done,
// checking every analysis message on the way.
func (w *wsConn) review() AnalysisMessage {
	w.t.Helper()
	r, _ := w.reviewAndState()
	return r
}

// reviewAndState is review, also returning the last state seen on the way
// (nil if none): the review may come before the state that ends the game
// when the engine is quick.
func (w *wsConn) reviewAndState() (AnalysisMessage, *play.StateMessage) {
	w.t.Helper()
	var got AnalysisMessage
	var st *play.StateMessage
	w.waitFor("the review", func(m anyMsg) bool {
		if m.Type == "state" {
			st = m.state
		}
		if m.Type != play.MsgAnalysis {
			return false
		}
		var a AnalysisMessage // as a browser reads it
		if err := json.Unmarshal(m.raw, &a); err != nil {
			w.t.Fatalf("analysis message %s: %v", m.raw, err)
		}
		switch a.Status {
		case AnalysisQueued, AnalysisRunning:
			if a.Progress < 0 || a.Progress > 100 || (a.Status == AnalysisQueued) != (a.Queue > 0) {
				w.t.Errorf("analysis message %s", m.raw)
			}
		case AnalysisDone:
			got = a
			return true
		default:
			w.t.Fatalf("analysis message %s", m.raw)
		}
		return false
	})
	return got, st
}

// storedGame saves a finished game of owner: from fen (standard start
// when empty) in variant, the UCI moves, ended with o. It returns its ID.
func storedGame(t *testing.T, st *store.Store, owner, variant, fen string, moves []string, o game.Outcome) string {
	t.Helper()
	if fen == "" {
		fen = game.NewPosition().FEN()
	}
	now := time.Now()
	rec := &store.Game{Owner: owner, Variant: variant, StartFEN: fen, Human: store.White, Level: 1,
		Status: store.StatusOver, Result: string(o.Result), Reason: store.TerminationOf(o.Termination), FinishedAt: &now}
	rec.SetMoveList(moves)
	if err := st.Games().CreateGame(rec); err != nil {
		t.Fatal(err)
	}
	return rec.ID
}

// waitReviewed waits until game id's review is complete in e's store
// (with the settings of the default budget), looking again after each
// write.
func (e *testEnv) waitReviewed(id string) (*store.Analysis, []store.AnalysisPly) {
	e.t.Helper()
	settings := review.Settings(review.DefaultNodes, len(testLevels))
	var a *store.Analysis
	var plies []store.AnalysisPly
	e.until("game "+id+" to be reviewed", func() bool {
		var err error
		a, plies, err = e.store.Reviews().GameAnalysis(id)
		return err == nil && a.Complete && a.Settings == settings
	})
	return a, plies
}

// TestReviewAfterGame plays a short game in which White gives its queen
// away, resigns it, and follows the review over the game's socket and a
// spectator's: analysis messages while it runs, then the whole review,
// evaluated by the searcher, the blunder judged, the best move named;
// both sockets get it; opening the game again sends the stored review
// without searching again.
func TestReviewAfterGame(t *testing.T) {
	ms := &materialSearcher{}
	e := newEnv(t, envOpts{searcher: ms, analysis: true})
	c := e.browser()
	id := e.newGame(c, form("white", "1", "standard", "none"))
	w := e.mustDial(c, id)
	w.state()
	watch := e.dialWatch(e.browser(), e.watchLink(c, id))
	watch.waitFor("the spectator's state", func(m anyMsg) bool { return m.Type == "state" })
	// 1. e4 a5 2. Qh5 a4 3. Qxh7?? Rxh7: the queen is lost for a pawn,
	// where 3. Qxf7+ (the searcher's move: a pawn, and the first in UCI
	// order) loses it too but is the searcher's own choice.
	for i, mv := range []string{"e2e4", "d1h5", "h5h7"} {
		w.send(map[string]any{"type": "move", "move": mv, "ply": 2 * i})
		w.stateAt(2*i + 2)
	}
	w.send(`{"type":"resign","ply":6}`)
	r, st := w.reviewAndState()
	if st == nil || st.Status != "over" {
		st = w.waitFor("the game over", func(m anyMsg) bool { return m.Type == "state" && m.state.Status == "over" }).state
	}
	if len(r.Plies) != st.Ply+1 {
		t.Fatalf("%d plies reviewed, want %d (one per position)", len(r.Plies), st.Ply+1)
	}
	g, _, err := buildGame(e.row(id))
	if err != nil {
		t.Fatal(err)
	}
	var want [2][4]int
	for i, p := range r.Plies {
		pos := g.PositionAt(i)
		mv, cp := onePly(pos)
		if pos.Side() == game.Black {
			cp = -cp
		}
		if p.Ply != i || p.CP != cp || p.Mate != 0 || p.Best != pos.UCI(mv) || p.BestSAN != pos.SAN(mv) {
			t.Errorf("ply %d: %+v, want cp %d, best %s", i, p, cp, pos.SAN(mv))
		}
		if w := review.WinPercent(review.Eval{CP: cp}); math.Abs(p.Win-w) > 0.05 {
			t.Errorf("ply %d: win %v, want %.1f", i, p.Win, w)
		}
		if i == 0 {
			continue
		}
		before := g.PositionAt(i - 1)
		jd := review.JudgeMove(review.Eval{CP: r.Plies[i-1].CP}, review.Eval{CP: p.CP}, before.Side())
		if r.Plies[i-1].Best == before.UCI(g.Moves()[i-1]) {
			jd = store.NoJudgement
		}
		want[before.Side()][jd]++
		if p.Judgement != jd.String() {
			t.Errorf("ply %d judged %q, want %q", i, p.Judgement, jd)
		}
	}
	if p := r.Plies[5]; p.Judgement != "blunder" || r.Plies[4].BestSAN != "Qxf7+" {
		t.Errorf("3. Qxh7: %+v after %+v, want a blunder where Qxf7+ was best", p, r.Plies[4])
	}
	if r.White == nil || r.Black == nil || r.White.Accuracy == nil || r.Black.Accuracy == nil ||
		r.White.Blunders != want[game.White][store.Blunder] || r.Black.Blunders != want[game.Black][store.Blunder] ||
		r.White.Mistakes != want[game.White][store.Mistake] || r.White.Inaccuracies != want[game.White][store.Inaccuracy] {
		t.Errorf("summaries %+v %+v, want counts %v", r.White, r.Black, want)
	}
	if sr := watch.review(); len(sr.Plies) != len(r.Plies) || *sr.White.Accuracy != *r.White.Accuracy {
		t.Errorf("the spectator's review differs: %+v", sr)
	}
	searched := ms.count()
	w2 := e.mustDial(c, id)
	if again := w2.review(); len(again.Plies) != len(r.Plies) || *again.White.Accuracy != *r.White.Accuracy {
		t.Errorf("reopened: %+v", again)
	}
	if ms.count() != searched {
		t.Errorf("reopening the game searched %d more positions", ms.count()-searched)
	}

	t.Run("PGN", func(t *testing.T) {
		resp, err := c.Get(e.ts.URL + "/game/" + id + "/pgn")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		games, err := game.ReadPGN(bytes.NewReader(body))
		if err != nil || len(games) != 1 {
			t.Fatalf("PGN: %v, %d games", err, len(games))
		}
		node := &games[0].Root
		for i := 1; len(node.Variations) > 0; i++ {
			node = node.Variations[0]
			p := r.Plies[i]
			want := fmt.Sprintf("[%%eval %.2f]", float64(p.CP)/100)
			if !strings.HasPrefix(node.Comment, want) {
				t.Errorf("move %d: comment %q, want it to start %q", i, node.Comment, want)
			}
			wantNAG := map[string]int{"inaccuracy": 6, "mistake": 2, "blunder": 4}[p.Judgement]
			if (wantNAG == 0 && len(node.NAGs) != 0) || (wantNAG != 0 && (len(node.NAGs) != 1 || node.NAGs[0] != wantNAG)) {
				t.Errorf("move %d (%s): NAGs %v", i, p.Judgement, node.NAGs)
			}
			if i == 5 && !strings.HasSuffix(node.Comment, "Blunder. Qxf7+ was best.") {
				t.Errorf("3. Qxh7: comment %q", node.Comment)
			}
		}
	})
}

// movesFrom plays up to n plies of materialSearcher's moves from fen (the
// standard start when empty), fewer if the game ends, and returns them in
// UCI.
func movesFrom(t *testing.T, fen string, n int) []string {
	t.Helper()
	if fen == "" {
		fen = game.NewPosition().FEN()
	}
	g, err := game.NewGameFromFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i := 0; i < n && !g.OutcomeWithClaims().Over(); i++ {
		pos := g.PositionAt(g.Len())
		m, _ := onePly(pos)
		out = append(out, pos.UCI(m))
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// preparedStore opens a database at a new path, lets fill add to it (after
// reviews began), closes it and returns the path, for a server to start on.
func preparedStore(t *testing.T, fill func(st *store.Store)) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kw.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	// Reviews begin now: the games fill makes finish at or after it, so
	// all of them are reviewed.
	if _, err := st.Reviews().AnalysisSince(); err != nil {
		t.Fatal(err)
	}
	fill(st)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// reviewedOrder records the order in which reviews complete: hook is
// the reviewer's review.Options.Reviewed (which runs just after the
// review is saved, before the stack's signal is poked).
func reviewedOrder() (hook func(id string), order func() []string) {
	var mu sync.Mutex
	var ids []string
	hook = func(id string) {
		mu.Lock()
		ids = append(ids, id)
		mu.Unlock()
	}
	return hook, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), ids...)
	}
}

// TestReviewFairBetweenOwners: one player finishes six games, then
// another finishes one; the queue serves the owners in turn, so the second
// player's review is among the first two done, not the seventh.
func TestReviewFairBetweenOwners(t *testing.T) {
	moves := movesFrom(t, "", 16)
	resign := game.Outcome{Result: game.BlackWins, Termination: game.Resignation}
	var many []string
	var single string
	path := preparedStore(t, func(st *store.Store) {
		for i := 0; i < 6; i++ {
			many = append(many, storedGame(t, st, "many", VariantStandard, "", moves, resign))
		}
		single = storedGame(t, st, "single", VariantStandard, "", moves, resign)
	})
	reviewed, order := reviewedOrder()
	e := newEnv(t, envOpts{dbPath: path, searcher: &materialSearcher{delay: time.Millisecond}, analysis: true, reviewed: reviewed})
	e.waitReviewed(single)
	for _, id := range many {
		e.waitReviewed(id)
	}
	e.until("the seven reviews' hooks", func() bool { return len(order()) >= 7 }) // they run just after the saves
	got := order()
	t.Logf("done in order %v (single %s)", got, single)
	if i := slices.Index(got, single); i < 0 || i > 1 {
		t.Errorf("the single game's review was done %dth of %d", i+1, len(got))
	}
}

// TestReviewResumesAfterRestart: a review half saved when the server
// stopped is finished on the next start from where it was, without
// searching the saved positions again; a complete review made with other
// settings is made again when the game is opened.
func TestReviewResumesAfterRestart(t *testing.T) {
	moves := movesFrom(t, "", 10)
	resign := game.Outcome{Result: game.BlackWins, Termination: game.Resignation}
	settings := review.Settings(review.DefaultNodes, len(testLevels))
	var half string
	path := preparedStore(t, func(st *store.Store) {
		half = storedGame(t, st, "o", VariantStandard, "", moves, resign)
		var saved []store.AnalysisPly
		for i := 0; i < 5; i++ {
			saved = append(saved, store.AnalysisPly{GameID: half, Ply: i, CP: 777, Depth: 3, BestUCI: "a2a3", BestSAN: "a3"})
		}
		if err := st.Reviews().SaveAnalysis(&store.Analysis{GameID: half, Settings: settings, Positions: len(moves) + 1}, saved, false); err != nil {
			t.Fatal(err)
		}
	})
	ms := &materialSearcher{}
	e := newEnv(t, envOpts{dbPath: path, searcher: ms, analysis: true})
	row, plies := e.waitReviewed(half)
	if n := ms.count(); n != len(moves)+1-5 {
		t.Errorf("%d positions searched, want the %d not saved before", n, len(moves)+1-5)
	}
	if len(plies) != len(moves)+1 || row.Settings != settings || row.WhiteAccuracy == nil {
		t.Fatalf("review: %+v with %d plies", row, len(plies))
	}
	for i, p := range plies {
		if (i < 5) != (p.CP == 777) {
			t.Errorf("ply %d: %+v (the first five were saved before the restart)", i, p)
		}
	}

	// A complete review with other settings: made again when opened.
	c := e.browser()
	old := e.newGame(c, form("white", "1", "standard", "none"))
	rec := e.row(old)
	now := time.Now()
	rec.Status, rec.Result, rec.Reason, rec.FinishedAt = store.StatusOver, "0-1", store.TerminationOf(game.Resignation), &now
	rec.SetMoveList(moves[:4])
	if err := e.store.Games().SaveGame(rec); err != nil {
		t.Fatal(err)
	}
	var stale []store.AnalysisPly
	for i := 0; i <= 4; i++ {
		stale = append(stale, store.AnalysisPly{GameID: old, Ply: i, CP: 555})
	}
	if err := e.store.Reviews().SaveAnalysis(&store.Analysis{GameID: old, Settings: "an older budget", Positions: 5, Complete: true}, stale, false); err != nil {
		t.Fatal(err)
	}
	before := ms.count()
	r := e.mustDial(c, old).review()
	if ms.count()-before != 5 || len(r.Plies) != 5 || r.Plies[0].CP == 555 {
		t.Errorf("re-review: %d searched, %+v", ms.count()-before, r.Plies)
	}
	if _, plies := e.waitReviewed(old); len(plies) != 5 || plies[0].CP == 555 {
		t.Errorf("re-review saved %+v", plies)
	}
}

// TestReviewOddGames: games without moves, from a position, ended on the
// board by checkmate, stalemate or repetition, in Chess960 — each is
// reviewed sensibly; a deleted game is not reviewed and a record that
// cannot be replayed is given up, neither stopping the others.
func TestReviewOddGames(t *testing.T) {
	c960, err := chess960FEN(100)
	if err != nil {
		t.Fatal(err)
	}
	type odd struct {
		name, variant, fen string
		moves              []string
		o                  game.Outcome
		check              func(t *testing.T, a *store.Analysis, plies []store.AnalysisPly)
	}
	resign := game.Outcome{Result: game.BlackWins, Termination: game.Resignation}
	cases := []odd{
		{"no moves", VariantStandard, "", nil, resign, func(t *testing.T, a *store.Analysis, plies []store.AnalysisPly) {
			if len(plies) != 1 || a.WhiteAccuracy != nil || a.BlackAccuracy != nil || plies[0].BestUCI == "" {
				t.Errorf("%+v %+v", a, plies)
			}
		}},
		{"checkmate from a position", VariantStandard, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", []string{"a1a8"},
			game.Outcome{Result: game.WhiteWins, Termination: game.Checkmate}, func(t *testing.T, a *store.Analysis, plies []store.AnalysisPly) {
				if len(plies) != 2 || !plies[1].Mated || plies[1].BestUCI != "" || plies[1].Judgement != store.NoJudgement ||
					a.WhiteAccuracy == nil || *a.WhiteAccuracy != 100 || a.BlackAccuracy != nil {
					t.Errorf("%+v %+v", a, plies)
				}
			}},
		{"stalemate", VariantStandard, "7k/8/6K1/8/8/8/5Q2/8 w - - 0 1", []string{"f2f7"},
			game.Outcome{Result: game.Draw, Termination: game.Stalemate}, func(t *testing.T, a *store.Analysis, plies []store.AnalysisPly) {
				if len(plies) != 2 || plies[1].Mated || plies[1].CP != 0 || plies[1].BestUCI != "" || plies[1].Judgement != store.Blunder || a.WhiteBlunders != 1 {
					t.Errorf("%+v %+v", a, plies)
				}
			}},
		{"threefold repetition", VariantStandard, "", []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"},
			game.Outcome{Result: game.Draw, Termination: game.ThreefoldRepetition}, func(t *testing.T, a *store.Analysis, plies []store.AnalysisPly) {
				last := plies[len(plies)-1]
				if len(plies) != 9 || last.CP != 0 || last.Depth != 0 || last.BestUCI != "" || plies[7].BestUCI == "" {
					t.Errorf("%+v %+v", a, plies)
				}
			}},
		{"Chess960", VariantChess960, c960, movesFrom(t, c960, 7), resign, func(t *testing.T, a *store.Analysis, plies []store.AnalysisPly) {
			if len(plies) != 8 || a.WhiteAccuracy == nil || a.BlackAccuracy == nil {
				t.Errorf("%+v %+v", a, plies)
			}
			for _, p := range plies {
				if p.BestUCI == "" || p.Depth != 1 {
					t.Errorf("ply %+v", p)
				}
			}
		}},
	}
	ids := make([]string, len(cases))
	var deleted, broken string
	path := preparedStore(t, func(st *store.Store) {
		for i, tc := range cases {
			ids[i] = storedGame(t, st, "o", tc.variant, tc.fen, tc.moves, tc.o)
		}
		broken = storedGame(t, st, "o", VariantStandard, "", []string{"e2e5"}, resign)
		del := &store.Game{Owner: "o", Variant: VariantStandard, StartFEN: game.NewPosition().FEN(), Human: store.White, Level: 1}
		if err := st.Games().CreateGame(del); err != nil {
			t.Fatal(err)
		}
		if err := st.Games().DeleteGame(del.ID, "o"); err != nil {
			t.Fatal(err)
		}
		deleted = del.ID
	})
	e := newEnv(t, envOpts{dbPath: path, searcher: &materialSearcher{}, analysis: true})
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, plies := e.waitReviewed(ids[i])
			tc.check(t, a, plies)
		})
	}
	for _, id := range []string{deleted, broken} {
		if _, _, err := e.store.Reviews().GameAnalysis(id); err != store.ErrNotFound {
			t.Errorf("game %s: review %v, want none", id, err)
		}
	}
	if left := e.reviews.Pending(); left != 0 {
		t.Errorf("%d reviews still queued", left)
	}
}

// TestReviewYieldsToLiveGames: with one searcher and a long review
// running, a live game's moves are answered as they come (each live
// request stops a review search, which is made again), and the review
// still ends whole and right.
func TestReviewYieldsToLiveGames(t *testing.T) {
	moves := movesFrom(t, "", 30)
	var id string
	path := preparedStore(t, func(st *store.Store) {
		id = storedGame(t, st, "other", VariantStandard, "", moves, game.Outcome{Result: game.Draw, Termination: game.DrawAgreed})
	})
	ms := &materialSearcher{delay: 20 * time.Millisecond}
	// One searcher and no quick lane, so that every live request has to
	// stop a review search.
	e := newEnv(t, envOpts{dbPath: path, searcher: ms, analysis: true, searchers: 1, quickSearchers: -1})
	c := e.browser()
	live := e.newGame(c, form("white", "1", "standard", "none"))
	w := e.mustDial(c, live)
	st := w.state()
	for i := 0; i < 4 && st.Status == "playing"; i++ {
		w.send(map[string]any{"type": "move", "move": st.Legal[0].UCI, "ply": st.Ply})
		st = w.stateAt(st.Ply + 2)
	}
	if st.Ply != 8 {
		t.Errorf("the live game is at ply %d, want 8", st.Ply)
	}
	_, plies := e.waitReviewed(id)
	g, _, err := buildGame(e.row(id))
	if err != nil {
		t.Fatal(err)
	}
	if len(plies) != len(moves)+1 {
		t.Fatalf("%d plies reviewed, want %d", len(plies), len(moves)+1)
	}
	for i, p := range plies {
		pos := g.PositionAt(i)
		mv, cp := onePly(pos)
		if pos.Side() == game.Black {
			cp = -cp
		}
		if p.CP != cp || p.BestUCI != pos.UCI(mv) {
			t.Errorf("ply %d: %+v, want cp %d best %s", i, p, cp, pos.UCI(mv))
		}
	}
	t.Logf("%d searches for %d positions and 4 replies", ms.count(), len(plies))
}
