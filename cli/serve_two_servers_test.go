package cli

import (
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"knightwatch/e2e"
	"knightwatch/pgtest"
	"knightwatch/store"
)

// TestTwoServersOneGame: two servers on one PostgreSQL database, one
// visitor with a tab of the same game on each (as a load balancer would
// send two tabs). A move made on either reaches the other's tab through
// the change feed; the engine's reply, which both servers' engines think
// about, is played once; two moves sent at once for the same ply, one on
// each server, are one accepted and one refused as stale, and both tabs
// end on the same game, the database's.
func TestTwoServersOneGame(t *testing.T) {
	dsn := pgtest.DB(t)
	srvs := [2]*e2e.Server{startChildServer(t, dsn), startChildServer(t, dsn)}

	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	// One visitor: the session cookie of server 0 holds on server 1 (the
	// secret is the database's), so the jar sends it to both by hand.
	hc := &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.PostForm(srvs[0].URL()+"/games", url.Values{"color": {"white"}, "level": {"1"}, "variant": {"standard"}, "clock": {"none"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	id, ok := strings.CutPrefix(resp.Header.Get("Location"), "/game/")
	if resp.StatusCode != http.StatusSeeOther || !ok {
		t.Fatalf("new game: %s, to %q", resp.Status, resp.Header.Get("Location"))
	}
	u0, _ := url.Parse(srvs[0].URL())
	cookies := jar.Cookies(u0)
	dial := func(s *e2e.Server) *websocket.Conn {
		t.Helper()
		h := http.Header{}
		for _, c := range cookies {
			h.Add("Cookie", c.String())
		}
		d := websocket.Dialer{HandshakeTimeout: 30 * time.Second}
		c, _, err := d.Dial("ws"+strings.TrimPrefix(s.URL(), "http")+"/ws/game/"+id, h)
		if err != nil {
			t.Fatalf("a tab on %s: %v", s.URL(), err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	tabs := [2]*websocket.Conn{dial(srvs[0]), dial(srvs[1])}
	for _, c := range tabs {
		nextState(t, c, 0)
	}
	send := func(c *websocket.Conn, move string, ply int) {
		t.Helper()
		msg, _ := json.Marshal(map[string]any{"type": "move", "move": move, "ply": ply})
		if err := c.WriteMessage(websocket.TextMessage, msg); err != nil {
			t.Fatal(err)
		}
	}

	// A move on server 0; the engine's reply reaches both tabs.
	send(tabs[0], "e2e4", 0)
	var seen [2]playerState
	for i, c := range tabs {
		seen[i] = nextState(t, c, 2)
	}
	if !slices.Equal(seen[0].moves(), seen[1].moves()) || len(seen[0].moves()) != 2 {
		t.Fatalf("after e2e4 and the reply the tabs show %v and %v", seen[0].moves(), seen[1].moves())
	}
	// A move on server 1 now reaches server 0's tab.
	send(tabs[1], seen[1].Legal[0].UCI, 2)
	for i, c := range tabs {
		seen[i] = nextState(t, c, 4)
	}
	if !slices.Equal(seen[0].moves(), seen[1].moves()) || len(seen[0].moves()) != 4 {
		t.Fatalf("after a move on the second server the tabs show %v and %v", seen[0].moves(), seen[1].moves())
	}

	// Two different moves for ply 4 at once, one on each server.
	legal := seen[0].Legal
	send(tabs[0], legal[0].UCI, 4)
	send(tabs[1], legal[len(legal)-1].UCI, 4)
	var stale, final [2]playerState
	for i, c := range tabs {
		final[i], stale[i] = readUntilSettled(t, c, 6)
	}
	if !slices.Equal(final[0].moves(), final[1].moves()) {
		t.Errorf("the tabs disagree: %v and %v", final[0].moves(), final[1].moves())
	}
	refused := 0
	for _, s := range stale {
		if s.Code == "stale" {
			refused++
		}
	}
	st, err := store.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g, err := st.Games().GetGame(id)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.MoveList(), final[0].moves()) {
		t.Errorf("the database has %v, the tabs %v", g.MoveList(), final[0].moves())
	}
	if played := g.MoveList()[4]; refused != 1 || played != legal[0].UCI && played != legal[len(legal)-1].UCI {
		t.Errorf("of two moves for ply 4 (%s, %s) the game has %s, and %d were refused as stale; want one of them played, the other refused",
			legal[0].UCI, legal[len(legal)-1].UCI, played, refused)
	}
}

// readUntilSettled reads a tab's messages until a state at ply at least
// ply with the person to move; it returns that state and the stale
// refusal the tab got on the way, if any (other errors fail the test).
func readUntilSettled(t *testing.T, c *websocket.Conn, ply int) (state, refusal playerState) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(60 * time.Second))
	for {
		_, b, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("waiting for the state at ply %d: %v", ply, err)
		}
		var st playerState
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		switch {
		case st.Type == "error" && st.Code == "stale":
			refusal = st
		case st.Type == "error":
			t.Fatalf("the server answered %s: %s", st.Code, st.Message)
		case st.Type == "state" && st.Ply >= ply && len(st.Legal) > 0:
			return st, refusal
		}
	}
}
