package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/play"
	"knightwatch/store"
)

// comparableState drops what legitimately changes between two syncs of an
// unchanged game (nothing, for an untimed game; kept for clarity).
func comparableState(s *play.StateMessage) play.StateMessage {
	c := *s
	c.Clock = nil
	return c
}

func (e *testEnv) row(id string) *store.Game {
	e.t.Helper()
	g, err := e.store.Games().GetGame(id)
	if err != nil {
		e.t.Fatal(err)
	}
	return g
}

// Every refusal gets its error code and changes nothing: the state before
// and after and the database row are identical.
func TestRefusalsChangeNothing(t *testing.T) {
	tests := []struct {
		name  string
		color string
		setup func(w *wsConn) // brings the game to the situation
		send  string
		code  string
	}{
		{name: "illegal move", color: "white", send: `{"type":"move","move":"e2e5","ply":0}`, code: play.CodeIllegalMove},
		{name: "garbage move", color: "white", send: `{"type":"move","move":"zz","ply":0}`, code: play.CodeIllegalMove},
		{name: "wrong turn", color: "black", send: `{"type":"move","move":"e7e5","ply":0}`, code: play.CodeNotYourTurn},
		{name: "malformed JSON", color: "white", send: `{"type":"move","move":`, code: play.CodeBadJSON},
		{name: "not an object", color: "white", send: `["move"]`, code: play.CodeBadJSON},
		{name: "unknown type", color: "white", send: `{"type":"castle","ply":0}`, code: play.CodeUnknownType},
		{name: "missing ply", color: "white", send: `{"type":"move","move":"e2e4"}`, code: play.CodeBadField},
		{name: "missing move", color: "white", send: `{"type":"move","ply":0}`, code: play.CodeBadField},
		{name: "oversize frame", color: "white", send: `{"type":"move","move":"e2e4","ply":0,"pad":"` + strings.Repeat("x", 5000) + `"}`, code: play.CodeTooLarge},
		{name: "stale ply", color: "white", send: `{"type":"move","move":"e2e4","ply":3}`, code: play.CodeStale},
		{name: "stale resign", color: "white", send: `{"type":"resign","ply":1}`, code: play.CodeStale},
		{name: "nothing to take back", color: "white", send: `{"type":"takeback","ply":0}`, code: play.CodeNoTakeback},
		{name: "nothing of yours to take back", color: "black", send: `{"type":"takeback","ply":0}`, code: play.CodeNoTakeback},
		{name: "control bytes", color: "white", send: "\x00\x01", code: play.CodeBadJSON},
		{name: "move in finished game", color: "white",
			setup: func(w *wsConn) {
				w.send(`{"type":"resign","ply":0}`)
				w.waitFor("game over", func(m anyMsg) bool { return m.Type == "state" && m.state.Status == "over" })
			},
			send: `{"type":"move","move":"e2e4","ply":0}`, code: play.CodeGameOver},
		{name: "resign in finished game", color: "white",
			setup: func(w *wsConn) {
				w.send(`{"type":"resign","ply":0}`)
				w.waitFor("game over", func(m anyMsg) bool { return m.Type == "state" && m.state.Status == "over" })
			},
			send: `{"type":"resign","ply":0}`, code: play.CodeGameOver},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// A blocking engine keeps it the engine's turn for "wrong turn".
			e := newEnv(t, envOpts{searcher: &fakeSearcher{block: true}})
			c := e.browser()
			id := e.newGame(c, form(tc.color, "1", "standard", "none"))
			w := e.mustDial(c, id)
			w.state()
			if tc.setup != nil {
				tc.setup(w)
			}
			before := w.sync()
			rowBefore := e.row(id)
			w.send(tc.send)
			m := w.waitFor("error", func(m anyMsg) bool { return m.Type == "error" })
			if m.Code != tc.code || m.Message == "" {
				t.Fatalf("got error %q (%q), want %q", m.Code, m.Message, tc.code)
			}
			if tc.code == play.CodeStale {
				// A stale tab gets a fresh state straight away.
				if s := w.state(); s.Ply != before.Ply {
					t.Fatalf("fresh state at ply %d, want %d", s.Ply, before.Ply)
				}
			}
			after := w.sync()
			if !reflect.DeepEqual(comparableState(before), comparableState(after)) {
				t.Errorf("state changed:\nbefore %+v\nafter  %+v", before, after)
			}
			if rowAfter := e.row(id); !reflect.DeepEqual(*rowBefore, *rowAfter) {
				t.Errorf("database row changed:\nbefore %+v\nafter  %+v", rowBefore, rowAfter)
			}
		})
	}
}

