package web

import (
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"knightwatch/play"
	"knightwatch/store"
)

// get fetches path with c and returns the status and body.
func (e *testEnv) get(c *http.Client, path string) (int, string, http.Header) {
	e.t.Helper()
	resp, err := c.Get(e.ts.URL + path)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// postList posts a list action (resign or delete) for id, as the home
// page's form does (same origin), and returns the status and Location.
func (e *testEnv) postList(c *http.Client, id, action, origin string) (int, string) {
	e.t.Helper()
	req, err := http.NewRequest("POST", e.ts.URL+"/game/"+id+"/"+action, strings.NewReader("confirm=yes"))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := c.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Location")
}

var unfinishedRow = regexp.MustCompile(`<li data-id="([^"]+)">([^<]*)<a`)

// unfinishedRows reads the home page's list: game ID -> the row's fields,
// in order, and the count the page gives.
func (e *testEnv) unfinishedRows(c *http.Client) ([]string, map[string][]string, string) {
	e.t.Helper()
	code, body, _ := e.get(c, "/")
	if code != http.StatusOK {
		e.t.Fatalf("home: %d %s", code, body)
	}
	var ids []string
	rows := map[string][]string{}
	for _, m := range unfinishedRow.FindAllStringSubmatch(body, -1) {
		ids = append(ids, m[1])
		rows[m[1]] = strings.Split(m[2], "|")
		if !strings.Contains(body, `<a href="/game/`+m[1]+`">Continue</a>`) {
			e.t.Errorf("row %s has no Continue link", m[1])
		}
		rows[m[1]] = strings.Split(html.UnescapeString(m[2]), "|")
	}
	count := regexp.MustCompile(`data-count="(\d+)"`).FindStringSubmatch(body)
	if count == nil {
		e.t.Fatalf("home has no unfinished list: %s", body)
	}
	return ids, rows, count[1]
}

// TestUnfinishedListHome: the home page lists every unfinished game of the
// visitor (chess and Reconnaissance Chess), newest activity first, with
// opponent, colour, clock, move number and last activity; nobody else's,
// and no finished one.
func TestUnfinishedListHome(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	alice, bob := e.browser(), e.browser()
	g1 := e.newGame(alice, form("white", "1", "standard", "5+3"))
	g2 := e.newGame(alice, form("black", "2", "chess960", "none"))
	r3 := e.newRecon(alice, "white", "random", "15+5")
	g4 := e.newGame(alice, form("white", "3", "standard", "none"))
	b1 := e.newGame(bob, form("white", "1", "standard", "none"))
	// Activity: g1 is the latest (a move after the others were created),
	// then g4 (resigned below, so not listed), r3, g2.
	w := e.mustDial(alice, g1)
	w.state()
	w.send(map[string]any{"type": "move", "move": "e2e4", "ply": 0})
	w.stateAt(1)
	w.conn.Close()
	// g4 is finished: not listed.
	if code, _ := e.postList(alice, g4, "resign", ""); code != http.StatusSeeOther {
		t.Fatalf("resign g4: %d", code)
	}
	ids, rows, count := e.unfinishedRows(alice)
	if strings.Join(ids, " ") != strings.Join([]string{g1, r3, g2}, " ") || count != "3" {
		t.Fatalf("alice's list %v (count %s), want %v", ids, count, []string{g1, r3, g2})
	}
	want := map[string][]string{
		g1: {"chess", "L1", "Standard", "White", "5+3", "1"},
		g2: {"chess", "L2", "Chess960", "Black", "no clock", "1"},
		r3: {"recon", "Random", "Reconnaissance", "White", "15+5", "1"},
	}
	for id, w := range want {
		if got := rows[id][:6]; strings.Join(got, "|") != strings.Join(w, "|") {
			t.Errorf("row %s: %v, want %v", id, got, w)
		}
	}
	if rows[g1][6] != "just now" || !strings.HasSuffix(rows[g2][7], " UTC") {
		t.Errorf("last activity: %v / %v", rows[g1][6:8], rows[g2][6:8])
	}
	ids, _, count = e.unfinishedRows(bob)
	if len(ids) != 1 || ids[0] != b1 || count != "1" {
		t.Errorf("bob's list %v (count %s)", ids, count)
	}
}

// TestUnfinishedListBounded: at most 50 rows, with the whole count.
func TestUnfinishedListBounded(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	alice := e.browser()
	for i := 0; i < unfinishedListSize+2; i++ {
		e.newGame(alice, form("white", "1", "standard", "none"))
	}
	ids, _, count := e.unfinishedRows(alice)
	if len(ids) != unfinishedListSize || count != "52" {
		t.Errorf("%d rows, count %s; want %d rows, count 52", len(ids), count, unfinishedListSize)
	}
}

// TestListResign: Resign on the list ends the game as the game page's
// Resign does, telling an open tab; another person, no session or a
// foreign origin changes nothing.
func TestListResign(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	alice, bob, nobody := e.browser(), e.browser(), e.browser()
	id := e.newGame(alice, form("white", "1", "standard", "5+3"))
	other := e.newGame(alice, form("black", "1", "standard", "none"))
	w := e.mustDial(alice, id)
	w.state()

	for _, tc := range []struct {
		name   string
		c      *http.Client
		origin string
		want   int
	}{
		{"another person", bob, "", http.StatusNotFound},
		{"no session", nobody, "", http.StatusNotFound},
		{"foreign origin", alice, "http://evil.example", http.StatusForbidden},
		{"missing game", alice, "", http.StatusNotFound},
	} {
		gid := id
		if tc.name == "missing game" {
			gid = "g_00000000000000000000"
		}
		if code, _ := e.postList(tc.c, gid, "resign", tc.origin); code != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, code, tc.want)
		}
	}
	if g, _ := e.store.Games().GetGame(id); g.Status != store.StatusPlaying {
		t.Fatalf("refused resigns changed the game: %+v", g)
	}

	code, loc := e.postList(alice, id, "resign", e.ts.URL)
	if code != http.StatusSeeOther || loc != "/?done=resigned" {
		t.Fatalf("resign: %d %q", code, loc)
	}
	w.waitFor("the notice", func(m anyMsg) bool { return m.Type == "notice" && strings.Contains(m.Text, "resigned") })
	st := w.waitFor("the game over", func(m anyMsg) bool { return m.Type == "state" && m.state.Status == "over" }).state
	if st.Result != "0-1" || st.Reason != "resignation" {
		t.Errorf("tab sees %s %s", st.Result, st.Reason)
	}
	g, _ := e.store.Games().GetGame(id)
	if g.Status != store.StatusOver || g.Result != "0-1" || g.Reason.String() != "resignation" || g.FinishedAt == nil {
		t.Errorf("stored %v %s %s", g.Status, g.Result, g.Reason)
	}
	if code, _ := e.postList(alice, id, "resign", ""); code != http.StatusConflict {
		t.Errorf("resigning again: %d, want 409", code)
	}
	// No tab open: the record alone, Black resigning.
	if code, _ := e.postList(alice, other, "resign", ""); code != http.StatusSeeOther {
		t.Fatalf("resign without a tab: %d", code)
	}
	if g, _ := e.store.Games().GetGame(other); g.Status != store.StatusOver || g.Result != "1-0" || g.Reason.String() != "resignation" {
		t.Errorf("stored %v %s %s", g.Status, g.Result, g.Reason)
	}
	_, body, _ := e.get(alice, "/?done=resigned")
	if !strings.Contains(body, `class="notice">You resigned`) || !strings.Contains(body, `data-count="0"`) {
		t.Errorf("home after resigning: %s", body)
	}
	if _, body, _ := e.get(alice, "/"); !strings.Contains(body, "/game/"+id+"/pgn") || !strings.Contains(body, "/game/"+other+"/pgn") {
		t.Errorf("resigned games are not among the finished ones: %s", body)
	}
}

