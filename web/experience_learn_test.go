package web

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"knightwatch/engine"
	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/store"
)

// recordingSearcher plays the alphabetically first legal move, keeps every
// request, and says that its move set aside the second move, when use
// is set, with use's record.
type recordingSearcher struct {
	mu   sync.Mutex
	reqs []enginepool.SearchRequest
	use  *engine.MoveRecord
}

func (s *recordingSearcher) Search(_ context.Context, pos *game.Position, _ []uint64, req enginepool.SearchRequest) enginepool.SearchResult {
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	use := s.use
	s.mu.Unlock()
	res := enginepool.SearchResult{Move: firstMove(pos)}
	if use != nil {
		ms := pos.LegalMoves()
		for _, m := range ms {
			if m != res.Move {
				r := *use
				r.Move = m
				res.Experience = &engine.ExperienceUse{Avoided: []engine.MoveRecord{r}}
				break
			}
		}
	}
	return res
}

func (s *recordingSearcher) NewGame() {}

func (s *recordingSearcher) requests() []enginepool.SearchRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]enginepool.SearchRequest(nil), s.reqs...)
}

// mateInOne: White mates with h1h8.
const mateInOne = "k7/8/1K6/8/8/8/8/7R w - - 0 1"

// TestLearnerLearnsEveryGame: games ending at once are all learnt from,
// off the rooms' locks (run with -race), and the next game in the same
// position gives the engine their record before it searches.
func TestLearnerLearnsEveryGame(t *testing.T) {
	rs := &recordingSearcher{}
	e := newEnv(t, envOpts{searcher: rs, experience: true})
	const games = 12
	var wg sync.WaitGroup
	for i := 0; i < games; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := e.browser()
			f := form("white", "3", "standard", "none")
			f.Set("fen", mateInOne)
			id := e.newGame(c, f)
			w := e.mustDial(c, id)
			w.state()
			w.send(`{"type":"move","move":"h1h8","ply":0}`)
			w.waitFor("mate", func(m anyMsg) bool { return m.Type == "state" && m.state.Status == "over" })
		}()
	}
	wg.Wait()
	e.waitLearnt(games)
	pos, _ := game.ParseFEN(mateInOne)
	rows, err := e.store.Learning().ExperienceFor(pos.Hash())
	if err != nil || len(rows) != 1 {
		t.Fatalf("rows %+v, %v", rows, err)
	}
	if r := rows[0]; r.Move != "h1h8" || r.Games != games || r.Wins != games || r.Depth != 1 || math.Abs(r.Weight-games) > 1e-9 {
		t.Errorf("row %+v", r)
	}
	if got := e.learner.Learnt(); got != games {
		t.Errorf("learnt %d games", got)
	}
	// The page says so, naming no one: the engine (black) lost each.
	_, page, _ := e.get(e.browser(), "/experience")
	if !strings.Contains(page, `data-on="on" data-games="12" data-rows="1"`) || strings.Count(page, `<p class="learnt">L3|black|lost|checkmate|1|1</p>`) != games {
		t.Errorf("experience page: %s", page)
	}

	// The engine to move in that position is given the record.
	c := e.browser()
	f := form("black", "3", "standard", "none")
	f.Set("fen", mateInOne)
	id := e.newGame(c, f)
	w := e.mustDial(c, id)
	w.stateAt(1)
	reqs := rs.requests()
	last := reqs[len(reqs)-1].Experience
	if len(last) != 1 || pos.UCI(last[0].Move) != "h1h8" || last[0].Wins != games || last[0].Weight != games {
		t.Errorf("the engine was given %+v", last)
	}
}