func TestMoveAndEngineReply(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	id := e.newGame(c, form("white", "2", "standard", "none"))
	w := e.mustDial(c, id)
	s := w.state()
	if s.Ply != 0 || s.Turn != "white" || s.Human != "white" || s.Status != "playing" || len(s.Legal) != 20 || s.LevelName != "L2" {
		t.Fatalf("initial state wrong: %+v", s)
	}
	w.send(`{"type":"move","move":"e4","ply":0}`) // SAN works too
	s = w.stateAt(1)
	if !s.Thinking || len(s.Legal) != 0 || s.LastMove == nil || s.LastMove.To != "e4" || s.Moves[0].SAN != "e4" {
		t.Fatalf("after the move: %+v", s)
	}
	s = w.stateAt(2)
	after := game.NewPosition()
	m, _ := after.ParseUCI("e2e4")
	after.MakeMove(m)
	want := after.UCI(firstMove(after))
	if s.Moves[1].UCI != want || s.Thinking || s.Turn != "white" || len(s.Legal) == 0 {
		t.Fatalf("engine reply: %+v, want %s", s, want)
	}
	// Committed before we were told.
	if got := e.row(id).MoveList(); len(got) != 2 || got[0] != "e2e4" || got[1] != want {
		t.Fatalf("database moves %v", got)
	}
}

// The real engine, through the pool, answers with a legal move (for both
// colours), and the game goes on.
func TestRealEngineReplies(t *testing.T) {
	e := newEnv(t, envOpts{real: true})
	for _, colour := range []string{"white", "black"} {
		c := e.browser()
		id := e.newGame(c, form(colour, "1", "standard", "none"))
		w := e.mustDial(c, id)
		s := w.state()
		if colour == "white" {
			w.send(`{"type":"move","move":"e2e4","ply":0}`)
			s = w.stateAt(2)
		} else if s.Ply == 0 {
			s = w.stateAt(1)
		}
		if s.Turn != colour || len(s.Legal) == 0 || s.Thinking {
			t.Fatalf("%s: after the engine's reply: %+v", colour, s)
		}
		g, _, err := buildGame(e.row(id))
		if err != nil || g.Len() != s.Ply {
			t.Fatalf("%s: stored game: %v", colour, err)
		}
	}
}

func TestCaptureCheckAndMaterial(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	c := e.browser()
	f := form("white", "1", "standard", "none")
	f.Set("fen", "4k3/8/8/3p4/4P3/8/8/4K2R w K - 0 1")
	id := e.newGame(c, f)
	w := e.mustDial(c, id)
	s := w.state()
	castle := false
	for _, l := range s.Legal {
		if l.UCI == "e1g1" && l.To == "g1" {
			castle = true
		}
	}
	if !castle || s.Material != 5 {
		t.Fatalf("castling not offered on g1 or material %d: %+v", s.Material, s.Legal)
	}
	w.send(`{"type":"move","move":"exd5","ply":0}`)
	s = w.stateAt(1)
	if !reflect.DeepEqual(s.Captured.White, []string{"p"}) || s.Material != 6 {
		t.Fatalf("captured %+v material %d", s.Captured, s.Material)
	}
}

func TestPromotionChoicesListed(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	c := e.browser()
	f := form("white", "1", "standard", "none")
	f.Set("fen", "8/4P3/8/8/8/k7/8/4K3 w - - 0 1")
	id := e.newGame(c, f)
	w := e.mustDial(c, id)
	s := w.state()
	promos := map[string]bool{}
	for _, l := range s.Legal {
		if l.From == "e7" && l.To == "e8" {
			promos[l.Promotion] = true
		}
	}
	if len(promos) != 4 || !promos["q"] || !promos["n"] {
		t.Fatalf("promotions %v", promos)
	}
	w.send(`{"type":"move","move":"e7e8n","ply":0}`)
	if s := w.stateAt(1); !strings.HasPrefix(s.FEN, "4N3/") {
		t.Fatalf("under-promotion not played: %s", s.FEN)
	}
}