// TestListDelete: Delete on the list removes an unfinished game (softly);
// an open tab is sent home, a page or tab opened later too, and the PGN is
// gone. Another person or a finished game changes nothing.
func TestListDelete(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	alice, bob := e.browser(), e.browser()
	id := e.newGame(alice, form("white", "1", "standard", "5+3"))
	keep := e.newGame(alice, form("white", "1", "standard", "none"))
	w := e.mustDial(alice, id)
	w.state()
	w.send(map[string]any{"type": "move", "move": "e2e4", "ply": 0})
	w.stateAt(1)

	if code, _ := e.postList(bob, id, "delete", ""); code != http.StatusNotFound {
		t.Errorf("bob's delete: %d, want 404", code)
	}
	if code, _ := e.postList(alice, id, "delete", "http://evil.example"); code != http.StatusForbidden {
		t.Errorf("cross-origin delete: %d, want 403", code)
	}
	if g, _ := e.store.Games().GetGame(id); g.Status != store.StatusPlaying {
		t.Fatalf("refused deletes changed the game: %+v", g)
	}
	code, loc := e.postList(alice, id, "delete", "")
	if code != http.StatusSeeOther || loc != "/?done=deleted" {
		t.Fatalf("delete: %d %q", code, loc)
	}
	m := w.waitFor("the redirect", func(m anyMsg) bool { return m.Type == "redirect" })
	if m.URL != "/?done=deleted" {
		t.Errorf("tab sent to %q", m.URL)
	}
	if _, ok := w.next(5 * time.Second); ok {
		t.Error("the tab's socket stayed open after the delete")
	}
	g, err := e.store.Games().GetGame(id)
	if err != nil || g.Status != store.StatusDeleted {
		t.Fatalf("stored after delete: %+v %v", g, err)
	}
	ids, _, count := e.unfinishedRows(alice)
	if len(ids) != 1 || ids[0] != keep || count != "1" {
		t.Errorf("list after delete: %v %s", ids, count)
	}
	// A tab coming back is told and sent home, once; the page redirects;
	// the PGN is gone; deleting again is 404.
	w2 := e.mustDial(alice, id)
	if m := w2.waitFor("the redirect", func(m anyMsg) bool { return m.Type == "redirect" }); m.URL != "/?done=deleted" {
		t.Errorf("reconnecting tab sent to %q", m.URL)
	}
	if code, _, h := e.get(alice, "/game/"+id); code != http.StatusSeeOther || h.Get("Location") != "/?done=deleted" {
		t.Errorf("game page of a deleted game: %d %q", code, h.Get("Location"))
	}
	if code, _, _ := e.get(alice, "/game/"+id+"/pgn"); code != http.StatusNotFound {
		t.Errorf("PGN of a deleted game: %d", code)
	}
	if code, _ := e.postList(alice, id, "delete", ""); code != http.StatusNotFound {
		t.Errorf("deleting twice: %d", code)
	}
	if _, body, _ := e.get(alice, "/?done=deleted"); !strings.Contains(body, `class="notice">The game was deleted.`) {
		t.Errorf("home has no notice: %s", body)
	}
	// A finished game cannot be deleted.
	if code, _ := e.postList(alice, keep, "resign", ""); code != http.StatusSeeOther {
		t.Fatal("resign")
	}
	if code, _ := e.postList(alice, keep, "delete", ""); code != http.StatusConflict {
		t.Errorf("deleting a finished game: %d, want 409", code)
	}
	if g, _ := e.store.Games().GetGame(keep); g.Status != store.StatusOver {
		t.Errorf("finished game after a refused delete: %v", g.Status)
	}
}

