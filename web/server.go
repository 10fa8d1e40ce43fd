// Package web serves Knightwatch in the browser: the routes, the pages
// and their templates' data, the cookie sessions, the WebSocket transport
// (one reader and one writer per socket; web/PROTOCOL.md is the contract
// with the front-end) and the limits on requests, sockets, messages and
// new games. The games themselves are the parts cli/serve builds and hands
// it (Parts): package play's games against the engine and the bots, the
// reconchess HTTP API of package rbcapi (whose JSON routes it mounts under
// /api/), each hosted in a live.Host of the one registry. The server is
// the authority on every game; each change is committed to the store
// before any browser hears of it.
//
// Its parts: the site every other part embeds (site.go: configuration,
// templates, sessions, origins), the sockets (conn.go), the home page
// (home.go, newgame.go, unfinished.go), a game's pages (game_page.go and
// the files it names), the Bots page (bots_pages.go, bots_play.go), a
// player's page with its PGN export (players.go) and the analysis board
// (analysis_board*.go, on package analysisboard).
//
// # Goroutines and locks
//
// Two per socket (readPump, writePump) and the http.Server's per request;
// the games' own are their hosts' (live). hub.mu (conn.go) guards which
// sockets are open outside their games and is never held across a host's
// lock; the per-owner counters (limits.go, creation_limits.go) have locks
// of their own held only around their maps.
package web

import (
	"errors"
	"io/fs"
	"log"
	"net/http"
	"time"

	"knightwatch/analysisboard"
)

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
	// AnalysisCaps bound each owner's engine analysis on the analysis
	// board (zero fields: analysisboard's defaults, 2 at once and 40
	// engine seconds a minute).
	AnalysisCaps analysisboard.Caps
	// Hooks let tests see the sockets come and go; nil fields do nothing.
	Hooks Hooks
}

// Hooks are what tests see of the WebSockets, so that they wait for a
// socket to get somewhere rather than for time. Each runs in the socket's
// own goroutine with no lock held, with the ID of the socket's game (a
// player's, a spectator's or an API game's tab: "a" and the API game's
// number).
type Hooks struct {
	// Joining runs as a socket, upgraded, is about to join its game's
	// host (which waits while the host is busy).
	Joining func(id string)
	// Leaving runs as a socket's reader has ended, before the socket
	// leaves its game's host (which waits while the host is busy).
	Leaving func(id string)
	// Left runs once a socket has left its game (when it was the last
	// player of a game played in person, the host has closed, its clock
	// committed) and freed its place under the limits on sockets.
	Left func(id string)
}

// Server is the web app: the routes, served by its parts (the sockets,
// the home page, a game's pages, the Bots page, a player's page), each
// sharing the site.
// Create it with New; it is an http.Handler.
type Server struct {
	*site
	mux    *http.ServeMux
	static http.Handler
	// The parts that serve the routes.
	sockets *sockets
	home    *homePages
	game    *gamePages
	bots    *botsPages
	players *playerPages
	account *accountPages
	board   *analysisPages
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
	site := &site{
		cfg:        cfg,
		store:      parts.Store,
		reg:        parts.Registry,
		games:      parts.Games,
		api:        parts.API,
		pool:       parts.Pool,
		reviews:    parts.Reviews,
		liveEngine: parts.LiveEngine,
		puzzleGen:  parts.Puzzles,
		cookies:    newCookieStore(secret),
	}
	if cfg.PublicOrigin != "" {
		u, err := parsePublicOrigin(cfg.PublicOrigin)
		if err != nil {
			return nil, err
		}
		site.publicOrigin = u
	}
	s := &Server{site: site, mux: http.NewServeMux()}
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
	creates := &createLimits{site: site}
	s.sockets = newSockets(site, creates)
	s.home = &homePages{site: site, creates: creates}
	s.game = &gamePages{site: site}
	s.players = &playerPages{site: site, game: s.game}
	s.bots = &botsPages{site: site}
	s.account = &accountPages{site: site, sockets: s.sockets}
	s.board = &analysisPages{site: site, game: s.game, sockets: s.sockets, limiter: analysisboard.NewLimiter(cfg.AnalysisCaps)}
	s.routes()
	return s, nil
}

// Close closes the registry (every game's host: clocks stopped and
// committed) and every WebSocket, and waits for the sockets to go. Games
// are already committed move by move, so nothing is lost either way. The
// other parts stay open: the caller closes them after.
func (s *Server) Close() { s.sockets.close() }

