package web

import (
	"io"
	"net/http"
)

// saveFailedText tells the person, in words, that their new game was not
// created because the database would not take it (full disk, read-only
// file, locked by another program).
const saveFailedText = "The new game could not be saved: the server's database refused the write, so nothing was created. " +
	"Please try again in a moment; if it keeps happening, tell whoever runs this server."

// saveFailed answers a new-game form whose game could not be written: 503
// with the home page and saveFailedText at the top of the form, or that
// sentence alone when the home page cannot be read either. The cause goes
// to the log.
func (s *homePages) saveFailed(w http.ResponseWriter, r *http.Request, owner string, err error) {
	s.logf("new game not saved: %v", err)
	w.Header().Set("Retry-After", "5")
	if d, herr := s.homeData(owner, saveFailedText); herr == nil {
		s.render(w, r, http.StatusServiceUnavailable, pageHome, d)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusServiceUnavailable)
	io.WriteString(w, saveFailedText+"\n")
}
