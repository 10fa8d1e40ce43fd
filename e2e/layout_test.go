package e2e

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// layoutViewports are the screens every page must lay out on without
// overlap (issue 34): phones and tablets both ways up, laptops, desktops.
var layoutViewports = []viewport{
	{name: "360x640", width: 360, height: 640, mobile: true, touch: true},
	{name: "390x844", width: 390, height: 844, mobile: true, touch: true},
	{name: "412x915", width: 412, height: 915, mobile: true, touch: true},
	{name: "640x360", width: 640, height: 360, mobile: true, touch: true},
	{name: "844x390", width: 844, height: 390, mobile: true, touch: true},
	{name: "915x412", width: 915, height: 412, mobile: true, touch: true},
	{name: "768x1024", width: 768, height: 1024, mobile: true, touch: true},
	{name: "1024x768", width: 1024, height: 768, mobile: true, touch: true},
	{name: "820x1180", width: 820, height: 1180, mobile: true, touch: true},
	{name: "1180x820", width: 1180, height: 820, mobile: true, touch: true},
	{name: "1280x800", width: 1280, height: 800},
	{name: "1366x768", width: 1366, height: 768},
	{name: "1440x900", width: 1440, height: 900},
	{name: "1920x1080", width: 1920, height: 1080},
}

// box is one key element's place in document coordinates.
type box struct {
	Name                string
	L, T, R, B          float64
	Found, Visible      bool
	ScrollW, ClientW    float64 // of the element (for truncation)
	ViewTop, ViewBottom float64 // relative to the viewport at scroll 0
	FontSize            float64
	Display             string
}

// gameKeys are the game page's regions and controls that must never overlap.
var gameKeys = [][2]string{
	{"board", "#board"},
	{"top bar", "#player-top"},
	{"bottom bar", "#player-bottom"},
	{"move list", "#moves"},
	{"move input", "#move-form"},
	{"review buttons", ".review-nav"},
	{"take back", `[data-action="takeback"]`},
	{"offer draw", `[data-action="draw"]`},
	{"resign", `[data-action="resign"]`},
	{"status line", "#status-line"},
	{"opening line", "#opening-line"},
}

// reconKeys are the same for the Reconnaissance Chess page.
var reconKeys = [][2]string{
	{"board", "#board"},
	{"top bar", "#player-top"},
	{"bottom bar", "#player-bottom"},
	{"phase line", "#phase-line"},
	{"result line", "[data-recon-result]"},
	{"skip sense", `[data-action="skip-sense"]`},
	{"pass", `[data-action="pass"]`},
	{"turn log", "#recon-log"},
	{"resign", `[data-action="resign"]`},
	{"flip", `[data-action="flip"]`},
}

// measure scrolls to the top and returns each key element's box.
func (tb *tab) measure(keys [][2]string) (map[string]box, [3]float64) {
	tb.t.Helper()
	js := `(() => { scrollTo(0, 0); const keys = ` + toJSKeys(keys) + `;
		const out = keys.map(([name, sel]) => { const el = document.querySelector(sel);
			if (!el) return {Name: name, Found: false};
			const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
			return {Name: name, Found: true, Visible: r.width > 0 && r.height > 0 && cs.visibility !== 'hidden',
				L: r.left + scrollX, T: r.top + scrollY, R: r.right + scrollX, B: r.bottom + scrollY,
				ViewTop: r.top, ViewBottom: r.bottom, ScrollW: el.scrollWidth, ClientW: el.clientWidth,
				FontSize: parseFloat(cs.fontSize), Display: cs.display}; });
		return {boxes: out, page: [innerWidth, innerHeight, document.documentElement.scrollWidth]}; })()`
	res := eval[struct {
		Boxes []box      `json:"boxes"`
		Page  [3]float64 `json:"page"`
	}](tb, js)
	m := map[string]box{}
	for _, b := range res.Boxes {
		m[b.Name] = b
	}
	return m, res.Page
}

