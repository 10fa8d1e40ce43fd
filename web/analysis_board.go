package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"knightwatch/analysisboard"
	"knightwatch/game"
	"knightwatch/store"
)

// The analysis board (/analysis): the page, the import and export of its
// tree, and (analysis_board_socket.go) its socket. The tree itself lives
// in the page; package analysisboard reads and writes it and runs the
// engine's lines.

// pageAnalysis is the analysis board's page.
const pageAnalysis = "analysis.html"

// AnalysisData is the analysis page's data: its socket, the tree it
// opens with (a Study as JSON; empty: the start position, or what the
// browser kept), the path of the node to show (as "0.0.1": the index of
// the child at each step), and for a signed-in player the saved
// analyses and the one open.
type AnalysisData struct {
	WSURL    string
	Study    string
	Path     string
	Error    string
	SignedIn bool
	Saved    []SavedAnalysisView
	// SavedID and SavedName name the saved analysis the page opened; 0
	// and "" for a new one.
	SavedID   int64
	SavedName string
}

// SavedAnalysisView is one saved analysis in the page's list.
type SavedAnalysisView struct {
	ID      int64
	Name    string
	URL     string
	Updated string
}

// analysisPages serves the analysis board.
type analysisPages struct {
	*site
	game    *gamePages
	sockets *sockets
	limiter *analysisboard.Limiter
}

// handleWS serves GET /ws/analysis (analysis_board_socket.go).
func (s *analysisPages) handleWS(w http.ResponseWriter, r *http.Request) {
	s.sockets.handleAnalysisWS(w, r, s.limiter)
}

