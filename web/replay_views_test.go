package web

import (
	"bytes"
	"encoding/json"
	"html"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReplaySaysTheResult uploads recorded games and checks that the
// replay page carries how each ended, in words, with the move that took
// the king, and both sides' views with a step for every step of the game.
func TestReplaySaysTheResult(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	tests := []struct {
		file, result, kingCapture string
		// broken, when set, makes the record disagree with the arbiter:
		// then no side's view is offered.
		broken bool
	}{
		{file: "random_seed1.json", result: "White captured the king with Rxg6.", kingCapture: "f6g6"},
		{file: "random_seed2.json", result: "Black captured the king with Bxf2.", kingCapture: "g3f2"},
		{file: "turn-limit-20/seed4343_game0.json", result: "Draw: 20 full turns."},
		{file: "random_seed1.json", result: "White captured the king with Rxg6.", kingCapture: "f6g6", broken: true},
	}
	attr := func(body, name string) string {
		m := regexp.MustCompile(` ` + name + `="([^"]*)"`).FindStringSubmatch(body)
		if m == nil {
			return "(missing)"
		}
		return html.UnescapeString(m[1])
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile("../recon/testdata/fixtures/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if tt.broken {
				data = bytes.Replace(data, []byte("RNBQKBNR w KQkq - 0 1"), []byte("RNBQKBNR w KQkq - 0 2"), 1)
			}
			var buf bytes.Buffer
			mw := multipart.NewWriter(&buf)
			fw, _ := mw.CreateFormFile("history", "g.json")
			fw.Write(data)
			mw.Close()
			req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/replay", &buf)
			req.Header.Set("Content-Type", mw.FormDataContentType())
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			body := string(b)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("upload: %d %.300s", resp.StatusCode, body)
			}
			if got := attr(body, "data-result"); got != tt.result {
				t.Errorf("result %q, want %q", got, tt.result)
			}
			if got := attr(body, "data-king-capture"); got != tt.kingCapture {
				t.Errorf("king capture %q, want %q", got, tt.kingCapture)
			}
			if tt.broken {
				if !strings.Contains(body, "does not replay") {
					t.Fatalf("the broken record replays: %.300s", body)
				}
				if v := attr(body, "data-views"); v != "" {
					t.Errorf("a record that does not replay has views %.100s", v)
				}
				return
			}
			var views map[string][]replayStepView
			if err := json.Unmarshal([]byte(attr(body, "data-views")), &views); err != nil {
				t.Fatalf("views: %v", err)
			}
			var hist struct {
				Senses    map[string][]json.RawMessage `json:"senses"`
				Requested map[string][]json.RawMessage `json:"requested_moves"`
			}
			if err := json.Unmarshal([]byte(attr(body, "data-history")), &hist); err != nil {
				t.Fatal(err)
			}
			steps := 1
			for _, k := range []string{"true", "false"} {
				steps += len(hist.Senses[k]) + len(hist.Requested[k])
			}
			for _, side := range []string{"white", "black"} {
				v := views[side]
				if len(v) != steps || !v[len(v)-1].Final || v[0].Final {
					t.Errorf("%s: %d steps (want %d), last final %v", side, len(v), steps, len(v) > 0 && v[len(v)-1].Final)
				}
			}
		})
	}
}