func toJSKeys(keys [][2]string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = "[" + jsq(k[0]) + "," + jsq(k[1]) + "]"
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// checkNoOverlap asserts every key element is shown, inside the page's
// width, the page does not scroll sideways, the board is square and whole,
// and no two key elements intersect.
func (tb *tab) checkNoOverlap(keys [][2]string) map[string]box {
	tb.t.Helper()
	t := tb.t
	boxes, page := tb.measure(keys)
	vw, vh, sw := page[0], page[1], page[2]
	const slack = 1.0
	if sw > vw+slack {
		t.Errorf("[%s] page scrolls sideways: %v px wide in a %v px viewport", tb.vp.name, sw, vw)
	}
	for _, k := range keys {
		b := boxes[k[0]]
		if !b.Found || !b.Visible {
			t.Errorf("[%s] %s (%s) is missing or not shown", tb.vp.name, k[0], k[1])
			continue
		}
		if b.L < -slack || b.R > vw+slack {
			t.Errorf("[%s] %s spans x %.1f..%.1f, outside the %v px wide viewport", tb.vp.name, k[0], b.L, b.R, vw)
		}
	}
	bd := boxes["board"]
	if w, h := bd.R-bd.L, bd.B-bd.T; math.Abs(w-h) > 2 {
		t.Errorf("[%s] board is %.1fx%.1f, not square", tb.vp.name, w, h)
	} else if h > vh+slack {
		t.Errorf("[%s] board is %.1f px tall in a %v px tall viewport", tb.vp.name, h, vh)
	} else if w < 0.5*math.Min(vw, vh) {
		t.Errorf("[%s] board is only %.1f px wide (viewport %vx%v)", tb.vp.name, w, vw, vh)
	}
	for i, a := range keys {
		for _, c := range keys[i+1:] {
			p, q := boxes[a[0]], boxes[c[0]]
			if !p.Visible || !q.Visible {
				continue
			}
			ix := math.Min(p.R, q.R) - math.Max(p.L, q.L)
			iy := math.Min(p.B, q.B) - math.Max(p.T, q.T)
			if ix > slack && iy > slack {
				t.Errorf("[%s] %s (%.0f,%.0f..%.0f,%.0f) overlaps %s (%.0f,%.0f..%.0f,%.0f)", tb.vp.name,
					a[0], p.L, p.T, p.R, p.B, c[0], q.L, q.T, q.R, q.B)
			}
		}
	}
	return boxes
}

// checkNamesWhole asserts the players' names are not cut off.
func (tb *tab) checkNamesWhole() {
	tb.t.Helper()
	names, _ := tb.measure([][2]string{{"top name", "#player-top .name"}, {"bottom name", "#player-bottom .name"},
		{"top clock", "#player-top .clock"}, {"bottom clock", "#player-bottom .clock"}})
	for _, n := range []string{"top name", "bottom name"} {
		b := names[n]
		if !b.Visible {
			tb.t.Errorf("[%s] %s not shown", tb.vp.name, n)
		} else if b.ScrollW > b.ClientW+0.5 {
			tb.t.Errorf("[%s] %s is cut off: %v px of text in %v px", tb.vp.name, n, b.ScrollW, b.ClientW)
		}
	}
	for _, n := range []string{"top clock", "bottom clock"} {
		if !names[n].Visible {
			tb.t.Errorf("[%s] %s not shown", tb.vp.name, n)
		}
	}
}

// TestLayoutGame opens one clocked game a few moves in at every viewport of
// layoutViewports and checks nothing overlaps or leaves the screen.
func TestLayoutGame(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.newGame(gameOpts{color: "white", level: "1", clock: "30+20"})
	tb.playAndWait("e2", "e4", 2)
	tb.playAndWait("g1", "f3", 4)
	tb.playAndWait("b1", "c3", 6)
	url := tb.location()
	tb.close()
	for _, vp := range layoutViewports {
		t.Run(vp.name, func(t *testing.T) {
			tb := e.newTab(t, vp)
			defer tb.close()
			tb.do(chromedp.Navigate(url))
			tb.waitPly(6, uiWait)
			tb.waitJS(`!document.querySelector('#player-bottom .clock').hidden && document.querySelector('#moves [data-ply="6"]')`,
				"the clocks and the move list", "", uiWait)
			tb.settle()
			tb.shot("game")
			boxes := tb.checkNoOverlap(gameKeys)
			tb.checkNamesWhole()
			if vp.height > vp.width && vp.width >= 700 { // tablet portrait
				for _, k := range []string{"take back", "offer draw", "resign"} {
					if b := boxes[k]; b.ViewBottom > float64(vp.height)+1 {
						t.Errorf("[%s] %s is below the fold: bottom %.0f in a %d px tall viewport", vp.name, k, b.ViewBottom, vp.height)
					}
				}
			}
			if vp.mobile && math.Min(float64(vp.width), float64(vp.height)) < 500 {
				fs := eval[float64](tb, `parseFloat(getComputedStyle(document.querySelector('#board .coords span')).fontSize)`)
				if fs < 11 {
					t.Errorf("[%s] board coordinates are %.1f px, want at least 11", vp.name, fs)
				}
			}
		})
	}
}

// TestLayoutRecon does the same for the Reconnaissance Chess page.
func TestLayoutRecon(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.newRecon("white", "random", "15+5")
	tb.waitMyPhase()
	url := tb.location()
	tb.close()
	for _, vp := range layoutViewports {
		switch vp.name {
		case "390x844", "844x390", "1366x768", "640x360", "768x1024":
		default:
			continue
		}
		t.Run(vp.name, func(t *testing.T) {
			tb := e.newTab(t, vp)
			defer tb.close()
			tb.do(chromedp.Navigate(url))
			tb.waitMyPhase()
			tb.settle()
			tb.shot("recon")
			tb.checkNoOverlap(reconKeys)
		})
	}
}

// TestLayoutHomePhone: on a phone the new-game form's Play button shows
// without scrolling.
func TestLayoutHomePhone(t *testing.T) {
	e := newEnv(t)
	for _, vp := range []viewport{phone, layoutViewports[2]} {
		t.Run(vp.name, func(t *testing.T) {
			tb := e.newTab(t, vp)
			defer tb.close()
			tb.open("/")
			tb.waitJS(`document.querySelector('form#new-game')`, "the new-game form", "", uiWait)
			tb.shot("home")
			b := eval[[]float64](tb, `(() => { scrollTo(0, 0); const r = document.querySelector('form#new-game button[type=submit]').getBoundingClientRect();
				return [r.top, r.bottom, innerHeight, r.width]; })()`)
			if b[3] == 0 || b[1] > b[2]+1 {
				t.Errorf("[%s] Play spans y %.0f..%.0f: below the fold of a %v px screen", vp.name, b[0], b[1], b[2])
			}
			tb.checkNoSideways("home page", "form#new-game")
			if j := eval[string](tb, `(document.body.innerText.match(/~\d+|half-moves?|\bplies\b/i) || [''])[0]`); j != "" {
				t.Errorf("[%s] the home page says %q: jargon (say moves, or ≈N Elo with its scale)", vp.name, j)
			}
		})
	}
}

// TestLayoutTouchDragLift drags a piece with a finger and checks the
// dragged piece is drawn above the finger, not under it.
func TestLayoutTouchDragLift(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, phone)
	tb.newGame(gameOpts{color: "white", level: "1"})
	fx, fy := tb.squareCenter("e2")
	tx, ty := tb.squareCenter("e4")
	sq, _ := tb.rectOf(`#board [data-square="e2"]`)
	one, zero := 1.0, 0.0
	touch := func(typ input.DispatchTouchEventType, x, y float64) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			pts := []*input.TouchPoint{{X: x, Y: y, RadiusX: &one, RadiusY: &one, Force: &one, ID: &zero}}
			if typ == input.DispatchTouchEventTypeTouchEnd {
				pts = []*input.TouchPoint{}
			}
			_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts})
			time.Sleep(30 * time.Millisecond) // time itself is what is tested: a finger's pace, which the gesture detector goes by
			return err
		})
	}
	tb.do(touch(input.DispatchTouchEventTypeTouchStart, fx, fy))
	const steps = 8
	for i := 1; i <= steps; i++ {
		f := float64(i) / steps
		tb.do(touch(input.DispatchTouchEventTypeTouchMove, fx+(tx-fx)*f, fy+(ty-fy)*f))
	}
	ghost := eval[[]float64](tb, `(() => { const g = document.querySelector('.drag-ghost');
		if (!g) return []; const r = g.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2, r.height]; })()`)
	tb.shot("mid-drag")
	tb.do(touch(input.DispatchTouchEventTypeTouchEnd, tx, ty))
	if len(ghost) != 3 {
		t.Fatalf("no .drag-ghost while a finger drags e2-e4")
	}
	t.Logf("finger at (%.0f,%.0f), ghost centre (%.0f,%.0f), square %.0f px", tx, ty, ghost[0], ghost[1], sq.H)
	if lift := ty - ghost[1]; lift < sq.H/2 {
		t.Errorf("the dragged piece's centre is %.0f px above the finger, want at least half a square (%.0f px)", lift, sq.H/2)
	}
	if math.Abs(ghost[0]-tx) > sq.W/2 {
		t.Errorf("the dragged piece's centre is %.0f px beside the finger", ghost[0]-tx)
	}
	tb.waitJS(`+document.getElementById('board').getAttribute('data-ply') >= 1`, "the dragged move to be played", "", uiWait)
	if b := tb.board(); b.Pieces["e4"] != "wP" {
		t.Errorf("after the drag e4=%q", b.Pieces["e4"])
	}
}
