package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"knightwatch/game"
)

// The JSON bodies of the learn and puzzle pages' moves (learn.go,
// puzzles.go): small, parsed strictly, each refusal a sentence.

// trainingBodyLimit bounds a learn or puzzle body: a puzzle's line is at
// most a dozen moves.
const trainingBodyLimit = 2048

// learnBody is a learn page's post: a move tried at mistake Index, or an
// Action ("solution", "skip", "restart") there.
type learnBody struct {
	Index  int    `json:"index"`
	Move   string `json:"move"`
	Action string `json:"action"`
}

// puzzleBody is a puzzle page's post: the line so far (the solver's moves
// and the replies, ending with the solver's newest), or GiveUp after it.
type puzzleBody struct {
	Moves  []string `json:"moves"`
	GiveUp bool     `json:"giveUp"`
}

// maxPuzzleMoves bounds a puzzle body's line.
const maxPuzzleMoves = 32

// validUCI accepts the form of a UCI move (e2e4, e7e8q), nothing else.
func validUCI(s string) bool {
	if len(s) != 4 && len(s) != 5 {
		return false
	}
	sq := func(f, r byte) bool { return f >= 'a' && f <= 'h' && r >= '1' && r <= '8' }
	if !sq(s[0], s[1]) || !sq(s[2], s[3]) {
		return false
	}
	return len(s) == 4 || bytes.IndexByte([]byte("qrbn"), s[4]) >= 0
}

// decodeStrict reads exactly one JSON object of v's fields from b.
func decodeStrict(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("the request is not the JSON this page sends: %v", err)
	}
	if d.More() {
		return errors.New("the request has more than one JSON value")
	}
	return nil
}

// parseLearnBody reads a learn post.
func parseLearnBody(b []byte) (learnBody, error) {
	var v learnBody
	if err := decodeStrict(b, &v); err != nil {
		return learnBody{}, err
	}
	if v.Index < 0 || v.Index > 10_000 {
		return learnBody{}, errors.New("no such position")
	}
	switch v.Action {
	case "":
		if !validUCI(v.Move) {
			return learnBody{}, errors.New("the move is not a move in coordinates, such as e2e4")
		}
	case "solution", "skip", "restart":
		if v.Move != "" {
			return learnBody{}, errors.New("an action comes without a move")
		}
	default:
		return learnBody{}, fmt.Errorf("unknown action %q", v.Action)
	}
	return v, nil
}

// parsePuzzleBody reads a puzzle post.
func parsePuzzleBody(b []byte) (puzzleBody, error) {
	var v puzzleBody
	if err := decodeStrict(b, &v); err != nil {
		return puzzleBody{}, err
	}
	if len(v.Moves) > maxPuzzleMoves || (len(v.Moves) == 0 && !v.GiveUp) {
		return puzzleBody{}, errors.New("the moves are not a puzzle's line")
	}
	for _, m := range v.Moves {
		if !validUCI(m) {
			return puzzleBody{}, errors.New("a move is not a move in coordinates, such as e2e4")
		}
	}
	return v, nil
}

// readTrainingBody checks that a post comes from this site's pages and
// reads its body; otherwise it answers 403, 413 or 400 and reports false.
func (s *site) readTrainingBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	if !s.checkOrigin(r) {
		writeTrainingError(w, http.StatusForbidden, "cross-origin post refused")
		return nil, false
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, trainingBodyLimit))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		writeTrainingError(w, http.StatusRequestEntityTooLarge, "the request is too large")
		return nil, false
	}
	if err != nil {
		writeTrainingError(w, http.StatusBadRequest, "the request could not be read")
		return nil, false
	}
	return b, true
}

// writeJSON answers v as JSON.
func writeTrainingJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeTrainingError answers {"error": msg}.
func writeTrainingError(w http.ResponseWriter, status int, msg string) {
	writeTrainingJSON(w, status, map[string]string{"error": msg})
}

// destsOf is pos's legal moves as the board takes them: from -> [to]
// (a promotion's square once; the page promotes to a queen).
func destsOf(pos *game.Position) map[string][]string {
	out := map[string][]string{}
	seen := map[string]bool{}
	for _, m := range pos.LegalMoves() {
		u := pos.UCI(m)
		from, to := u[:2], u[2:4]
		if seen[from+to] {
			continue
		}
		seen[from+to] = true
		out[from] = append(out[from], to)
	}
	return out
}
