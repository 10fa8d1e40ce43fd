package web

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"log"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gorilla/websocket"
	"golang.org/x/crypto/bcrypt"

	"knightwatch/enginepool"
	"knightwatch/experience"
	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/play"
	"knightwatch/rbcapi"
	"knightwatch/recon"
	"knightwatch/review"
	"knightwatch/store"
)

// fallbackTemplates stand in for the front-end's templates: just enough to
// exercise the data each page gets.
var fallbackTemplates = fstest.MapFS{
	"home.html": {Data: []byte(`<!doctype html><title>home</title>
{{if .Error}}<p class="error"{{with .ErrorField}} data-field="{{.}}"{{end}}>{{.Error}}</p>{{end}}
{{with .Continue}}<a href="{{.URL}}">Continue</a>{{end}}
{{if .Notice}}<p class="notice">{{.Notice}}</p>{{end}}{{with .Confirm}}<form id="list-confirm" action="{{.PostURL}}">{{.Question}}</form>{{end}}
<ul id="unfinished" data-count="{{.UnfinishedCount}}">{{range .Unfinished}}<li data-id="{{.ID}}">{{.Kind}}|{{.Opponent}}|{{.Variant}}|{{.Colour}}|{{.Clock}}|{{.MoveNumber}}|{{.LastActivity}}|{{.LastActivityExact}}|<a href="{{.URL}}">Continue</a></li>{{end}}</ul>
<form id="new-game" method="post" action="/games">{{range .Levels}}<option value="{{.Number}}">{{.Name}} ~{{.ApproxElo}}</option>{{end}}</form>
{{with .PlayerURL}}<a id="player-page-link" href="{{.}}">player</a>{{end}}<ul id="your-games">{{range .Finished}}<li><a href="{{.PGNURL}}">{{.White}} - {{.Black}} {{.Result}}</a></li>{{end}}</ul>`)},
	"game.html":  {Data: []byte(`<!doctype html><title>game</title><div id="board" data-ws="{{.WSURL}}" data-id="{{.ID}}"></div><a data-action="pgn" href="{{.PGNURL}}">PGN</a><input id="watch-link" value="{{.WatchURL}}">{{if .Chess960}}<p id="chess960-number">Chess960 position {{.Chess960Number}}</p>{{end}}`)},
	"recon.html": {Data: []byte(`<!doctype html><title>recon</title><main data-game-id="{{.ID}}" data-socket="{{.WSURL}}">{{.OpponentName}} {{.Human}}</main>`)},
	"bots.html":  {Data: []byte(`<!doctype html><title>{{.Title}}</title><kw-account-area></kw-account-area>{{if .Error}}<p class="error">{{.Error}}</p>{{end}}{{if .User}}<p id="user">{{.User}}</p>{{range .Invitations}}<form action="/bots/invitations/{{.ID}}/accept"></form>{{end}}{{range .MyGames}}<a class="mine" href="{{.ReplayURL}}">{{.ID}}</a>{{end}}{{end}}<p id="connected">{{range .Connected}}{{.}} {{end}}</p><ol id="leaders">{{range .Leaders}}<li>{{.Name}} v{{.Version}} {{.Elo}} {{.Games}}</li>{{end}}</ol><ul>{{range .Finished}}<li><a href="{{.ReplayURL}}">{{.White}}-{{.Black}} {{.Result}}</a></li>{{end}}</ul>`)},
	"watch.html": {Data: []byte(`<!doctype html><title>watch</title><main class="watch-page" data-socket="{{.WSURL}}"></main>`)},
	"account.html": {Data: []byte(`<!doctype html><title>{{.Title}}</title><kw-account-area></kw-account-area>{{if .User}}<p id="account-name">{{.User}}</p><p id="sessions">{{.Sessions}}</p>{{with .SignIn.Error}}<p id="signin-error">{{.}}</p>{{end}}{{with .SignUp.Error}}<p id="signup-error">{{.}}</p>{{end}}{{with .Password}}{{if .Error}}<p id="password-error">{{.Error}}</p>{{end}}{{if .Done}}<p id="password-done">{{.Done}}</p>{{end}}{{end}}{{else}}` +
		`<form id="signin-form">{{with .SignIn}}{{if .Error}}<p id="signin-error">{{.Error}}</p>{{end}}<input name="username" value="{{.Username}}">{{end}}<input name="next" value="{{.Next}}"></form>` +
		`<form id="signup-form">{{with .SignUp}}{{if .Error}}<p id="signup-error">{{.Error}}</p>{{end}}<input name="username" value="{{.Username}}"><input name="email" value="{{.Email}}"><input name="affiliation" value="{{.Affiliation}}">{{end}}</form>{{end}}`)},
	// analysis.html: the analysis board's page (analysis_board.go).
	"analysis.html": {Data: []byte(`<!doctype html><title>analysis</title>{{if .Error}}<p class="error">{{.Error}}</p>{{end}}<main id="analysis" data-socket="{{.WSURL}}" data-study="{{.Study}}" data-path="{{.Path}}" data-saved-id="{{.SavedID}}">{{range .Saved}}<a class="saved" href="{{.URL}}">{{.Name}}</a>{{end}}</main>`)},
	// layout.html: the header's account area, which render puts where a page leaves <kw-account-area>.
	"layout.html":     {Data: []byte(`{{define "account-area"}}{{if .Name}}<a id="signed-in" href="/account">{{.Name}}</a>{{else}}<a id="header-signin" href="/account?next={{.Next}}">Sign in</a>{{end}}{{end}}`)},
	"gone.html":       {Data: []byte(`<!doctype html><title>{{.Title}}</title><h1>{{.Title}}</h1><p>{{.Message}}</p>`)},
	"learn.html":      {Data: []byte(`<!doctype html><title>learn</title><main id="learn" data-state-url="{{.StateURL}}"></main>`)},
	"puzzle.html":     {Data: []byte(`<!doctype html><title>puzzle</title>{{with .Puzzle}}<main id="puzzle" data-id="{{.ID}}" data-solver="{{.Solver}}" data-game="{{.GameURL}}" data-tried="{{.Tried}}"></main>{{else}}<p id="no-puzzle">{{.Count}}</p>{{end}}<p id="player-rating">{{.PlayerRating}}</p>`)},
	"experience.html": {Data: []byte(`<!doctype html><title>experience</title><main id="experience" data-on="{{if .On}}on{{else}}off{{end}}" data-games="{{.Stats.Games}}" data-rows="{{.Stats.Rows}}">{{range .Recent}}<p class="learnt">{{.Level}}|{{.Colour}}|{{.Outcome}}|{{.Reason}}|{{.Moves}}|{{.Lessons}}</p>{{end}}</main>`)},
	"replay.html":     {Data: []byte(`<!doctype html><title>{{.Title}}</title>{{if .Error}}<p class="error">{{.Error}}</p>{{end}}<main data-history="{{.History}}" data-views="{{.Views}}" data-result="{{.Result}}" data-king-capture="{{.KingCapture}}"><p id="check">{{.Check}}</p></main>`)},
	"player.html": {Data: []byte(`<!doctype html><title>{{.Name}}</title><main id="player" data-mine="{{.Mine}}" data-count="{{.GameCount}}" data-page="{{.Page}}/{{.Pages}}" data-prev="{{.PrevURL}}" data-next="{{.NextURL}}" data-recon="{{.ReconCount}}">
<a id="pgn" href="{{.PGNURL}}">PGN</a>
{{range .Record}}<p class="record">{{.Level}}|{{.Name}}|{{.Wins}}|{{.Draws}}|{{.Losses}}|{{.Score}}</p>
{{end}}{{range .Games}}<p class="game" data-id="{{.ID}}">{{.Outcome}}|{{.Result}}|{{.Opponent}}|{{.Colour}}|{{.Accuracy}}{{.AccuracyNote}}|{{.ReviewURL}}</p>
{{end}}{{range .Recon}}<p class="recon">{{.Outcome}}|{{.Result}}|{{.Opponent}}|{{.Colour}}|{{.ReplayURL}}</p>
{{end}}</main>`)},
}

