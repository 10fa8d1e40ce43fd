package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// staticEntry is one /static/ resource of the page, as the browser's
// Resource Timing saw it.
type staticEntry struct {
	URL      string  `json:"url"`
	Status   int     `json:"status"`
	Transfer float64 `json:"transfer"`
	Encoded  float64 `json:"encoded"`
	Decoded  float64 `json:"decoded"`
}

const staticEntriesJS = `performance.getEntriesByType('resource').filter(e => new URL(e.name).pathname.startsWith('/static/')).map(e => ({
	url: new URL(e.name).pathname, status: e.responseStatus || 0, transfer: e.transferSize, encoded: e.encodedBodySize, decoded: e.decodedBodySize}))`

var hashedStatic = regexp.MustCompile(`^/static/[A-Za-z0-9_/-]+\.[0-9a-f]{8}\.[a-z]+$`)

// TestHashedAssets: the game page loads its stylesheet, every module (the
// entry and all it imports), the icon and the pieces under content-hashed
// names, gzipped, with no 404 or console error; loading it again takes
// them all from the cache without asking the server.
func TestHashedAssets(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	defer tb.close()
	tb.newGame(gameOpts{color: "white", level: "1"})
	tb.waitJS(`document.querySelectorAll('#board img').length === 32`, "32 pieces drawn", `document.querySelectorAll('#board img').length`, uiWait)
	gamePath := strings.TrimPrefix(tb.location(), e.srv.URL())
	check := func(load string) []staticEntry {
		entries := eval[[]staticEntry](tb, staticEntriesJS)
		seen := map[string]bool{}
		for _, en := range entries {
			if !hashedStatic.MatchString(en.URL) {
				t.Errorf("%s: %s is not a hashed name", load, en.URL)
			}
			if en.Status != 0 && en.Status != 200 {
				t.Errorf("%s: %s answered %d", load, en.URL, en.Status)
			}
			base := en.URL[strings.LastIndex(en.URL, "/")+1:]
			seen[base[:strings.Index(base, ".")]+"."+base[strings.LastIndex(base, ".")+1:]] = true
		}
		for _, want := range []string{"game.js", "board.js", "socket.js", "panel.js", "sound.js", "app.css", "favicon.svg", "wK.svg", "bP.svg"} {
			if !seen[want] {
				t.Errorf("%s: %s was not loaded (under a hashed name); loaded: %+v", load, want, entries)
			}
		}
		tb.log.mu.Lock()
		for _, msg := range tb.log.errs {
			if strings.Contains(msg, "404") || strings.Contains(msg, "Failed to load") || strings.Contains(msg, "Refused") {
				t.Errorf("%s: console: %s", load, msg)
			}
		}
		tb.log.mu.Unlock()
		return entries
	}
	for _, en := range check("first load") {
		if strings.HasSuffix(en.URL, ".js") && !(en.Encoded > 0 && en.Encoded < en.Decoded) {
			t.Errorf("first load: %s came %v bytes for %v: not gzipped", en.URL, en.Encoded, en.Decoded)
		}
	}
	tb.open(gamePath)
	tb.waitJS(`document.querySelectorAll('#board img').length === 32`, "32 pieces drawn again", `document.querySelectorAll('#board img').length`, uiWait)
	for _, en := range check("second load") {
		if en.Transfer != 0 {
			t.Errorf("second load: %s went to the server (%v bytes transferred), want the cache", en.URL, en.Transfer)
		}
	}
}