// TestListReconActions: resign and delete work for Reconnaissance Chess.
func TestListReconActions(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	alice, bob := e.browser(), e.browser()
	a := e.newRecon(alice, "white", "random", "none")
	b := e.newRecon(alice, "black", "random", "15+5")
	if code, _ := e.postList(bob, a, "resign", ""); code != http.StatusNotFound {
		t.Errorf("bob resigns alice's game: %d", code)
	}
	if code, _ := e.postList(alice, a, "resign", ""); code != http.StatusSeeOther {
		t.Fatalf("resign: %d", code)
	}
	if g, _ := e.store.Games().GetReconGame(a); g.Status != store.StatusOver || g.Result != "0-1" || g.Reason.String() != "RESIGN" {
		t.Errorf("stored %v %s %s", g.Status, g.Result, g.Reason)
	}
	w := e.mustDial(alice, b)
	w.reconWait("state", nil, isState)
	if code, _ := e.postList(bob, b, "delete", ""); code != http.StatusNotFound {
		t.Errorf("bob deletes alice's game: %d", code)
	}
	if code, _ := e.postList(alice, b, "delete", ""); code != http.StatusSeeOther {
		t.Fatalf("delete: %d", code)
	}
	if f := w.reconWait("redirect", nil, func(f reconFrame) bool { return f.Type == "redirect" }); !strings.Contains(string(f.Raw), "/?done=deleted") {
		t.Errorf("tab got %s", f.Raw)
	}
	if g, _ := e.store.Games().GetReconGame(b); g.Status != store.StatusDeleted {
		t.Errorf("stored %v", g.Status)
	}
	if code, _, h := e.get(alice, "/game/"+b); code != http.StatusSeeOther || h.Get("Location") != "/?done=deleted" {
		t.Errorf("page of a deleted recon game: %d", code)
	}
	if ids, _, count := e.unfinishedRows(alice); len(ids) != 0 || count != "0" {
		t.Errorf("list %v %s", ids, count)
	}
}

