package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// apiBotFlood is n remote bots, each playing game after game over the
// reconchess HTTP API against the built-in knightwatch, which spends its
// clock on the server's bot cores (serve --rbc-bot-cores) and thinks on
// their turns: the remote bots answer at once (a random sense and move),
// so the built-in bots are thinking nearly all the time.
type apiBotFlood struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	turns  atomic.Int64 // the remote bots' turns played
	games  atomic.Int64 // games finished
	errs   atomic.Int64
	last   atomic.Value // the last error, a string
}

// startAPIBotFlood registers n remote users on base and starts their
// games against the built-in knightwatch.
func startAPIBotFlood(base string, n int) (*apiBotFlood, error) {
	ctx, cancel := context.WithCancel(context.Background())
	f := &apiBotFlood{cancel: cancel}
	hc := &http.Client{Timeout: 60 * time.Second}
	for i := range n {
		c := &apiClient{base: base, user: fmt.Sprintf("remote%d", i), pass: "remote-password", hc: hc}
		if err := c.call("POST", "/api/users/", map[string]string{"username": c.user, "email": "", "affiliation": "", "password": c.pass}, nil); err != nil {
			cancel()
			return nil, err
		}
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 46))
			for ctx.Err() == nil {
				if err := f.playOne(ctx, c, rng); err != nil && ctx.Err() == nil {
					f.errs.Add(1)
					f.last.Store(err.Error())
					time.Sleep(time.Second)
				}
			}
		}()
	}
	return f, nil
}

// Stop ends the flood's games (they are left to time out) and waits.
func (f *apiBotFlood) Stop() {
	f.cancel()
	f.wg.Wait()
}

// Note says what the flood did.
func (f *apiBotFlood) Note() string {
	s := fmt.Sprintf("%d remote turns, %d games over", f.turns.Load(), f.games.Load())
	if e := f.errs.Load(); e > 0 {
		s += fmt.Sprintf(", %d errors (last: %v)", e, f.last.Load())
	}
	return s
}

// playOne plays one game as White against the built-in knightwatch.
func (f *apiBotFlood) playOne(ctx context.Context, c *apiClient, rng *rand.Rand) error {
	var created struct {
		GameID int64 `json:"game_id"`
	}
	if err := c.call("POST", "/api/invitations/", map[string]any{"opponent": "knightwatch", "color": true}, &created); err != nil {
		return err
	}
	g := fmt.Sprintf("/api/games/%d/", created.GameID)
	if err := c.call("POST", g+"ready", map[string]any{}, nil); err != nil {
		return err
	}
	for ctx.Err() == nil {
		var st struct {
			IsMyTurn bool `json:"is_my_turn"`
			IsOver   bool `json:"is_over"`
		}
		if err := c.call("GET", g+"game_status", nil, &st); err != nil {
			return err
		}
		if st.IsOver {
			f.games.Add(1)
			return nil
		}
		if !st.IsMyTurn {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		var ma struct {
			MoveActions []json.RawMessage `json:"move_actions"`
		}
		if err := c.call("GET", g+"move_actions", nil, &ma); err != nil {
			return err
		}
		if err := c.call("POST", g+"sense", map[string]any{"square": rng.IntN(64)}, nil); err != nil {
			return err
		}
		var m json.RawMessage = []byte("null")
		if len(ma.MoveActions) > 0 {
			m = ma.MoveActions[rng.IntN(len(ma.MoveActions))]
		}
		if err := c.call("POST", g+"move", map[string]json.RawMessage{"requested_move": m}, nil); err != nil {
			return err
		}
		if err := c.call("POST", g+"end_turn", nil, nil); err != nil {
			return err
		}
		f.turns.Add(1)
	}
	return nil
}

// apiClient is one remote bot's account on the API.
type apiClient struct {
	base, user, pass string
	hc               *http.Client
}

func (c *apiClient) call(method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return err
	}
	req.SetBasicAuth(c.user, c.pass)
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, data)
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}
