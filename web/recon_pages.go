package web

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"knightwatch/game"
	"knightwatch/play"
	"knightwatch/recon"
	"knightwatch/store"
)

// ReconGameData is recon.html's data.
type ReconGameData struct {
	ID, WSURL, OpponentName, Human string
	// APIGame marks a game of the HTTP API played in person: it has no
	// rematch, and "new game" leads back to the Bots page.
	APIGame bool
}

func (s *gamePages) ownedReconGame(w http.ResponseWriter, r *http.Request) (*store.ReconGame, bool) {
	owner, err := s.ensureOwner(w, r)
	if err != nil {
		s.serverError(w, err)
		return nil, false
	}
	g, err := s.store.Games().GetOwnedReconGame(r.PathValue("id"), owner)
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

func (s *gamePages) handleReconPage(w http.ResponseWriter, r *http.Request) {
	owner, err := s.ensureOwner(w, r)
	if err != nil {
		s.serverError(w, err)
		return
	}
	g, err := s.store.Games().GetOwnedReconGame(r.PathValue("id"), owner)
	if errors.Is(err, store.ErrNotFound) {
		s.notFoundPage(w, r, notYoursTitle, notYoursText) // as for a chess game's page
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
	s.render(w, r, http.StatusOK, pageRecon, &ReconGameData{
		ID: g.ID, WSURL: s.wsURL(r, "/ws/game/"+g.ID),
		OpponentName: play.OpponentName(g.Opponent), Human: g.Human.String(),
	})
}

// handleReconHistory sends a finished game's history in the reference's
// format. An unfinished game's history holds the true board, which the
// person must not see: 404 until the end.
func (s *gamePages) handleReconHistory(w http.ResponseWriter, r *http.Request) {
	g, ok := s.ownedReconGame(w, r)
	if !ok {
		return
	}
	if g.Status != store.StatusOver {
		s.missing(w, r, notOverTitle, notOverText)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", `attachment; filename="knightwatch-`+g.ID+`.json"`)
	io.WriteString(w, g.History)
}

// ReplayData is replay.html's data: a history to step through, or the
// upload form with an error.
type ReplayData struct {
	Title string
	// History is the reference-format JSON, embedded in the page (in an
	// attribute, so the template escapes it).
	History string
	// Check says whether the record replays through the arbiter ("ok 40
	// turns" or the first disagreement).
	Check string
	// Views are White's and Black's views, step by step (replayViews);
	// empty when the record does not replay.
	Views string
	// Result says how the game ended, shown at the last step; KingCapture
	// is the move that took the king (UCI), marked there on every view.
	Result, KingCapture string
	Error               string
	DownloadURL         string
	Upload              bool
}

func (s *gamePages) handleReconReplay(w http.ResponseWriter, r *http.Request) {
	g, ok := s.ownedReconGame(w, r)
	if !ok {
		return
	}
	if g.Status != store.StatusOver {
		s.missing(w, r, notOverTitle, notOverText)
		return
	}
	h, err := recon.UnmarshalHistory([]byte(g.History))
	if err != nil {
		s.serverError(w, err)
		return
	}
	s.renderReplay(w, r, http.StatusOK, h, "/game/"+g.ID+"/history.json")
}

// maxUpload bounds an uploaded history: the longest games the reference
// writes are a few hundred kilobytes.
const maxUpload = 4 << 20

func (s *gamePages) handleReplayForm(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, pageReplay, &ReplayData{Title: "Replay a game", Upload: true})
}

// handleReplayUpload shows an uploaded history file; it is never stored.
func (s *gamePages) handleReplayUpload(w http.ResponseWriter, r *http.Request) {
	if !s.checkOrigin(r) {
		http.Error(w, "cross-origin form post refused", http.StatusForbidden)
		return
	}
	fail := func(status int, format string, args ...any) {
		s.render(w, r, status, pageReplay, &ReplayData{Title: "Replay a game", Upload: true, Error: fmt.Sprintf(format, args...)})
	}
	tooBig := fmt.Sprintf("This file is larger than %d MB, too large for the history of one game.", maxUpload>>20) + chooseHistory
	r.Body = http.MaxBytesReader(w, r.Body, maxUpload+64<<10)
	if err := r.ParseMultipartForm(1 << 20); err != nil {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			fail(http.StatusRequestEntityTooLarge, "%s", tooBig)
			return
		}
		s.logf("replay upload: %v", err)
		fail(http.StatusBadRequest, "No file arrived with the form.%s", chooseHistory)
		return
	}
	f, _, err := r.FormFile("history")
	if err != nil {
		fail(http.StatusBadRequest, "No file was chosen.%s", chooseHistory)
		return
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxUpload+1))
	if err != nil {
		s.logf("replay upload: %v", err)
		fail(http.StatusBadRequest, "The file could not be read to its end; try choosing it again.")
		return
	}
	if len(data) > maxUpload {
		fail(http.StatusRequestEntityTooLarge, "%s", tooBig)
		return
	}
	h, err := recon.UnmarshalHistory(data)
	if err != nil {
		fail(http.StatusBadRequest, "%s", historyWords(data, err))
		return
	}
	s.renderReplay(w, r, http.StatusOK, h, "")
}

func (s *site) renderReplay(w http.ResponseWriter, r *http.Request, status int, h *recon.History, download string) {
	check, views := "", ""
	if n, err := recon.Playback(h, recon.PlaybackOptions{}); err != nil {
		// The sides' views are the arbiter's: for a record it disagrees
		// with, they would not be the record's, so only the true board is
		// offered.
		check = "The record does not replay through the arbiter: " + err.Error()
	} else {
		check = fmt.Sprintf("The arbiter replays all %d turns to the same results.", n)
		views = replayViews(h)
	}
	title := fmt.Sprintf("%s vs %s", nameOrUnknown(h.Names[game.White]), nameOrUnknown(h.Names[game.Black]))
	d := &ReplayData{Title: title, History: string(recon.MarshalHistory(h)), Check: check, DownloadURL: download, Views: views, Result: recon.ResultWords(h)}
	if t, _, ok := h.KingCaptureMove(); ok {
		d.KingCapture = recon.UCI(h.TakenMoves[t.Color][t.Number])
	}
	s.render(w, r, status, pageReplay, d)
}

func nameOrUnknown(s string) string {
	if s == "" {
		return "unnamed"
	}
	return s
}
