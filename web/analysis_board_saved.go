package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"knightwatch/analysisboard"
	"knightwatch/store"
)

// A signed-in player's saved analyses: the tree as PGN in the store
// (store.Studies), listed on /analysis, opened at /analysis?saved=ID.
// Anonymous players keep their tree in the browser (localStorage).

// savedResult is the save route's answer.
type savedResult struct {
	ID  int64  `json:"id"`
	URL string `json:"url"`
}

// handleSave serves POST /analysis/saved: the form's "study" (a Study in
// JSON) saved under "name" for the signed-in player, as a new analysis or
// over their own "id"; 401 when not signed in, 400 in words for a tree
// that cannot be written, 404 for an id not theirs.
func (s *analysisPages) handleSave(w http.ResponseWriter, r *http.Request) {
	if !s.checkOrigin(r) {
		http.Error(w, "cross-site request refused", http.StatusForbidden)
		return
	}
	who := s.identify(r)
	if who.user == nil {
		writeJSON(w, http.StatusUnauthorized, importError{Error: "Sign in to save an analysis; this browser keeps the current one meanwhile."})
		return
	}
	st, pgn, ok := studyPGN(w, r)
	if !ok {
		return
	}
	name := strings.TrimSpace(r.FormValue("name"))
	if name == "" {
		name = "Analysis"
	}
	for utf8.RuneCountInString(name) > 80 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	a := &store.SavedAnalysis{UserID: who.user.ID, Name: name, StartFEN: st.FEN, PGN: pgn}
	if id := r.FormValue("id"); id != "" && id != "0" {
		var err error
		if a.ID, err = strconv.ParseInt(id, 10, 64); err != nil {
			writeJSON(w, http.StatusBadRequest, importError{Error: "bad analysis number"})
			return
		}
	}
	switch err := s.store.Studies().Save(a); {
	case errors.Is(err, store.ErrNotFound):
		writeJSON(w, http.StatusNotFound, importError{Error: "No such saved analysis of yours."})
		return
	case errors.Is(err, store.ErrTooMany):
		writeJSON(w, http.StatusConflict, importError{Error: "You have saved as many analyses as an account keeps (" + strconv.Itoa(store.MaxSavedAnalyses) + "); delete one first."})
		return
	case err != nil:
		s.serverError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, savedResult{ID: a.ID, URL: "/analysis?saved=" + strconv.FormatInt(a.ID, 10)})
}

// handleDeleteSaved serves POST /analysis/saved/{id}/delete and goes back
// to /analysis.
func (s *analysisPages) handleDeleteSaved(w http.ResponseWriter, r *http.Request) {
	if !s.checkOrigin(r) {
		http.Error(w, "cross-site request refused", http.StatusForbidden)
		return
	}
	who := s.identify(r)
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if who.user == nil || err != nil {
		http.NotFound(w, r)
		return
	}
	if err := s.store.Studies().Delete(who.user.ID, id); err != nil && !errors.Is(err, store.ErrNotFound) {
		s.serverError(w, err)
		return
	}
	http.Redirect(w, r, "/analysis", http.StatusSeeOther)
}

// savedStudy loads the user's saved analysis id as a study, with its ID
// and name.
func (s *analysisPages) savedStudy(userID int64, id string) (*analysisboard.Study, int64, string, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return nil, 0, "", store.ErrNotFound
	}
	a, err := s.store.Studies().Get(userID, n)
	if err != nil {
		return nil, 0, "", err
	}
	st, err := analysisboard.Import(a.PGN)
	if err != nil {
		return nil, 0, "", err
	}
	return st, a.ID, a.Name, nil
}

// savedList is the user's saved analyses for the page's list.
func (s *analysisPages) savedList(userID int64) ([]SavedAnalysisView, error) {
	rows, err := s.store.Studies().List(userID)
	if err != nil {
		return nil, err
	}
	out := make([]SavedAnalysisView, 0, len(rows))
	for _, a := range rows {
		out = append(out, SavedAnalysisView{ID: a.ID, Name: a.Name, URL: "/analysis?saved=" + strconv.FormatInt(a.ID, 10), Updated: a.UpdatedAt.UTC().Format("2006-01-02 15:04")})
	}
	return out, nil
}
