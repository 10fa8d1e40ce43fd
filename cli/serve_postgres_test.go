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

	"knightwatch/pgtest"
	"knightwatch/store"
)

// playerState is what the test reads of a game's state message
// (web/PROTOCOL.md).
type playerState struct {
	Type  string `json:"type"`
	Ply   int    `json:"ply"`
	Moves []struct {
		UCI string `json:"uci"`
	} `json:"moves"`
	Legal []struct {
		UCI string `json:"uci"`
	} `json:"legal"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (s playerState) moves() []string {
	var out []string
	for _, m := range s.Moves {
		out = append(out, m.UCI)
	}
	return out
}

// nextState reads the game's messages until a state at ply at least ply
// with the person to move (its legal moves listed, or the game over at
// its last ply); an error message fails the test.
func nextState(t *testing.T, c *websocket.Conn, ply int) playerState {
	t.Helper()
	// The engine's reply at level 1 takes a fraction of a second; the
	// bound is for a server that never answers.
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
		case st.Type == "error":
			t.Fatalf("the server answered %s: %s", st.Code, st.Message)
		case st.Type == "state" && st.Ply >= ply && len(st.Legal) > 0:
			return st
		}
	}
}

// TestServeOnPostgres plays a few moves against the real server on a
// PostgreSQL database, kills it (kill -9: nothing of a shutdown runs),
// starts it again on the same database and finds the game with every
// move it had acknowledged, the visitor's session still its own.
func TestServeOnPostgres(t *testing.T) {
	dsn := pgtest.DB(t)
	srv := startChildServer(t, dsn)

	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.PostForm(srv.URL()+"/games", url.Values{"color": {"white"}, "level": {"1"}, "variant": {"standard"}, "clock": {"none"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	id, ok := strings.CutPrefix(resp.Header.Get("Location"), "/game/")
	if resp.StatusCode != http.StatusSeeOther || !ok {
		t.Fatalf("new game: %s, to %q", resp.Status, resp.Header.Get("Location"))
	}
	dial := func() *websocket.Conn {
		t.Helper()
		d := websocket.Dialer{Jar: jar, HandshakeTimeout: 30 * time.Second}
		c, _, err := d.Dial("ws"+strings.TrimPrefix(srv.URL(), "http")+"/ws/game/"+id, nil)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}

	// Two moves of the person's, each answered by the engine's: the
	// person's first, then the first legal move the state offers.
	c := dial()
	st := nextState(t, c, 0)
	for ply := 0; ply < 4; ply += 2 {
		move := "e2e4"
		if ply > 0 {
			move = st.Legal[0].UCI
		}
		msg, _ := json.Marshal(map[string]any{"type": "move", "move": move, "ply": ply})
		if err := c.WriteMessage(websocket.TextMessage, msg); err != nil {
			t.Fatal(err)
		}
		st = nextState(t, c, ply+2)
	}
	acked := st.moves()
	c.Close()
	if len(acked) != 4 || acked[0] != "e2e4" {
		t.Fatalf("acknowledged moves %v, want four from e2e4", acked)
	}

	if err := srv.Kill(); err != nil {
		t.Fatal(err)
	}
	// The database has them, as a restarted server reads them.
	s, err := store.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Games().GetGame(id)
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.MoveList(), acked) {
		t.Errorf("after kill -9 the database has %v, the player saw %v acknowledged", g.MoveList(), acked)
	}

	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	c = dial()
	defer c.Close()
	st = nextState(t, c, 0)
	if !slices.Equal(st.moves(), acked) || st.Ply != len(acked) {
		t.Errorf("after the restart the game is at ply %d with %v, want %v", st.Ply, st.moves(), acked)
	}
}
