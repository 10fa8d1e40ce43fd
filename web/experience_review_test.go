package web

import (
	"fmt"
	"testing"

	"knightwatch/store"
)

// TestReviewTeachesExperience: once a finished game's review is complete,
// the experience holds, at every ply, the review's score of the move
// played and of the best move, each for the side that plays it (a move
// played that was the best, the score of the search before it).
func TestReviewTeachesExperience(t *testing.T) {
	e := newEnv(t, envOpts{searcher: &materialSearcher{}, analysis: true, experience: true})
	c := e.browser()
	id := e.newGame(c, form("white", "1", "standard", "none"))
	w := e.mustDial(c, id)
	w.state()
	// 1. e4 a5 2. Qh5 a4 3. Qxh7?? Rxh7, then White resigns.
	for i, mv := range []string{"e2e4", "d1h5", "h5h7"} {
		w.send(map[string]any{"type": "move", "move": mv, "ply": 2 * i})
		w.stateAt(2*i + 2)
	}
	w.send(`{"type":"resign","ply":6}`)
	w.reviewAndState()

	g, _, err := buildGame(e.row(id))
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		key  uint64
		move string
		cp   int
	}
	var wants []want
	for i, m := range g.Moves() {
		pos, after := g.PositionAt(i), g.PositionAt(i+1)
		best, bestCP := onePly(pos)
		_, afterCP := onePly(after) // for the side to move after m
		wants = append(wants, want{pos.Hash(), pos.UCI(best), bestCP})
		if m != best { // the move played that was the best is scored once, by the deeper look
			wants = append(wants, want{pos.Hash(), pos.UCI(m), -afterCP})
		}
	}
	for _, wt := range wants {
		var got *store.Experience
		e.until(fmt.Sprintf("analysed experience of %s in %x", wt.move, wt.key), func() bool {
			rows, err := e.store.Learning().ExperienceFor(wt.key)
			if err != nil {
				t.Fatal(err)
			}
			for i := range rows {
				if rows[i].Move == wt.move && rows[i].AnalysisDepth > 0 {
					got = &rows[i]
				}
			}
			return got != nil
		})
		if got.AnalysisCP != wt.cp || got.AnalysisDepth != 1 {
			t.Errorf("%s in %x: analysed %d cp at depth %d, want %d cp at depth 1", wt.move, wt.key, got.AnalysisCP, got.AnalysisDepth, wt.cp)
		}
	}
}