// Resign and takeback withdraw the engine's running search; its reply
// never arrives and never reaches the database.
func TestWithdrawnSearchNeverReplies(t *testing.T) {
	tests := []struct {
		name     string
		send     string
		wantPly  int
		wantStat string
	}{
		{"resign", `{"type":"resign","ply":1}`, 1, "over"},
		{"takeback", `{"type":"takeback","ply":1}`, 0, "playing"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOpts{searcher: &fakeSearcher{block: true}})
			c := e.browser()
			id := e.newGame(c, form("white", "1", "standard", "none"))
			w := e.mustDial(c, id)
			w.state()
			w.send(`{"type":"move","move":"e2e4","ply":0}`)
			if s := w.stateAt(1); !s.Thinking {
				t.Fatal("engine not thinking")
			}
			w.send(tc.send)
			s := w.waitFor("state", func(m anyMsg) bool { return m.Type == "state" }).state
			if s.Ply != tc.wantPly || s.Status != tc.wantStat || s.Thinking {
				t.Fatalf("state after %s: ply %d status %s thinking %v", tc.name, s.Ply, s.Status, s.Thinking)
			}
			// The cancelled fake engine returns a move at once; it must be dropped.
			s = e.quiet(w, id, func(m anyMsg) bool { return m.Type == "state" && m.state.Ply > tc.wantPly })
			if s.Ply != tc.wantPly {
				t.Fatalf("ply %d after quiet", s.Ply)
			}
			if got := len(e.row(id).MoveList()); got != tc.wantPly {
				t.Fatalf("database has %d moves, want %d", got, tc.wantPly)
			}
		})
	}
}

func TestTakebackBothMoves(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	id := e.newGame(c, form("white", "1", "standard", "none"))
	w := e.mustDial(c, id)
	w.state()
	w.send(`{"type":"move","move":"d2d4","ply":0}`)
	w.stateAt(2)
	w.send(`{"type":"takeback","ply":2}`)
	s := w.stateAt(0)
	if s.Turn != "white" || len(s.Legal) != 20 {
		t.Fatalf("after takeback %+v", s)
	}
	if got := e.row(id).MoveList(); len(got) != 0 {
		t.Fatalf("database moves %v", got)
	}
}

func TestAllTabsSeeMovesAndStaleTabRefused(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	c := e.browser()
	id := e.newGame(c, form("white", "1", "standard", "none"))
	a := e.mustDial(c, id)
	b := e.mustDial(c, id)
	a.state()
	b.state()
	a.send(`{"type":"move","move":"e2e4","ply":0}`)
	if s := a.stateAt(1); s.Moves[0].UCI != "e2e4" {
		t.Fatal("tab a")
	}
	if s := b.stateAt(1); s.Moves[0].UCI != "e2e4" {
		t.Fatal("tab b did not see the move")
	}
	// Tab b still thinks it is ply 0 (say its message crossed).
	b.send(`{"type":"resign","ply":0}`)
	m := b.waitFor("error", func(m anyMsg) bool { return m.Type == "error" })
	if m.Code != play.CodeStale {
		t.Fatalf("got %s", m.Code)
	}
	if e.row(id).Status != store.StatusPlaying {
		t.Fatal("stale resign ended the game")
	}
}

// A new server on the same database file (a restart, even after kill -9)
// finds the game where it was; if the engine was to move, it moves.
func TestResumeAfterRestart(t *testing.T) {
	e1 := newEnv(t, envOpts{searcher: &fakeSearcher{block: true}})
	c := e1.browser()
	id := e1.newGame(c, form("white", "1", "standard", "none"))
	w := e1.mustDial(c, id)
	w.state()
	w.send(`{"type":"move","move":"g1f3","ply":0}`)
	w.stateAt(1) // committed; the engine is thinking when the server dies
	e1.srv.Close()
	e1.ts.Close()
	// The second server reads the secret from the same database, so the
	// browser's cookie still identifies it.
	e2 := newEnv(t, envOpts{dbPath: e1.dbPath})
	resp, err := c.Get(e2.ts.URL + "/game/" + id)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("game page after restart: %s", resp.Status)
	}
	w2 := e2.mustDial(c, id)
	s := w2.state()
	if s.Ply != 1 || s.Moves[0].UCI != "g1f3" {
		t.Fatalf("resumed at ply %d", s.Ply)
	}
	w2.stateAt(2)
	if got := e2.row(id).MoveList(); len(got) != 2 {
		t.Fatalf("engine did not move after resume: %v", got)
	}
}