var testLevels = func() []enginepool.LevelInfo {
	var ls []enginepool.LevelInfo
	for i := 1; i <= 8; i++ {
		ls = append(ls, enginepool.LevelInfo{Number: i, Name: "L" + string(rune('0'+i)), Description: "test level", MoveTime: time.Duration(i) * 100 * time.Millisecond, ApproxElo: 800 + 200*i})
	}
	return ls
}()

// fakeSearcher plays the alphabetically first legal move (in UCI), so
// tests know the reply. With block set it thinks until cancelled, the way a
// long search looks from outside; it still returns a move then, as the
// real engine does.
type fakeSearcher struct {
	block bool
	cp    int
	mate  int
	mu    *sync.Mutex
	count *int
}

func (f *fakeSearcher) Search(ctx context.Context, pos *game.Position, _ []uint64, _ enginepool.SearchRequest) enginepool.SearchResult {
	if f.count != nil {
		f.mu.Lock()
		*f.count++
		f.mu.Unlock()
	}
	if f.block {
		<-ctx.Done()
	}
	return enginepool.SearchResult{Move: firstMove(pos), CP: f.cp, Mate: f.mate}
}

func (f *fakeSearcher) NewGame() {}

func firstMove(pos *game.Position) game.Move {
	ms := pos.LegalMoves()
	if len(ms) == 0 {
		return game.NoMove
	}
	sort.Slice(ms, func(i, j int) bool { return pos.UCI(ms[i]) < pos.UCI(ms[j]) })
	return ms[0]
}

