package web

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"knightwatch/analysisboard"
)

// postForm posts fields as a multipart form, as the page does.
func postBoardForm(t *testing.T, c *http.Client, url string, fields map[string]string) (int, []byte) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	mw.Close()
	resp, err := c.Post(url, mw.FormDataContentType(), &body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// TestAnalysisImportExport: a PGN with a variation and comments imports
// as a tree, exports as PGN, and that PGN imports as the same tree; a bad
// PGN is refused with the library's line and column; a bad tree is
// refused in words.
func TestAnalysisImportExport(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	pgn := "[Event \"t\"]\n\n1. e4 {king's pawn} e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 Nc6 *\n"
	code, b := postBoardForm(t, c, e.ts.URL+"/analysis/import", map[string]string{"text": pgn})
	if code != http.StatusOK {
		t.Fatalf("import: %d %s", code, b)
	}
	var st analysisboard.Study
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Moves) != 1 || len(st.Moves[0].Children) != 2 || st.Moves[0].Comment != "king's pawn" || st.Moves[0].Children[1].SAN != "c5" {
		t.Fatalf("tree %s", b)
	}
	code, out := postBoardForm(t, c, e.ts.URL+"/analysis/export", map[string]string{"study": string(b)})
	if code != http.StatusOK || !strings.Contains(string(out), "(1... c5 2. Nf3 (2. c3) 2... d6)") {
		t.Fatalf("export: %d %s", code, out)
	}
	code, again := postBoardForm(t, c, e.ts.URL+"/analysis/import", map[string]string{"text": string(out)})
	var st2 analysisboard.Study
	if code != http.StatusOK || json.Unmarshal(again, &st2) != nil {
		t.Fatalf("re-import: %d %s", code, again)
	}
	st.Tags, st2.Tags = nil, nil
	if a, b := boardJSON(t, st), boardJSON(t, st2); a != b {
		t.Errorf("the tree changed on the way:\n%s\n%s", a, b)
	}

	bad := []struct {
		name, url, field, text string
		want                   string
		line, col              int
	}{
		{"illegal move", "/analysis/import", "text", "1. e4 e5 2. Ke3 *", "illegal", 1, 13},
		{"second line", "/analysis/import", "text", "[Event \"x\"]\n\n1. e4 {open *", "", 3, 7},
		{"bad FEN", "/analysis/import", "text", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "", 0, 0},
		{"empty", "/analysis/import", "text", "", "empty", 0, 0},
		{"illegal tree", "/analysis/export", "study", `{"fen":"` + startFEN + `","moves":[{"uci":"e2e5"}]}`, "e2e5", 0, 0},
		{"null move", "/analysis/export", "study", `{"fen":"` + startFEN + `","moves":[{"uci":"0000"}]}`, "null", 0, 0},
		{"not JSON", "/analysis/export", "study", `{`, "not a tree", 0, 0},
	}
	for _, c2 := range bad {
		t.Run(c2.name, func(t *testing.T) {
			code, b := postBoardForm(t, c, e.ts.URL+c2.url, map[string]string{c2.field: c2.text})
			var ie importError
			if code != http.StatusBadRequest || json.Unmarshal(b, &ie) != nil {
				t.Fatalf("%d %s", code, b)
			}
			if !strings.Contains(ie.Error, c2.want) || ie.Line != c2.line || (c2.col != 0 && ie.Col != c2.col) {
				t.Errorf("got %+v, want %q at %d:%d", ie, c2.want, c2.line, c2.col)
			}
		})
	}
}

const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

func boardJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAnalysisSocket: the page's position gets its legal moves and
// opening at once, then engine lines, then the engine's end; a bad move
// or message is answered in words and the socket goes on.
func TestAnalysisSocket(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	resp, err := c.Get(e.ts.URL + "/analysis")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	u := "ws" + strings.TrimPrefix(e.ts.URL, "http") + "/ws/analysis"
	conn, _, err := wsDialer(c).Dial(u, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	w := &wsConn{t: t, conn: conn}

	w.send(`{"type":"position","id":1,"moves":["e4","c7c5"],"engine":true,"multipv":2}`)
	pos := w.waitFor("position", func(m anyMsg) bool { return m.Type == "position" })
	var p analysisboard.PositionMsg
	if err := json.Unmarshal(pos.raw, &p); err != nil {
		t.Fatal(err)
	}
	if p.ID != 1 || p.SAN != "c5" || p.Turn != "w" || len(p.Legal) == 0 || p.Opening == nil || !strings.Contains(p.Opening.Name, "Sicilian") {
		t.Fatalf("position %s", pos.raw)
	}
	lines := w.waitFor("lines", func(m anyMsg) bool { return m.Type == "lines" })
	var l analysisboard.LinesMsg
	if err := json.Unmarshal(lines.raw, &l); err != nil || l.ID != 1 || len(l.Lines) == 0 || len(l.Lines[0].SAN) == 0 {
		t.Fatalf("lines %s %v", lines.raw, err)
	}
	w.waitFor("engine done", func(m anyMsg) bool { return m.Type == "engine" && strings.Contains(string(m.raw), `"done"`) })

	for _, bad := range []string{`{"type":"position","id":2,"moves":["e5"]}`, `{"type":"fly"}`, `nonsense`, `{"type":"position","id":3,"multipv":9}`} {
		w.send(bad)
		m := w.waitFor("error", func(m anyMsg) bool { return m.Type == "error" })
		if m.Text == "" {
			t.Errorf("%s: an error without words: %s", bad, m.raw)
		}
	}
	w.send(`{"type":"position","id":4,"fen":"8/8/8/8/8/5k2/8/4K2R w K - 0 1","moves":["O-O"]}`)
	m := w.waitFor("position", func(m anyMsg) bool { return m.Type == "position" })
	if !strings.Contains(string(m.raw), `"san":"O-O+"`) {
		t.Errorf("after a bad message: %s", m.raw)
	}
}

// TestAnalysisFromGame: a finished game of the browser's opens on the
// board; a game in play is refused in words (the lines would help its
// player), and another browser's game is not found.
func TestAnalysisFromGame(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	playing := e.newGame(c, form("white", "1", "standard", "none"))
	over := e.newGame(c, form("black", "1", "standard", "none"))
	if code, _ := e.postList(c, over, "resign", ""); code != http.StatusSeeOther {
		t.Fatalf("resign: %d", code)
	}
	cases := []struct {
		name   string
		client *http.Client
		id     string
		code   int
		want   string
	}{
		{"finished", c, over, http.StatusOK, `data-study="{&#34;fen&#34;:&#34;rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1&#34;`},
		{"in play", c, playing, http.StatusBadRequest, "still being played"},
		{"another's", e.browser(), over, http.StatusNotFound, "No such analysis"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := tc.client.Get(e.ts.URL + "/analysis?game=" + tc.id + "&ply=0")
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.code || !strings.Contains(string(b), tc.want) {
				t.Errorf("%d %s, want %d with %q", resp.StatusCode, b, tc.code, tc.want)
			}
		})
	}
}

