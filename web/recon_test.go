package web

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/play"
	"knightwatch/recon"
	"knightwatch/store"
)

// newRecon posts a Reconnaissance Chess new-game form and returns the ID.
func (e *testEnv) newRecon(c *http.Client, color, opponent, clock string) string {
	e.t.Helper()
	resp, err := c.PostForm(e.ts.URL+"/games", url.Values{"variant": {"recon"}, "color": {color}, "opponent": {opponent}, "clock": {clock}})
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		b, _ := io.ReadAll(resp.Body)
		e.t.Fatalf("POST /games: %s %s", resp.Status, b)
	}
	loc := resp.Header.Get("Location")
	if !strings.HasPrefix(loc, "/game/"+store.ReconIDPrefix) {
		e.t.Fatalf("redirect to %q", loc)
	}
	return strings.TrimPrefix(loc, "/game/")
}

// reconFrame is a server message of a recon game, decoded.
type reconFrame struct {
	Type  string
	Code  string
	State *play.ReconState
	Raw   []byte
}

func (w *wsConn) reconNext(timeout time.Duration) (reconFrame, bool) {
	w.conn.SetReadDeadline(time.Now().Add(timeout))
	_, b, err := w.conn.ReadMessage()
	if err != nil {
		return reconFrame{}, false
	}
	var head struct{ Type, Code string }
	if err := json.Unmarshal(b, &head); err != nil {
		w.t.Fatalf("server sent invalid JSON %q: %v", b, err)
	}
	f := reconFrame{Type: head.Type, Code: head.Code, Raw: b}
	if head.Type == "recon_state" {
		f.State = &play.ReconState{}
		if err := json.Unmarshal(b, f.State); err != nil {
			w.t.Fatal(err)
		}
	}
	return f, true
}

// reconWait reads until a frame satisfying ok, handing every frame read to
// seen (when not nil).
func (w *wsConn) reconWait(what string, seen func(reconFrame), ok func(reconFrame) bool) reconFrame {
	w.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		f, got := w.reconNext(time.Until(deadline))
		if !got {
			break
		}
		if seen != nil {
			seen(f)
		}
		if ok(f) {
			return f
		}
	}
	w.t.Fatalf("timed out waiting for %s", what)
	return reconFrame{}
}

func isState(f reconFrame) bool { return f.Type == "recon_state" }

// TestReconMessagesRefused checks that every out-of-turn or malformed
// message gets a clear error and changes nothing.
func TestReconMessagesRefused(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	id := e.newRecon(c, "white", "random", "15+5")
	w := e.mustDial(c, id)
	st := w.reconWait("state", nil, isState).State
	if st.Phase != "sense" || st.Seq != 0 || len(st.Turns) != 1 || st.Clock == nil || st.Clock.Mine > 900000 || st.Clock.Mine < 899000 || !st.Clock.Running {
		t.Fatalf("first state: %+v", st)
	}
	refuse := func(msg any, code string) {
		t.Helper()
		w.send(msg)
		f := w.reconWait("error", nil, func(f reconFrame) bool { return f.Type == "error" })
		if f.Code != code {
			t.Errorf("%v: error %s, want %s (%s)", msg, f.Code, code, f.Raw)
		}
	}
	refuse(`{"type":"move","move":"e2e4","seq":0}`, play.CodeWrongPhase)
	refuse(`{"type":"sense","square":"z9","seq":0}`, play.CodeBadSquare)
	refuse(`{"type":"sense","square":"e4","seq":5}`, play.CodeStale)
	refuse(`{"type":"sense"}`, play.CodeBadField)
	refuse(`{"type":"castle"}`, play.CodeUnknownType)
	refuse(`not json`, play.CodeBadJSON)
	refuse(`{"type":"marker","square":"e5","piece":"xQ"}`, play.CodeBadField)
	w.send(`{"type":"sense","square":"e7","seq":0}`)
	st = w.reconWait("move phase", nil, func(f reconFrame) bool { return isState(f) && f.State.Phase == "move" }).State
	if len(st.Turns) != 1 || !st.Turns[0].Sensed || st.Turns[0].Sense != "e7" || len(st.Turns[0].SenseResult) != 9 || len(st.MoveActions) == 0 {
		t.Fatalf("after the sense: %+v", st)
	}
	refuse(`{"type":"sense","square":"e4","seq":1}`, play.CodeWrongPhase)
	refuse(`{"type":"move","move":"e2e5","seq":1}`, play.CodeIllegalMove)
	refuse(`{"type":"move","move":"e2e4k","seq":1}`, play.CodeIllegalMove)
	// Nothing changed: the sync shows the same state.
	w.send(`{"type":"sync"}`)
	again := w.reconWait("state", nil, isState).State
	if again.Seq != 1 || again.Phase != "move" {
		t.Fatalf("a refused message changed the game: %+v", again)
	}
	w.send(`{"type":"resign","seq":1}`)
	over := w.reconWait("the end", nil, func(f reconFrame) bool { return isState(f) && f.State.Status == "over" }).State
	if over.Reason != "RESIGN" || over.Result != "0-1" || over.TrueFEN == "" {
		t.Errorf("after resigning: %+v", over)
	}
	refuse(`{"type":"sense","square":"e4","seq":1}`, play.CodeGameOver)
	refuse(`{"type":"resign"}`, play.CodeGameOver)
}