// ServeHTTP makes Server an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.limitRequest(w, r)
	limitBody(w, r)
	s.securityHeaders(w, r)
	s.mux.ServeHTTP(w, r)
}

func (s *Server) routes() {
	s.mux.Handle("/api/", s.api.Handler(s.clientAddr))
	s.mux.HandleFunc("GET /{$}", s.home.handleHome)
	s.mux.HandleFunc("POST /games", s.home.handleCreate)
	// The home page's form posts to the home page itself, so that a form
	// the server refuses comes back at "/", not at "/games".
	s.mux.HandleFunc("POST /{$}", s.home.handleCreate)
	s.mux.HandleFunc("GET /game/{id}", s.game.handleGamePage)
	s.mux.HandleFunc("GET /game/{id}/pgn", s.game.handlePGN)
	s.mux.HandleFunc("GET /game/{id}/tablebase", s.game.handleTablebase)
	s.mux.HandleFunc("POST /game/{id}/resign", s.home.handleListResign)
	s.mux.HandleFunc("POST /game/{id}/delete", s.home.handleListDelete)
	s.mux.HandleFunc("GET /game/{id}/history.json", s.game.handleReconHistory)
	s.mux.HandleFunc("GET /game/{id}/replay", s.game.handleReconReplay)
	s.mux.HandleFunc("GET /replay", s.game.handleReplayForm)
	s.mux.HandleFunc("GET /bots", s.bots.handleBotsPage)
	s.mux.HandleFunc("GET /bots/games/{id}/replay", s.bots.handleAPIGameReplay)
	s.mux.HandleFunc("GET /bots/games/{id}/history.json", s.bots.handleAPIGameHistoryFile)
	s.mux.HandleFunc("GET /account", s.account.handleAccountPage)
	s.mux.HandleFunc("POST /account/signin", s.account.handleSignIn)
	s.mux.HandleFunc("POST /account/signup", s.account.handleSignUp)
	s.mux.HandleFunc("POST /account/signout", s.account.handleSignOut)
	s.mux.HandleFunc("POST /account/signout-everywhere", s.account.handleSignOutEverywhere)
	s.mux.HandleFunc("POST /account/password", s.account.handleChangePassword)
	s.mux.HandleFunc("POST /bots/invite", s.bots.handleBotsInvite)
	s.mux.HandleFunc("POST /bots/invitations/{id}/accept", s.bots.handleBotsAccept)
	s.mux.HandleFunc("GET /bots/games/{id}/play", s.bots.handleBotsPlay)
	s.mux.HandleFunc("GET /ws/api/{id}", s.sockets.handleAPIWS)
	s.mux.HandleFunc("POST /replay", s.game.handleReplayUpload)
	s.mux.HandleFunc("GET /ws/game/{id}", s.sockets.handleWS)
	s.mux.HandleFunc("GET /experience", s.game.handleExperiencePage)
	s.mux.HandleFunc("GET /game/{id}/learn", s.game.handleLearnPage)
	s.mux.HandleFunc("GET /game/{id}/learn.json", s.game.handleLearnState)
	s.mux.HandleFunc("POST /game/{id}/learn", s.game.handleLearnPost)
	s.mux.HandleFunc("GET /puzzles", s.game.handlePuzzleNext)
	s.mux.HandleFunc("GET /puzzles/{id}", s.game.handlePuzzlePage)
	s.mux.HandleFunc("GET /puzzles/{id}/dests", s.game.handlePuzzleDests)
	s.mux.HandleFunc("POST /puzzles/{id}/move", s.game.handlePuzzleMove)
	s.mux.HandleFunc("GET /watch/{token}", s.game.handleWatchPage)
	s.mux.HandleFunc("GET /players/{name}", s.players.handlePlayerPage)
	s.mux.HandleFunc("GET /players/{name}/games.pgn", s.players.handleGamesPGN)
	s.mux.HandleFunc("GET /ws/watch/{token}", s.sockets.handleWatchWS)
	s.mux.HandleFunc("GET /analysis", s.board.handleAnalysisPage)
	s.mux.HandleFunc("POST /analysis/import", s.board.handleImport)
	s.mux.HandleFunc("POST /analysis/export", s.board.handleExport)
	s.mux.HandleFunc("POST /analysis/saved", s.board.handleSave)
	s.mux.HandleFunc("POST /analysis/saved/{id}/delete", s.board.handleDeleteSaved)
	s.mux.HandleFunc("GET /ws/analysis", s.board.handleWS)
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
