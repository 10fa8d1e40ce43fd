package e2e

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// listScroll is where the move list is scrolled: [scrollTop, scrollLeft,
// how far from its end].
func (tb *tab) listScroll() [3]float64 {
	tb.t.Helper()
	return eval[[3]float64](tb, `(() => { const m = document.getElementById('moves');
		return [m.scrollTop, m.scrollLeft, Math.max(m.scrollHeight - m.clientHeight - m.scrollTop, m.scrollWidth - m.clientWidth - m.scrollLeft)]; })()`)
}

// scrollListBack scrolls the move list back towards the first move as a
// person does, with the browser's own scroll gesture over the list.
func (tb *tab) scrollListBack() {
	tb.t.Helper()
	r, _ := tb.rectOf("#moves")
	x, y := r.X+r.W/2, r.Y+r.H/2
	// Up over a column, back along the one line. (Headless Chromium's
	// emulated touch does not pan a synthetic swipe; the platform's own
	// gesture scrolls the same list with the same scroll events.)
	p := input.SynthesizeScrollGestureParams{X: x, Y: y, YDistance: 1500, GestureSourceType: input.GestureSourceTypeMouse, Speed: 3000}
	if tb.vp.touch {
		p = input.SynthesizeScrollGestureParams{X: x, Y: y, XDistance: 1500, GestureSourceType: input.GestureSourceTypeDefault, Speed: 3000}
	}
	tb.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, input.SynthesizeScrollGesture, p)
		return err
	}))
	tb.waitJS(`(() => { const m = document.getElementById('moves');
		return Math.max(m.scrollHeight - m.clientHeight - m.scrollTop, m.scrollWidth - m.clientWidth - m.scrollLeft) > 300; })()`,
		"the move list scrolled back", `document.getElementById('moves').scrollTop + ',' + document.getElementById('moves').scrollLeft`, uiWait)
}

// TestMoveListFollows (issue 42, item 1): the move list follows the game
// as lichess's does. It shows the last move as moves are played; once the
// person scrolls it back to read, it stays where they left it while the
// game goes on, until they go to the last move (End, or »), after which it
// follows again; and stepping back through the game keeps the move shown
// in sight. On a desktop's column and a phone's one line.
func TestMoveListFollows(t *testing.T) {
	e := newEnv(t)
	gamePath, _ := e.newTab(t, desktop).newLongGame(longGamePlies)
	current := []mustSee{{"current move", "#moves button.current"}}
	for _, vp := range []viewport{desktop1440, phone390} {
		t.Run(vp.name, func(t *testing.T) {
			tb := e.newTab(t, vp)
			defer tb.close()
			tb.open(gamePath)
			tb.waitBoard()
			for _, why := range tb.notInView(current) {
				t.Errorf("[%s] on opening: %s", vp.name, why)
			}

			tb.scrollListBack()
			was := tb.listScroll()
			tb.playSafe()
			now := tb.listScroll()
			tb.shot("stayed")
			if math.Abs(now[0]-was[0]) > 2 || math.Abs(now[1]-was[1]) > 2 {
				t.Errorf("[%s] the list scrolled back by the person moved from %v to %v when moves were played", vp.name, was[:2], now[:2])
			}

			// The last move: the end of the list, and following again.
			if vp.touch {
				tb.clickSel(`[data-nav="last"]`)
			} else {
				tb.do(chromedp.KeyEvent(kb.End))
			}
			tb.waitJS(`(() => { const m = document.getElementById('moves');
				return Math.max(m.scrollHeight - m.clientHeight - m.scrollTop, m.scrollWidth - m.clientWidth - m.scrollLeft) < 5; })()`,
				"the list at its end", `JSON.stringify([document.getElementById('moves').scrollTop, document.getElementById('moves').scrollLeft])`, uiWait)
			for _, why := range tb.notInView(current) {
				t.Errorf("[%s] after going to the last move: %s", vp.name, why)
			}
			tb.playSafe()
			tb.shot("followed")
			for _, why := range tb.notInView(current) {
				t.Errorf("[%s] after the next moves: %s", vp.name, why)
			}

			// Back to the first moves: the move shown stays in sight.
			for i := 0; i < 3; i++ {
				tb.clickSel(fmt.Sprintf(`[data-nav="%s"]`, map[bool]string{true: "first", false: "next"}[i == 0]))
			}
			tb.waitJS(`document.querySelector('#moves button.current')?.dataset.ply === '2'`, "move 2 shown", `document.querySelector('#moves button.current')?.dataset.ply`, uiWait)
			tb.shot("reviewing")
			for _, why := range tb.notInView(current) {
				t.Errorf("[%s] reviewing move 2: %s", vp.name, why)
			}
		})
	}
}
