package e2e

import (
	"net/url"
	"testing"
)

// TestPieceSet: a piece set chosen on the game page is remembered by the
// browser: the pieces change at once, and after a reload, and on the
// read-only watch page, they are drawn from that set, which is on <html>
// before the board script runs; a page loads the chosen set's images only.
func TestPieceSet(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.newGame(gameOpts{})
	tb.clickSquare("e2")
	tb.clickSquare("e4")
	tb.waitPly(2, engineWait)
	gamePath := eval[string](tb, `location.pathname`)
	link := eval[string](tb, `document.getElementById('watch-link')?.value || ''`)
	watch, err := url.Parse(link)
	if err != nil || watch.Path == "" {
		tb.fail("watch link %q", link)
	}
	// sets reports which set each drawn piece image and each piece image
	// the page downloaded belongs to ("cburnett" for the folder's top level).
	const sets = `(() => {
		const setOf = (u) => { const m = new URL(u, location.href).pathname.match(/^\/static\/pieces\/(?:([a-z]+)\/)?[wb][KQRBNP]\.[0-9a-f]{8}\.svg$/); return m ? (m[1] || 'cburnett') : 'not a hashed piece: ' + u; };
		const drawn = new Set([...document.querySelectorAll('#board img.piece')].map(i => setOf(i.getAttribute('src'))));
		const loaded = new Set(performance.getEntriesByType('resource').map(r => r.name).filter(n => n.includes('/static/pieces/')).map(setOf));
		return {drawn: [...drawn].sort().join(','), loaded: [...loaded].sort().join(',')};
	})()`
	type seen struct{ Drawn, Loaded string }
	if got := eval[seen](tb, sets); got.Drawn != "cburnett" || got.Loaded != "cburnett" {
		tb.fail("default: pieces drawn from %q, loaded from %q; want cburnett only", got.Drawn, got.Loaded)
	}
	for _, set := range []string{"celtic", "spatial", "cburnett"} {
		tb.clickSel("#piece-set") // a person opens the control first
		eval[bool](tb, `(() => { const s = document.getElementById('piece-set'); s.value = `+jsq(set)+`;
			s.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`)
		if got := eval[seen](tb, sets); got.Drawn != set {
			tb.fail("%s at once: pieces drawn from %q", set, got.Drawn)
		}
		if n := eval[int](tb, `document.querySelectorAll('#board img.piece').length`); n != 32 {
			tb.fail("%s at once: %d pieces on the board, want 32", set, n)
		}
		tb.shot("pieces-" + set)
		for _, page := range []string{gamePath, watch.Path} {
			tb.open(page) // a reload, then the spectator's page in the same browser
			tb.waitBoard()
			tb.waitJS(`document.querySelectorAll('#board img.piece').length === 32`, "32 pieces drawn", `document.querySelectorAll('#board img.piece').length`, uiWait)
			if got := eval[seen](tb, sets); got.Drawn != set || got.Loaded != set {
				tb.fail("%s on %s: pieces drawn from %q, loaded from %q; want %s only", set, page, got.Drawn, got.Loaded, set)
			}
			want := set
			if set == "cburnett" {
				want = "" // the default: no attribute
			}
			if got := eval[string](tb, `document.documentElement.getAttribute('data-piece-set') || ''`); got != want {
				tb.fail("%s on %s: html[data-piece-set] %q, want %q", set, page, got, want)
			}
		}
		tb.shot("pieces-" + set + "-watch")
		tb.open(gamePath)
		tb.waitBoard()
		if got := eval[string](tb, `document.getElementById('piece-set').value`); got != set {
			tb.fail("control shows %q after a reload, want %q", got, set)
		}
	}
}
