package web

import (
	"html"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"knightwatch/store"
)

// TestRejectedFENKept: a rejected start position comes back in its field,
// with the field's <details> open and the reason beside it (issue 34,
// item 5).
func TestRejectedFENKept(t *testing.T) {
	// The real home.html, to check its field and <details>.
	st, err := store.Open(filepath.Join(t.TempDir(), "kw.db"))
	if err != nil {
		t.Fatal(err)
	}
	k := newStack(t, st, envOpts{noEngine: true, config: &Config{Templates: os.DirFS("../templates"), Static: fstest.MapFS{"app.js": {Data: []byte("//js")}},
		Logger: log.New(io.Discard, "", 0)}})
	ts := httptest.NewServer(k.srv)
	defer func() { k.close(); ts.Close(); st.Close() }()
	e := &testEnv{stack: k, t: t, ts: ts, store: st}
	client := e.browser()
	for _, c := range []struct{ typed, reason string }{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "Not started: piece placement: bad piece letter 'X' on rank 1."},
		{`8/8/8/8/8/8/8/8 w - - 0 1"><script>`, "Not started: no white king."},
	} {
		typed := c.typed
		f := form("white", "1", "standard", "none")
		f.Set("fen", typed)
		resp, err := client.PostForm(e.ts.URL+"/games", f)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page := string(body)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(page, `data-field="fen"`) {
			t.Fatalf("%q: %s, want 400 naming fen", typed, resp.Status)
		}
		if !strings.Contains(page, `value="`+html.EscapeString(typed)+`"`) {
			i := strings.Index(page, `name="fen"`)
			t.Errorf("%q: the fen field does not hold what was typed: %s", typed, page[max(i-60, 0):min(i+200, len(page))])
		}
		if strings.Contains(page, "<script>") {
			t.Errorf("%q: the typed text reached the page unescaped", typed)
		}
		if !strings.Contains(page, `data-for="standard" open`) {
			t.Errorf("%q: the FEN field's details are closed", typed)
		}
		// The reason also stands beside the field, not only at the top.
		if i := strings.Index(page, `id="fen-refused">`); i < 0 || !strings.HasPrefix(html.UnescapeString(page[i+len(`id="fen-refused">`):]), c.reason+"<") {
			t.Errorf("%q: beside the FEN field, want %q", typed, c.reason)
		}
	}
}
