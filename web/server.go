// Package web serves Knightwatch in the browser: the pages, the cookie
// session, and the WebSocket game against the engine (web/PROTOCOL.md is
// the contract with the front-end). The server is the authority on every
// game; each change is committed to the store before any browser hears of it.
package web

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/sessions"
	"github.com/gorilla/websocket"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/play"
	"knightwatch/rbcapi"
	"knightwatch/review"
	"knightwatch/store"
)

// Variants (store's: a record says which it is).
const (
	VariantStandard  = store.VariantStandard
	VariantChess960  = store.VariantChess960
	finishedListSize = 50
)

// ClockChoices are the time controls offered on the new-game form.
var ClockChoices = []string{"none", "1+0", "3+0", "3+2", "5+3", "10+5", "15+5", "15+10", "30+20"}

// Config configures a Server.
type Config struct {
	// Templates holds home.html and game.html at its root; any other
	// *.html there is parsed with both, for shared layouts and partials.
	Templates fs.FS
	// Static is served under /static/.
	Static fs.FS
	// Secret signs session cookies. When empty, the secret kept in the
	// database is used (generated on first start).
	Secret []byte
	// Logger receives server errors (default: the standard logger).
	Logger *log.Logger
	// MaxSocketsPerGame and MaxSocketsPerOwner cap the WebSockets one
	// owner (session) holds open to one game and in all (defaults
	// DefaultMaxSocketsPerGame 8 and DefaultMaxSocketsPerOwner 32); an
	// upgrade beyond either is refused with 429 and a sentence.
	MaxSocketsPerGame, MaxSocketsPerOwner int
	// RequestReadTimeout and RequestWriteTimeout bound reading the body of
	// and writing the response to one ordinary (non-WebSocket) request
	// (defaults 30 s and 60 s; negative: none).
	RequestReadTimeout, RequestWriteTimeout time.Duration
	// MessageRate and MessageBurst limit the messages one WebSocket may
	// send (defaults DefaultMessageRate 20 a second, DefaultMessageBurst
	// 40); beyond it the browser gets a rate_limited error, and a socket
	// that keeps on is closed with 1008.
	MessageRate  float64
	MessageBurst int
	// MaxUnfinishedGames caps one owner's unfinished games, against the
	// engine and in Reconnaissance Chess together (default
	// DefaultMaxUnfinishedGames, 100; negative: no cap). CreateRate and
	// CreateBurst limit how fast one owner creates games, from the form
	// and by rematch (default DefaultCreateRate, 1 a second, and
	// DefaultCreateBurst, 10; a negative rate: no limit). Beyond either the
	// form answers 429 with the home page saying what to do, a rematch an
	// error with code too_many_games or create_rate_limited
	// (creation_limits.go).
	MaxUnfinishedGames int
	CreateRate         float64
	CreateBurst        int
	// CreateAddrRate and CreateAddrBurst limit how fast one client
	// address creates games, all its owners together (default
	// DefaultCreateAddrRate, 1 a second, and DefaultCreateAddrBurst, 30;
	// a negative rate: no limit): a client that sends no cookie is a new
	// owner on every request. The address is clientAddr's (behind
	// TrustProxy, the proxy's X-Forwarded-For).
	CreateAddrRate  float64
	CreateAddrBurst int
	// TrustProxy trusts X-Forwarded-Proto and X-Forwarded-For from a
	// TLS-terminating proxy in front: "https" there makes the session
	// cookie Secure, sends HSTS and makes WebSocket URLs wss://, and the
	// per-address limits count the address the proxy appended
	// (clientAddr). Leave it off when clients connect directly, or any
	// client could claim HTTPS and any address.
	TrustProxy bool
	// PublicOrigin is the site's origin as browsers see it, such as
	// "https://example.org": WebSocket URLs, the CSP, the PGN Site tag and
	// the WebSocket Origin check use it. Empty: the request's scheme and
	// Host, when the Host looks like a host name ("localhost" if not).
	PublicOrigin string
}

// Server is the web app. Create it with New; it is an http.Handler.
type Server struct {
	cfg      Config
	store    *store.Store
	cookies  *sessions.CookieStore
	pages    map[string]*template.Template
	static   http.Handler
	assets   *staticAssets // nil without Config.Static
	upgrader websocket.Upgrader
	pool     *enginepool.Pool // Parts.Pool
	hub      hub
	// reg hosts every live game, by ID (Parts.Registry); games are the
	// games played in the browser against the server (Parts.Games), api
	// the HTTP API (Parts.API).
	reg     *live.Registry
	games   *play.Games
	api     *rbcapi.API
	mux     *http.ServeMux
	closed  bool // under hub.mu
	conns   sync.WaitGroup
	reviews *review.Reviewer // Parts.Reviews; nil without reviews
	sockets socketCounts
	creates createLimits
	// publicOrigin is Config.PublicOrigin parsed (nil when unset).
	publicOrigin *url.URL
}

