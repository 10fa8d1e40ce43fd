package rbcapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
	"knightwatch/store"
)

// gameCall is one game endpoint, for player c of table t.
type gameCall func(w http.ResponseWriter, r *http.Request, t *table, c game.Color)

// gameEndpoints are the game endpoints of section 4.11.4, by method and
// last path element.
var gameEndpoints = []struct {
	method, name string
	handle       gameCall
}{
	{"GET", "color", apiColor},
	{"GET", "starting_board", apiStartingBoard},
	{"GET", "opponent_name", apiOpponentName},
	{"POST", "ready", apiReady},
	{"GET", "sense_actions", apiSenseActions},
	{"GET", "move_actions", apiMoveActions},
	{"GET", "seconds_left", apiSecondsLeft},
	{"GET", "opponent_move_results", apiOpponentMoveResults},
	{"POST", "sense", apiSense},
	{"POST", "move", apiMove},
	{"POST", "end_turn", apiEndTurn},
	{"GET", "is_over", apiIsOver},
	{"POST", "resign", apiResign},
	{"POST", "error_resign", apiErrorResign},
	{"GET", "is_my_turn", apiIsMyTurn},
	{"GET", "game_status", apiGameStatus},
	{"GET", "winner_color", apiWinnerColor},
	{"GET", "win_reason", apiWinReason},
	{"GET", "game_history", apiGameHistory},
}

// gameEndpoint finds the game and the caller's seat in it: 404 when there
// is no such game, 401 when the caller does not play in it (another
// user's game tells nothing, not even its state).
func (h *handlers) gameEndpoint(call gameCall) userHandler {
	return func(w http.ResponseWriter, r *http.Request, u *store.User) {
		id, ok := pathID(r, "id")
		if !ok {
			writeError(w, errorf(http.StatusNotFound, "game does not exist"))
			return
		}
		t, err := h.a.tableFor(id)
		switch {
		case errors.Is(err, store.ErrNotFound):
			writeError(w, errorf(http.StatusNotFound, "game does not exist"))
			return
		case err != nil:
			h.a.logf("game %d: %v", id, err)
			writeError(w, errorf(http.StatusInternalServerError, "could not load the game; try again"))
			return
		}
		c, ok := t.colorOf(u.ID)
		if !ok {
			writeError(w, errorf(http.StatusUnauthorized, "you are not a player in game %d", id))
			return
		}
		call(w, r, t, c)
	}
}

// The reference's typed JSON values (reconchess.utilities.ChessJSONEncoder).

type typedValue struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

// moveValue is a move as {"type": "Move", "value": uci}, or null.
func moveValue(m game.Move) any {
	if m == game.NoMove {
		return nil
	}
	return typedValue{"Move", recon.UCI(m)}
}

// squareValue is a square's number, or null.
func squareValue(s game.Square) any {
	if s == game.NoSquare {
		return nil
	}
	return int(s)
}

func senseResultValue(r recon.SenseResult) [][2]any {
	out := make([][2]any, len(r))
	for i, sp := range r {
		var piece any
		if sp.Piece != game.NoPiece {
			piece = typedValue{"Piece", string(sp.Piece.Letter())}
		}
		out[i] = [2]any{int(sp.Square), piece}
	}
	return out
}

func apiColor(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	writeJSON(w, http.StatusOK, map[string]any{"color": c == game.White})
}

func apiStartingBoard(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	b := recon.NewBoard()
	writeJSON(w, http.StatusOK, map[string]any{"board": typedValue{"Board", b.FEN()}})
}

func apiOpponentName(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	writeJSON(w, http.StatusOK, map[string]any{"opponent_name": t.names[c.Other()]})
}

func apiReady(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	if e := t.ready(c, time.Now()); e != nil {
		writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{})
}

func apiSenseActions(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	v := t.view(c, time.Now())
	var out []int
	if v.senseActions != nil {
		out = make([]int, len(v.senseActions))
		for i, s := range v.senseActions {
			out[i] = int(s)
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"sense_actions": out})
}

func apiMoveActions(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	v := t.view(c, time.Now())
	var out []any
	if v.moveActions != nil {
		out = make([]any, len(v.moveActions))
		for i, m := range v.moveActions {
			out[i] = moveValue(m)
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"move_actions": out})
}

func apiSecondsLeft(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	v := t.view(c, time.Now())
	writeJSON(w, http.StatusOK, map[string]any{"seconds_left": max(v.secondsLeft, 0).Seconds()})
}

func apiOpponentMoveResults(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	v := t.view(c, time.Now())
	if v.over {
		writeError(w, errorf(http.StatusBadRequest, "the game is over"))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"opponent_move_results": squareValue(v.opponentCapture)})
}

