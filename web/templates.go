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
	// pageAccount is sign-in, sign-up and the signed-in account (account.go).
	pageAccount = "account.html"
	// pageLearn is "learn from your mistakes" (learn.go); pagePuzzle a
	// puzzle (puzzles.go).
	pageLearn  = "learn.html"
	pagePuzzle = "puzzle.html"
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
	pages := []string{pageHome, pageGame, pageRecon, pageReplay, pageBots, pageWatch, pageGone, pageExperience, pagePlayer, pageAccount, pageLearn, pagePuzzle, pageAnalysis}
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

// accountSlot is where the "top" template leaves the header's account
// area, which render fills in for the request. Every page's data would
// otherwise have to carry the signed-in account; an element, because
// html/template drops comments.
var accountSlot = []byte("<kw-account-area></kw-account-area>")

// render executes a page into a buffer first, so a template error becomes
// a clean 500 instead of half a page, and puts the header's account area
// for r's browser into it.
func (s *site) render(w http.ResponseWriter, r *http.Request, status int, page string, data any) {
	var buf bytes.Buffer
	if err := s.pages[page].ExecuteTemplate(&buf, page, data); err != nil {
		s.serverError(w, err)
		return
	}
	out := buf.Bytes()
	if i := bytes.Index(out, accountSlot); i >= 0 {
		v := accountView{Next: "/"}
		if r.Method == http.MethodGet {
			v.Next = safeNext(r.URL.RequestURI())
		}
		if u := s.signedInUser(r); u != nil {
			v.Name = u.Name
		}
		var area bytes.Buffer
		if err := s.pages[page].ExecuteTemplate(&area, "account-area", v); err != nil {
			s.serverError(w, err)
			return
		}
		out = append(out[:i:i], append(area.Bytes(), out[i+len(accountSlot):]...)...)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(out)
}