// New builds a Server on the parts the caller built (Parts), which it
// uses until Close and does not close but for the registry. It fails when
// the templates are missing or broken.
func New(cfg Config, parts Parts) (*Server, error) {
	if parts.Store == nil || parts.Registry == nil || parts.Games == nil || parts.API == nil {
		return nil, errors.New("web: Parts.Store, Registry, Games and API are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = log.Default()
	}
	secret := cfg.Secret
	if len(secret) == 0 {
		var err error
		if secret, err = parts.Store.Secret(); err != nil {
			return nil, err
		}
	}
	s := &Server{
		cfg:     cfg,
		store:   parts.Store,
		cookies: newCookieStore(secret),
		hub:     hub{api: map[*client]struct{}{}},
		mux:     http.NewServeMux(),
		pool:    parts.Pool,
		reviews: parts.Reviews,
		reg:     parts.Registry,
		games:   parts.Games,
		api:     parts.API,
	}
	// Write buffers come from a pool: an idle tab then holds none.
	if cfg.PublicOrigin != "" {
		u, err := parsePublicOrigin(cfg.PublicOrigin)
		if err != nil {
			return nil, err
		}
		s.publicOrigin = u
	}
	s.upgrader = websocket.Upgrader{ReadBufferSize: 1024, WriteBufferSize: 4096, WriteBufferPool: &sync.Pool{}, CheckOrigin: s.checkOrigin}
	if cfg.Static != nil {
		assets, err := loadStatic(cfg.Static)
		if err != nil {
			return nil, err
		}
		s.assets, s.static = assets, assets.handler()
	} else {
		s.static = http.NotFoundHandler()
	}
	if err := s.loadTemplates(); err != nil { // after the static files: {{asset}} names them
		return nil, err
	}
	s.routes()
	return s, nil
}

// Close closes the registry (every game's host: clocks stopped and
// committed) and every WebSocket, and waits for the sockets to go. Games
// are already committed move by move, so nothing is lost either way. The
// other parts stay open: the caller closes them after.
func (s *Server) Close() {
	defer s.conns.Wait()

	// s.closed is set first, under hub.mu, where every socket is counted
	// (joinCounted, handleAPIWS): one counted before is in a host's
	// subscribers, or among the API tabs, by the time they are collected.
	s.hub.mu.Lock()
	s.closed = true
	conns := slices.Collect(maps.Keys(s.hub.api))
	s.hub.mu.Unlock()
	for _, sub := range s.reg.Close() {
		conns = append(conns, sub.(*client))
	}
	for _, c := range conns {
		c.conn.Close()
	}
}

func (s *Server) logf(format string, args ...any) { s.cfg.Logger.Printf("web: "+format, args...) }

// ServeHTTP makes Server an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.limitRequest(w, r)
	limitBody(w, r)
	s.securityHeaders(w, r)
	s.mux.ServeHTTP(w, r)
}