// humanObservations returns, from a finished game's history, what the
// person observed on each of their turns: the frames may say no more.
func humanObservations(h *recon.History, human game.Color) []play.ReconTurnView {
	return play.TurnsOf(h, human)
}

// TestReconFramesRevealNothing plays whole games against the random bot,
// as White and as Black, and inspects every frame sent: the person's own
// pieces only, their own observations only (each agreeing with the final
// record), their own clock only, and the true board only at the end.
func TestReconFramesRevealNothing(t *testing.T) {
	e := newEnv(t, envOpts{})
	rng := rand.New(rand.NewPCG(5, 5))
	for _, color := range []string{"white", "black"} {
		c := e.browser()
		id := e.newRecon(c, color, "random", "15+5")
		w := e.mustDial(c, id)
		var frames []reconFrame
		keep := func(f reconFrame) { frames = append(frames, f) }
		for {
			f := w.reconWait("my turn or the end", keep, func(f reconFrame) bool {
				return isState(f) && (f.State.Phase == "sense" || f.State.Phase == "move" || f.State.Phase == "over")
			})
			st := f.State
			if st.Phase == "over" {
				break
			}
			if st.Phase == "sense" {
				sq := ""
				if rng.IntN(10) > 0 {
					sq = game.Square(rng.IntN(64)).String()
				}
				w.send(map[string]any{"type": "sense", "square": sq, "seq": st.Seq})
			} else {
				mv := "pass"
				if n := len(st.MoveActions); rng.IntN(n+1) < n {
					mv = st.MoveActions[rng.IntN(n)].UCI
				}
				w.send(map[string]any{"type": "move", "move": mv, "seq": st.Seq})
			}
		}
		rec, err := e.store.Games().GetReconGame(id)
		if err != nil {
			t.Fatal(err)
		}
		h, err := recon.UnmarshalHistory([]byte(rec.History))
		if err != nil {
			t.Fatal(err)
		}
		human := game.White
		if color == "black" {
			human = game.Black
		}
		truth := humanObservations(h, human)
		allowed := map[string]bool{"type": true, "id": true, "human": true, "opponent": true, "opponentName": true, "phase": true, "seq": true,
			"pieces": true, "turns": true, "moveActions": true, "markers": true, "clock": true, "status": true, "result": true, "reason": true}
		endOnly := map[string]bool{"trueFen": true, "historyUrl": true, "replayUrl": true, "kingCapture": true, "kingCaptureSan": true}
		states := 0
		for _, f := range frames {
			if f.Type != "recon_state" {
				continue
			}
			states++
			var keys map[string]json.RawMessage
			if err := json.Unmarshal(f.Raw, &keys); err != nil {
				t.Fatal(err)
			}
			over := f.State.Status == "over"
			for k := range keys {
				if !allowed[k] && !(endOnly[k] && over) {
					t.Fatalf("%s: frame has field %q (over: %v): %s", color, k, over, f.Raw)
				}
			}
			var clock map[string]json.RawMessage
			if err := json.Unmarshal(keys["clock"], &clock); err == nil {
				for k := range clock {
					if k != "mine" && k != "running" && k != "initial" && k != "increment" {
						t.Fatalf("clock field %q: %s", k, keys["clock"])
					}
				}
			}
			for sq, code := range f.State.Pieces {
				if code[0] != color[0] {
					t.Fatalf("%s: an opponent piece %s on %s in pieces", color, code, sq)
				}
			}
			// Every turn the frame reports is the person's own, as the
			// record has it (the last one may be partly played).
			for i, tv := range f.State.Turns {
				if i >= len(truth) {
					if i != len(f.State.Turns)-1 || tv.Sensed {
						t.Fatalf("%s: frame reports turn %d, the record has %d", color, i, len(truth))
					}
					continue
				}
				want := truth[i]
				if tv.OpponentCapture != want.OpponentCapture || tv.Lost != want.Lost {
					t.Fatalf("%s turn %d: capture %q/%q, record %q/%q", color, i, tv.OpponentCapture, tv.Lost, want.OpponentCapture, want.Lost)
				}
				if tv.Sensed && (tv.Sense != want.Sense || !slices.Equal(tv.SenseResult, want.SenseResult)) {
					t.Fatalf("%s turn %d: sense %v, record %v", color, i, tv, want)
				}
				if tv.Moved && (tv.Requested != want.Requested || tv.Taken != want.Taken || tv.Capture != want.Capture) {
					t.Fatalf("%s turn %d: move %v, record %v", color, i, tv, want)
				}
			}
			if !over && (strings.Contains(string(f.Raw), "/") || strings.Contains(string(f.Raw), "fen")) {
				t.Fatalf("%s: a frame before the end looks like it holds a FEN: %s", color, f.Raw)
			}
		}
		if states < 10 || h.NumTurns() < 4 {
			t.Fatalf("%s: only %d states for %d turns", color, states, h.NumTurns())
		}
		final := frames[len(frames)-1].State
		lastColor := game.White
		if len(h.FENsAfter[game.Black]) == len(h.FENsAfter[game.White]) {
			lastColor = game.Black
		}
		if want := h.FENsAfter[lastColor][len(h.FENsAfter[lastColor])-1]; final.TrueFEN != want {
			t.Errorf("%s: the revealed board %s is not the record's last, %s", color, final.TrueFEN, want)
		}
	}
}

