package web

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"knightwatch/play"
	"knightwatch/store"
)

// signIn posts the sign-in form for a browser and fails unless it works.
func (e *testEnv) signIn(c *http.Client, name, password string) {
	e.t.Helper()
	resp, err := c.PostForm(e.ts.URL+"/account/signin", url.Values{"username": {name}, "password": {password}})
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		e.t.Fatalf("sign in as %s: %s", name, resp.Status)
	}
}

// dialAPI opens the WebSocket of API game id for the signed-in browser.
func (e *testEnv) dialAPI(c *http.Client, id int64) (*wsConn, error) {
	u := fmt.Sprintf("ws%s/ws/api/%d", strings.TrimPrefix(e.ts.URL, "http"), id)
	conn, _, err := wsDialer(c).Dial(u, nil)
	if err != nil {
		return nil, err
	}
	e.t.Cleanup(func() { conn.Close() })
	return &wsConn{t: e.t, conn: conn}, nil
}

// playInBrowser plays the person's side to the end with random senses and
// moves, checking every state sent: only the person's own pieces, no true
// board before the end.
func playInBrowser(t *testing.T, w *wsConn, color string, rng *rand.Rand) *play.ReconState {
	t.Helper()
	check := func(f reconFrame) {
		if f.State == nil {
			return
		}
		st := f.State
		for sq, p := range st.Pieces {
			if p[0] != color[0] {
				t.Fatalf("state shows %s on %s to %s", p, sq, color)
			}
		}
		if st.Phase != "over" && (st.TrueFEN != "" || st.HistoryURL != "") {
			t.Fatalf("true board before the end: %s", f.Raw)
		}
	}
	w.send(`{"type":"sync"}`)
	for {
		f := w.reconWait("our turn or the end", check, func(f reconFrame) bool {
			return f.State != nil && (f.State.Phase == "sense" || f.State.Phase == "move" || f.State.Phase == "over")
		})
		st := f.State
		switch st.Phase {
		case "over":
			return st
		case "sense":
			w.send(fmt.Sprintf(`{"type":"sense","square":"%c%d","seq":%d}`, 'a'+rng.IntN(8), 1+rng.IntN(8), st.Seq))
		case "move":
			m := `"pass"`
			if len(st.MoveActions) > 0 && rng.IntN(10) > 0 {
				m = `"` + st.MoveActions[rng.IntN(len(st.MoveActions))].UCI + `"`
			}
			w.send(fmt.Sprintf(`{"type":"move","move":%s,"seq":%d}`, m, st.Seq))
		}
	}
}

// TestPlayAPIGameInBrowser: a person signs in, invites a built-in bot and
// plays it on the board's WebSocket; a bot of the API invites the person,
// who accepts on the page and plays it; nobody else can open either game.
func TestPlayAPIGameInBrowser(t *testing.T) {
	e := newEnv(t, envOpts{rbcClock: 120 * time.Second})
	ann := e.apiClient("ann", "ann's password")
	ann.register()
	bob := e.apiClient("bob", "bob's password")
	bob.register()
	c := e.browser()
	if status, _ := c.PostForm(e.ts.URL+"/account/signin", url.Values{"username": {"ann"}, "password": {"wrong one"}}); status.StatusCode != http.StatusUnauthorized {
		t.Errorf("wrong password: %s", status.Status)
	}
	e.signIn(c, "ann", "ann's password")

	// Ann invites random, playing Black.
	resp, err := c.PostForm(e.ts.URL+"/bots/invite", url.Values{"opponent": {"random"}, "color": {"black"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	var id int64
	if _, err := fmt.Sscanf(loc, "/bots/games/%d/play", &id); err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("invite: %s to %q", resp.Status, loc)
	}
	page, err := c.Get(e.ts.URL + loc)
	if err != nil || page.StatusCode != 200 {
		t.Fatalf("play page: %v %v", err, page.Status)
	}
	page.Body.Close()
	w, err := e.dialAPI(c, id)
	if err != nil {
		t.Fatal(err)
	}
	end := playInBrowser(t, w, "black", rand.New(rand.NewPCG(1, 2)))
	if end.TrueFEN == "" || end.ReplayURL != fmt.Sprintf("/bots/games/%d/replay", id) || end.Result == "*" {
		t.Errorf("end state %+v", end)
	}
	rec, err := e.store.API().GetAPIGame(id)
	if err != nil || rec.Status != store.StatusOver {
		t.Fatalf("stored %+v %v", rec, err)
	}
	checkHistory(t, e, id, []byte(rec.History))

	// Bob's bot invites Ann; she accepts on the page and plays White.
	id2 := bob.invite("ann", false)
	var inv []int64
	ann.must("GET", "/api/invitations/", nil, "invitations", &inv)
	if len(inv) != 1 {
		t.Fatalf("ann's invitations %v", inv)
	}
	resp, err = c.PostForm(fmt.Sprintf("%s/bots/invitations/%d/accept", e.ts.URL, inv[0]), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("Location") != fmt.Sprintf("/bots/games/%d/play", id2) {
		t.Fatalf("accept: %s to %q", resp.Status, resp.Header.Get("Location"))
	}
	// Others: a stranger and another signed-in user get nothing.
	if _, err := e.dialAPI(e.browser(), id2); err == nil {
		t.Error("a stranger opened the game's WebSocket")
	}
	other := e.browser()
	carol := e.apiClient("carol", "carol's password")
	carol.register()
	e.signIn(other, "carol", "carol's password")
	if r, _ := other.Get(fmt.Sprintf("%s/bots/games/%d/play", e.ts.URL, id2)); r.StatusCode != http.StatusNotFound {
		t.Errorf("another user's play page: %s", r.Status)
	}
	w2, err := e.dialAPI(c, id2)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan remoteResult, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		done <- bob.playRemote(ctx, id2, randomBot(t, 9))
	}()
	end = playInBrowser(t, w2, "white", rand.New(rand.NewPCG(3, 4)))
	res := <-done
	if res.reason == "" || end.Reason != res.reason {
		t.Errorf("the page says %s, bob's client %s", end.Reason, res.reason)
	}
	checkHistory(t, e, id2, res.history)

	// Closing the server closes the tabs of API games too.
	if _, err := e.dialAPI(c, id2); err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() { e.srv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Server.Close hangs on an open tab of an API game")
	}
}