// Closing the tab and opening the game again resumes it.
func TestResumeAfterTabClosed(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	id := e.newGame(c, form("black", "1", "chess960", "5+3"))
	w := e.mustDial(c, id)
	s := w.stateAt(1) // the engine opens as White
	if s.Variant != "chess960" || s.Clock == nil || s.Clock.Initial != 300000 || s.Clock.Increment != 3000 {
		t.Fatalf("state %+v", s)
	}
	w.conn.Close()
	// Home offers to continue it.
	resp, err := c.Get(e.ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `href="/game/`+id+`">Continue`) {
		t.Fatalf("home has no Continue link: %s", body)
	}
	w2 := e.mustDial(c, id)
	s2 := w2.state()
	if s2.Ply != 1 || s2.FEN != s.FEN || s2.StartFEN != s.StartFEN {
		t.Fatalf("resumed %+v", s2)
	}
}

func TestForgedCookieAndOtherOwners(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	alice := e.browser()
	id := e.newGame(alice, form("white", "1", "standard", "none"))
	u, _ := url.Parse(e.ts.URL)
	aliceCookie := alice.Jar.Cookies(u)[0]

	forged := e.browser()
	forged.Jar.SetCookies(u, []*http.Cookie{{Name: SessionCookie, Value: aliceCookie.Value[:len(aliceCookie.Value)-4] + "AAAA"}})
	bob := e.browser()
	bob.Get(e.ts.URL + "/") // bob gets a session of his own

	tests := []struct {
		name   string
		client *http.Client
		path   string
		want   int
	}{
		{"owner page", alice, "/game/" + id, 200},
		{"owner pgn", alice, "/game/" + id + "/pgn", 200},
		{"forged page", forged, "/game/" + id, 404},
		{"forged pgn", forged, "/game/" + id + "/pgn", 404},
		{"other owner page", bob, "/game/" + id, 404},
		{"other owner pgn", bob, "/game/" + id + "/pgn", 404},
		{"missing game", alice, "/game/g_doesnotexist", 404},
	}
	for _, tc := range tests {
		resp, err := tc.client.Get(e.ts.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
	}
	// The forged cookie was replaced by a fresh, different owner.
	if got := forged.Jar.Cookies(u)[0].Value; got == aliceCookie.Value || strings.HasSuffix(got, "AAAA") {
		t.Fatal("forged cookie kept")
	}
	for _, c := range []*http.Client{forged, bob, e.browser()} {
		if _, resp, err := e.dial(c, id); err == nil || resp == nil || resp.StatusCode != 404 {
			t.Errorf("WebSocket to someone else's game: err %v", err)
		}
	}
}

func TestCookieFlags(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	resp, err := http.Get(e.ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var ck *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == SessionCookie {
			ck = c
		}
	}
	if ck == nil || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Secure {
		t.Fatalf("cookie %+v", ck)
	}
}

func TestOriginCheck(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	c := e.browser()
	id := e.newGame(c, form("white", "1", "standard", "none"))
	u := "ws" + strings.TrimPrefix(e.ts.URL, "http") + "/ws/game/" + id
	for _, tc := range []struct {
		origin string
		ok     bool
	}{{e.ts.URL, true}, {"http://evil.example", false}} {
		d := wsDialer(c)
		conn, resp, err := d.Dial(u, http.Header{"Origin": {tc.origin}})
		if tc.ok != (err == nil) {
			t.Errorf("origin %s: err %v", tc.origin, err)
		}
		if err == nil {
			conn.Close()
		} else if resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("origin %s: want 403", tc.origin)
		}
	}
}

