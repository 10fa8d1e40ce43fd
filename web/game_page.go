package web

import (
	"bytes"
	"errors"
	"net/http"
	"path"
	"strings"

	"knightwatch/store"
)

// gamePages serve a game's pages and files: the board page of either
// kind, the PGN, the tablebase's verdicts, the history and replay of a
// Reconnaissance Chess game (and of an uploaded history), the spectator's
// page, and the page of what the engine has learnt.
type gamePages struct{ *site }

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

// ownedGame loads the request's game for its owner, replying 404 when it
// is missing or someone else's (the two are indistinguishable on purpose).
func (s *gamePages) ownedGame(w http.ResponseWriter, r *http.Request) (*store.Game, bool) {
	owner, err := s.ensureOwner(w, r)
	if err != nil {
		s.serverError(w, err)
		return nil, false
	}
	g, err := s.store.Games().GetOwnedGame(r.PathValue("id"), owner)
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

func (s *gamePages) handleGamePage(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.PathValue("id"), store.ReconIDPrefix) {
		s.handleReconPage(w, r)
		return
	}
	owner, err := s.ensureOwner(w, r)
	if err != nil {
		s.serverError(w, err)
		return
	}
	g, err := s.store.Games().GetOwnedGame(r.PathValue("id"), owner)
	if errors.Is(err, store.ErrNotFound) {
		// Someone else's game and a missing one look the same, in words.
		s.notFoundPage(w, r, notYoursTitle, notYoursText)
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
	s.render(w, r, http.StatusOK, pageGame, d)
}

func (s *gamePages) handlePGN(w http.ResponseWriter, r *http.Request) {
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
