package web

import (
	"net/http"
	"strings"
)

// Pages a visitor may not see, in words. A browser that asks for a page
// gets gone.html (404): a title, a sentence and a way home; a program (a
// fetch for JSON, a test client, the API's clients) gets the sentence as
// plain text, with the same status.
const (
	noPageTitle   = "No page at this address"
	noPageText    = "There is no page at this address: it may have been mistyped, or what it showed is gone."
	notYoursFile  = "This game is not yours to open"
	notYoursFiles = "This game was started in another browser, or it no longer exists. Only the browser that started a game can open its replay, its history and its PGN; ask its player to send you the file."
	notOverTitle  = "This game is still being played"
	notOverText   = "Its replay and its history are there once the game is over: go back to the game to play on."
	noBotGameText = "This game of the bots' API is not yours, or it no longer exists: sign in on the Bots page with the account that plays it."
)

// wantsPage says whether the request comes from a browser navigating to a
// page (rather than a script or a program asking for data).
func wantsPage(r *http.Request) bool {
	return (r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodPost) &&
		strings.Contains(r.Header.Get("Accept"), "text/html")
}

// missing answers 404 in words: the page for a browser, the sentence for
// anything else.
func (s *site) missing(w http.ResponseWriter, r *http.Request, title, msg string) {
	s.inWords(w, r, http.StatusNotFound, title, msg)
}

// inWords answers status with a title and a sentence: gone.html for a
// browser, the sentence as plain text for anything else.
func (s *site) inWords(w http.ResponseWriter, r *http.Request, status int, title, msg string) {
	if wantsPage(r) {
		s.render(w, r, status, pageGone, &GoneData{Title: title, Message: msg})
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(msg + "\n"))
}

// handleNoPage answers every address no route claims.
func (s *Server) handleNoPage(w http.ResponseWriter, r *http.Request) {
	s.missing(w, r, noPageTitle, noPageText)
}
