package web

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"knightwatch/store"
)

// watchLink returns the spectator link the owner's game page shows.
func (e *testEnv) watchLink(c *http.Client, id string) string {
	e.t.Helper()
	resp, err := c.Get(e.ts.URL + "/game/" + id)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	_, rest, ok := strings.Cut(string(b), `id="watch-link" value="`)
	if !ok {
		e.t.Fatalf("game page has no watch link: %s", b)
	}
	link, _, _ := strings.Cut(rest, `"`)
	return link
}

// dialWatch opens the spectator socket of watch link link as browser c
// (after opening the page, which gives c its cookie).
func (e *testEnv) dialWatch(c *http.Client, link string) *wsConn {
	e.t.Helper()
	tok := link[strings.LastIndex(link, "/")+1:]
	resp, err := c.Get(e.ts.URL + "/watch/" + tok)
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("watch page: %s", resp.Status)
	}
	conn, r, err := wsDialer(c).Dial("ws"+strings.TrimPrefix(e.ts.URL, "http")+"/ws/watch/"+tok, nil)
	if err != nil {
		status := ""
		if r != nil {
			status = r.Status
		}
		e.t.Fatalf("dial watch: %v %s", err, status)
	}
	e.t.Cleanup(func() { conn.Close() })
	return &wsConn{t: e.t, conn: conn}
}

// TestWatchLink: the owner's page shows one stable /watch/ link with a
// long token; another browser sees the game live through it, without the
// legal moves or the game's ID.
func TestWatchLink(t *testing.T) {
	e := newEnv(t, envOpts{})
	owner := e.browser()
	id := e.newGame(owner, form("white", "1", "standard", "5+3"))
	link := e.watchLink(owner, id)
	if !strings.HasPrefix(link, e.ts.URL+"/watch/") {
		t.Fatalf("watch link %q", link)
	}
	tok := strings.TrimPrefix(link, e.ts.URL+"/watch/")
	if len(tok) < 22 || strings.Contains(tok, id) {
		t.Fatalf("token %q: too short or made of the game ID", tok)
	}
	if again := e.watchLink(owner, id); again != link {
		t.Fatalf("second page load gave %q, first %q", again, link)
	}
	other := e.newGame(owner, form("white", "1", "standard", "none"))
	if l2 := e.watchLink(owner, other); l2 == link {
		t.Fatal("two games share a watch link")
	}

	play := e.mustDial(owner, id)
	play.state()
	spectator := e.dialWatch(e.browser(), link)
	st := spectator.state()
	if st.ID != "" || len(st.Legal) != 0 || st.Ply != 0 || st.Clock == nil {
		t.Fatalf("spectator's first state: id %q, %d legal moves, ply %d, clock %v", st.ID, len(st.Legal), st.Ply, st.Clock)
	}
	play.send(map[string]any{"type": "move", "move": "e2e4", "ply": 0})
	st = spectator.stateAt(2) // the engine's reply too
	if st.Moves[0].SAN != "e4" || len(st.Legal) != 0 || st.ID != "" {
		t.Fatalf("spectator's state after the moves: %+v", st)
	}
	if st2 := spectator.sync(); st2.Ply != 2 {
		t.Fatalf("sync: ply %d", st2.Ply)
	}
}