func TestNewGameFormValidation(t *testing.T) {
	tests := []struct {
		name  string
		form  url.Values
		field string
	}{
		{"bad colour", form("green", "1", "standard", "none"), "color"},
		{"level 0", form("white", "0", "standard", "none"), "level"},
		{"level 9", form("white", "9", "standard", "none"), "level"},
		{"level text", form("white", "x", "standard", "none"), "level"},
		{"bad variant", form("white", "1", "atomic", "none"), "variant"},
		{"bad clock", form("white", "1", "standard", "2+1"), "clock"},
		{"bad fen", func() url.Values { f := form("white", "1", "standard", "none"); f.Set("fen", "nonsense"); return f }(), "fen"},
		{"finished fen", func() url.Values {
			f := form("white", "1", "standard", "none")
			f.Set("fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
			return f
		}(), "fen"},
		{"fen with 960", func() url.Values { f := form("white", "1", "chess960", "none"); f.Set("fen", game.StartFEN); return f }(), "fen"},
	}
	e := newEnv(t, envOpts{noEngine: true})
	c := e.browser()
	for _, tc := range tests {
		resp, err := c.PostForm(e.ts.URL+"/games", tc.form)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		// The page names the field at fault (data-field) and says, in a
		// sentence, what to do; it shows no "field:" code.
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), `data-field="`+tc.field+`"`) || strings.Contains(string(body), tc.field+":") {
			t.Errorf("%s: %s %s", tc.name, resp.Status, body)
		}
	}
	if g, err := e.store.Games().LatestUnfinished(e.ownerOf(c)); err == nil {
		t.Fatalf("a rejected form created game %s", g.ID)
	}
	// A foreign Origin is refused outright.
	req, _ := http.NewRequest("POST", e.ts.URL+"/games", strings.NewReader(form("white", "1", "standard", "none").Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://evil.example")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-origin post: %s", resp.Status)
	}
}

// ownerOf decodes the owner key the server gave a browser.
func (e *testEnv) ownerOf(c *http.Client) string {
	u, _ := url.Parse(e.ts.URL)
	req, _ := http.NewRequest("GET", e.ts.URL, nil)
	for _, ck := range c.Jar.Cookies(u) {
		req.AddCookie(ck)
	}
	return e.srv.currentOwner(req)
}

func TestPGNDownload(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	id := e.newGame(c, form("white", "3", "standard", "10+5"))
	w := e.mustDial(c, id)
	w.state()
	w.send(`{"type":"move","move":"e2e4","ply":0}`)
	w.stateAt(2)
	w.send(`{"type":"resign","ply":2}`)
	w.waitFor("over", func(m anyMsg) bool { return m.Type == "state" && m.state.Status == "over" })
	resp, err := c.Get(e.ts.URL + "/game/" + id + "/pgn")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	pgn := string(body)
	if cd := resp.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment") {
		t.Fatalf("Content-Disposition %q", cd)
	}
	wants := []string{
		`[Event "Knightwatch casual game"]`,
		`[Site "` + e.ts.URL + `/game/` + id + `"]`,
		`[Date "` + time.Now().UTC().Format("2006.01.02") + `"]`,
		`[White "Player"]`,
		`[Black "Knightwatch level 3 (L3)"]`,
		`[Result "0-1"]`,
		`[Variant "Standard"]`,
		`[TimeControl "600+5"]`,
		"1. e4 ",
	}
	for _, want := range wants {
		if !strings.Contains(pgn, want) {
			t.Errorf("PGN lacks %s:\n%s", want, pgn)
		}
	}
	if !strings.HasSuffix(strings.TrimSpace(pgn), "0-1") {
		t.Errorf("movetext does not end with the result:\n%s", pgn)
	}
	// The PGN reads back into the same game.
	pgs, err := game.ReadPGN(strings.NewReader(pgn))
	if err != nil || len(pgs) != 1 {
		t.Fatalf("ReadPGN: %v, %d games", err, len(pgs))
	}
	if g, err := pgs[0].Mainline(); err != nil || g.Len() != 2 {
		t.Errorf("PGN mainline: %v", err)
	}
}

func TestRematchSwapsColours(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	c := e.browser()
	id := e.newGame(c, form("white", "4", "standard", "15+10"))
	w := e.mustDial(c, id)
	w.state()
	w.send(`{"type":"rematch"}`)
	m := w.waitFor("redirect", func(m anyMsg) bool { return m.Type == "redirect" })
	newID := strings.TrimPrefix(m.URL, "/game/")
	g, err := e.store.Games().GetOwnedGame(newID, e.ownerOf(c))
	if err != nil || newID == id {
		t.Fatalf("rematch %q: %v", m.URL, err)
	}
	if g.Human != store.Black || g.Level != 4 || g.ClockInitialMS != 900000 || g.ClockIncrementMS != 10000 {
		t.Fatalf("rematch settings %+v", g)
	}
}

