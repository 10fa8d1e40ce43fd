package web

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
)

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
	// pagePlayer is a player's page (players.go).
	pagePlayer = "player.html"
)

var templateFuncs = template.FuncMap{
	"inc": func(i int) int { return i + 1 },
}

// loadTemplates parses each page together with the shared (non-page)
// templates, so pages may each define the same block names.
func (s *site) loadTemplates() error {
	if s.cfg.Templates == nil {
		return errors.New("web: Config.Templates is required")
	}
	names, err := fs.Glob(s.cfg.Templates, "*.html")
	if err != nil {
		return fmt.Errorf("web: templates: %w", err)
	}
	pages := []string{pageHome, pageGame, pageRecon, pageReplay, pageBots, pageWatch, pageGone, pageExperience, pagePlayer}
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
func (s *site) render(w http.ResponseWriter, status int, page string, data any) {
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
