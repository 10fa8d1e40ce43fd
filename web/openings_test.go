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
	"knightwatch/play"
	"knightwatch/store"
)

// wantOpenings is the openings list of a state worked out apart from the
// server: every position of the game (the start, then each move's FEN)
// looked up by itself.
func wantOpenings(t *testing.T, st *play.StateMessage) []play.OpeningView {
	t.Helper()
	fens := []string{st.StartFEN}
	for _, m := range st.Moves {
		fens = append(fens, m.FEN)
	}
	out := []play.OpeningView{}
	for ply, fen := range fens {
		p, err := game.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		if o, ok := openings.Lookup(p); ok {
			out = append(out, play.OpeningView{Ply: ply, ECO: o.ECO, Name: o.Name})
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
	if len(st.Openings) == 0 || st.Openings[0] != (play.OpeningView{Ply: 1, ECO: "B00", Name: "King's Pawn Game"}) {
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
	if want := []play.OpeningView{{Ply: 0, ECO: "B20", Name: "Sicilian Defense"}}; !reflect.DeepEqual(st.Openings, want) {
		t.Errorf("game from the Sicilian's FEN: openings %+v, want %+v", st.Openings, want)
	}

	w := e.mustDial(c, e.newGame(c, form("white", "1", "chess960", "none")))
	m := w.waitFor("state", func(m anyMsg) bool { return m.Type == "state" })
	if !strings.Contains(string(m.raw), `"openings":[]`) {
		t.Errorf("Chess960 state: %s, want \"openings\":[]", m.raw)
	}
}

// playAndResign starts a game as White against level 1, plays moves (UCI;
// the fake engine answers each), resigns, and returns the game's ID once
// the server says it is over.
func playAndResign(e *testEnv, c *http.Client, variant string, moves ...string) string {
	e.t.Helper()
	id := e.newGame(c, form("white", "1", variant, "none"))
	w := e.mustDial(c, id)
	w.state()
	ply := 0
	for _, mv := range moves {
		w.send(`{"type":"move","move":"` + mv + `","ply":` + strconv.Itoa(ply) + `}`)
		ply += 2
		w.stateAt(ply)
	}
	w.send(`{"type":"resign","ply":` + strconv.Itoa(ply) + `}`)
	w.waitFor("over", func(m anyMsg) bool { return m.Type == "state" && m.state.Status == "over" })
	return id
}

// TestPGNOpeningTags: the PGN names the opening the game reached in ECO and
// Opening tags; a Chess960 game's has neither.
func TestPGNOpeningTags(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	pgnOf := func(variant string, moves ...string) string {
		t.Helper()
		id := playAndResign(e, c, variant, moves...)
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
	d := &HomeData{Levels: srv.home.levelViews(), Clocks: ClockChoices, ReconOpponents: play.ReconOpponents, ReconClocks: ReconClockChoices,
		Finished: []GameSummary{srv.home.summary(&ruy), srv.home.summary(&sicilian)}}
	rr := httptest.NewRecorder()
	srv.render(rr, httptest.NewRequest("GET", "/", nil), http.StatusOK, pageHome, d)
	body := html.UnescapeString(rr.Body.String())
	// 4.d3 leaves the book: the game is still in the Morphy Defense.
	for _, want := range []string{">C70 Ruy Lopez: Morphy Defense<", ">B20 Sicilian Defense<"} {
		if !strings.Contains(body, want) {
			t.Errorf("home.html lacks %q", want)
		}
	}
}

// lastNamedOf is the opening a stored game ended in, worked out apart from
// the server: each of its positions looked up by itself, the last named.
func lastNamedOf(t *testing.T, rec *store.Game) string {
	t.Helper()
	p, err := game.ParseFEN(rec.StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	p.SetChess960(rec.Variant == VariantChess960)
	name := ""
	for i := 0; ; i++ {
		if o, ok := openings.Lookup(p); ok {
			name = o.ECO + " " + o.Name
		}
		if i == len(rec.MoveList()) {
			return name
		}
		m, err := p.ParseUCI(rec.MoveList()[i])
		if err != nil {
			t.Fatal(err)
		}
		p.MakeMove(m)
	}
}

// TestFinishedGameStoresOpening: a game stores the opening it ended in as
// it ends, however it ends (resigned in the game, resigned from the list
// without being opened), and "" for a Chess960 game, which has none.
func TestFinishedGameStoresOpening(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	fromList := func(moves string) string {
		rec := &store.Game{Owner: e.ownerOf(c), Variant: VariantStandard, StartFEN: game.StartFEN, Moves: moves, Human: store.White, Level: 1}
		if err := e.store.Games().CreateGame(rec); err != nil {
			t.Fatal(err)
		}
		if err := e.games.Resign(rec.ID, rec.Owner); err != nil {
			t.Fatal(err)
		}
		return rec.ID
	}
	cases := []struct {
		name  string
		end   func() string
		named bool
	}{
		{"resigned in the game", func() string { return playAndResign(e, c, VariantStandard, "e2e4", "d1h5") }, true},
		{"resigned from the list", func() string { return fromList("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6") }, true},
		{"Chess960", func() string { return playAndResign(e, c, VariantChess960) }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := e.store.Games().GetGame(tc.end())
			if err != nil {
				t.Fatal(err)
			}
			if rec.Status != store.StatusOver || rec.Opening == nil {
				t.Fatalf("status %v, opening %v: want a finished game with its opening stored", rec.Status, rec.Opening)
			}
			want := lastNamedOf(t, rec)
			if *rec.Opening != want || (want != "") != tc.named {
				t.Errorf("stored opening %q, want %q", *rec.Opening, want)
			}
		})
	}
}

// TestHomeListStoresOldGamesOpenings: the home page lists a finished game
// by the name stored with it, without replaying it, and names a game that
// ended before names were stored by replaying it once, storing the name
// for the next load.
func TestHomeListStoresOldGamesOpenings(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	c := e.browser()
	if resp, err := c.Get(e.ts.URL + "/"); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	owner := e.ownerOf(c)
	stored := "C60 A name only the store has" // proves the list did not replay the game
	cases := []struct {
		name    string
		moves   string
		opening *string // as stored; nil for a game that ended before names were
		named   bool    // whether the game reached a named position
	}{
		{"name stored at the end", "e2e4 e7e5 g1f3 b8c6 f1b5", &stored, true},
		{"old game, named by replay", "e2e4 c7c5 g1f3", nil, true},
		{"old game in no named position", "", nil, false},
	}
	ids := map[string]string{}
	want := map[string]string{}
	for i, tc := range cases {
		finished := time.Now().Add(-time.Duration(i) * time.Minute)
		rec := &store.Game{Owner: owner, Variant: VariantStandard, StartFEN: game.StartFEN, Moves: tc.moves, Human: store.White, Level: 1,
			Status: store.StatusOver, Result: "0-1", Reason: store.TerminationOf(game.Resignation), FinishedAt: &finished, Opening: tc.opening}
		if err := e.store.Games().CreateGame(rec); err != nil {
			t.Fatal(err)
		}
		ids[tc.name], want[tc.name] = rec.ID, lastNamedOf(t, rec)
		if tc.opening != nil {
			want[tc.name] = *tc.opening
		}
		if (want[tc.name] != "") != tc.named {
			t.Fatalf("%s: named %q; pick moves that reach a named position or none", tc.name, want[tc.name])
		}
	}
	d, err := e.srv.home.homeData(owner, "")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{}
	for _, g := range d.Finished {
		listed[g.ID] = g.Opening
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := ids[tc.name]
			if got, ok := listed[id]; !ok || got != want[tc.name] {
				t.Errorf("listed as %q (%v), want %q", got, ok, want[tc.name])
			}
			rec, err := e.store.Games().GetGame(id)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Opening == nil || *rec.Opening != want[tc.name] {
				t.Errorf("stored opening %v after the list, want %q", rec.Opening, want[tc.name])
			}
		})
	}
}