// TestWatchSocketRefusesMoves: a spectator's socket that sends a command
// is closed (1008), and the game is unchanged.
func TestWatchSocketRefusesMoves(t *testing.T) {
	e := newEnv(t, envOpts{})
	owner := e.browser()
	id := e.newGame(owner, form("white", "1", "standard", "none"))
	link := e.watchLink(owner, id)
	for _, msg := range []string{
		`{"type":"move","move":"e2e4","ply":0}`, `{"type":"resign","ply":0}`, `{"type":"takeback","ply":0}`,
		`{"type":"draw","ply":0}`, `{"type":"rematch"}`, `not json`,
	} {
		spectator := e.dialWatch(e.browser(), link)
		spectator.state()
		spectator.send(msg)
		spectator.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		var err error
		for err == nil {
			_, _, err = spectator.conn.ReadMessage()
		}
		var ce *websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.ClosePolicyViolation {
			t.Fatalf("%s: socket ended with %v, want close 1008", msg, err)
		}
	}
	g, err := e.store.Games().GetGame(id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Moves != "" || g.Status.String() != "playing" {
		t.Fatalf("after spectators' commands: moves %q, status %s", g.Moves, g.Status)
	}
	games, _ := e.store.Games().FinishedGames(g.Owner, 10)
	if len(games) != 0 {
		t.Fatal("a spectator ended the game")
	}
}

// TestWatchWrongToken: a wrong or malformed token gets a 404 page in
// words, and no socket.
func TestWatchWrongToken(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	for _, tok := range []string{"x", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "g_0000"} {
		resp, err := c.Get(e.ts.URL + "/watch/" + tok)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(b), "No game at this link") {
			t.Fatalf("/watch/%s: %s %s", tok, resp.Status, b)
		}
		_, r, err := wsDialer(c).Dial("ws"+strings.TrimPrefix(e.ts.URL, "http")+"/ws/watch/"+tok, nil)
		if err == nil || r == nil || r.StatusCode != http.StatusNotFound {
			t.Fatalf("/ws/watch/%s: %v %v", tok, err, r)
		}
	}
}

// TestOthersGamePageFriendly: another browser opening /game/{id} gets a
// 404 page in words (the same as for a missing game), not a bare 404.
func TestOthersGamePageFriendly(t *testing.T) {
	e := newEnv(t, envOpts{})
	id := e.newGame(e.browser(), form("white", "1", "standard", "none"))
	for _, path := range []string{"/game/" + id, "/game/g_00000000000000000000", "/game/" + store.ReconIDPrefix + "0000"} {
		resp, err := e.browser().Get(e.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(b), "not yours to play") ||
			!strings.Contains(string(b), "read-only link") || strings.Contains(string(b), "404 page not found") {
			t.Fatalf("%s: %s %s", path, resp.Status, b)
		}
	}
}

// TestWatcherKeepsNoClock: a spectator alone neither runs the clock nor
// wakes the engine; when the player leaves, the clock stops for the
// spectator too.
func TestWatcherKeepsNoClock(t *testing.T) {
	e := newEnv(t, envOpts{})
	owner := e.browser()
	id := e.newGame(owner, form("white", "1", "standard", "5+3"))
	link := e.watchLink(owner, id)
	play := e.mustDial(owner, id)
	play.state()
	play.send(map[string]any{"type": "move", "move": "e2e4", "ply": 0})
	play.stateAt(2)
	spectator := e.dialWatch(e.browser(), link)
	if st := spectator.state(); st.Clock == nil || st.Clock.Running != "white" {
		t.Fatalf("with the player there the clock runs: %+v", st.Clock)
	}
	play.conn.Close()
	st := spectator.waitFor("clock stopped", func(m anyMsg) bool {
		return m.Type == "state" && m.state.Clock != nil && m.state.Clock.Running == ""
	}).state
	// time itself is what is tested: the clock stands still with only a spectator
	time.Sleep(300 * time.Millisecond)
	if st2 := spectator.sync(); st2.Clock.White != st.Clock.White || st2.Clock.Running != "" {
		t.Fatalf("clock moved with only a spectator: %+v then %+v", st.Clock, st2.Clock)
	}
	// The player comes back: the game goes on, the spectator sees it.
	play = e.mustDial(owner, id)
	play.state()
	play.send(map[string]any{"type": "move", "move": "d2d4", "ply": 2})
	if st := spectator.stateAt(4); st.Moves[2].SAN != "d4" {
		t.Fatalf("spectator missed the move: %+v", st.Moves)
	}
}
