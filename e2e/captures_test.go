package e2e

import (
	"testing"
)

// TestCapturedPiecesOneLine (issue 42, item 2): with fifteen and more
// pieces taken by each side, each player's captured pieces stay on one
// line, every one of them in sight, on each of the five screens, and the
// bars keep the board where it is.
func TestCapturedPiecesOneLine(t *testing.T) {
	e := newEnv(t)
	gamePath, _ := e.newTab(t, desktop).newLongGame(longGamePlies)
	for _, vp := range fiveSizes {
		t.Run(vp.name, func(t *testing.T) {
			tb := e.newTab(t, vp)
			defer tb.close()
			tb.open(gamePath)
			tb.waitPly(longGamePlies, uiWait)
			tb.shot("captures")
			type caps struct {
				Bar             string
				N, Lines        int
				Clipped         int
				CapsH, BarH     float64
				BoardTop, BarsH float64
			}
			got := eval[[]caps](tb, `['#player-top', '#player-bottom'].map((bar) => {
				const box = document.querySelector(bar + ' .captures'), b = box.getBoundingClientRect();
				const imgs = [...box.querySelectorAll('img, .adv')];
				// A second line starts a whole piece lower: centres more than
				// half a piece apart are on different lines.
				const mids = imgs.map((i) => { const r = i.getBoundingClientRect(); return (r.top + r.bottom) / 2; });
				const lines = mids.filter((m, k) => mids.slice(0, k).every((o) => Math.abs(o - m) > 9)).length;
				const clipped = imgs.filter((i) => { const r = i.getBoundingClientRect(); return r.right > b.right + 0.5 || r.left < b.left - 0.5; }).length;
				return {Bar: bar, N: box.querySelectorAll('img').length, Lines: lines, Clipped: clipped,
					CapsH: b.height, BarH: document.querySelector(bar).getBoundingClientRect().height}; })`)
			for _, c := range got {
				if c.N < 12 {
					t.Fatalf("[%s] %s shows %d captured pieces; the long game should have taken more", vp.name, c.Bar, c.N)
				}
				if c.Lines != 1 || c.CapsH > 24 {
					t.Errorf("[%s] %s: %d captured pieces on %d lines, %.0f px tall", vp.name, c.Bar, c.N, c.Lines, c.CapsH)
				}
				if c.Clipped > 0 {
					t.Errorf("[%s] %s: %d of the captured pieces are cut off", vp.name, c.Bar, c.Clipped)
				}
				if c.BarH > 72 {
					t.Errorf("[%s] %s is %.0f px tall", vp.name, c.Bar, c.BarH)
				}
			}
		})
	}
}