// TestLearnerCatchesUp: finished games already in the database when the
// server starts are learnt from; with the experience off nothing is
// learnt and the engine is given nothing.
func TestLearnerCatchesUp(t *testing.T) {
	for _, on := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "kw.db")
		st, err := store.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		for _, moves := range [][]string{{"h1h8"}, {"b6c6", "a8b8", "h1h8"}} {
			g := &store.Game{Owner: "o", Variant: VariantStandard, StartFEN: mateInOne, Human: store.White, Level: 1,
				Status: store.StatusOver, Result: "1-0", Reason: store.TerminationOf(game.Checkmate), FinishedAt: &now}
			g.SetMoveList(moves)
			if err := st.Games().CreateGame(g); err != nil {
				t.Fatal(err)
			}
		}
		st.Close()
		rs := &recordingSearcher{}
		e := newEnv(t, envOpts{searcher: rs, experience: on, dbPath: path})
		if on {
			e.waitLearnt(2)
		} else {
			// With the experience off no learner is built (envOpts): nothing
			// can learn, so there is nothing to wait for.
			if s, _ := e.store.Learning().ExperienceSummary(); s.Games != 0 || s.Rows != 0 {
				t.Errorf("experience off, yet learnt: %+v", s)
			}
		}
		pos, _ := game.ParseFEN(mateInOne)
		rows, _ := e.store.Learning().ExperienceFor(pos.Hash())
		c := e.browser()
		f := form("black", "1", "standard", "none")
		f.Set("fen", mateInOne)
		w := e.mustDial(c, e.newGame(c, f))
		w.stateAt(1)
		reqs := rs.requests()
		given := reqs[len(reqs)-1].Experience
		if on && (len(rows) != 2 || len(given) != 2) || !on && (len(rows) != 0 || given != nil) {
			t.Errorf("experience %v: rows %+v, given %+v", on, rows, given)
		}
	}
}

// TestExperienceMarkInState: an engine move that came from experience
// carries its sentence in the state message, for every tab and after a
// reload (it is stored with the game); a take-back removes it.
func TestExperienceMarkInState(t *testing.T) {
	rs := &recordingSearcher{use: &engine.MoveRecord{Losses: 2, Wins: 1}}
	e := newEnv(t, envOpts{searcher: rs})
	c := e.browser()
	id := e.newGame(c, form("white", "2", "standard", "none"))
	w := e.mustDial(c, id)
	w.state()
	w.send(`{"type":"move","move":"e2e4","ply":0}`)
	s := w.stateAt(2)
	after := game.NewPosition()
	after.MakeMove(game.NewMove(game.E2, game.E4))
	var second game.Move
	for _, m := range after.LegalMoves() {
		if m != firstMove(after) {
			second = m
			break
		}
	}
	want := "Chosen from experience: 1..." + after.SAN(second) + " lost 2 of 3 earlier games here"
	if s.Moves[0].Experience != "" || s.Moves[1].Experience != want {
		t.Fatalf("moves %+v, want %q on the reply", s.Moves, want)
	}
	notes, err := e.row(id).Notes()
	if err != nil || len(notes) != 1 || notes[0].Ply != 1 || !notes[0].Avoided || notes[0].Losses != 2 {
		t.Fatalf("stored notes %+v, %v", notes, err)
	}
	// A reload, after the room closed, reads it from the database.
	w.conn.Close()
	e.until("the room to close", func() bool { return e.reg.Get(id) == nil }) // the socket's Left hook pokes
	w2 := e.mustDial(c, id)
	if s := w2.state(); s.Moves[1].Experience != want {
		t.Errorf("after a reload: %+v", s.Moves[1])
	}
	rs.mu.Lock()
	rs.use = nil
	rs.mu.Unlock()
	w2.send(`{"type":"takeback","ply":2}`)
	s = w2.waitFor("the take-back", func(m anyMsg) bool { return m.Type == "state" && m.state.Ply == 0 }).state
	if len(s.Moves) != 0 || e.row(id).ExperienceNotes != "" {
		t.Errorf("after a take-back: %+v, stored %q", s.Moves, e.row(id).ExperienceNotes)
	}
	w2.send(`{"type":"move","move":"e2e4","ply":0}`)
	if s := w2.stateAt(2); s.Moves[1].Experience != "" {
		t.Errorf("the new reply kept the old mark: %+v", s.Moves[1])
	}
}
