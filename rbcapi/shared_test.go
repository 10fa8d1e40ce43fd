package rbcapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"knightwatch/changefeed"
	"knightwatch/live"
	"knightwatch/pgtest"
	"knightwatch/recon"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// following hands a change feed's news to a registry, as serve does.
type following struct{ r *live.Registry }

func (f following) Changed(c changefeed.Change) { f.r.Changed(c.Game, c.Revision) }
func (f following) Resync()                     { f.r.Resync() }

// TestAPIGameOnTwoServers: two servers on one PostgreSQL database behind
// a balancer that sends each call to the other: a user plays a game
// against a built-in bot, every call answered, whichever server holds
// which copy of the game; the bot plays each of its turns once; the
// history both servers give back is the database's, and replays.
func TestAPIGameOnTwoServers(t *testing.T) {
	dsn := pgtest.DB(t)
	var servers [2]struct {
		reg  *live.Registry
		call func(method, path string, body any) (int, map[string]json.RawMessage)
	}
	for i := range servers {
		reg, ts, _ := newTestAPIOn(t, dsn)
		l, err := changefeed.Listen(context.Background(), dsn, following{reg}, changefeed.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		servers[i].reg = reg
		servers[i].call = func(method, path string, body any) (int, map[string]json.RawMessage) {
			return call(t, ts, "alice", "password-a", method, path, body)
		}
	}
	n := 0
	next := func(method, path string, body any) map[string]json.RawMessage {
		t.Helper()
		n++
		code, out := servers[n%2].call(method, path, body)
		if code != 200 {
			t.Fatalf("call %d, %s %s on server %d: %d %s", n, method, path, n%2, code, out["error"])
		}
		return out
	}
	if code, out := servers[0].call("POST", "/api/users/", map[string]string{"username": "alice", "email": "", "affiliation": "", "password": "password-a"}); code != 200 {
		t.Fatalf("register: %d %s", code, out["error"])
	}
	var id int64
	if err := json.Unmarshal(next("POST", "/api/invitations/", map[string]any{"opponent": "random", "color": true})["game_id"], &id); err != nil {
		t.Fatal(err)
	}
	g := fmt.Sprintf("/api/games/%d/", id)
	next("POST", g+"ready", nil)
	// Three of the user's turns, each call on the other server from the
	// one before; between them the bot's turn, which both servers run;
	// then the user resigns on the fourth.
	for turn := 0; turn < 4; turn++ {
		for {
			var mine struct {
				IsMyTurn bool `json:"is_my_turn"`
			}
			out := next("GET", g+"is_my_turn", nil)
			if err := json.Unmarshal(out["is_my_turn"], &mine.IsMyTurn); err != nil {
				t.Fatal(err)
			}
			if mine.IsMyTurn {
				break
			}
			// The bot's turn: wait for whichever server plays it.
			for _, s := range servers {
				if h := s.reg.Get(apiKey(id)); h != nil {
					<-h.Settled()
				}
			}
		}
		if turn == 3 {
			next("POST", g+"resign", nil)
			break
		}
		next("POST", g+"sense", map[string]any{"square": nil})
		next("POST", g+"move", map[string]any{"requested_move": nil})
		next("POST", g+"end_turn", nil)
	}
	var hists [2]string
	for i, s := range servers {
		code, out := s.call("GET", g+"game_history", nil)
		if code != 200 {
			t.Fatalf("history on server %d: %d %s", i, code, out["error"])
		}
		hists[i] = string(out["game_history"])
	}
	if hists[0] != hists[1] {
		t.Errorf("the servers give two histories:\n%s\n%s", hists[0], hists[1])
	}
	var raw string
	if err := json.Unmarshal([]byte(hists[0]), &raw); err != nil {
		raw = hists[0]
	}
	h, err := recon.UnmarshalHistory([]byte(raw))
	if err != nil {
		t.Fatalf("the history does not read: %v\n%s", err, raw)
	}
	if _, err := recon.Restore(recon.Config{Clock: time.Minute, Increment: time.Second, MoveLimit: 100}, h, [2]time.Duration{time.Minute, time.Minute}, nil, 0); err != nil {
		t.Errorf("the history does not replay: %v", err)
	}
	if w, b := len(h.RequestedMoves[0]), len(h.RequestedMoves[1]); w != 3 || b != 3 {
		t.Errorf("the history has %d moves of the user's and %d of the bot's; want 3 of each (each bot turn played once)", w, b)
	}
}

// TestQuietGameTakenUp: a game in play held by a server that stopped
// (killed: its lease of the game left to run out) is taken up by
// another's matchmaker round once no commit has touched it for QuietAfter
// and its lease has run out, not before, and goes on there: its clock
// runs and the player's calls are answered.
func TestQuietGameTakenUp(t *testing.T) {
	dsn := pgtest.DB(t)
	regA, tsA, _ := newTestAPIOn(t, dsn)
	regB, tsB, _, apiB := newTestAPIWith(t, dsn)
	as := func(ts *httptest.Server, method, path string, body any) map[string]json.RawMessage {
		t.Helper()
		code, out := call(t, ts, "bea", "password-b", method, path, body)
		if code != 200 {
			t.Fatalf("%s %s: %d %s", method, path, code, out["error"])
		}
		return out
	}
	if code, out := call(t, tsA, "", "", "POST", "/api/users/", map[string]string{"username": "bea", "email": "", "affiliation": "", "password": "password-b"}); code != 200 {
		t.Fatalf("register: %d %s", code, out["error"])
	}
	var id int64
	if err := json.Unmarshal(as(tsA, "POST", "/api/invitations/", map[string]any{"opponent": "random", "color": false})["game_id"], &id); err != nil {
		t.Fatal(err)
	}
	g := fmt.Sprintf("/api/games/%d/", id)
	as(tsA, "POST", g+"ready", nil)
	<-regA.Get(apiKey(id)).Settled() // the bot, White, has played its first turn
	regA.Close()                     // server A stops

	apiB.MatchRound(time.Now())
	if regB.Get(apiKey(id)) != nil {
		t.Fatal("a game committed a moment ago was taken up as if its server had stopped")
	}
	apiB.MatchRound(time.Now().Add(QuietAfter + time.Second))
	if regB.Get(apiKey(id)) != nil {
		t.Fatal("a quiet game was taken up while its lease still ran")
	}
	apiB.MatchRound(time.Now().Add(LeaseFor + time.Second))
	h := regB.Get(apiKey(id))
	if h == nil {
		t.Fatal("a quiet game in play was not taken up")
	}
	var running bool
	h.Read(func(lg live.Game, _ live.Moment) { _, running = lg.Clock().Running() })
	if !running {
		t.Error("the game's clock does not run on the server that took it up")
	}
	var mine bool
	if err := json.Unmarshal(as(tsB, "GET", g+"is_my_turn", nil)["is_my_turn"], &mine); err != nil || !mine {
		t.Errorf("after the take-up, is it bea's turn: %v (%v)", mine, err)
	}
}

// TestQuietGameTakenUpByOne: three servers on one database; the server
// that held a game in play is killed (its lease left to run out). Once
// the game is quiet and the lease has run out, the two others run their
// matchmaker rounds at once and exactly one of them takes it up (before
// the leases, both did, each running its bot and its flag). When that one
// is killed in turn, the last takes it up once its lease has run out.
func TestQuietGameTakenUpByOne(t *testing.T) {
	dsn := pgtest.DB(t)
	type server struct {
		reg *live.Registry
		api *API
	}
	var servers [3]server
	var tsA *httptest.Server
	for i := range servers {
		reg, ts, _, api := newTestAPIWith(t, dsn)
		servers[i] = server{reg, api}
		if i == 0 {
			tsA = ts
		}
	}
	if code, out := call(t, tsA, "", "", "POST", "/api/users/", map[string]string{"username": "bea", "email": "", "affiliation": "", "password": "password-b"}); code != 200 {
		t.Fatalf("register: %d %s", code, out["error"])
	}
	code, out := call(t, tsA, "bea", "password-b", "POST", "/api/invitations/", map[string]any{"opponent": "random", "color": false})
	var id int64
	if code != 200 || json.Unmarshal(out["game_id"], &id) != nil {
		t.Fatalf("invitation: %d %s", code, out["error"])
	}
	if code, out := call(t, tsA, "bea", "password-b", "POST", fmt.Sprintf("/api/games/%d/", id)+"ready", nil); code != 200 {
		t.Fatalf("ready: %d %s", code, out["error"])
	}
	<-servers[0].reg.Get(apiKey(id)).Settled() // the bot, White, has played its first turn
	servers[0].reg.Close()                     // server A is killed

	// round runs the matchmaker of the servers left at once, at now, and
	// returns those that hold the game after it.
	round := func(left []server, now time.Time) []server {
		t.Helper()
		var wg sync.WaitGroup
		for _, s := range left {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.api.MatchRound(now)
			}()
		}
		wg.Wait()
		var holders []server
		for _, s := range left {
			if s.reg.Get(apiKey(id)) != nil {
				holders = append(holders, s)
			}
		}
		return holders
	}
	start := time.Now()
	left := servers[1:]
	if holders := round(left, start.Add(LeaseFor+time.Second)); len(holders) != 1 {
		t.Fatalf("the quiet game was taken up by %d servers, want exactly one", len(holders))
	} else {
		holders[0].reg.Close() // killed in turn
		if holders[0].reg == left[0].reg {
			left = left[1:]
		} else {
			left = left[:1]
		}
	}
	if holders := round(left, start.Add(LeaseFor+2*time.Second)); len(holders) != 0 {
		t.Fatal("the game was taken up while the lease of the server that took it up still ran")
	}
	if holders := round(left, start.Add(4*LeaseFor)); len(holders) != 1 {
		t.Fatal("the game of the killed server that had taken it up was not taken up by the last")
	}
}