// A flag fall ends the game on time while the tab is open.
func TestFlagFall(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	c := e.browser()
	id := e.newGame(c, form("white", "1", "standard", "5+3"))
	rec := e.row(id)
	rec.SetMoveList([]string{"e2e4", "e7e5"})
	rec.WhiteMS = 50 // White to move with 50 ms left
	if err := e.store.Games().SaveGame(rec); err != nil {
		t.Fatal(err)
	}
	w := e.mustDial(c, id)
	s := w.waitFor("flag", func(m anyMsg) bool { return m.Type == "state" && m.state.Status == "over" }).state
	if s.Result != "0-1" || s.Reason != game.TimeForfeit.String() || s.Clock.White != 0 {
		t.Fatalf("after flag: %+v %+v", s, s.Clock)
	}
	if r := e.row(id); r.Status != store.StatusOver || r.Result != "0-1" {
		t.Fatalf("row %+v", r)
	}
}

// A clock runs only while a tab is open.
func TestClockNotChargedWhileAway(t *testing.T) {
	leaving, left := notify()
	e := newEnv(t, envOpts{noEngine: true, socketHooks: Hooks{Left: leaving}})
	c := e.browser()
	id := e.newGame(c, form("white", "1", "standard", "5+3"))
	rec := e.row(id)
	rec.SetMoveList([]string{"e2e4", "e7e5"})
	if err := e.store.Games().SaveGame(rec); err != nil {
		t.Fatal(err)
	}
	w := e.mustDial(c, id)
	if s := w.state(); s.Clock.Running != "white" {
		t.Fatalf("clock not running: %+v", s.Clock)
	}
	w.conn.Close()
	await(t, "the server to see the close", left) // the host closed, its clock committed
	away := e.row(id).WhiteMS
	// time itself is what is tested: the clock stands still while nobody has the game open
	time.Sleep(1500 * time.Millisecond)
	w2 := e.mustDial(c, id)
	s := w2.state()
	// Away for 1.5 s: charging it would leave less than `away` - 1500.
	if s.Clock.White <= away-1500 || away > 300000 {
		t.Fatalf("time away was charged: %d ms left, %d when leaving", s.Clock.White, away)
	}
}

func TestHomeListsFinishedGames(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	c := e.browser()
	id := e.newGame(c, form("black", "5", "standard", "none"))
	w := e.mustDial(c, id)
	w.state()
	w.send(`{"type":"resign","ply":0}`)
	w.waitFor("over", func(m anyMsg) bool { return m.Type == "state" && m.state.Status == "over" })
	resp, err := c.Get(e.ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "/game/"+id+"/pgn") || !strings.Contains(string(body), "1-0") || strings.Contains(string(body), "Continue") {
		t.Fatalf("home page: %s", body)
	}
}

func TestStaticAndHealth(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	for _, tc := range []struct {
		path string
		want int
		body string
	}{{"/healthz", 200, "ok"}, {"/static/app.js", 200, "//js"}, {"/static/missing.js", 404, ""}, {"/nope", 404, ""}} {
		resp, err := http.Get(e.ts.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want || !strings.Contains(string(b), tc.body) {
			t.Errorf("%s: %d %q", tc.path, resp.StatusCode, b)
		}
	}
}

// Many tabs on many games at once: the race detector's playground.
func TestConcurrentGames(t *testing.T) {
	e := newEnv(t, envOpts{})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		c := e.browser()
		id := e.newGame(c, form("white", "1", "standard", "5+3"))
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := e.mustDial(c, id)
			w.state()
			for _, mv := range []string{"b1c3", "g1f3", "e2e4"} {
				s := w.sync()
				b, _ := json.Marshal(map[string]any{"type": "move", "move": mv, "ply": s.Ply})
				w.send(b)
				w.stateAt(s.Ply + 2)
			}
		}()
	}
	wg.Wait()
}

func TestCheckmateEndsGame(t *testing.T) {
	e := newEnv(t, envOpts{searcher: &fakeSearcher{block: true}})
	c := e.browser()
	f := form("white", "1", "standard", "none")
	f.Set("fen", "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1")
	id := e.newGame(c, f)
	w := e.mustDial(c, id)
	w.state()
	w.send(`{"type":"move","move":"Qb8#","ply":0}`)
	s := w.stateAt(1)
	if s.Status != "over" || s.Result != "1-0" || s.Reason != "checkmate" || s.Thinking || s.Check != "h8" || len(s.Legal) != 0 {
		t.Fatalf("after mate: %+v", s)
	}
	if r := e.row(id); r.Status != store.StatusOver || r.Reason.Termination != game.Checkmate || r.FinishedAt == nil {
		t.Fatalf("row %+v", r)
	}
}