// TestReconResume checks that a game resumes after the server restarts,
// in the middle of the person's turn: the same phase, the same senses, the
// same notes, the same clock.
func TestReconResume(t *testing.T) {
	dbPath := t.TempDir() + "/kw.db"
	e := newEnv(t, envOpts{dbPath: dbPath})
	c := e.browser()
	id := e.newRecon(c, "white", "random", "15+5")
	w := e.mustDial(c, id)
	st := w.reconWait("state", nil, isState).State
	w.send(map[string]any{"type": "sense", "square": "e2", "seq": st.Seq})
	st = w.reconWait("move phase", nil, func(f reconFrame) bool { return isState(f) && f.State.Phase == "move" }).State
	w.send(map[string]any{"type": "move", "move": "e2e4", "seq": st.Seq})
	st = w.reconWait("my second turn", nil, func(f reconFrame) bool { return isState(f) && f.State.Phase == "sense" && len(f.State.Turns) == 2 }).State
	w.send(map[string]any{"type": "sense", "square": "d7", "seq": st.Seq})
	w.reconWait("move phase", nil, func(f reconFrame) bool { return isState(f) && f.State.Phase == "move" })
	w.send(map[string]any{"type": "marker", "square": "f6", "piece": "bN"})
	before := w.reconWait("marker", nil, func(f reconFrame) bool { return isState(f) && f.State.Markers["f6"] == "bN" }).State
	e.close()

	e2 := newEnv(t, envOpts{dbPath: dbPath})
	c2 := e2.browser()
	c2.Jar = c.Jar
	// The cookie was set for the first server's address; carry it over.
	u1, _ := url.Parse(e.ts.URL)
	u2, _ := url.Parse(e2.ts.URL)
	c2.Jar.SetCookies(u2, c.Jar.Cookies(u1))
	w2 := e2.mustDial(c2, id)
	after := w2.reconWait("state", nil, isState).State
	if after.Phase != "move" || after.Seq != before.Seq || len(after.Turns) != 2 || after.Turns[1].Sense != "d7" ||
		!slices.Equal(after.Turns[1].SenseResult, before.Turns[1].SenseResult) || after.Markers["f6"] != "bN" ||
		!slices.EqualFunc(after.MoveActions, before.MoveActions, func(a, b play.LegalView) bool { return a == b }) {
		t.Fatalf("after the restart:\n%+v\nbefore:\n%+v", after, before)
	}
	if after.Clock == nil || before.Clock == nil || after.Clock.Mine > before.Clock.Mine || before.Clock.Mine-after.Clock.Mine > 2000 {
		t.Errorf("clock %v before, %v after", before.Clock, after.Clock)
	}
	// And it plays on.
	w2.send(map[string]any{"type": "move", "move": "d2d4", "seq": after.Seq})
	w2.reconWait("the next turn", nil, func(f reconFrame) bool { return isState(f) && len(f.State.Turns) == 3 })
}