// TestAnalysisSave: a signed-in player saves a tree, finds it listed on
// /analysis, opens it, and saves over it; an anonymous browser is told to
// sign in, and another account cannot save over it.
func TestAnalysisSave(t *testing.T) {
	e := newEnv(t, envOpts{})
	anon := e.browser()
	tree := `{"fen":"` + startFEN + `","moves":[{"uci":"e2e4","comment":"best by test","children":[{"uci":"e7e5"},{"uci":"c7c5"}]}]}`
	if code, b := postBoardForm(t, anon, e.ts.URL+"/analysis/saved", map[string]string{"study": tree, "name": "mine"}); code != http.StatusUnauthorized || !strings.Contains(string(b), "Sign in") {
		t.Fatalf("anonymous save: %d %s", code, b)
	}
	me := e.browser()
	if status, _, _ := e.postAccount(me, "/account/signup", url.Values{"username": {"sam"}, "password": {"sam's pass"}, "password2": {"sam's pass"}}); status != http.StatusSeeOther {
		t.Fatalf("sign up: %d", status)
	}
	code, b := postBoardForm(t, me, e.ts.URL+"/analysis/saved", map[string]string{"study": tree, "name": "Open games"})
	var saved savedResult
	if code != http.StatusOK || json.Unmarshal(b, &saved) != nil || saved.ID == 0 {
		t.Fatalf("save: %d %s", code, b)
	}
	page := func(c *http.Client, path string) string {
		resp, err := c.Get(e.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if p := page(me, "/analysis"); !strings.Contains(p, `href="`+saved.URL+`">Open games`) {
		t.Errorf("the list lacks the saved analysis: %s", p)
	}
	if p := page(me, saved.URL); !strings.Contains(p, "best by test") || !strings.Contains(p, "c7c5") {
		t.Errorf("the saved analysis opens as %s", p)
	}
	other := e.browser()
	if status, _, _ := e.postAccount(other, "/account/signup", url.Values{"username": {"tom"}, "password": {"tom's pass"}, "password2": {"tom's pass"}}); status != http.StatusSeeOther {
		t.Fatalf("sign up: %d", status)
	}
	id := strconv.FormatInt(saved.ID, 10)
	if code, b := postBoardForm(t, other, e.ts.URL+"/analysis/saved", map[string]string{"study": tree, "name": "x", "id": id}); code != http.StatusNotFound {
		t.Errorf("another's save over it: %d %s", code, b)
	}
	if code, b := postBoardForm(t, me, e.ts.URL+"/analysis/saved", map[string]string{"study": tree, "name": "Renamed", "id": id}); code != http.StatusOK {
		t.Errorf("save over: %d %s", code, b)
	}
	if p := page(me, "/analysis"); !strings.Contains(p, ">Renamed<") || strings.Contains(p, ">Open games<") {
		t.Errorf("after saving over: %s", p)
	}
}

// TestAnalysisChess960: a Chess960 game's PGN imports as a Chess960 tree
// whose castling the socket plays, king takes rook.
func TestAnalysisChess960(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	pgn := "[Variant \"Chess960\"]\n[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1\"]\n\n1. O-O g6 2. g3 *\n"
	code, b := postBoardForm(t, c, e.ts.URL+"/analysis/import", map[string]string{"text": pgn})
	var st analysisboard.Study
	if code != http.StatusOK || json.Unmarshal(b, &st) != nil || !st.Chess960 || len(st.Moves) != 1 {
		t.Fatalf("import: %d %s", code, b)
	}
	castle := st.Moves[0]
	if castle.SAN != "O-O" || castle.UCI != "f1g1" {
		t.Fatalf("castling imported as %+v", castle)
	}
	resp, err := c.Get(e.ts.URL + "/analysis")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	conn, _, err := wsDialer(c).Dial("ws"+strings.TrimPrefix(e.ts.URL, "http")+"/ws/analysis", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	w := &wsConn{t: t, conn: conn}
	req, _ := json.Marshal(map[string]any{"type": "position", "id": 1, "fen": st.FEN, "chess960": true, "moves": []string{"f1g1", "g7g6"}})
	w.send(req)
	m := w.waitFor("position", func(m anyMsg) bool { return m.Type == "position" || m.Type == "error" })
	if !strings.Contains(string(m.raw), `"san":"g6"`) || !strings.Contains(string(m.raw), `"fen":"bqnbrkrn/pppppp1p/6p1/8/8/8/PPPPPPPP/BQNBRRKN w `) {
		t.Errorf("castling on the socket: %s", m.raw)
	}
}
