package web

import (
	"html/template"
	"net/http"
	"net/url"
	"sync"

	"github.com/gorilla/sessions"

	"knightwatch/enginepool"
	"knightwatch/live"
	"knightwatch/play"
	"knightwatch/rbcapi"
	"knightwatch/review"
	"knightwatch/store"
	"knightwatch/training"
)

// site is what every part of the web server shares: its configuration,
// the parts it runs on (Parts), the templates, the cookie sessions
// (session.go), the origin checks (security.go) and the answers in words
// (not_found.go). The Server and each of its parts embed it; it changes
// nothing after New, so they share it without a lock.
type site struct {
	cfg     Config
	store   *store.Store
	reg     *live.Registry   // Parts.Registry
	games   *play.Games      // Parts.Games
	api     *rbcapi.API      // Parts.API
	pool    *enginepool.Pool // Parts.Pool; nil: no tablebase
	reviews *review.Reviewer // Parts.Reviews; nil without reviews
	// liveEngine is Parts.LiveEngine (nil: pool); puzzleGen Parts.Puzzles.
	liveEngine training.LiveEngine
	puzzleGen  *training.Generator
	// trying holds the owners whose learn try is being searched: one at a
	// time each (learn.go), so a browser cannot queue searches.
	trying  sync.Map
	cookies *sessions.CookieStore
	pages   map[string]*template.Template
	assets  *staticAssets // nil without Config.Static
	// publicOrigin is Config.PublicOrigin parsed (nil when unset).
	publicOrigin *url.URL
}

func (s *site) logf(format string, args ...any) { s.cfg.Logger.Printf("web: "+format, args...) }

func (s *site) serverError(w http.ResponseWriter, err error) {
	s.logf("%v", err)
	http.Error(w, "internal server error", http.StatusInternalServerError)
}