type testEnv struct {
	*stack // closed before the store
	t      *testing.T
	ts     *httptest.Server
	store  *store.Store
	dbPath string
}

// signal tells waiters that something may have changed: the store wrote
// (store.Hooks.Wrote), the engine pool's queues moved
// (enginepool.Hooks.Changed), a socket came or went (Hooks), a review was
// saved, a fake bot was asked. Each waiter checks its condition again
// (until): tests wait for what they wait for, never for the clock. The
// zero value is ready to use.
type signal struct {
	mu sync.Mutex
	ch chan struct{}
}

// poke wakes every waiter.
func (s *signal) poke() {
	s.mu.Lock()
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
	s.mu.Unlock()
}

// wait returns a channel closed by the next poke.
func (s *signal) wait() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		s.ch = make(chan struct{})
	}
	return s.ch
}

// until waits until ok, checking it again after each poke, and fails t
// after waitLimit: a guard against hanging, not a measure of time.
func (s *signal) until(t testing.TB, what string, ok func() bool) {
	t.Helper()
	limit := time.NewTimer(waitLimit)
	defer limit.Stop()
	for {
		ch := s.wait()
		if ok() {
			return
		}
		select {
		case <-ch:
		case <-limit.C:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// waitLimit bounds the waits of a test that fails.
const waitLimit = 20 * time.Second

// notify returns a hook (of Hooks) that sends each game ID to ids, never
// blocking the socket: beyond 64 unread the rest are dropped.
func notify() (hook func(id string), ids chan string) {
	ids = make(chan string, 64)
	return func(id string) {
		select {
		case ids <- id:
		default:
		}
	}, ids
}

// await returns the next value from ch, failing t after waitLimit: a
// guard against hanging, not a measure of time.
func await[T any](t testing.TB, what string, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(waitLimit):
		t.Fatalf("timed out waiting for %s", what)
	}
	var zero T
	return zero
}

// until waits until ok, checked again whenever the stack signals a
// change.
func (e *testEnv) until(what string, ok func() bool) {
	e.t.Helper()
	e.sig.until(e.t, what, ok)
}

// settle waits until game id's host is at rest (live.Host's Settled): no
// automaton's turn runs, a withdrawn one included, and nothing waits to
// be saved.
func (e *testEnv) settle(id string) {
	e.t.Helper()
	h := e.reg.Get(id)
	if h == nil {
		e.t.Fatalf("game %s has no host", id)
	}
	select {
	case <-h.Settled():
	case <-time.After(waitLimit):
		e.t.Fatalf("game %s never settled", id)
	}
}

type envOpts struct {
	searcher enginepool.Searcher
	real     bool // the real engine and its levels
	noEngine bool
	dbPath   string
	// rbcClock and rbcIncrement are the clock of API games (default 900+5).
	rbcClock, rbcIncrement time.Duration
	// matchEvery runs the matchmaker's rounds (default: never).
	matchEvery time.Duration
	// Limits (issue 35); zero: the defaults.
	maxSocketsPerGame, maxSocketsPerOwner   int
	requestReadTimeout, requestWriteTimeout time.Duration
	messageRate                             float64
	messageBurst                            int
	trustProxy                              bool
	publicOrigin                            string
	saveRetryFirst, saveRetryMax            time.Duration
	maxUnfinishedGames                      int
	createRate                              float64
	createBurst                             int
	createAddrRate                          float64
	createAddrBurst                         int
	// untouchedAfter is play.Config.UntouchedAfter (default: no sweep;
	// tests call DropUntouched themselves).
	untouchedAfter time.Duration
	// aliveEvery is play.Config.AliveEvery (default: play's).
	aliveEvery time.Duration
	// experience turns the engine's experience on. analysis turns the
	// reviews of finished games on (off by default, so that other tests'
	// searchers serve their games alone); analysisNodes is then their
	// budget (review.Options.Nodes) and reviewed their hook
	// (review.Options.Reviewed). searchers is the pool size (default 2),
	// quickSearchers its quick lane (enginepool.Config.QuickSearchers:
	// default 1, negative none).
	experience     bool
	analysis       bool
	analysisNodes  int
	reviewed       func(id string)
	searchers      int
	quickSearchers int
	// newBot builds the Reconnaissance Chess bots (play.Config.NewBot;
	// default the real ones).
	newBot func(spec string, seed uint64) (recon.Player, error)
	// hooks are play's (play.Config.Hooks).
	hooks play.Hooks
	// loginEvery is rbcapi.Config.LoginEvery (default: rbcapi's).
	loginEvery time.Duration
	// config, when set, is the server's configuration instead of
	// testConfig's.
	config *Config
	// syzygyPath is the pool's tables (enginepool.Config.SyzygyPath).
	syzygyPath string
	// gaviotaPath is the pool's Gaviota tables (Config.GaviotaPath).
	gaviotaPath string
	// sig is what the stack pokes as it changes (default: a signal of its
	// own; newEnv's, which its store pokes too).
	sig *signal
	// storeHooks are the store's (store.Hooks), besides newEnv's pokes.
	storeHooks store.Hooks
	// socketHooks are the server's (Config.Hooks), besides the pokes.
	socketHooks Hooks
}

func newEnv(t *testing.T, o envOpts) *testEnv {
	t.Helper()
	if o.dbPath == "" {
		o.dbPath = filepath.Join(t.TempDir(), "kw.db")
	}
	if o.sig == nil {
		o.sig = &signal{}
	}
	hooks := o.storeHooks
	hooks.Wrote = func(err error) {
		if o.storeHooks.Wrote != nil {
			o.storeHooks.Wrote(err)
		}
		o.sig.poke()
	}
	st, err := store.OpenWith(o.dbPath, store.Options{Hooks: hooks})
	if err != nil {
		t.Fatal(err)
	}
	k := newStack(t, st, o)
	ts := httptest.NewServer(k.srv)
	e := &testEnv{stack: k, t: t, ts: ts, store: st, dbPath: o.dbPath}
	t.Cleanup(e.close)
	return e
}

// stack is a server and the parts it runs on, built as cli/serve builds
// them: a pool of o's searcher (a quick fake by default), two of them and
// o's quick lane, or the real engine; a learner when o.experience, a
// reviewer when o.analysis; the registry, the games of play, the HTTP API
// (its password hashes real, only faster to make and check), and the web
// server with the tests' configuration.
type stack struct {
	sig     *signal // poked as the parts change (envOpts.sig)
	srv     *Server
	reg     *live.Registry
	games   *play.Games
	api     *rbcapi.API
	pool    *enginepool.Pool
	learner *experience.Learner
	reviews *review.Reviewer
}

// newStack builds a stack on st, failing tb when it cannot.
func newStack(tb testing.TB, st *store.Store, o envOpts) *stack {
	tb.Helper()
	k := &stack{}
	if err := k.build(st, o); err != nil {
		k.close()
		tb.Fatal(err)
	}
	return k
}

func (k *stack) build(st *store.Store, o envOpts) error {
	if o.searcher == nil {
		o.searcher = &fakeSearcher{}
	}
	if o.sig == nil {
		o.sig = &signal{}
	}
	k.sig = o.sig
	pc := enginepool.Config{NewSearcher: func() enginepool.Searcher { return o.searcher }, Searchers: 2, QuickSearchers: o.quickSearchers,
		SyzygyPath: o.syzygyPath, GaviotaPath: o.gaviotaPath, Hooks: enginepool.Hooks{Changed: o.sig.poke}}
	if o.searchers > 0 {
		pc.Searchers = o.searchers
	}
	if o.real {
		pc.NewSearcher = enginepool.NewEngineSearcher
	}
	var err error
	if k.pool, err = enginepool.New(pc); err != nil {
		return err
	}
	quiet := log.New(io.Discard, "", 0)
	if o.experience {
		if k.learner, err = experience.New(experience.Options{Store: st, Logger: quiet}); err != nil {
			return err
		}
	}
	if o.analysis {
		reviewed := func(id string) {
			if o.reviewed != nil {
				o.reviewed(id)
			}
			o.sig.poke()
		}
		ro := review.Options{Store: st, Engine: k.pool, Nodes: o.analysisNodes, Level: len(testLevels), Logger: quiet, Reviewed: reviewed}
		if k.learner != nil {
			ro.Learn = k.learner.Reviewed
		}
		if k.reviews, err = review.New(ro); err != nil {
			return err
		}
	}
	k.reg = live.NewRegistry()
	pcfg := play.Config{
		Store: st, Pool: k.pool, Learner: k.learner, Reviews: k.reviews, Levels: testLevels, NoEngine: o.noEngine,
		ReplyPause: -1, NewBot: o.newBot, SaveRetryFirst: o.saveRetryFirst, SaveRetryMax: o.saveRetryMax,
		UntouchedAfter: -1, AliveEvery: o.aliveEvery, Logger: quiet, Hooks: o.hooks,
	}
	if o.untouchedAfter != 0 {
		pcfg.UntouchedAfter = o.untouchedAfter
	}
	if o.real {
		pcfg.Levels, pcfg.ReplyPause = enginepool.Levels(), 0
	}
	if k.games, err = play.New(pcfg, k.reg); err != nil {
		return err
	}
	acfg := rbcapi.Config{Store: st, Games: k.games, Clock: o.rbcClock, Increment: o.rbcIncrement, MatchEvery: -1,
		LoginEvery: o.loginEvery, BcryptCost: bcrypt.MinCost, Logger: quiet}
	if o.matchEvery > 0 {
		acfg.MatchEvery = o.matchEvery
	}
	if k.api, err = rbcapi.New(acfg, k.reg); err != nil {
		return err
	}
	cfg := testConfig(o)
	if o.config != nil {
		cfg = *o.config
	}
	cfg.Hooks = socketHooks(o.socketHooks, o.sig)
	k.srv, err = New(cfg, Parts{Store: st, Registry: k.reg, Games: k.games, API: k.api, Pool: k.pool, Reviews: k.reviews})
	return err
}

// close closes what build built, the server first and each part after
// those that use it.
func (k *stack) close() {
	if k.srv != nil {
		k.srv.Close()
	} else if k.reg != nil {
		k.reg.Close()
	}
	if k.api != nil {
		k.api.Close()
	}
	if k.games != nil {
		k.games.Close()
	}
	if k.reviews != nil {
		k.reviews.Close()
	}
	if k.learner != nil {
		k.learner.Close()
	}
	if k.pool != nil {
		k.pool.Close()
	}
}

// socketHooks are h, each followed by a poke of sig.
func socketHooks(h Hooks, sig *signal) Hooks {
	then := func(f func(string)) func(string) {
		return func(id string) {
			if f != nil {
				f(id)
			}
			sig.poke()
		}
	}
	return Hooks{Joining: then(h.Joining), Leaving: then(h.Leaving), Left: then(h.Left)}
}

// testConfig is the server configuration of the tests: the fallback
// templates, a silent log, and o's limits.
func testConfig(o envOpts) Config {
	cfg := Config{
		Templates: fallbackTemplates, Static: fstest.MapFS{"app.js": {Data: []byte("//js")}},
		Logger:            log.New(io.Discard, "", 0),
		MaxSocketsPerGame: o.maxSocketsPerGame, MaxSocketsPerOwner: o.maxSocketsPerOwner,
		RequestReadTimeout: o.requestReadTimeout, RequestWriteTimeout: o.requestWriteTimeout,
		MessageRate: o.messageRate, MessageBurst: o.messageBurst,
		TrustProxy: o.trustProxy, PublicOrigin: o.publicOrigin,
		MaxUnfinishedGames: o.maxUnfinishedGames, CreateRate: o.createRate, CreateBurst: o.createBurst,
		CreateAddrRate: o.createAddrRate, CreateAddrBurst: o.createAddrBurst,
	}
	if o.createRate == 0 {
		// Tests create games at machine speed; TestCreationLimits sets
		// its own rate.
		cfg.CreateRate = -1
	}
	if o.createAddrRate == 0 {
		// Likewise, all from one address; TestCreationLimitPerAddress
		// sets its own.
		cfg.CreateAddrRate = -1
	}
	if o.messageRate == 0 {
		// Tests play whole games at machine speed, far over what a person
		// sends; TestMessageRateLimit sets its own limit.
		cfg.MessageRate, cfg.MessageBurst = 10000, 10000
	}
	return cfg
}

func (e *testEnv) close() {
	e.stack.close()
	e.ts.Close()
	e.store.Close()
}

// browser is an HTTP client with its own cookie jar: one person.
func (e *testEnv) browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// newGame posts the new-game form and returns the game's ID.
func (e *testEnv) newGame(c *http.Client, form url.Values) string {
	e.t.Helper()
	resp, err := c.PostForm(e.ts.URL+"/games", form)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		b, _ := io.ReadAll(resp.Body)
		e.t.Fatalf("POST /games: %s %s", resp.Status, b)
	}
	loc := resp.Header.Get("Location")
	if !strings.HasPrefix(loc, "/game/g_") {
		e.t.Fatalf("redirect to %q", loc)
	}
	return strings.TrimPrefix(loc, "/game/")
}

func form(color, level, variant, clock string) url.Values {
	return url.Values{"color": {color}, "level": {level}, "variant": {variant}, "clock": {clock}}
}

// wsConn is a test WebSocket client that keeps messages in order.
type wsConn struct {
	t    *testing.T
	conn *websocket.Conn
}

func (e *testEnv) dial(c *http.Client, id string) (*wsConn, *http.Response, error) {
	u := "ws" + strings.TrimPrefix(e.ts.URL, "http") + "/ws/game/" + id
	d := wsDialer(c)
	conn, resp, err := d.Dial(u, nil)
	if err != nil {
		return nil, resp, err
	}
	w := &wsConn{t: e.t, conn: conn}
	e.t.Cleanup(func() { conn.Close() })
	return w, resp, nil
}

func (e *testEnv) mustDial(c *http.Client, id string) *wsConn {
	e.t.Helper()
	w, resp, err := e.dial(c, id)
	if err != nil {
		status := ""
		if resp != nil {
			status = resp.Status
		}
		e.t.Fatalf("dial: %v %s", err, status)
	}
	return w
}

type anyMsg struct {
	Type    string `json:"type"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Text    string `json:"text"`
	URL     string `json:"url"`
	raw     []byte
	state   *play.StateMessage
}

// next reads the next message, failing the test after timeout.
func (w *wsConn) next(timeout time.Duration) (anyMsg, bool) {
	w.conn.SetReadDeadline(time.Now().Add(timeout))
	_, b, err := w.conn.ReadMessage()
	if err != nil {
		return anyMsg{}, false
	}
	var m anyMsg
	if err := json.Unmarshal(b, &m); err != nil {
		w.t.Fatalf("server sent invalid JSON %q: %v", b, err)
	}
	m.raw = b
	if m.Type == "state" {
		m.state = &play.StateMessage{}
		if err := json.Unmarshal(b, m.state); err != nil {
			w.t.Fatal(err)
		}
	}
	return m, true
}

// waitFor reads until a message satisfying ok arrives.
func (w *wsConn) waitFor(what string, ok func(anyMsg) bool) anyMsg {
	w.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		m, got := w.next(time.Until(deadline))
		if !got {
			break
		}
		if ok(m) {
			return m
		}
	}
	w.t.Fatalf("timed out waiting for %s", what)
	return anyMsg{}
}

func (w *wsConn) state() *play.StateMessage {
	w.t.Helper()
	return w.waitFor("state", func(m anyMsg) bool { return m.Type == "state" }).state
}

func (w *wsConn) stateAt(ply int) *play.StateMessage {
	w.t.Helper()
	return w.waitFor("state at ply", func(m anyMsg) bool { return m.Type == "state" && m.state.Ply == ply }).state
}

func (w *wsConn) send(v any) {
	w.t.Helper()
	var b []byte
	switch x := v.(type) {
	case string:
		b = []byte(x)
	case []byte:
		b = x
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			w.t.Fatal(err)
		}
	}
	if err := w.conn.WriteMessage(websocket.TextMessage, b); err != nil {
		w.t.Fatal(err)
	}
}

// sync asks for the state and returns it, skipping anything before.
func (w *wsConn) sync() *play.StateMessage {
	w.t.Helper()
	w.send(`{"type":"sync"}`)
	return w.state()
}

// quiet waits until game id's host is at rest (settle: a withdrawn
// search has returned and its move been refused), then asks w for a fresh
// state, and fails if any message up to and including that state matches
// bad.
func (e *testEnv) quiet(w *wsConn, id string, bad func(anyMsg) bool) *play.StateMessage {
	w.t.Helper()
	e.settle(id)
	w.send(`{"type":"sync"}`)
	for {
		m, ok := w.next(10 * time.Second)
		if !ok {
			w.t.Fatal("no reply to sync")
		}
		if bad(m) {
			w.t.Fatalf("unexpected message %s", m.raw)
		}
		if m.Type == "state" {
			return m.state
		}
	}
}

func wsDialer(c *http.Client) *websocket.Dialer {
	return &websocket.Dialer{Jar: c.Jar, HandshakeTimeout: 5 * time.Second}
}

// realHomeServer is a server rendering the real templates (without
// listening: render pages with srv.render, or serve it with httptest).
func realHomeServer(t testing.TB) *Server {
	t.Helper()
	tmpl := os.DirFS("../templates")
	if _, err := fs.Stat(tmpl, "home.html"); err != nil {
		t.Skip("no templates folder beside web/")
	}
	st, err := store.Open(t.TempDir() + "/kw.db")
	if err != nil {
		t.Fatal(err)
	}
	k := newStack(t, st, envOpts{noEngine: true, config: &Config{Templates: tmpl, Static: fstest.MapFS{},
		Logger: log.New(io.Discard, "", 0)}})
	t.Cleanup(func() { k.close(); st.Close() })
	return k.srv
}

// buildGame rebuilds a game from its stored record, with the person's
// colour.
func buildGame(rec *store.Game) (*game.Game, game.Color, error) {
	g, err := rec.Replay()
	if err != nil {
		return nil, 0, err
	}
	return g, rec.Human.Color, nil
}