// handleAnalysisPage serves GET /analysis: the board at the start
// position, or at ?fen=, or a finished game of the browser's at ?game=
// (its node ?ply= shown), or a saved analysis at ?saved=.
func (s *analysisPages) handleAnalysisPage(w http.ResponseWriter, r *http.Request) {
	who := s.identify(r)
	if who.owner == "" {
		if _, err := s.ensureOwner(w, r); err != nil {
			s.serverError(w, err)
			return
		}
	}
	data := &AnalysisData{WSURL: s.wsURL(r, "/ws/analysis"), SignedIn: who.user != nil}
	q := r.URL.Query()
	var study *analysisboard.Study
	var err error
	switch {
	case q.Get("game") != "":
		study, err = s.gameStudy(who.owner, q.Get("game"))
		if ply, perr := strconv.Atoi(q.Get("ply")); perr == nil && study != nil {
			data.Path = mainlinePath(study, ply)
		}
	case q.Get("fen") != "":
		study, err = analysisboard.Import(q.Get("fen"))
	case q.Get("saved") != "" && who.user != nil:
		study, data.SavedID, data.SavedName, err = s.savedStudy(who.user.ID, q.Get("saved"))
	}
	status := http.StatusOK
	if err != nil {
		data.Error = err.Error()
		status = http.StatusBadRequest
		switch {
		case errors.Is(err, store.ErrNotFound):
			data.Error = "No such analysis or finished game of yours."
			status = http.StatusNotFound
		case errors.Is(err, errGameInPlay):
			data.Error = "This game is still being played: it can be analysed once it is over."
		}
	}
	if study != nil {
		b, err := json.Marshal(study)
		if err != nil {
			s.serverError(w, err)
			return
		}
		data.Study = string(b)
	}
	if who.user != nil {
		data.Saved, err = s.savedList(who.user.ID)
		if err != nil {
			s.logf("saved analyses of %d: %v", who.user.ID, err)
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	s.render(w, r, status, pageAnalysis, data)
}

// errGameInPlay is gameStudy's refusal of a game not over yet.
var errGameInPlay = errors.New("web: the game is still being played")

// gameStudy is owner's finished game id as a study; a game in play is
// refused (the engine's lines would help its player).
func (s *analysisPages) gameStudy(owner, id string) (*analysisboard.Study, error) {
	if owner == "" {
		return nil, store.ErrNotFound
	}
	rec, err := s.store.Games().GetOwnedGame(id, owner)
	if err != nil {
		return nil, err
	}
	if rec.Status == store.StatusDeleted {
		return nil, store.ErrNotFound
	}
	if rec.Status != store.StatusOver {
		return nil, errGameInPlay
	}
	g, err := rec.Replay()
	if err != nil {
		return nil, err
	}
	pg, err := game.PGNGameOf(g, append(s.game.pgnTags(rec, ""), openingTags(g)...))
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := pg.Write(&buf); err != nil {
		return nil, err
	}
	return analysisboard.Import(buf.String())
}

// mainlinePath is the path of the main line's node after ply moves (at
// most its length), in the page's form.
func mainlinePath(st *analysisboard.Study, ply int) string {
	path := ""
	nodes := st.Moves
	for i := 0; i < ply && len(nodes) > 0; i++ {
		if path != "" {
			path += "."
		}
		path += "0"
		nodes = nodes[0].Children
	}
	return path
}

// importError is the import route's answer to a text it cannot read: the
// error in words and, for a PGN, its line and column.
type importError struct {
	Error string `json:"error"`
	Line  int    `json:"line,omitempty"`
	Col   int    `json:"col,omitempty"`
}

// handleImport serves POST /analysis/import: the form field "text", a FEN
// or a PGN, as a Study in JSON; 400 with an importError otherwise.
func (s *analysisPages) handleImport(w http.ResponseWriter, r *http.Request) {
	if !s.checkOrigin(r) {
		http.Error(w, "cross-site request refused", http.StatusForbidden)
		return
	}
	text, ok := formText(w, r, "text")
	if !ok {
		return
	}
	st, err := analysisboard.Import(text)
	if err != nil {
		ie := importError{Error: err.Error()}
		var pe *game.PGNError
		if errors.As(err, &pe) {
			ie.Line, ie.Col = pe.Line, pe.Col
		}
		writeJSON(w, http.StatusBadRequest, ie)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

// handleExport serves POST /analysis/export: the form field "study", a
// Study in JSON, as PGN text; 400 with the fault in words when a move is
// not legal or the tree too large.
func (s *analysisPages) handleExport(w http.ResponseWriter, r *http.Request) {
	if !s.checkOrigin(r) {
		http.Error(w, "cross-site request refused", http.StatusForbidden)
		return
	}
	_, pgn, ok := studyPGN(w, r)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write([]byte(pgn))
}

// maxStudyForm bounds the import and export forms: a PGN of
// analysisboard.MaxPGNBytes, or its tree in JSON (larger: each move
// carries its FEN).
const maxStudyForm = 4 << 20

// formText reads one field of a multipart or urlencoded form, answering
// 400 in words when it is missing or the form unreadable.
func formText(w http.ResponseWriter, r *http.Request, field string) (string, bool) {
	if err := r.ParseMultipartForm(maxStudyForm); err != nil && !errors.Is(err, http.ErrNotMultipart) {
		writeJSON(w, http.StatusBadRequest, importError{Error: "the form could not be read: " + err.Error()})
		return "", false
	}
	v := r.FormValue(field)
	if v == "" {
		writeJSON(w, http.StatusBadRequest, importError{Error: "nothing to read: the form's " + field + " is empty"})
		return "", false
	}
	return v, true
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b)
}

// studyPGN reads the form field "study", a Study in JSON, and writes it
// as PGN; a bad tree is answered 400 with the fault in words, and ok is
// false. Export and save both take the tree this way.
func studyPGN(w http.ResponseWriter, r *http.Request) (st *analysisboard.Study, pgn string, ok bool) {
	text, ok := formText(w, r, "study")
	if !ok {
		return nil, "", false
	}
	st = &analysisboard.Study{}
	if err := json.Unmarshal([]byte(text), st); err != nil {
		writeJSON(w, http.StatusBadRequest, importError{Error: "not a tree: " + err.Error()})
		return nil, "", false
	}
	pgn, err := analysisboard.Export(st)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, importError{Error: err.Error()})
		return nil, "", false
	}
	return st, pgn, true
}
