package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
)

// apiClient calls the HTTP API as one user, the way the reference's
// RBCServer (rc-connect) and RemoteGame do: Basic auth on every call, the
// bodies they send, the fields they read.
type apiClient struct {
	t          testing.TB
	base       string
	user, pass string
	http       *http.Client
	// sig is the server's signal (testEnv.sig): a client waiting for its
	// turn asks again each time it is poked.
	sig *signal
}

func (e *testEnv) apiClient(user, pass string) *apiClient {
	return &apiClient{t: e.t, base: e.ts.URL, user: user, pass: pass, http: &http.Client{Timeout: 30 * time.Second}, sig: e.sig}
}

// call makes one request (body nil: none; a string: sent as is; anything
// else: as JSON, the way RemoteGame posts without a content type) and
// returns the status and the decoded JSON object.
func (c *apiClient) call(method, path string, body any) (int, map[string]json.RawMessage) {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if c.user != "" {
		req.SetBasicAuth(c.user, c.pass)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var out map[string]json.RawMessage
	if err := json.Unmarshal(data, &out); err != nil {
		c.t.Fatalf("%s %s: status %d, body not a JSON object: %q", method, path, resp.StatusCode, data)
	}
	return resp.StatusCode, out
}

// must makes a call that must succeed and decodes field into v.
func (c *apiClient) must(method, path string, body any, field string, v any) {
	c.t.Helper()
	status, out := c.call(method, path, body)
	if status != http.StatusOK {
		c.t.Fatalf("%s %s as %s: status %d %s", method, path, c.user, status, out["error"])
	}
	if field == "" {
		return
	}
	raw, ok := out[field]
	if !ok {
		c.t.Fatalf("%s %s: no %q in %v", method, path, field, out)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		c.t.Fatalf("%s %s: %q: %v", method, path, field, err)
	}
}

func (c *apiClient) register() {
	c.t.Helper()
	status, out := c.call("POST", "/api/users/", map[string]string{"username": c.user, "email": c.user + "@example.org", "affiliation": "tests", "password": c.pass})
	if status != http.StatusOK {
		c.t.Fatalf("register %s: %d %s", c.user, status, out["error"])
	}
}

func (c *apiClient) invite(opponent string, white bool) int64 {
	c.t.Helper()
	var id int64
	c.must("POST", "/api/invitations/", map[string]any{"opponent": opponent, "color": white}, "game_id", &id)
	return id
}

type typedJSON struct {
	Type  string  `json:"type"`
	Value *string `json:"value"`
}

// remoteResult is what play_remote_game returns.
type remoteResult struct {
	winner  *bool
	reason  string
	history []byte
}

// playRemote plays game id for p exactly as reconchess's play_remote_game
// does: color, starting_board, opponent_name, ready, then while
// game_status says not over, a turn when it says it is ours (sense_actions,
// move_actions, opponent_move_results, sense, seconds_left, move, end_turn),
// and at the end winner_color, win_reason and game_history. Where the
// reference polls every half second, it asks again each time the server
// has written to its store (a step of either side, the game's start or
// end are all written).
func (c *apiClient) playRemote(ctx context.Context, id int64, p recon.Player) remoteResult {
	c.t.Helper()
	g := fmt.Sprintf("/api/games/%d/", id)
	var white bool
	c.must("GET", g+"color", nil, "color", &white)
	var board typedJSON
	c.must("GET", g+"starting_board", nil, "board", &board)
	if board.Type != "Board" || board.Value == nil {
		c.t.Fatalf("starting board %+v", board)
	}
	start, err := recon.ParseBoard(*board.Value)
	if err != nil {
		c.t.Fatal(err)
	}
	var opponent string
	c.must("GET", g+"opponent_name", nil, "opponent_name", &opponent)
	color := game.Black
	if white {
		color = game.White
	}
	p.Start(color, start, opponent)
	c.must("POST", g+"ready", map[string]any{}, "", nil)
	for {
		var st struct {
			IsMyTurn bool `json:"is_my_turn"`
			IsOver   bool `json:"is_over"`
		}
		changed := c.sig.wait()
		status, out := c.call("GET", g+"game_status", nil)
		if status != http.StatusOK {
			c.t.Fatalf("game_status: %d %s", status, out["error"])
		}
		_ = json.Unmarshal(out["is_my_turn"], &st.IsMyTurn)
		_ = json.Unmarshal(out["is_over"], &st.IsOver)
		if st.IsOver {
			break
		}
		if !st.IsMyTurn {
			select {
			case <-ctx.Done():
				c.t.Fatalf("game %d: gave up waiting for our turn", id)
			case <-changed:
			}
			continue
		}
		c.playTurn(ctx, g, p)
	}
	var res remoteResult
	c.must("GET", g+"winner_color", nil, "winner_color", &res.winner)
	var reason typedJSON
	c.must("GET", g+"win_reason", nil, "win_reason", &reason)
	if reason.Type != "WinReason" || reason.Value == nil {
		// null: the game was called off before it started (rbcapi/API.md)
		c.t.Fatalf("game %d over with win_reason %+v: called off before it started?", id, reason)
	}
	res.reason = *reason.Value
	var hist json.RawMessage
	c.must("GET", g+"game_history", nil, "game_history", &hist)
	res.history = hist
	return res
}

// playTurn is reconchess's play_turn over the API.
func (c *apiClient) playTurn(ctx context.Context, g string, p recon.Player) {
	c.t.Helper()
	var senseInts []int
	c.must("GET", g+"sense_actions", nil, "sense_actions", &senseInts)
	var moveJSON []typedJSON
	c.must("GET", g+"move_actions", nil, "move_actions", &moveJSON)
	senseActions := make([]game.Square, len(senseInts))
	for i, s := range senseInts {
		senseActions[i] = game.Square(s)
	}
	moveActions := make([]game.Move, len(moveJSON))
	for i, m := range moveJSON {
		mv, err := recon.ParseMove(*m.Value)
		if err != nil || m.Type != "Move" {
			c.t.Fatalf("move action %+v", m)
		}
		moveActions[i] = mv
	}
	var capture *int
	c.must("GET", g+"opponent_move_results", nil, "opponent_move_results", &capture)
	p.OpponentMoveResult(squareOrNone(capture))
	var left float64
	c.must("GET", g+"seconds_left", nil, "seconds_left", &left)
	s := p.ChooseSense(ctx, senseActions, moveActions, time.Duration(left*float64(time.Second)))
	var sq any
	if s != game.NoSquare {
		sq = int(s)
	}
	var senseJSON [][2]json.RawMessage
	c.must("POST", g+"sense", map[string]any{"square": sq}, "sense_result", &senseJSON)
	result := make(recon.SenseResult, len(senseJSON))
	for i, pair := range senseJSON {
		var sqi int
		var piece *typedJSON
		if json.Unmarshal(pair[0], &sqi) != nil || json.Unmarshal(pair[1], &piece) != nil {
			c.t.Fatalf("sense result %s", senseJSON)
		}
		result[i] = recon.SquarePiece{Square: game.Square(sqi), Piece: game.NoPiece}
		if piece != nil {
			pc, ok := game.PieceFromLetter((*piece.Value)[0])
			if !ok || piece.Type != "Piece" {
				c.t.Fatalf("sense result piece %+v", piece)
			}
			result[i].Piece = pc
		}
	}
	p.SenseResult(result)
	c.must("GET", g+"seconds_left", nil, "seconds_left", &left)
	m := p.ChooseMove(ctx, moveActions, time.Duration(left*float64(time.Second)))
	var req any
	if m != game.NoMove {
		req = map[string]string{"type": "Move", "value": recon.UCI(m)}
	}
	var moveResult [3]json.RawMessage
	c.must("POST", g+"move", map[string]any{"requested_move": req}, "move_result", &moveResult)
	c.must("POST", g+"end_turn", map[string]any{}, "", nil)
	res := recon.MoveResult{Requested: m, Taken: game.NoMove, Capture: game.NoSquare}
	var taken *typedJSON
	if err := json.Unmarshal(moveResult[1], &taken); err != nil {
		c.t.Fatalf("move result %s", moveResult)
	}
	if taken != nil {
		mv, err := recon.ParseMove(*taken.Value)
		if err != nil {
			c.t.Fatal(err)
		}
		res.Taken = mv
	}
	var cap2 *int
	if err := json.Unmarshal(moveResult[2], &cap2); err != nil {
		c.t.Fatalf("move result %s", moveResult)
	}
	res.Capture = squareOrNone(cap2)
	p.MoveResult(res)
}

func squareOrNone(s *int) game.Square {
	if s == nil {
		return game.NoSquare
	}
	return game.Square(*s)
}

// playRemoteFromTurn plays on a game already started (no ready), from
// whatever turn it is at, to the end.
func (c *apiClient) playRemoteFromTurn(ctx context.Context, id int64, p recon.Player) remoteResult {
	c.t.Helper()
	g := fmt.Sprintf("/api/games/%d/", id)
	var white bool
	c.must("GET", g+"color", nil, "color", &white)
	color := game.Black
	if white {
		color = game.White
	}
	p.Start(color, recon.NewBoard(), "")
	for {
		var over, mine bool
		changed := c.sig.wait()
		c.must("GET", g+"is_over", nil, "is_over", &over)
		if over {
			break
		}
		c.must("GET", g+"is_my_turn", nil, "is_my_turn", &mine)
		if !mine {
			select {
			case <-ctx.Done():
				c.t.Errorf("game %d: gave up waiting for our turn", id)
				return remoteResult{}
			case <-changed:
			}
			continue
		}
		c.playTurn(ctx, g, p)
	}
	var res remoteResult
	var hist json.RawMessage
	c.must("GET", g+"game_history", nil, "game_history", &hist)
	res.history = hist
	return res
}

// myTurn says whether it is c's turn in game path g (/api/games/N/), as
// is_my_turn answers (false when the call fails).
func (c *apiClient) myTurn(g string) bool {
	_, out := c.call("GET", g+"is_my_turn", nil)
	var mine bool
	_ = json.Unmarshal(out["is_my_turn"], &mine)
	return mine
}