// parseSenseRequest reads a sense body: {"square": 0..63 or null}.
func parseSenseRequest(fields map[string]json.RawMessage) (game.Square, *Error) {
	var sq *int
	if e := field(fields, "square", &sq, "a square from 0 to 63, or null to sense nothing"); e != nil {
		return game.NoSquare, e
	}
	if sq == nil {
		return game.NoSquare, nil
	}
	if *sq < 0 || *sq > 63 {
		return game.NoSquare, errorf(http.StatusBadRequest, "square %d is not from 0 to 63", *sq)
	}
	return game.Square(*sq), nil
}

// parseMoveRequest reads a move body: {"requested_move": a move or null}.
func parseMoveRequest(fields map[string]json.RawMessage) (game.Move, *Error) {
	raw, ok := fields["requested_move"]
	if !ok {
		return game.NoMove, errorf(http.StatusBadRequest, `"requested_move" is missing (a move, or null to pass)`)
	}
	return parseMoveValue(raw)
}

func apiSense(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	fields, e := readBody(w, r)
	s := game.NoSquare
	if e == nil {
		s, e = parseSenseRequest(fields)
	}
	if e != nil {
		writeError(w, e)
		return
	}
	result, e := t.sense(c, s, time.Now())
	if e != nil {
		writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"sense_result": senseResultValue(result)})
}

// parseMoveValue reads {"type": "Move", "value": uci} or null (a pass).
func parseMoveValue(raw json.RawMessage) (game.Move, *Error) {
	var v *typedValue
	if err := json.Unmarshal(raw, &v); err != nil {
		return game.NoMove, errorf(http.StatusBadRequest, `"requested_move" must be {"type": "Move", "value": "<uci>"} or null, not %s`, shortJSON(raw))
	}
	if v == nil {
		return game.NoMove, nil
	}
	if v.Type != "Move" {
		return game.NoMove, errorf(http.StatusBadRequest, `"requested_move" has type %q, want "Move"`, v.Type)
	}
	m, err := recon.ParseMove(v.Value)
	if err != nil || m == game.NoMove {
		return game.NoMove, errorf(http.StatusBadRequest, "%q is not a move in UCI", v.Value)
	}
	return m, nil
}

func apiMove(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	fields, e := readBody(w, r)
	m := game.NoMove
	if e == nil {
		m, e = parseMoveRequest(fields)
	}
	if e != nil {
		writeError(w, e)
		return
	}
	res, e := t.move(c, m, false, time.Now())
	if e != nil {
		writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"move_result": []any{moveValue(res.Requested), moveValue(res.Taken), squareValue(res.Capture)}})
}

func apiEndTurn(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	if e := t.endTurn(c, time.Now()); e != nil {
		writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{})
}

func apiIsOver(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	writeJSON(w, http.StatusOK, map[string]any{"is_over": t.view(c, time.Now()).over})
}

func apiResign(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	if e := t.resign(c, time.Now()); e != nil {
		writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{})
}

func apiErrorResign(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	if e := t.errorResign(c, time.Now()); e != nil {
		writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{})
}

func apiIsMyTurn(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	writeJSON(w, http.StatusOK, map[string]any{"is_my_turn": t.view(c, time.Now()).myTurn})
}

func apiGameStatus(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	v := t.view(c, time.Now())
	writeJSON(w, http.StatusOK, map[string]any{"is_my_turn": v.myTurn, "is_over": v.over})
}

// finished returns the view of a game that must be over, or writes 400.
func finished(w http.ResponseWriter, t *table, c game.Color) (apiView, bool) {
	v := t.view(c, time.Now())
	if !v.over {
		writeError(w, errorf(http.StatusBadRequest, "the game is not over"))
	}
	return v, v.over
}

func apiWinnerColor(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	v, ok := finished(w, t, c)
	if !ok {
		return
	}
	var winner any
	if v.outcome.Decisive {
		winner = v.outcome.Winner == game.White
	}
	writeJSON(w, http.StatusOK, map[string]any{"winner_color": winner})
}

func apiWinReason(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	v, ok := finished(w, t, c)
	if !ok {
		return
	}
	var reason any // null for a game called off before it started
	if v.outcome.Over() {
		reason = typedValue{"WinReason", v.outcome.Reason.String()}
	}
	writeJSON(w, http.StatusOK, map[string]any{"win_reason": reason})
}

func apiGameHistory(w http.ResponseWriter, r *http.Request, t *table, c game.Color) {
	v, ok := finished(w, t, c)
	if !ok {
		return
	}
	// Written by hand so that the history inside is byte for byte the file
	// the reference would save (json.Encoder would compact it).
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(`{"game_history": `))
	_, _ = w.Write(v.history)
	_, _ = w.Write([]byte("}\n"))
}