func (s *Server) routes() {
	s.mux.Handle("/api/", s.api.Handler(s.clientAddr))
	s.mux.HandleFunc("GET /{$}", s.handleHome)
	s.mux.HandleFunc("POST /games", s.handleCreate)
	// The home page's form posts to the home page itself, so that a form
	// the server refuses comes back at "/", not at "/games".
	s.mux.HandleFunc("POST /{$}", s.handleCreate)
	s.mux.HandleFunc("GET /game/{id}", s.handleGamePage)
	s.mux.HandleFunc("GET /game/{id}/pgn", s.handlePGN)
	s.mux.HandleFunc("GET /game/{id}/tablebase", s.handleTablebase)
	s.mux.HandleFunc("POST /game/{id}/resign", s.handleListResign)
	s.mux.HandleFunc("POST /game/{id}/delete", s.handleListDelete)
	s.mux.HandleFunc("GET /game/{id}/history.json", s.handleReconHistory)
	s.mux.HandleFunc("GET /game/{id}/replay", s.handleReconReplay)
	s.mux.HandleFunc("GET /replay", s.handleReplayForm)
	s.mux.HandleFunc("GET /bots", s.handleBotsPage)
	s.mux.HandleFunc("POST /bots/register", s.handleBotsRegister)
	s.mux.HandleFunc("GET /bots/games/{id}/replay", s.handleAPIGameReplay)
	s.mux.HandleFunc("GET /bots/games/{id}/history.json", s.handleAPIGameHistoryFile)
	s.mux.HandleFunc("POST /bots/login", s.handleBotsLogin)
	s.mux.HandleFunc("POST /bots/logout", s.handleBotsLogout)
	s.mux.HandleFunc("POST /bots/invite", s.handleBotsInvite)
	s.mux.HandleFunc("POST /bots/invitations/{id}/accept", s.handleBotsAccept)
	s.mux.HandleFunc("GET /bots/games/{id}/play", s.handleBotsPlay)
	s.mux.HandleFunc("GET /ws/api/{id}", s.handleAPIWS)
	s.mux.HandleFunc("POST /replay", s.handleReplayUpload)
	s.mux.HandleFunc("GET /ws/game/{id}", s.handleWS)
	s.mux.HandleFunc("GET /experience", s.handleExperiencePage)
	s.mux.HandleFunc("GET /watch/{token}", s.handleWatchPage)
	s.mux.HandleFunc("GET /ws/watch/{token}", s.handleWatchWS)
	s.mux.Handle("GET /static/", s.static)
	// Any other address: a page in words with a way home, not a bare 404.
	s.mux.HandleFunc("/", s.handleNoPage)
	s.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok"))
	})
	s.mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/static/favicon.svg", http.StatusMovedPermanently)
	})
}

// Page names the templates must provide.
const (
	pageHome   = "home.html"
	pageGame   = "game.html"
	pageRecon  = "recon.html"
	pageReplay = "replay.html"
	pageBots   = "bots.html"
	pageWatch  = "watch.html"
	pageGone   = "gone.html"
	// pageExperience is what the engine has learnt (experience_page.go).
	pageExperience = "experience.html"
)

var templateFuncs = template.FuncMap{
	"inc": func(i int) int { return i + 1 },
}

// loadTemplates parses each page together with the shared (non-page)
// templates, so pages may each define the same block names.
func (s *Server) loadTemplates() error {
	if s.cfg.Templates == nil {
		return errors.New("web: Config.Templates is required")
	}
	names, err := fs.Glob(s.cfg.Templates, "*.html")
	if err != nil {
		return fmt.Errorf("web: templates: %w", err)
	}
	pages := []string{pageHome, pageGame, pageRecon, pageReplay, pageBots, pageWatch, pageGone, pageExperience}
	isPage := map[string]bool{}
	for _, p := range pages {
		isPage[p] = true
	}
	var shared []string
	for _, n := range names {
		if !isPage[n] {
			shared = append(shared, n)
		}
	}
	if more, _ := fs.Glob(s.cfg.Templates, "partials/*.html"); len(more) > 0 {
		shared = append(shared, more...)
	}
	s.pages = map[string]*template.Template{}
	for _, p := range pages {
		t, err := template.New(p).Funcs(templateFuncs).Funcs(template.FuncMap{"asset": s.assets.url}).ParseFS(s.cfg.Templates, append([]string{p}, shared...)...)
		if err != nil {
			return fmt.Errorf("web: template %s: %w", p, err)
		}
		s.pages[p] = t
	}
	return nil
}