// TestHomeTemplateUnfinished renders the real home.html: a row per
// unfinished game with Continue, Resign and Delete (posting to the
// game's actions, each asking first), the count, and the new-game form's
// word that the other games stay.
func TestHomeTemplateUnfinished(t *testing.T) {
	srv := realHomeServer(t)
	now := time.Now()
	d := &HomeData{Levels: srv.home.levelViews(), Clocks: ClockChoices, ReconOpponents: play.ReconOpponents, ReconClocks: ReconClockChoices, UnfinishedCount: 3}
	for _, g := range []store.Game{
		{ID: "g_a", Level: 1, Human: store.White, StartFEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Moves: "e2e4 e7e5 g1f3", ClockInitialMS: 300000, ClockIncrementMS: 3000, UpdatedAt: now},
		{ID: "g_b", Level: 2, Human: store.Black, StartFEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", UpdatedAt: now.Add(-2 * time.Hour)},
	} {
		d.Unfinished = append(d.Unfinished, srv.home.unfinishedSummary(&g, now))
	}
	d.Unfinished = append(d.Unfinished, reconUnfinishedSummary(&store.ReconGame{ID: "r_c", Opponent: "random", Human: store.White, UpdatedAt: now.Add(-72 * time.Hour)}, now))
	rr := httptest.NewRecorder()
	srv.render(rr, httptest.NewRequest("GET", "/", nil), http.StatusOK, pageHome, d)
	body := html.UnescapeString(rr.Body.String())
	for _, want := range []string{
		`href="/game/g_a"`, `action="/game/g_a/resign"`, `action="/game/g_a/delete"`,
		`action="/game/r_c/resign"`, `action="/game/r_c/delete"`, `href="/game/r_c"`,
		"5+3", "no clock", ">2<", "L2", "Random", "2 h ago", "3 days ago", `title="`,
		"You have 3 unfinished games; they stay in your list",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("home.html lacks %q", want)
		}
	}
	if n := strings.Count(body, `data-confirm=`); n != 6 {
		t.Errorf("%d confirming forms, want 6 (resign and delete on 3 rows)", n)
	}
	if n := strings.Count(body, `>Continue</a>`); n != 3 {
		t.Errorf("%d Continue links, want 3", n)
	}
	// The question asked without JavaScript.
	listConfirm(d, url.Values{"confirm": {"delete"}, "game": {"g_b"}})
	rr = httptest.NewRecorder()
	srv.render(rr, httptest.NewRequest("GET", "/", nil), http.StatusOK, pageHome, d)
	body = html.UnescapeString(rr.Body.String())
	for _, want := range []string{`id="list-confirm"`, `action="/game/g_b/delete"`, `name="confirm" value="yes"`, "Yes, delete it", "against L2 (Black, move 1)"} {
		if !strings.Contains(body, want) {
			t.Errorf("the confirmation lacks %q", want)
		}
	}
}

