package web

import (
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/openings"
	"knightwatch/store"
)

// wantOpenings is the openings list of a state worked out apart from the
// server: every position of the game (the start, then each move's FEN)
// looked up by itself.
func wantOpenings(t *testing.T, st *StateMessage) []OpeningView {
	t.Helper()
	fens := []string{st.StartFEN}
	for _, m := range st.Moves {
		fens = append(fens, m.FEN)
	}
	out := []OpeningView{}
	for ply, fen := range fens {
		p, err := game.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		if o, ok := openings.Lookup(p); ok {
			out = append(out, OpeningView{Ply: ply, ECO: o.ECO, Name: o.Name})
		}
	}
	return out
}

// TestStateNamesOpenings: the state message lists the game's named
// positions as the game goes, and keeps the last one's name once the game
// leaves the book.
func TestStateNamesOpenings(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	w := e.mustDial(c, e.newGame(c, form("white", "1", "standard", "none")))
	if st := w.state(); len(st.Openings) != 0 {
		t.Fatalf("the start position is named: %+v", st.Openings)
	}
	// The fake engine answers a7a5: 1.e4 a5, the Ware Defense.
	w.send(`{"type":"move","move":"e4","ply":0}`)
	st := w.stateAt(2)
	if len(st.Openings) == 0 || st.Openings[0] != (OpeningView{Ply: 1, ECO: "B00", Name: "King's Pawn Game"}) {
		t.Errorf("after 1.e4 the openings are %+v, want King's Pawn Game at ply 1 first", st.Openings)
	}
	if want := wantOpenings(t, st); !reflect.DeepEqual(st.Openings, want) {
		t.Errorf("openings %+v, want %+v", st.Openings, want)
	}
	// A queen sortie no list names: the list does not grow, the name stays.
	w.send(`{"type":"move","move":"Qh5","ply":2}`)
	st4 := w.stateAt(4)
	if !reflect.DeepEqual(st4.Openings, wantOpenings(t, st4)) || len(st4.Openings) == 0 {
		t.Fatalf("openings %+v, want %+v", st4.Openings, wantOpenings(t, st4))
	}
	if last := st4.Openings[len(st4.Openings)-1]; last.Ply > 2 {
		t.Errorf("a position after the queen sortie is named: %+v", last)
	}
}

// TestStateOpeningsFromFENAndChess960: a game from a named position is in
// that opening from ply 0; a Chess960 game has no names (an empty list, not
// null).
func TestStateOpeningsFromFENAndChess960(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	c := e.browser()
	f := form("white", "1", "standard", "none")
	f.Set("fen", "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2")
	st := e.mustDial(c, e.newGame(c, f)).state()
	if want := []OpeningView{{Ply: 0, ECO: "B20", Name: "Sicilian Defense"}}; !reflect.DeepEqual(st.Openings, want) {
		t.Errorf("game from the Sicilian's FEN: openings %+v, want %+v", st.Openings, want)
	}

	w := e.mustDial(c, e.newGame(c, form("white", "1", "chess960", "none")))
	m := w.waitFor("state", func(m anyMsg) bool { return m.Type == "state" })
	if !strings.Contains(string(m.raw), `"openings":[]`) {
		t.Errorf("Chess960 state: %s, want \"openings\":[]", m.raw)
	}
}

// TestPGNOpeningTags: the PGN names the opening the game reached in ECO and
// Opening tags; a Chess960 game's has neither.
func TestPGNOpeningTags(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	pgnOf := func(variant string, moves ...string) string {
		t.Helper()
		id := e.newGame(c, form("white", "1", variant, "none"))
		w := e.mustDial(c, id)
		ply := 0
		w.state()
		for _, mv := range moves {
			w.send(`{"type":"move","move":"` + mv + `","ply":` + strconv.Itoa(ply) + `}`)
			ply += 2
			w.stateAt(ply)
		}
		w.send(`{"type":"resign","ply":` + strconv.Itoa(ply) + `}`)
		w.waitFor("over", func(m anyMsg) bool { return m.Type == "state" && m.state.Status == "over" })
		resp, err := c.Get(e.ts.URL + "/game/" + id + "/pgn")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	// 1.e4 a5 2.Qh5 (the fake engine's a-pawn): the last named position is
	// 1...a5's.
	g := game.NewGame()
	for _, san := range []string{"e4", "a5"} {
		if _, err := g.PlayMove(san); err != nil {
			t.Fatal(err)
		}
	}
	want, ok := openings.Lookup(g.Position())
	if !ok {
		t.Fatal("1.e4 a5 has no name in the table")
	}
	pgn := pgnOf("standard", "e2e4", "d1h5")
	for _, tag := range []string{`[ECO "` + want.ECO + `"]`, `[Opening "` + want.Name + `"]`} {
		if !strings.Contains(pgn, tag) {
			t.Errorf("PGN lacks %s:\n%s", tag, pgn)
		}
	}
	if pgs, err := game.ReadPGN(strings.NewReader(pgn)); err != nil || len(pgs) != 1 || pgs[0].Tag("Opening") != want.Name {
		t.Errorf("the PGN does not read back with its Opening tag: %v", err)
	}
	if pgn := pgnOf("chess960"); strings.Contains(pgn, "[ECO ") || strings.Contains(pgn, "[Opening ") {
		t.Errorf("Chess960 PGN names an opening:\n%s", pgn)
	}
}

// TestHomeListsNameOpenings: the real home page's list of finished games
// shows the opening each reached.
func TestHomeListsNameOpenings(t *testing.T) {
	srv := realHomeServer(t)
	now := time.Now()
	start := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	ruy := store.Game{ID: "g_a", Level: 1, Human: store.White, StartFEN: start, Moves: "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 d2d3", Status: store.StatusOver, Result: "1-0", UpdatedAt: now}
	sicilian := store.Game{ID: "g_b", Level: 2, Human: store.Black, StartFEN: start, Moves: "e2e4 c7c5", Status: store.StatusOver, Result: "1-0", UpdatedAt: now}
	d := &HomeData{Levels: srv.levelViews(), Clocks: ClockChoices, ReconOpponents: ReconOpponents, ReconClocks: ReconClockChoices,
		Finished: []GameSummary{srv.summary(&ruy), srv.summary(&sicilian)}}
	rr := httptest.NewRecorder()
	srv.render(rr, http.StatusOK, pageHome, d)
	body := html.UnescapeString(rr.Body.String())
	// 4.d3 leaves the book: the game is still in the Morphy Defense.
	for _, want := range []string{">C70 Ruy Lopez: Morphy Defense<", ">B20 Sicilian Defense<"} {
		if !strings.Contains(body, want) {
			t.Errorf("home.html lacks %q", want)
		}
	}
}
