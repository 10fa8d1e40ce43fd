package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gorilla/websocket"
)

// apiUser calls the reconchess HTTP API of the real server as one user.
type apiUser struct {
	t          *testing.T
	srv        *Server
	name, pass string
	// page is the user signed in on /bots, and sockets its page sockets
	// on API games, by game path (myTurn).
	page    *http.Client
	sockets map[string]*gameSocket
}

// gameSocket is a signed-in page's socket on an API game: the server
// sends the player a state whenever the game changes for them (the
// opponent's turn is told as it ends), and each one pokes changed.
type gameSocket struct {
	conn    *websocket.Conn
	changed chan struct{} // one buffered poke
	gone    chan struct{} // closed when the socket ends (a server killed)
}

// socket returns u's page socket on API game g (/api/games/N/), signing
// in and dialling again when there is none or it has ended.
func (u *apiUser) socket(g string) *gameSocket {
	u.t.Helper()
	if s := u.sockets[g]; s != nil {
		select {
		case <-s.gone:
		default:
			return s
		}
	}
	if u.sockets == nil {
		u.sockets = map[string]*gameSocket{}
	}
	if u.page == nil {
		jar, _ := cookiejar.New(nil)
		u.page = &http.Client{Jar: jar, Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	req, err := http.NewRequest("POST", u.srv.URL()+"/account/signin", strings.NewReader(url.Values{"username": {u.name}, "password": {u.pass}}.Encode()))
	if err != nil {
		u.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", u.srv.URL())
	resp, err := u.page.Do(req)
	if err != nil {
		u.t.Fatalf("%s signing in: %v", u.name, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		u.t.Fatalf("%s signing in: %s", u.name, resp.Status)
	}
	id := strings.TrimSuffix(strings.TrimPrefix(g, "/api/games/"), "/")
	d := websocket.Dialer{Jar: u.page.Jar, HandshakeTimeout: 10 * time.Second}
	conn, _, err := d.Dial("ws"+strings.TrimPrefix(u.srv.URL(), "http")+"/ws/api/"+id, http.Header{"Origin": {u.srv.URL()}})
	if err != nil {
		u.t.Fatalf("%s's socket on %s: %v", u.name, g, err)
	}
	u.t.Cleanup(func() { conn.Close() })
	s := &gameSocket{conn: conn, changed: make(chan struct{}, 1), gone: make(chan struct{})}
	go func() {
		defer close(s.gone)
		for {
			if _, _, err := conn.ReadMessage(); err != nil {
				return
			}
			select {
			case s.changed <- struct{}{}:
			default:
			}
		}
	}()
	u.sockets[g] = s
	return s
}

func (u *apiUser) call(method, path string, body any) (int, map[string]json.RawMessage) {
	u.t.Helper()
	var data []byte
	if body != nil {
		data, _ = json.Marshal(body)
	}
	req, err := http.NewRequest(method, u.srv.URL()+path, bytes.NewReader(data))
	if err != nil {
		u.t.Fatal(err)
	}
	req.SetBasicAuth(u.name, u.pass)
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		u.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out := map[string]json.RawMessage{}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		u.t.Fatalf("%s %s: %d, not JSON: %v", method, path, resp.StatusCode, err)
	}
	return resp.StatusCode, out
}

func (u *apiUser) must(method, path string, body any, field string, v any) {
	u.t.Helper()
	status, out := u.call(method, path, body)
	if status != http.StatusOK {
		u.t.Fatalf("%s %s as %s: %d %s", method, path, u.name, status, out["error"])
	}
	if field != "" {
		if err := json.Unmarshal(out[field], v); err != nil {
			u.t.Fatalf("%s %s: %s: %v", method, path, field, err)
		}
	}
}

// myTurn waits until it is u's turn in game g (true) or the game is over,
// asking the API again each time the server tells u's page socket on the
// game that it changed.
func (u *apiUser) myTurn(g string) bool {
	u.t.Helper()
	s := u.socket(g)
	deadline := time.NewTimer(time.Minute)
	defer deadline.Stop()
	for {
		var st struct {
			IsMyTurn bool `json:"is_my_turn"`
			IsOver   bool `json:"is_over"`
		}
		_, out := u.call("GET", g+"game_status", nil)
		_ = json.Unmarshal(out["is_my_turn"], &st.IsMyTurn)
		_ = json.Unmarshal(out["is_over"], &st.IsOver)
		if st.IsOver || st.IsMyTurn {
			return st.IsMyTurn
		}
		select {
		case <-s.changed:
		case <-s.gone:
			s = u.socket(g)
		case <-deadline.C:
			u.t.Fatalf("%s: no turn for %s in a minute", g, u.name)
		}
	}
}

// move plays a random move action and ends the turn.
func (u *apiUser) move(g string, rng *rand.Rand) {
	u.t.Helper()
	var actions []json.RawMessage
	u.must("GET", g+"move_actions", nil, "move_actions", &actions)
	var m json.RawMessage = []byte("null")
	if len(actions) > 0 && rng.IntN(8) > 0 {
		m = actions[rng.IntN(len(actions))]
	}
	u.must("POST", g+"move", map[string]json.RawMessage{"requested_move": m}, "", nil)
	u.must("POST", g+"end_turn", nil, "", nil)
}

// TestAPIKill9 kills the server with SIGKILL in the middle of API games,
// one against a built-in bot and one between two users, each killed just
// after a sense: after the restart both games stand where they were (the
// sense kept, the move still due) and play on to the end.
func TestAPIKill9(t *testing.T) {
	dir := filepath.Join("artifacts", "TestAPIKill9")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	addr, err := FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := StartServer(binPath, filepath.Join(t.TempDir(), "kw.db"), addr, filepath.Join(dir, "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop(10 * time.Second)
	alice, bob := &apiUser{t: t, srv: srv, name: "alice", pass: "alice's password"}, &apiUser{t: t, srv: srv, name: "bob", pass: "bob's password"}
	for _, u := range []*apiUser{alice, bob} {
		u.must("POST", "/api/users/", map[string]string{"username": u.name, "email": "", "affiliation": "", "password": u.pass}, "", nil)
	}
	var vsBot, vsBob int64
	alice.must("POST", "/api/invitations/", map[string]any{"opponent": "random", "color": true}, "game_id", &vsBot)
	alice.must("POST", "/api/invitations/", map[string]any{"opponent": "bob", "color": false}, "game_id", &vsBob)
	var inv []int64
	bob.must("GET", "/api/invitations/", nil, "invitations", &inv)
	bob.must("POST", fmt.Sprintf("/api/invitations/%d", inv[0]), nil, "game_id", new(int64))
	gBot, gBob := fmt.Sprintf("/api/games/%d/", vsBot), fmt.Sprintf("/api/games/%d/", vsBob)
	for _, c := range []struct {
		u *apiUser
		g string
	}{{alice, gBot}, {alice, gBob}, {bob, gBob}} {
		c.u.must("POST", c.g+"ready", nil, "", nil)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	// Two turns each, then Alice senses in both games and the server dies.
	for i := 0; i < 2; i++ {
		for _, c := range []struct {
			u *apiUser
			g string
		}{{alice, gBot}, {bob, gBob}, {alice, gBob}} {
			if !c.u.myTurn(c.g) {
				t.Fatalf("%s ended in its first turns", c.g)
			}
			c.u.must("POST", c.g+"sense", map[string]any{"square": rng.IntN(64)}, "", nil)
			c.u.move(c.g, rng)
		}
	}
	if !bob.myTurn(gBob) {
		t.Fatal("the game between users ended early")
	}
	bob.must("POST", gBob+"sense", map[string]any{"square": nil}, "", nil)
	bob.move(gBob, rng)
	for _, g := range []string{gBot, gBob} {
		if !alice.myTurn(g) {
			t.Fatalf("%s ended early", g)
		}
		alice.must("POST", g+"sense", map[string]any{"square": 36}, "", nil)
	}
	if err := srv.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{gBot, gBob} {
		if status, out := alice.call("POST", g+"sense", map[string]any{"square": 1}); status != http.StatusBadRequest {
			t.Errorf("%s: sensing again after kill -9: %d %s (the sense before the kill was lost?)", g, status, out["error"])
		}
		alice.move(g, rng)
	}
	// Play both to the end.
	for _, c := range []struct {
		us []*apiUser
		g  string
	}{{[]*apiUser{alice}, gBot}, {[]*apiUser{bob, alice}, gBob}} { // Bob is White
		for over := false; !over; {
			for _, u := range c.us {
				if !u.myTurn(c.g) {
					over = true
					break
				}
				u.must("POST", c.g+"sense", map[string]any{"square": nil}, "", nil)
				u.move(c.g, rng)
			}
		}
		var hist map[string]json.RawMessage
		alice.must("GET", c.g+"game_history", nil, "game_history", &hist)
		var senses map[string][]json.RawMessage
		if err := json.Unmarshal(hist["senses"], &senses); err != nil || len(senses["true"])+len(senses["false"]) < 9 {
			t.Errorf("%s: history senses %v (%v): turns before the kill lost?", c.g, senses, err)
		}
		var reason map[string]string
		alice.must("GET", c.g+"win_reason", nil, "win_reason", &reason)
		t.Logf("%s: %d turns, %s", c.g, len(senses["true"])+len(senses["false"]), reason["value"])
	}
}

// TestPlayBotInBrowser: a person with an API account signs in from /bots's
// header (the site's sign-in page, which comes back to /bots),
// invites Knightwatch's random bot, plays on the board (sense, move), and
// resigns at the next turn; the game-over dialog and the replay follow.
func TestPlayBotInBrowser(t *testing.T) {
	e := newEnv(t)
	ann := &apiUser{t: t, srv: e.srv, name: "ann", pass: "ann's password"}
	ann.must("POST", "/api/users/", map[string]string{"username": ann.name, "email": "", "affiliation": "", "password": ann.pass}, "", nil)
	tb := e.newTab(t, desktop)
	tb.open("/bots")
	tb.clickSel(`#header-signin`)
	tb.waitJS(`document.querySelector('form#signin-form')`, "the sign-in form", `document.body.innerText.slice(0, 300)`, uiWait)
	tb.do(chromedp.SetValue(`#signin-form input[name=username]`, ann.name),
		chromedp.SetValue(`#signin-form input[name=password]`, ann.pass))
	tb.shot("sign-in")
	tb.clickSel(`#signin-form button[type=submit]`)
	tb.waitJS(`location.pathname === '/bots' && document.getElementById('signed-in')?.textContent === 'ann'`, "back on /bots, signed in as ann", `document.body.innerText.slice(0, 300)`, uiWait)
	tb.do(chromedp.SetValue(`#invite-form select[name=opponent]`, "random"))
	tb.shot("invite")
	tb.clickSel(`#invite-form button[type=submit]`)
	tb.waitJS(`/\/bots\/games\/\d+\/play$/.test(location.pathname) && document.querySelector('#board[data-variant="recon"]')?.getAttribute('data-seq') !== null`,
		"the board of the API game", `location.href + ' ' + document.body.innerText.slice(0, 300)`, uiWait)
	if got := tb.waitMyPhase(); got != "sense" {
		t.Fatalf("White's first phase %q", got)
	}
	tb.senseAt("e7")
	if !tb.tryMove("e2", "e4") {
		t.Fatal("e2e4 not offered")
	}
	tb.shot("moved")
	if got := tb.waitMyPhase(); got != "sense" {
		t.Fatalf("after the bot's turn: %q", got)
	}
	tb.resign()
	over := tb.waitGameOver(uiWait)
	tb.shot("over")
	if !strings.Contains(over.Result, "0-1") && !strings.Contains(strings.ToLower(over.Reason), "resign") {
		t.Errorf("game over %+v", over)
	}
	href := eval[string](tb, `document.querySelector('dialog#game-over [data-action="replay"]').getAttribute('href')`)
	tb.open(href)
	tb.waitJS(`document.querySelector('main.replay-page')?.dataset.step === '0'`, "the replay viewer", `document.body.innerText.slice(0, 200)`, uiWait)
}