// render executes a page into a buffer first, so a template error becomes
// a clean 500 instead of half a page.
func (s *Server) render(w http.ResponseWriter, status int, page string, data any) {
	var buf bytes.Buffer
	if err := s.pages[page].ExecuteTemplate(&buf, page, data); err != nil {
		s.serverError(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func (s *Server) serverError(w http.ResponseWriter, err error) {
	s.logf("%v", err)
	http.Error(w, "internal server error", http.StatusInternalServerError)
}

// LevelView is a level as the new-game form shows it.
type LevelView struct {
	Number       int
	Name         string
	Description  string
	ApproxElo    int
	MoveTimeText string
}

// GameSummary is a game in the home page's lists.
type GameSummary struct {
	ID, URL, PGNURL string
	White, Black    string
	Result, Reason  string
	Date            string
	Variant         string
	LevelName       string
	Moves           int // moves as players count them: a move is one by each side
	// Opening is the opening the game reached, "B20 Sicilian Defense", or "".
	Opening string
}

// HomeData is home.html's data.
type HomeData struct {
	// Continue is the most recently active unfinished chess game.
	Continue *GameSummary
	// Unfinished lists every unfinished game (chess and Reconnaissance
	// Chess), most recently active first, at most unfinishedListSize of
	// them; UnfinishedCount is how many there are in all.
	Unfinished      []UnfinishedSummary
	UnfinishedCount int
	// Notice reports the last action on the list ("The game was deleted.").
	// Confirm, when set, asks before a Resign or Delete posted without
	// confirm=yes.
	Confirm  *ListConfirm
	Notice   string
	Finished []GameSummary
	Levels   []LevelView
	Clocks   []string
	// Error, when set, is why the last new-game form was refused, as a
	// sentence (formSentence); ErrorField names the field at fault ("fen"),
	// "" when it was not one field (too many games, a refused write).
	Error      string
	ErrorField string
	// FEN is the start position typed into a rejected form, shown again in
	// its field so the person can correct it rather than retype it;
	// FENError, when the start position was what the server refused, says
	// why beside it (Error says it at the top of the page too).
	FEN      string
	FENError string
	// DefaultLevel is the level checked in the new-game form until the
	// browser remembers the person's own choice (static/js/home.js).
	DefaultLevel int
	// Reconnaissance Chess: the bots, the clocks, and the person's games.
	ReconOpponents []play.ReconOpponent
	ReconClocks    []string
	ReconPlaying   []ReconSummary
	ReconFinished  []ReconSummary
}

// GameData is game.html's data.
type GameData struct {
	ID, WSURL, PGNURL string
	// WatchURL is the game's read-only spectator link.
	WatchURL string
	// Chess960 is set for a Chess960 game that started from one of the
	// 960 start positions; Chess960Number is then its Scharnagl number.
	Chess960       bool
	Chess960Number int
}

func (s *Server) summary(g *store.Game) GameSummary {
	lv := s.games.Level(g.Level)
	engineName := fmt.Sprintf("Knightwatch level %d", g.Level)
	white, black := "You", engineName
	if g.Human == store.Black {
		white, black = engineName, "You"
	}
	date := g.CreatedAt
	if g.FinishedAt != nil {
		date = *g.FinishedAt
	}
	return GameSummary{
		ID: g.ID, URL: "/game/" + g.ID, PGNURL: "/game/" + g.ID + "/pgn",
		White: white, Black: black, Result: g.Result, Reason: g.Reason.String(),
		Date: date.UTC().Format("2006-01-02"), Variant: g.Variant, LevelName: lv.Name,
		Moves: (len(g.MoveList()) + 1) / 2, Opening: play.OpeningName(g),
	}
}

func (s *Server) levelViews() []LevelView {
	levels := s.games.Levels()
	out := make([]LevelView, len(levels))
	for i, l := range levels {
		out[i] = LevelView{Number: l.Number, Name: l.Name, Description: l.Description, ApproxElo: l.ApproxElo,
			MoveTimeText: formatMoveTime(l.MoveTime)}
	}
	return out
}

// defaultLevel is the new-game form's level for a newcomer: the middle of
// n levels, the lower one when n is even. With the eight engine levels that
// is level 4, "Club" (about 1450 Elo): near the middle of online players'
// ratings (lichess starts everyone at 1500), strong enough to be a game,
// and still beatable by someone who is learning; level 5 (about 1600) would
// be the stronger of the two middles.
func defaultLevel(n int) int { return (n + 1) / 2 }

func formatMoveTime(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

func (s *Server) homeData(owner, errText string) (*HomeData, error) {
	d := &HomeData{Levels: s.levelViews(), DefaultLevel: defaultLevel(len(s.games.Levels())), Clocks: ClockChoices, Finished: []GameSummary{},
		ReconOpponents: play.ReconOpponents, ReconClocks: ReconClockChoices}
	d.ErrorField, d.Error = formSentence(errText)
	if err := s.reconLists(d, owner); err != nil {
		return nil, err
	}
	if err := s.unfinishedList(d, owner); err != nil {
		return nil, err
	}
	if g, err := s.store.LatestUnfinished(owner); err == nil {
		sum := s.summary(g)
		d.Continue = &sum
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	fin, err := s.store.FinishedGames(owner, finishedListSize)
	if err != nil {
		return nil, err
	}
	s.nameFinished(fin)
	for i := range fin {
		d.Finished = append(d.Finished, s.summary(&fin[i]))
	}
	return d, nil
}

func (s *Server) handleHome(w http.ResponseWriter, r *http.Request) {
	owner, err := s.ensureOwner(w, r)
	if err != nil {
		s.serverError(w, err)
		return
	}
	d, err := s.homeData(owner, "")
	if err != nil {
		s.serverError(w, err)
		return
	}
	d.Notice = homeNotices[r.URL.Query().Get("done")]
	listConfirm(d, r.URL.Query())
	s.render(w, http.StatusOK, pageHome, d)
}

// newGameForm is a validated new-game form.
type newGameForm struct {
	human     game.Color
	level     int
	variant   string
	initialMS int64
	incMS     int64
	start     *game.Position
}

// parseClock parses "none" or "M+S" from ClockChoices.
func parseClock(v string) (initialMS, incMS int64, ok bool) {
	found := false
	for _, c := range ClockChoices {
		if c == v {
			found = true
		}
	}
	if !found {
		return 0, 0, false
	}
	return parseClockText(v)
}

// parseClockText parses "none" or "M+S" (minutes and seconds).
func parseClockText(v string) (initialMS, incMS int64, ok bool) {
	if v == "none" {
		return 0, 0, true
	}
	m, sec, _ := strings.Cut(v, "+")
	mi, err1 := strconv.Atoi(m)
	si, err2 := strconv.Atoi(sec)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return int64(mi) * 60000, int64(si) * 1000, true
}

// parseNewGame validates the form, for an engine of levels levels; the
// error names the field.
func parseNewGame(r *http.Request, levels int) (*newGameForm, error) {
	if err := r.ParseForm(); err != nil {
		return nil, fmt.Errorf("form: %v", err)
	}
	f := &newGameForm{}
	switch r.PostForm.Get("color") {
	case "white":
		f.human = game.White
	case "black":
		f.human = game.Black
	case "random", "":
		f.human = game.Color(rand.IntN(2))
	default:
		return nil, fmt.Errorf("color: must be white, black or random")
	}
	lv, err := strconv.Atoi(r.PostForm.Get("level"))
	if err != nil || lv < 1 || lv > levels {
		return nil, fmt.Errorf("level: must be a number from 1 to %d", levels)
	}
	f.level = lv
	f.variant = r.PostForm.Get("variant")
	if f.variant == "" {
		f.variant = VariantStandard
	}
	if f.variant != VariantStandard && f.variant != VariantChess960 {
		return nil, fmt.Errorf("variant: must be standard, chess960 or recon")
	}
	clock := r.PostForm.Get("clock")
	if clock == "" {
		clock = "none"
	}
	var ok bool
	if f.initialMS, f.incMS, ok = parseClock(clock); !ok {
		return nil, fmt.Errorf("clock: must be one of %s", strings.Join(ClockChoices, ", "))
	}
	fen := strings.TrimSpace(r.PostForm.Get("fen"))
	switch {
	case fen != "" && f.variant != VariantStandard:
		return nil, fmt.Errorf("fen: a start position can only be given for standard chess")
	case fen != "":
		if len(fen) > 120 {
			return nil, fmt.Errorf("fen: too long")
		}
		p, err := game.ParseFEN(fen)
		if err != nil {
			return nil, fmt.Errorf("fen: %s", fenProblem(err))
		}
		if p.Chess960() {
			return nil, fmt.Errorf("fen: Chess960 castling rights need the chess960 variant")
		}
		if o := game.NewGameFrom(p).OutcomeWithClaims(); o.Over() {
			return nil, fmt.Errorf("fen: the position is already over (%s)", o.Termination)
		}
		f.start = p
	case f.variant == VariantChess960:
		p, err := randomChess960()
		if err != nil {
			return nil, err
		}
		f.start = p
	default:
		f.start = game.NewPosition()
	}
	return f, nil
}

// typedFEN is the start position as typed into the new-game form, kept
// for re-rendering a rejected form (html/template escapes it); a
// pathological length is cut, since it was rejected anyway.
func typedFEN(r *http.Request) string {
	fen := strings.TrimSpace(r.PostForm.Get("fen"))
	if len(fen) > 200 {
		fen = fen[:200]
	}
	return fen
}

func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request) {
	if !s.checkOrigin(r) {
		http.Error(w, "cross-origin form post refused", http.StatusForbidden)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
	owner, err := s.ensureOwner(w, r)
	if err != nil {
		s.serverError(w, err)
		return
	}
	if err := r.ParseForm(); err != nil {
		// Parsed once here: parsing again would read the cut-off body of a
		// form over the cap as an empty form and name its first field.
		status, msg := formParseRefusal(err)
		d, herr := s.homeData(owner, msg)
		if herr != nil {
			s.serverError(w, herr)
			return
		}
		s.render(w, status, pageHome, d)
		return
	}
	if r.PostForm.Get("variant") == VariantRecon {
		if !s.createAllowed(w, r, owner) {
			return
		}
		rec, err := s.createRecon(r, owner)
		var ferr *formError
		if err != nil && !errors.As(err, &ferr) {
			s.saveFailed(w, owner, err)
			return
		}
		if err != nil {
			d, herr := s.homeData(owner, err.Error())
			if herr != nil {
				s.serverError(w, herr)
				return
			}
			s.render(w, http.StatusBadRequest, pageHome, d)
			return
		}
		http.Redirect(w, r, "/game/"+rec.ID, http.StatusSeeOther)
		return
	}
	f, ferr := parseNewGame(r, len(s.games.Levels()))
	if ferr != nil {
		d, err := s.homeData(owner, ferr.Error())
		if err != nil {
			s.serverError(w, err)
			return
		}
		d.FEN = typedFEN(r)
		if why, ok := strings.CutPrefix(ferr.Error(), "fen: "); ok {
			d.FENError = why
		}
		s.render(w, http.StatusBadRequest, pageHome, d)
		return
	}
	if !s.createAllowed(w, r, owner) {
		return
	}
	rec := &store.Game{
		Owner: owner, Variant: f.variant, StartFEN: f.start.FEN(), Human: store.ColorOf(f.human), Level: f.level,
		ClockInitialMS: f.initialMS, ClockIncrementMS: f.incMS, WhiteMS: f.initialMS, BlackMS: f.initialMS,
	}
	if err := s.store.CreateGame(rec); err != nil {
		s.saveFailed(w, owner, err)
		return
	}
	http.Redirect(w, r, "/game/"+rec.ID, http.StatusSeeOther)
}

// ownedGame loads the request's game for its owner, replying 404 when it
// is missing or someone else's (the two are indistinguishable on purpose).
func (s *Server) ownedGame(w http.ResponseWriter, r *http.Request) (*store.Game, bool) {
	owner, err := s.ensureOwner(w, r)
	if err != nil {
		s.serverError(w, err)
		return nil, false
	}
	g, err := s.store.GetOwnedGame(r.PathValue("id"), owner)
	if errors.Is(err, store.ErrNotFound) {
		s.missing(w, r, notYoursFile, notYoursFiles)
		return nil, false
	}
	if err != nil {
		s.serverError(w, err)
		return nil, false
	}
	return g, true
}

func (s *Server) handleGamePage(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.PathValue("id"), store.ReconIDPrefix) {
		s.handleReconPage(w, r)
		return
	}
	owner, err := s.ensureOwner(w, r)
	if err != nil {
		s.serverError(w, err)
		return
	}
	g, err := s.store.GetOwnedGame(r.PathValue("id"), owner)
	if errors.Is(err, store.ErrNotFound) {
		// Someone else's game and a missing one look the same, in words.
		s.notFoundPage(w, notYoursTitle, notYoursText)
		return
	}
	if err != nil {
		s.serverError(w, err)
		return
	}
	if g.Status == store.StatusDeleted {
		http.Redirect(w, r, deletedURL, http.StatusSeeOther)
		return
	}
	watch, err := s.watchURL(r, g)
	if err != nil {
		// The game is still playable; only the share box is left out.
		s.logf("game %s: %v", g.ID, err)
		watch = ""
	}
	d := &GameData{
		ID:       g.ID,
		WSURL:    s.wsURL(r, "/ws/game/"+g.ID),
		PGNURL:   "/game/" + g.ID + "/pgn",
		WatchURL: watch,
	}
	if g.Variant == VariantChess960 {
		d.Chess960Number, d.Chess960 = chess960Number(g.StartFEN)
	}
	s.render(w, http.StatusOK, pageGame, d)
}

func (s *Server) handlePGN(w http.ResponseWriter, r *http.Request) {
	g, ok := s.ownedGame(w, r)
	if !ok {
		return
	}
	if g.Status == store.StatusDeleted {
		s.missing(w, r, notYoursFile, notYoursFiles)
		return
	}
	var buf bytes.Buffer
	if err := s.writePGN(&buf, g, s.siteURL(r)); err != nil {
		s.serverError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+path.Base("knightwatch-"+g.ID)+`.pgn"`)
	w.Write(buf.Bytes())
}
