package web

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"

	"knightwatch/game"
	"knightwatch/play"
	"knightwatch/recon"
	"knightwatch/store"
)

// VariantRecon is Reconnaissance Chess on the new-game form.
const VariantRecon = "recon"

// ReconClockChoices are the clocks Reconnaissance Chess accepts (the form's
// clocks); the first, the reference's 15 minutes and 5 seconds a turn, is
// the default.
var ReconClockChoices = []string{"15+5", "none", "3+2", "5+3", "10+5", "15+10", "30+20"}

// formError is a refused new-game field: the person sees it on the form.
type formError struct{ msg string }

func (e *formError) Error() string { return e.msg }

func badField(format string, args ...any) error { return &formError{fmt.Sprintf(format, args...)} }

// createRecon validates the Reconnaissance Chess fields of the new-game
// form and creates the game; the error names the field.
func (s *Server) createRecon(r *http.Request, owner string) (*store.ReconGame, error) {
	var human store.Color
	switch r.PostForm.Get("color") {
	case "white":
		human = store.White
	case "black":
		human = store.Black
	case "random", "":
		human = store.ColorOf(game.Color(rand.IntN(2)))
	default:
		return nil, badField("color: must be white, black or random")
	}
	opponent := r.PostForm.Get("opponent")
	if opponent == "" {
		opponent = play.ReconOpponents[0].Spec
	}
	known := false
	for _, o := range play.ReconOpponents {
		known = known || o.Spec == opponent
	}
	if !known {
		return nil, badField("opponent: must be one of the bots offered")
	}
	clock := r.PostForm.Get("clock")
	if clock == "" {
		clock = ReconClockChoices[0]
	}
	found := false
	for _, c := range ReconClockChoices {
		found = found || c == clock
	}
	initialMS, incMS, ok := parseClockText(clock)
	if !found || !ok {
		return nil, badField("clock: must be one of %s for Reconnaissance Chess", strings.Join(ReconClockChoices, ", "))
	}
	rec := &store.ReconGame{
		Owner: owner, Human: human, Opponent: opponent, Seed: play.NewSeed(),
		ClockInitialMS: initialMS, ClockIncrementMS: incMS, WhiteMS: initialMS, BlackMS: initialMS,
	}
	if err := s.store.CreateReconGame(rec); err != nil {
		return nil, err
	}
	return rec, nil
}

// ReconSummary is a Reconnaissance Chess game in the home page's lists.
type ReconSummary struct {
	ID, URL, ReplayURL, HistoryURL string
	White, Black                   string
	Result, Reason                 string
	Date                           string
}

func reconSummary(g *store.ReconGame) ReconSummary {
	white, black := "You", play.OpponentName(g.Opponent)
	if g.Human == store.Black {
		white, black = black, white
	}
	date := g.UpdatedAt
	if g.FinishedAt != nil {
		date = *g.FinishedAt
	}
	return ReconSummary{
		ID: g.ID, URL: "/game/" + g.ID, ReplayURL: "/game/" + g.ID + "/replay", HistoryURL: "/game/" + g.ID + "/history.json",
		White: white, Black: black, Result: g.Result, Reason: winReasonWords(g.Reason),
		Date: date.UTC().Format("2006-01-02"),
	}
}

// reconLists fills the home page's lists of the owner's games.
func (s *Server) reconLists(d *HomeData, owner string) error {
	playing, err := s.store.ReconGames(owner, store.StatusPlaying, finishedListSize)
	if err != nil {
		return err
	}
	done, err := s.store.ReconGames(owner, store.StatusOver, finishedListSize)
	if err != nil {
		return err
	}
	d.ReconPlaying, d.ReconFinished = []ReconSummary{}, []ReconSummary{}
	for i := range playing {
		d.ReconPlaying = append(d.ReconPlaying, reconSummary(&playing[i]))
	}
	for i := range done {
		d.ReconFinished = append(d.ReconFinished, reconSummary(&done[i]))
	}
	return nil
}

// ReconGameData is recon.html's data.
type ReconGameData struct {
	ID, WSURL, OpponentName, Human string
	// APIGame marks a game of the HTTP API played in person: it has no
	// rematch, and "new game" leads back to the Bots page.
	APIGame bool
}

func (s *Server) ownedReconGame(w http.ResponseWriter, r *http.Request) (*store.ReconGame, bool) {
	owner, err := s.ensureOwner(w, r)
	if err != nil {
		s.serverError(w, err)
		return nil, false
	}
	g, err := s.store.GetOwnedReconGame(r.PathValue("id"), owner)
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

func (s *Server) handleReconPage(w http.ResponseWriter, r *http.Request) {
	owner, err := s.ensureOwner(w, r)
	if err != nil {
		s.serverError(w, err)
		return
	}
	g, err := s.store.GetOwnedReconGame(r.PathValue("id"), owner)
	if errors.Is(err, store.ErrNotFound) {
		s.notFoundPage(w, notYoursTitle, notYoursText) // as for a chess game's page
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
	s.render(w, http.StatusOK, pageRecon, &ReconGameData{
		ID: g.ID, WSURL: s.wsURL(r, "/ws/game/"+g.ID),
		OpponentName: play.OpponentName(g.Opponent), Human: g.Human.String(),
	})
}

// handleReconHistory sends a finished game's history in the reference's
// format. An unfinished game's history holds the true board, which the
// person must not see: 404 until the end.
func (s *Server) handleReconHistory(w http.ResponseWriter, r *http.Request) {
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
	Check       string
	Error       string
	DownloadURL string
	Upload      bool
}

func (s *Server) handleReconReplay(w http.ResponseWriter, r *http.Request) {
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
	s.renderReplay(w, http.StatusOK, h, "/game/"+g.ID+"/history.json")
}

// maxUpload bounds an uploaded history: the longest games the reference
// writes are a few hundred kilobytes.
const maxUpload = 4 << 20

func (s *Server) handleReplayForm(w http.ResponseWriter, r *http.Request) {
	s.render(w, http.StatusOK, pageReplay, &ReplayData{Title: "Replay a game", Upload: true})
}

// handleReplayUpload shows an uploaded history file; it is never stored.
func (s *Server) handleReplayUpload(w http.ResponseWriter, r *http.Request) {
	if !s.checkOrigin(r) {
		http.Error(w, "cross-origin form post refused", http.StatusForbidden)
		return
	}
	fail := func(status int, format string, args ...any) {
		s.render(w, status, pageReplay, &ReplayData{Title: "Replay a game", Upload: true, Error: fmt.Sprintf(format, args...)})
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
	s.renderReplay(w, http.StatusOK, h, "")
}

func (s *Server) renderReplay(w http.ResponseWriter, status int, h *recon.History, download string) {
	check := ""
	if n, err := recon.Playback(h, recon.PlaybackOptions{}); err != nil {
		check = "The record does not replay through the arbiter: " + err.Error()
	} else {
		check = fmt.Sprintf("The arbiter replays all %d turns to the same results.", n)
	}
	title := fmt.Sprintf("%s vs %s", nameOrUnknown(h.Names[game.White]), nameOrUnknown(h.Names[game.Black]))
	s.render(w, status, pageReplay, &ReplayData{Title: title, History: string(recon.MarshalHistory(h)), Check: check, DownloadURL: download})
}

func nameOrUnknown(s string) string {
	if s == "" {
		return "unnamed"
	}
	return s
}
