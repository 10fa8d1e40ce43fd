package e2e

import (
	"fmt"
	"math"
	"testing"
)

// stillParts are the game page's parts that must not move or change size
// when the turn passes to the engine and back (issue 42, item 3).
var stillParts = []mustSee{
	{"board", "#board"},
	{"top bar", "#player-top"},
	{"opponent's name", "#player-top .name"},
	{"bottom bar", "#player-bottom"},
	{"status line", "#status-line"},
	{"move list", "#moves"},
	{"review buttons", ".review-nav"},
	{"game buttons", `.actions[aria-label="Game actions"]`},
	{"move box", "#move-form"},
}

// TestPanelStillWhileThinking (issue 42, item 3): at each of the five
// screens, nothing on the game page moves or changes size while the
// engine thinks and when it has moved: every change of the board's
// data-thinking and data-ply is measured as it happens.
func TestPanelStillWhileThinking(t *testing.T) {
	e := newEnv(t)
	for _, vp := range fiveSizes {
		t.Run(vp.name, func(t *testing.T) {
			tb := e.newTab(t, vp)
			defer tb.close()
			tb.newGame(gameOpts{color: "white", level: "1", clock: "10+5"})
			tb.playAndWait("e2", "e4", 2)
			parts := "["
			for _, p := range stillParts {
				parts += fmt.Sprintf("[%s, %s],", jsq(p.name), jsq(p.sel))
			}
			parts += "]"
			// Each snapshot is taken in the observer's callback, after the
			// page has drawn the state that changed the attribute.
			eval[bool](tb, `(() => { const parts = `+parts+`;
				const snap = (why) => ({why, boxes: parts.map(([n, s]) => { const el = document.querySelector(s);
					const r = el ? el.getBoundingClientRect() : {left: -1, top: -1, width: -1, height: -1};
					return [n, r.left + scrollX, r.top + scrollY, r.width, r.height]; })});
				window.__kwSnaps = [snap('before')];
				new MutationObserver((ms) => { for (const m of ms) window.__kwSnaps.push(snap(m.attributeName + '=' + m.target.getAttribute(m.attributeName))); })
					.observe(document.getElementById('board'), {attributes: true, attributeFilter: ['data-thinking', 'data-ply']});
				return true; })()`)
			tb.clickSquare("g1")
			tb.clickSquare("f3")
			tb.waitPly(4, engineWait)
			tb.waitAttr("#board", "data-thinking", "false", engineWait)
			tb.shot("after-reply")
			type snap struct {
				Why   string
				Boxes [][]any
			}
			snaps := eval[[]snap](tb, `window.__kwSnaps`)
			sawThinking := false
			for _, s := range snaps {
				if s.Why == "data-thinking=true" {
					sawThinking = true
				}
			}
			if !sawThinking {
				t.Fatalf("[%s] never saw data-thinking=true: %v", vp.name, snaps)
			}
			base := snaps[0]
			for _, s := range snaps[1:] {
				for i, b := range s.Boxes {
					was := base.Boxes[i]
					for k, what := range []string{"x", "y", "width", "height"} {
						if d := b[k+1].(float64) - was[k+1].(float64); math.Abs(d) > 0.5 {
							t.Errorf("[%s] at %s the %s's %s changed by %.1f px", vp.name, s.Why, b[0], what, d)
						}
					}
				}
			}
		})
	}
}
