package e2e

// Issue 34: right-click circles and arrows, as on lichess's boards.

import "testing"

// TestAnnotations: right-click toggles a circle, right-drag an arrow (Shift
// a red one), no context menu opens on the board, nothing reaches the
// server, and a left click clears them all.
func TestAnnotations(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	start := tb.newGame(gameOpts{color: "white", level: "1"})
	eval[bool](tb, sendSpyJS)
	eval[bool](tb, `(window.__menus = [], document.addEventListener('contextmenu', (e) => window.__menus.push(e.defaultPrevented)), true)`)

	tb.rightClickSquare("e4", 0)
	tb.waitJS(`document.querySelector('#board svg.annotations circle[data-circle="e4"]')`, "a circle at e4",
		`document.querySelector('#board svg.annotations')?.outerHTML.slice(0, 300) || 'no svg'`, uiWait)
	tb.circleOn("e4") // drawn on e4 itself
	tb.rightDrag("d2", "d4", 0)
	tb.waitJS(`document.querySelector('#board svg.annotations line[data-arrow="d2d4"][data-colour="green"]')`, "a green arrow d2-d4",
		`document.querySelector('#board svg.annotations')?.outerHTML.slice(0, 400) || 'no svg'`, uiWait)
	tb.rightClickSquare("e5", modShift)
	tb.waitJS(`document.querySelector('#board circle[data-circle="e5"][data-colour="red"]')`, "a red circle at e5 (Shift)",
		`document.querySelector('#board svg.annotations')?.outerHTML.slice(0, 400) || 'no svg'`, uiWait)
	tb.shot("annotations")
	// They follow the board when it is flipped (a click outside the board
	// keeps them).
	tb.clickAction("flip")
	tb.waitAttr("#board", "data-orientation", "black", uiWait)
	tb.circleOn("e4")
	tb.shot("annotations-flipped")
	tb.clickAction("flip")
	tb.waitAttr("#board", "data-orientation", "white", uiWait)
	tb.circleOn("e5")
	// Toggling: the same right-click again removes the e5 circle.
	tb.rightClickSquare("e5", modShift)
	tb.waitJS(`!document.querySelector('#board circle[data-circle="e5"]')`, "the e5 circle toggled off",
		`document.querySelector('#board svg.annotations')?.outerHTML.slice(0, 400) || 'no svg'`, uiWait)

	menus := eval[[]bool](tb, `window.__menus`)
	if len(menus) == 0 {
		t.Errorf("no contextmenu event seen: the right-clicks did not reach the page")
	}
	for _, prevented := range menus {
		if !prevented {
			t.Errorf("a context menu was allowed on the board")
		}
	}
	b := tb.board()
	if b.Ply != "0" || b.FEN != start.FEN || b.Pieces["d2"] != "wP" {
		t.Errorf("the annotations changed the game: ply %s, d2=%q", b.Ply, b.Pieces["d2"])
	}
	if n := eval[int](tb, `(window.__sent || []).filter(e => e.msg && e.msg.type !== 'ping').length`); n != 0 {
		t.Errorf("%d messages sent while drawing annotations, want none", n)
	}

	// A left click anywhere on the board clears everything.
	tb.clickSquare("h5")
	tb.waitJS(`document.querySelectorAll('#board svg.annotations circle, #board svg.annotations line').length === 0`, "no circles or arrows after a left click",
		`document.querySelector('#board svg.annotations')?.outerHTML.slice(0, 400) || 'no svg'`, uiWait)
	tb.shot("annotations-cleared")
	// The board still plays.
	tb.clickSquare("e2")
	tb.clickSquare("e4")
	tb.waitPly(1, uiWait)
}

func (tb *tab) rightDrag(from, to string, mod int64) {
	tb.t.Helper()
	fx, fy := tb.squareCenter(from)
	tx, ty := tb.squareCenter(to)
	tb.do(rightMouse(fx, fy, tx, ty, mod))
}

// circleOn fails unless the circle drawn for sq is centred on that square.
func (tb *tab) circleOn(sq string) {
	tb.t.Helper()
	cx, cy := tb.squareCenter(sq)
	c := eval[rect](tb, `(() => { const r = document.querySelector('#board circle[data-circle="`+sq+`"]').getBoundingClientRect(); return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`)
	if d := abs(c.X+c.W/2-cx) + abs(c.Y+c.H/2-cy); d > 4 || c.W < 10 {
		tb.fail("circle box %+v is not centred on %s (%.0f, %.0f)", c, sq, cx, cy)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// modShift is Shift in CDP's modifier bits (Alt=1, Ctrl=2, Meta=4, Shift=8).
const modShift = 8
