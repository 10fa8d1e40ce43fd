package rbcapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/play"
	"knightwatch/recon"
	"knightwatch/recon/bots"
	"knightwatch/store"
)

// thinkingBot is the random bot saying it thinks turnTime a step (as
// knightwatch does from a long clock), telling on seen how far its sense's
// thinking may go.
type thinkingBot struct {
	recon.Player
	turnTime time.Duration
	seen     chan time.Duration
}

func (b *thinkingBot) ThinkTime(time.Duration) time.Duration { return b.turnTime }

func (b *thinkingBot) ChooseSense(ctx context.Context, senses []game.Square, moves []game.Move, left time.Duration) game.Square {
	d := time.Duration(0)
	if dl, ok := ctx.Deadline(); ok {
		d = time.Until(dl)
	}
	select {
	case b.seen <- d:
	default:
	}
	return b.Player.ChooseSense(ctx, senses, moves, left)
}

// TestBuiltinBotSpendsItsClock: the built-in bot of an API game on the
// competitions' 900 s + 5 s asks for its step what its clock allows, far
// beyond the web app's 3 s, and may think that long on a bot core; with
// no bot cores (serve --rbc-bot-cores 0) its step is cut at 3 s as
// before.
func TestBuiltinBotSpendsItsClock(t *testing.T) {
	cases := []struct {
		name     string
		botCores int // enginepool.Config.BotCores
		min, max time.Duration
	}{
		{name: "a bot core: the clock's time", botCores: 1, min: 60 * time.Second, max: 900 * time.Second},
		{name: "no bot cores: at most 3 s", botCores: -1, min: 0, max: 3 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			seen := make(chan time.Duration, 1)
			newBot := func(spec string, seed uint64) (recon.Player, error) {
				p, err := bots.NewOneThread("random", seed)
				return &thinkingBot{Player: p, turnTime: 20 * time.Second, seen: seen}, err
			}
			reg, ts, _ := newClockedAPI(t, c.botCores, newBot, play.Hooks{})
			id := remoteTurn(t, ts, 0, "e2e4")
			var d time.Duration
			select {
			case d = <-seen:
			case <-time.After(10 * time.Second):
				t.Fatal("the bot never sensed")
			}
			if d < c.min || d > c.max {
				t.Errorf("the bot's sense may think %v, want %v to %v", d, c.min, c.max)
			}
			select {
			case <-reg.Get(apiKey(id)).Settled():
			case <-time.After(10 * time.Second):
				t.Fatal("the bot did not play its turn")
			}
		})
	}
}

// newClockedAPI serves an API whose games are on the competitions' 900 s
// + 5 s, its bots made by newBot, thinking in a pool of one searcher and
// botCores bot cores (enginepool.Config.BotCores).
func newClockedAPI(t *testing.T, botCores int, newBot func(string, uint64) (recon.Player, error), hooks play.Hooks) (*live.Registry, *httptest.Server, *enginepool.Pool) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "kw.db"))
	if err != nil {
		t.Fatal(err)
	}
	pool, err := enginepool.New(enginepool.Config{Searchers: 1, BotCores: botCores,
		NewSearcher: func() enginepool.Searcher { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	quiet := log.New(io.Discard, "", 0)
	reg := live.NewRegistry()
	games, err := play.New(play.Config{Store: st, Pool: pool, NewBot: newBot, Levels: enginepool.Levels(), ReplyPause: -1, UntouchedAfter: -1, Logger: quiet, Hooks: hooks}, reg)
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{Store: st, Games: games, Clock: 900 * time.Second, Increment: 5 * time.Second, MatchEvery: -1, BcryptCost: bcrypt.MinCost, Logger: quiet}, reg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(a.Handler(func(r *http.Request) string {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		return host
	}))
	t.Cleanup(func() {
		ts.Close()
		reg.Close()
		a.Close()
		games.Close()
		pool.Close()
		st.Close()
	})
	return reg, ts, pool
}

// remoteTurn plays a turn of "remote", White against the built-in random
// account's seat (the test's bot): it senses nothing and requests move.
// With id 0 it first registers, invites and says it is ready; it returns
// the game's ID.
func remoteTurn(t *testing.T, ts *httptest.Server, id int64, move string) int64 {
	t.Helper()
	if id == 0 {
		if code, out := call(t, ts, "", "", "POST", "/api/users/", map[string]string{"username": "remote", "email": "", "affiliation": "", "password": "password-r"}); code != 200 {
			t.Fatalf("register: %d %s", code, out["error"])
		}
		code, out := call(t, ts, "remote", "password-r", "POST", "/api/invitations/", map[string]any{"opponent": "random", "color": true})
		if code != 200 {
			t.Fatalf("invite: %d %s", code, out["error"])
		}
		if err := json.Unmarshal(out["game_id"], &id); err != nil {
			t.Fatal(err)
		}
		if code, out := call(t, ts, "remote", "password-r", "POST", fmt.Sprintf("/api/games/%d/ready", id), nil); code != 200 {
			t.Fatalf("ready: %d %s", code, out["error"])
		}
	}
	g := fmt.Sprintf("/api/games/%d/", id)
	for _, s := range []struct {
		method, path string
		body         any
	}{{"POST", "sense", map[string]any{"square": nil}},
		{"POST", "move", map[string]any{"requested_move": map[string]string{"type": "Move", "value": move}}}, {"POST", "end_turn", nil}} {
		if code, out := call(t, ts, "remote", "password-r", s.method, g+s.path, s.body); code != 200 {
			t.Fatalf("%s: %d %s", s.path, code, out["error"])
		}
	}
	return id
}

// TestBuiltinBotPonders: the built-in knightwatch bot of an API game
// thinks on its opponent's turn, on a bot core, once its own turn is
// over, and plays its next turn after it; with no bot cores it does not.
func TestBuiltinBotPonders(t *testing.T) {
	for _, botCores := range []int{1, -1} {
		t.Run(fmt.Sprintf("bot cores %d", botCores), func(t *testing.T) {
			pondered := make(chan string, 8)
			newBot := func(string, uint64) (recon.Player, error) {
				return bots.NewOneThread("knightwatch:level=1,turntime=50ms", 1)
			}
			reg, ts, pool := newClockedAPI(t, botCores, newBot, play.Hooks{BotPondered: func(id string) { pondered <- id }})
			id := remoteTurn(t, ts, 0, "e2e4")
			settled := func() {
				select {
				case <-reg.Get(apiKey(id)).Settled():
				case <-time.After(10 * time.Second):
					t.Fatal("the bot did not play its turn")
				}
			}
			settled()
			if botCores > 0 {
				select {
				case got := <-pondered:
					if want := fmt.Sprintf("api game %d", id); got != want {
						t.Errorf("pondered in %q, want %q", got, want)
					}
				case <-time.After(10 * time.Second):
					t.Fatal("the bot never pondered on its opponent's turn")
				}
			}
			remoteTurn(t, ts, id, "d2d4")
			settled()
			if botCores < 0 {
				select {
				case <-pondered:
					t.Error("a bot pondered without bot cores")
				default:
				}
			}
			if l := pool.Load(); l.BotWaiting != 0 {
				t.Errorf("after the bot's turns: %+v", l)
			}
		})
	}
}