func TestMoveNumberAndClockText(t *testing.T) {
	for _, tc := range []struct {
		fen   string
		plies int
		want  int
	}{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0, 1},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1, 1},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 2, 2},
		{"8/8/8/8/8/8/k7/K7 b - - 0 30", 0, 30},
		{"8/8/8/8/8/8/k7/K7 b - - 0 30", 1, 31},
		{"junk", 4, 3},
	} {
		if got := moveNumber(tc.fen, tc.plies); got != tc.want {
			t.Errorf("moveNumber(%q, %d) = %d, want %d", tc.fen, tc.plies, got, tc.want)
		}
	}
	for _, tc := range []struct {
		a, b int64
		want string
	}{{0, 0, "no clock"}, {300000, 3000, "5+3"}, {30000, 0, "0.5+0"}, {900000, 5000, "15+5"}} {
		if got := clockText(tc.a, tc.b); got != tc.want {
			t.Errorf("clockText(%d, %d) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestListActionsAskFirst: a Resign or Delete posted without confirm=yes
// (no JavaScript, so no confirm() dialog) changes nothing and leads to
// the home page's question, which posts the answer; the question is only
// asked about the visitor's own unfinished games.
func TestListActionsAskFirst(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	alice, bob := e.browser(), e.browser()
	id := e.newGame(alice, form("white", "1", "standard", "none"))
	for _, action := range []string{"resign", "delete"} {
		resp, err := alice.PostForm(e.ts.URL+"/game/"+id+"/"+action, url.Values{})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		loc := resp.Header.Get("Location")
		if resp.StatusCode != http.StatusSeeOther || loc != "/?confirm="+action+"&game="+id+"#list-confirm" {
			t.Fatalf("unconfirmed %s: %d %q", action, resp.StatusCode, loc)
		}
		if g, _ := e.store.Games().GetGame(id); g.Status != store.StatusPlaying {
			t.Fatalf("unconfirmed %s changed the game: %v", action, g.Status)
		}
		_, body, _ := e.get(alice, strings.TrimSuffix(loc, "#list-confirm"))
		if !strings.Contains(body, `<form id="list-confirm" action="/game/`+id+`/`+action+`">`) || !strings.Contains(body, "move 1") {
			t.Errorf("no question for %s: %s", action, body)
		}
		if _, body, _ := e.get(bob, strings.TrimSuffix(loc, "#list-confirm")); strings.Contains(body, "list-confirm") {
			t.Errorf("bob is asked about alice's game: %s", body)
		}
	}
}

// TestListResignWhileEngineThinks: resigning from the list while the
// engine is searching in an open tab withdraws the search; the tab sees
// the end and no engine move follows.
func TestListResignWhileEngineThinks(t *testing.T) {
	e := newEnv(t, envOpts{searcher: &fakeSearcher{block: true}})
	alice := e.browser()
	id := e.newGame(alice, form("black", "1", "standard", "none"))
	w := e.mustDial(alice, id)
	if st := w.state(); !st.Thinking {
		t.Fatalf("the engine is not thinking: %+v", st)
	}
	if code, _ := e.postList(alice, id, "resign", ""); code != http.StatusSeeOther {
		t.Fatalf("resign: %d", code)
	}
	st := w.waitFor("the end", func(m anyMsg) bool { return m.Type == "state" && m.state.Status == "over" }).state
	if st.Ply != 0 || st.Result != "1-0" || st.Thinking {
		t.Errorf("after resigning: ply %d result %s thinking %v", st.Ply, st.Result, st.Thinking)
	}
	if st := e.quiet(w, id, func(m anyMsg) bool { return m.Type == "state" && m.state.Ply != 0 }); st.Ply != 0 {
		t.Errorf("the engine moved after the resignation: ply %d", st.Ply)
	}
}

// The form's clocks include the bullet and blitz controls players expect
// (1+0, 3+0, 3+2), and parseClock accepts exactly the offered ones.
func TestParseClockChoices(t *testing.T) {
	for _, c := range []struct {
		in           string
		initial, inc int64
		ok           bool
	}{
		{"none", 0, 0, true},
		{"1+0", 60000, 0, true},
		{"3+0", 180000, 0, true},
		{"3+2", 180000, 2000, true},
		{"30+20", 1800000, 20000, true},
		{"2+1", 0, 0, false}, // not offered
		{"1+", 0, 0, false},
		{"", 0, 0, false},
	} {
		initial, inc, ok := parseClock(c.in)
		if ok != c.ok || initial != c.initial || inc != c.inc {
			t.Errorf("parseClock(%q) = %d, %d, %v; want %d, %d, %v", c.in, initial, inc, ok, c.initial, c.inc, c.ok)
		}
	}
}