// TestReconHistoryAndReplay checks the history download (only after the
// end), the replay of a stored game, and uploads: good, malformed, too big.
func TestReconHistoryAndReplay(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	id := e.newRecon(c, "white", "random", "none")
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := c.Get(e.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get("/game/" + id + "/history.json"); code != http.StatusNotFound {
		t.Errorf("history of a running game: %d", code)
	}
	if code, _ := get("/game/" + id); code != http.StatusOK {
		t.Errorf("game page: %d", code)
	}
	w := e.mustDial(c, id)
	st := w.reconWait("state", nil, isState).State
	w.send(map[string]any{"type": "resign", "seq": st.Seq})
	w.reconWait("the end", nil, func(f reconFrame) bool { return isState(f) && f.State.Status == "over" })
	code, body := get("/game/" + id + "/history.json")
	if code != http.StatusOK {
		t.Fatalf("history: %d %s", code, body)
	}
	h, err := recon.UnmarshalHistory([]byte(body))
	if err != nil || h.Outcome != recon.Win(game.Black, recon.Resign) {
		t.Fatalf("downloaded history: %v, %v", h, err)
	}
	if code, body := get("/game/" + id + "/replay"); code != http.StatusOK || !strings.Contains(body, "GameHistory") {
		t.Errorf("replay page: %d", code)
	}
	// Another person sees neither.
	other := e.browser()
	resp, _ := other.Get(e.ts.URL + "/game/" + id + "/history.json")
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("someone else's history: %d", resp.StatusCode)
	}
	resp.Body.Close()

	upload := func(name string, data []byte) (int, string) {
		t.Helper()
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		fw, _ := mw.CreateFormFile("history", name)
		fw.Write(data)
		mw.Close()
		req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/replay", &buf)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	fixture, err := os.ReadFile("../recon/testdata/fixtures/random_seed2.json")
	if err != nil {
		t.Fatal(err)
	}
	if code, body := upload("g.json", fixture); code != http.StatusOK || !strings.Contains(body, "replays all 46 turns") {
		t.Errorf("upload of a fixture: %d %.300s", code, body)
	}
	if code, body := upload("bad.json", fixture[:100]); code != http.StatusBadRequest || !strings.Contains(body, "not a Reconnaissance Chess history") {
		t.Errorf("malformed upload: %d %.300s", code, body)
	}
	if code, _ := upload("big.json", bytes.Repeat([]byte(" "), maxUpload+10)); code != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized upload: %d", code)
	}
}

// TestReconNewGameForm checks the form's Reconnaissance fields.
func TestReconNewGameForm(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	for _, tc := range []struct {
		form url.Values
		want string
	}{
		{url.Values{"variant": {"recon"}, "opponent": {"stockfish"}}, "opponent"},
		{url.Values{"variant": {"recon"}, "color": {"green"}}, "color"},
		{url.Values{"variant": {"recon"}, "clock": {"7+7"}}, "clock"},
	} {
		resp, err := c.PostForm(e.ts.URL+"/games", tc.form)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), `data-field="`+tc.want+`"`) {
			t.Errorf("%v: %s %s", tc.form, resp.Status, b)
		}
	}
	id := e.newRecon(c, "random", "", "")
	rec, err := e.store.Games().GetReconGame(id)
	if err != nil || rec.Opponent != play.ReconOpponents[0].Spec || rec.ClockInitialMS != 900000 || rec.ClockIncrementMS != 5000 {
		t.Errorf("defaults: %+v, %v", rec, err)
	}
}
