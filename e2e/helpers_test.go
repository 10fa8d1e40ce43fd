package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// verboseConsole logs every console message of every page
// (KNIGHTWATCH_E2E_CONSOLE=1), for debugging a failing flow.
var verboseConsole = os.Getenv("KNIGHTWATCH_E2E_CONSOLE") != ""

// binPath is the knightwatch binary TestMain builds once for every test.
var binPath string

// chromePath is the browser every test drives.
var chromePath string

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	tmp, err := os.MkdirTemp("", "kw-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	root, err := ModuleRoot(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	binPath = filepath.Join(tmp, "knightwatch")
	start := time.Now()
	if err := BuildBinary(root, binPath); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: building the binary:", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "e2e: built %s in %v\n", binPath, time.Since(start).Round(time.Millisecond))
	chromePath = ChromePath()
	if chromePath == "" {
		// Failing (not skipping) is deliberate: `make test` must not pass
		// without having run the browser tests.
		fmt.Fprintln(os.Stderr, "e2e: no chromium found; run scripts/e2e.sh (it installs Debian's chromium) or set KNIGHTWATCH_E2E_CHROME")
		return 1
	}
	return m.Run()
}

// Timeouts. Generous, because two cores are shared with other jobs; no test
// asserts a duration, these only bound how long a broken page is waited for.
const (
	uiWait     = 10 * time.Second // a DOM change caused by our own input
	engineWait = 30 * time.Second // the engine's reply at level 1 (plus the natural pause)
)

// viewport is a screen size to emulate; touch turns on touch emulation and
// makes the helpers tap and drag with touch events instead of the mouse.
type viewport struct {
	name          string
	width, height int64
	mobile, touch bool
}

var (
	desktop        = viewport{name: "desktop", width: 1366, height: 900}
	tabletPortrait = viewport{name: "tablet-portrait", width: 768, height: 1024, mobile: true, touch: true}
	tabletLand     = viewport{name: "tablet-landscape", width: 1024, height: 768, mobile: true, touch: true}
	phone          = viewport{name: "phone", width: 390, height: 844, mobile: true, touch: true}
)

// env is one test's world: its own server and database, its own browser
// profile, and its own artefact folder e2e/artifacts/<TestName>/.
type env struct {
	t       *testing.T
	srv     *Server
	browser context.Context // the browser's first tab; kept open so the browser lives
	dir     string          // artefacts
	mu      sync.Mutex
	shots   int
	// longGame counts the positions (positionKey) the long game has been
	// in, so playSafe never lets one come a third time.
	longGame map[string]int
}

var nonFileChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// newEnv starts the test's server (serveArgs are more `knightwatch serve`
// flags, such as --syzygy DIR), its browser and its artefact folder.
func newEnv(t *testing.T, serveArgs ...string) *env {
	t.Helper()
	dir := filepath.Join("artifacts", nonFileChars.ReplaceAllString(t.Name(), "_"))
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	addr, err := FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := StartServer(binPath, filepath.Join(tmp, "kw.db"), addr, filepath.Join(dir, "server.log"), serveArgs...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Stop(10 * time.Second); err != nil {
			t.Errorf("stopping the server: %v", err)
		}
	})
	profile, err := os.MkdirTemp("", "kw-e2e-profile-")
	if err != nil {
		t.Fatal(err)
	}
	bctx, cancel, err := NewBrowser(context.Background(), chromePath, profile)
	if err != nil {
		os.RemoveAll(profile)
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); os.RemoveAll(profile) })
	t.Logf("server %s (log %s), artefacts in e2e/%s", srv.URL(), srv.Log, dir)
	return &env{t: t, srv: srv, browser: bctx, dir: dir}
}

// tab is one browser tab on the test's server. t is the (sub)test the
// helpers report to; in(t) rebinds it for a subtest sharing the tab.
type tab struct {
	e      *env
	t      *testing.T
	ctx    context.Context
	cancel context.CancelFunc
	vp     viewport
	log    *pageLog
}

// pageLog collects a page's uncaught exceptions and console errors, and
// the browser dialogs (alert, confirm, prompt) it opened.
type pageLog struct {
	mu      sync.Mutex
	errs    []string
	dialogs []string
}

// in returns the same tab reporting to t, for use inside t.Run.
func (tb *tab) in(t *testing.T) *tab {
	c := *tb
	c.t = t
	return &c
}

// newTab opens a tab in the test's browser (same profile, so same cookies),
// emulating vp, with the recorder installed. A browser dialog (alert,
// confirm, prompt) is accepted, so the page does not hang, and fails the
// test: the pages ask in the page (confirm.js), never in a browser box.
// Options such as chromedp.WithNewBrowserContext() give it a cookie jar of
// its own: another person's browser.
func (e *env) newTab(t *testing.T, vp viewport, ctxOpts ...chromedp.ContextOption) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(e.browser, ctxOpts...)
	tb := &tab{e: e, t: t, ctx: ctx, cancel: cancel, vp: vp, log: &pageLog{}}
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			tb.note("js dialog: " + string(ev.Type) + " " + ev.Message)
			tb.log.mu.Lock()
			tb.log.dialogs = append(tb.log.dialogs, string(ev.Type)+": "+ev.Message)
			tb.log.mu.Unlock()
			_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	console := chromedp.Console(ctx)
	go func() {
		for m, err := range console {
			if err != nil {
				return
			}
			if verboseConsole {
				tb.note(fmt.Sprintf("console.%s: %s (%s:%d)", m.Type, m, m.URL, m.Line+1))
			}
			if m.IsException() || m.Type == chromedp.ConsoleError {
				tb.log.mu.Lock()
				tb.log.errs = append(tb.log.errs, fmt.Sprintf("%s (%s:%d)", m, m.URL, m.Line+1))
				tb.log.mu.Unlock()
			}
		}
	}()
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: RecorderJS}); err != nil {
		t.Fatalf("installing the recorder: %v", err)
	}
	opts := []chromedp.EmulateViewportOption{}
	if vp.mobile {
		opts = append(opts, chromedp.EmulateMobile)
	}
	if vp.touch {
		opts = append(opts, chromedp.EmulateTouch)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(vp.width, vp.height, opts...)); err != nil {
		t.Fatalf("emulating %s: %v", vp.name, err)
	}
	t.Cleanup(tb.reportErrors)
	return tb
}

func (tb *tab) note(s string) {
	tb.t.Logf("[%s] %s", tb.vp.name, s)
}

// reportErrors fails the test for uncaught exceptions in the page: they are
// front-end bugs even when the flow under test happened to work; and for
// browser dialogs (issue 42: questions are asked in the page).
func (tb *tab) reportErrors() {
	tb.log.mu.Lock()
	defer tb.log.mu.Unlock()
	for _, d := range tb.log.dialogs {
		tb.t.Errorf("[%s] the page opened a browser dialog (%s); it must ask in the page", tb.vp.name, d)
	}
	for _, e := range tb.log.errs {
		if strings.Contains(e, "favicon.ico") {
			continue // a missing favicon is noise, not a bug in the game
		}
		if strings.Contains(e, "Uncaught") || strings.Contains(strings.ToLower(e), "exception") {
			tb.t.Errorf("[%s] page error: %s", tb.vp.name, e)
		} else {
			tb.t.Logf("[%s] console error: %s", tb.vp.name, e)
		}
	}
}

// close closes the tab, as a person closing it would (the WebSocket drops).
func (tb *tab) close() {
	tb.reportErrors()
	tb.log.mu.Lock()
	tb.log.errs, tb.log.dialogs = nil, nil
	tb.log.mu.Unlock()
	tb.cancel()
}

func (tb *tab) do(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		tb.fail("browser action: %v", err)
	}
}

// eval runs a JS expression in the page and decodes its JSON result into T.
func eval[T any](tb *tab, js string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 15*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.fail("evaluating %q: %v", short(js), err)
	}
	return v
}

func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// fail takes a screenshot of the moment of failure, then stops the test.
func (tb *tab) fail(format string, args ...any) {
	tb.t.Helper()
	tb.shot("FAILED")
	if b, err := tb.tryEvalRaw(`window.__kw ? window.__kw.input : []`); err == nil {
		tb.t.Logf("[%s] last input events seen by the page: %s", tb.vp.name, b)
	}
	tb.t.Fatalf("[%s] "+format, append([]any{tb.vp.name}, args...)...)
}

// shot saves a PNG of the viewport to the test's artefact folder, numbered
// in the order taken, so the folder reads as a storyboard of the test.
func (tb *tab) shot(name string) string {
	tb.e.mu.Lock()
	tb.e.shots++
	n := tb.e.shots
	tb.e.mu.Unlock()
	ctx, cancel := context.WithTimeout(tb.ctx, 15*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		tb.t.Logf("screenshot %s: %v", name, err)
		return ""
	}
	p := filepath.Join(tb.e.dir, fmt.Sprintf("%02d-%s-%s.png", n, tb.vp.name, nonFileChars.ReplaceAllString(name, "_")))
	if err := os.WriteFile(p, buf, 0o644); err != nil {
		tb.t.Logf("screenshot %s: %v", name, err)
	}
	return p
}

// open navigates to a path on the test's server and waits for the load event.
func (tb *tab) open(path string) {
	tb.t.Helper()
	tb.do(chromedp.Navigate(tb.e.srv.URL() + path))
}

// location is the tab's current URL.
func (tb *tab) location() string {
	tb.t.Helper()
	return eval[string](tb, `location.href`)
}

// waitJS waits until a JS boolean expression is true: the page checks it
// after each change it can see (the recorder's kw.wait), and again on the
// next page when one replaces it. what names the condition in the failure
// message; the last value of detail (a JS expression) is shown too, to
// make a failure readable without rerunning.
func (tb *tab) waitJS(cond, what, detail string, limit time.Duration) {
	tb.t.Helper()
	deadline := time.Now().Add(limit)
	js := `window.__kw.wait(() => (` + cond + `))`
	for {
		ctx, cancel := context.WithDeadline(tb.ctx, deadline)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) || !pageGone(err) {
			got := ""
			if detail != "" {
				if b, err := tb.tryEvalRaw(detail); err == nil {
					got = string(b)
				} else {
					got = err.Error()
				}
			}
			tb.fail("timed out after %v waiting for %s (now: %s; eval error: %v)", limit, what, got, err)
		}
		// The page went away before cond held: wait again on the next.
	}
}

// pageGone reports whether err says the page an evaluation ran in went
// away (a navigation), rather than that the evaluation failed.
func pageGone(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	return strings.Contains(s, "context was destroyed") || strings.Contains(s, "Cannot find context") ||
		strings.Contains(s, "Inspected target navigated") || strings.Contains(s, "Execution context")
}

// roundTrip has the page ask the server for its state twice on each open
// game socket and waits for both answers (the recorder's kw.roundTrip):
// whatever the server had to say before, to anything the page sent
// before, has then reached the page and been handled. It is how a test
// sees that something did not happen.
func (tb *tab) roundTrip() {
	tb.t.Helper()
	eval[bool](tb, `window.__kw.roundTrip().then(() => true)`)
}

// settle waits until the page's layout is still: its fonts loaded, its
// finite transitions and animations over, and a frame drawn since.
func (tb *tab) settle() {
	tb.t.Helper()
	eval[bool](tb, `(async () => {
		await document.fonts.ready;
		const finite = document.getAnimations().filter(a => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
		await Promise.all(finite.map(a => a.finished.catch(() => {})));
		await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
		return true; })()`)
}

func (tb *tab) tryEvalRaw(js string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(tb.ctx, 5*time.Second)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[[]byte](js))
}

// jsq quotes s as a JS string literal.
func jsq(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// board is what the board root's hooks say.
type board struct {
	FEN         string            `json:"fen"`
	Status      string            `json:"status"`
	Orientation string            `json:"orientation"`
	Thinking    string            `json:"thinking"`
	Ply         string            `json:"ply"`
	Pieces      map[string]string `json:"pieces"` // square -> wP etc., from [data-square] [data-piece]
}

const boardJS = `(() => {
  const b = document.getElementById('board');
  if (!b) return null;
  const pieces = {};
  for (const sq of b.querySelectorAll('[data-square]')) {
    const p = sq.querySelector('[data-piece]');
    if (p) pieces[sq.getAttribute('data-square')] = p.getAttribute('data-piece');
  }
  return {fen: b.getAttribute('data-fen') || '', status: b.getAttribute('data-status') || '',
    orientation: b.getAttribute('data-orientation') || '', thinking: b.getAttribute('data-thinking') || '',
    ply: b.getAttribute('data-ply') || '', pieces};
})()`

func (tb *tab) board() board {
	tb.t.Helper()
	b := eval[*board](tb, boardJS)
	if b == nil {
		tb.fail("no #board on %s", tb.location())
	}
	return *b
}

// waitBoard waits until the game page shows a board with a position and
// its pieces, i.e. the first state message has been drawn.
func (tb *tab) waitBoard() board {
	tb.t.Helper()
	tb.waitJS(`(() => { const b = document.getElementById('board');
		return b && b.getAttribute('data-fen') && b.getAttribute('data-status') && b.querySelector('[data-square] [data-piece]'); })()`,
		"#board with data-fen, data-status and pieces", `location.href + ' ' + (document.getElementById('board')||{outerHTML:'no #board'}).outerHTML.slice(0, 300)`, uiWait)
	return tb.board()
}

// waitPly waits until the live game's ply (data-ply on #board) is n.
func (tb *tab) waitPly(n int, limit time.Duration) board {
	tb.t.Helper()
	tb.waitJS(fmt.Sprintf(`document.getElementById('board')?.getAttribute('data-ply') === '%d'`, n),
		fmt.Sprintf("data-ply=%d", n), `document.getElementById('board')?.getAttribute('data-ply')`, limit)
	return tb.board()
}

// waitAttr waits until the element sel has attribute attr equal to want.
func (tb *tab) waitAttr(sel, attr, want string, limit time.Duration) {
	tb.t.Helper()
	tb.waitJS(fmt.Sprintf(`document.querySelector(%s)?.getAttribute(%s) === %s`, jsq(sel), jsq(attr), jsq(want)),
		fmt.Sprintf("%s[%s=%q]", sel, attr, want), fmt.Sprintf(`document.querySelector(%s)?.getAttribute(%s)`, jsq(sel), jsq(attr)), limit)
}

type rect struct{ X, Y, W, H float64 }

// rectOf scrolls sel into view if needed and returns its box in viewport
// CSS pixels; ok is false when sel matches nothing.
func (tb *tab) rectOf(sel string) (rect, bool) {
	tb.t.Helper()
	r := eval[*rect](tb, fmt.Sprintf(`(() => { const el = document.querySelector(%s); if (!el) return null;
		const r = el.getBoundingClientRect();
		if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) { el.scrollIntoView({block: 'center', inline: 'nearest'}); }
		const q = el.getBoundingClientRect(); return {X: q.left, Y: q.top, W: q.width, H: q.height}; })()`, jsq(sel)))
	if r == nil {
		return rect{}, false
	}
	return *r, true
}

// squareCenter is the centre of a square, with the whole board scrolled
// into view first so a drag's two ends are on screen together.
func (tb *tab) squareCenter(sq string) (float64, float64) {
	tb.t.Helper()
	tb.rectOf("#board")
	r, ok := tb.rectOf(fmt.Sprintf(`#board [data-square="%s"]`, sq))
	if !ok {
		tb.fail("no square %s on the board", sq)
	}
	if r.W < 4 || r.H < 4 {
		tb.fail("square %s is %.0fx%.0f px: not clickable", sq, r.W, r.H)
	}
	return r.X + r.W/2, r.Y + r.H/2
}

// press is a click with the mouse, or a tap on a touch viewport: real input
// events dispatched by the browser, so the page sees genuine pointer events.
func (tb *tab) press(x, y float64) {
	tb.t.Helper()
	if tb.vp.touch {
		tb.do(touchDrag(x, y, x, y, 0))
		return
	}
	tb.do(chromedp.MouseEvent(chromedp.MouseMoved, x, y),
		chromedp.MouseClickXY(x, y))
}

// clickSquare clicks (or taps) the centre of a square.
func (tb *tab) clickSquare(sq string) {
	tb.t.Helper()
	x, y := tb.squareCenter(sq)
	tb.press(x, y)
}

// clickSel clicks (or taps) the centre of the first element matching sel,
// once the element is what the page would hit there and has stayed put
// between two looks: a click aimed before a layout shift (a game's review
// arriving above the buttons) lands on whatever moved under the pointer.
func (tb *tab) clickSel(sel string) {
	tb.t.Helper()
	deadline := time.Now().Add(uiWait)
	for {
		r, ok := tb.rectOf(sel)
		if !ok {
			tb.fail("nothing matches %s", sel)
		}
		if r.W == 0 || r.H == 0 {
			tb.fail("%s is not visible (%.0fx%.0f)", sel, r.W, r.H)
		}
		x, y := r.X+r.W/2, r.Y+r.H/2
		if tb.hitAt(sel, r) {
			tb.press(x, y)
			return
		}
		if time.Now().After(deadline) {
			tb.fail("%s kept moving or stayed covered at (%.0f, %.0f) for %v; the page hits %s there", sel, x, y, uiWait,
				eval[string](tb, fmt.Sprintf(`(() => { const a = document.elementFromPoint(%g, %g); return a ? a.outerHTML.slice(0, 120) : 'nothing'; })()`, x, y)))
		}
	}
}

// hitAt reports whether the element matching sel still has rect r and is
// the one (or holds the one) the page hits at r's centre.
func (tb *tab) hitAt(sel string, r rect) bool {
	tb.t.Helper()
	return eval[bool](tb, fmt.Sprintf(`(() => { const el = document.querySelector(%s); if (!el) return false;
		const q = el.getBoundingClientRect();
		if (q.left !== %g || q.top !== %g || q.width !== %g || q.height !== %g) return false;
		const at = document.elementFromPoint(q.left + q.width / 2, q.top + q.height / 2);
		return !!at && el.contains(at); })()`, jsq(sel), r.X, r.Y, r.W, r.H))
}

// dragPiece presses on from, moves in small steps to to, and releases: with
// the mouse on desktop, with one finger on touch viewports.
func (tb *tab) dragPiece(from, to string) {
	tb.t.Helper()
	fx, fy := tb.squareCenter(from)
	tx, ty := tb.squareCenter(to)
	tb.dragXY(fx, fy, tx, ty)
}

// dragXY presses at (fx, fy), moves in small steps to (tx, ty) and
// releases, as dragPiece does.
func (tb *tab) dragXY(fx, fy, tx, ty float64) {
	tb.t.Helper()
	const steps = 12
	if tb.vp.touch {
		tb.do(touchDrag(fx, fy, tx, ty, steps))
		return
	}
	tb.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		mouse := func(typ input.DispatchMouseEventType, x, y float64, buttons int64) error {
			p := input.DispatchMouseEventParams{Type: typ, X: x, Y: y, Button: input.MouseButtonLeft, Buttons: buttons}
			if typ != chromedp.MouseMoved {
				p.ClickCount = 1
			}
			_, err := cdp.Call(ctx, t, input.DispatchMouseEvent, p)
			return err
		}
		if err := mouse(chromedp.MouseMoved, fx, fy, 0); err != nil {
			return err
		}
		if err := mouse(chromedp.MousePressed, fx, fy, 1); err != nil {
			return err
		}
		for i := 1; i <= steps; i++ {
			f := float64(i) / steps
			if err := mouse(chromedp.MouseMoved, fx+(tx-fx)*f, fy+(ty-fy)*f, 1); err != nil {
				return err
			}
			time.Sleep(10 * time.Millisecond) // time itself is what is tested: a hand's pace, the page drawing the piece as it goes
		}
		return mouse(chromedp.MouseReleased, tx, ty, 0)
	}))
}

// touchDrag puts one finger down at (fx, fy), moves it in steps to (tx, ty)
// and lifts it; with steps == 0 it is a tap. The pauses give the finger a
// human rhythm: back-to-back CDP touch events occasionally lost the click
// of a tap, or the moves of a drag, in headless Chromium's gesture detector.
func touchDrag(fx, fy, tx, ty float64, steps int) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		one := 1.0
		zero := 0.0
		pt := func(x, y float64) []*input.TouchPoint {
			return []*input.TouchPoint{{X: x, Y: y, RadiusX: &one, RadiusY: &one, Force: &one, ID: &zero}}
		}
		send := func(typ input.DispatchTouchEventType, pts []*input.TouchPoint, pause time.Duration) error {
			if _, err := cdp.Call(ctx, t, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts}); err != nil {
				return err
			}
			time.Sleep(pause) // time itself is what is tested: a finger's rhythm, which the gesture detector goes by
			return nil
		}
		if err := send(input.DispatchTouchEventTypeTouchStart, pt(fx, fy), 60*time.Millisecond); err != nil {
			return err
		}
		for i := 1; i <= steps; i++ {
			f := float64(i) / float64(steps)
			if err := send(input.DispatchTouchEventTypeTouchMove, pt(fx+(tx-fx)*f, fy+(ty-fy)*f), 16*time.Millisecond); err != nil {
				return err
			}
		}
		// A touchEnd has no touch points.
		return send(input.DispatchTouchEventTypeTouchEnd, []*input.TouchPoint{}, 30*time.Millisecond)
	})
}

// gameOpts are the new-game form's fields (web/PROTOCOL.md).
type gameOpts struct {
	color, level, variant, clock, fen string
}

// newGame fills form#new-game on the home page and submits it with a real
// click (or tap) on its submit button, then waits for the game's board.
func (tb *tab) newGame(o gameOpts) board {
	tb.t.Helper()
	if o.color == "" {
		o.color = "white"
	}
	if o.level == "" {
		o.level = "1"
	}
	if o.variant == "" {
		o.variant = "standard"
	}
	if o.clock == "" {
		o.clock = "none"
	}
	tb.open("/")
	tb.waitJS(`document.querySelector('form#new-game')`, "form#new-game on the home page", `document.body ? document.body.innerText.slice(0, 300) : ''`, uiWait)
	// Fields may be selects, radio groups or inputs (the fen one possibly in a
	// collapsed <details>); RadioNodeList.value checks the matching radio.
	missing := eval[string](tb, fmt.Sprintf(`(() => {
		const f = document.querySelector('form#new-game');
		const want = {color: %s, level: %s, variant: %s, clock: %s, fen: %s};
		const bad = [];
		for (const [k, v] of Object.entries(want)) {
			const el = f.elements.namedItem(k);
			if (!el) { if (v !== '') bad.push(k + ' (no field)'); continue; }
			el.value = v;
			if (el.value !== v) bad.push(k + '=' + v + ' (not an option)');
			const items = el instanceof RadioNodeList ? [...el] : [el];
			for (const i of items) { i.dispatchEvent(new Event('input', {bubbles: true})); i.dispatchEvent(new Event('change', {bubbles: true})); }
		}
		return bad.join(', ');
	})()`, jsq(o.color), jsq(o.level), jsq(o.variant), jsq(o.clock), jsq(o.fen)))
	if missing != "" {
		tb.fail("form#new-game: could not set %s", missing)
	}
	tb.shot("new-game-form")
	before := tb.location()
	submit := `form#new-game button[type=submit], form#new-game input[type=submit], form#new-game button:not([type])`
	tb.clickSel(submit)
	tb.waitJS(fmt.Sprintf(`location.href !== %s && /\/game\//.test(location.pathname)`, jsq(before)),
		"the game page after submitting form#new-game", `location.href + ' ' + document.body.innerText.slice(0, 300)`, uiWait)
	b := tb.waitBoard()
	tb.shot("game-start")
	return b
}

// clickAction clicks a [data-action=name] control.
func (tb *tab) clickAction(name string) {
	tb.t.Helper()
	tb.clickSel(fmt.Sprintf(`[data-action="%s"]`, name))
}

// gameOver is what dialog#game-over says.
type gameOver struct {
	Open   bool   `json:"open"`
	Result string `json:"result"`
	Reason string `json:"reason"`
}

// waitGameOver waits for the open game-over dialog and reads its result
// and reason (attribute value if set, else the element's text).
func (tb *tab) waitGameOver(limit time.Duration) gameOver {
	tb.t.Helper()
	tb.waitJS(`document.querySelector('dialog#game-over')?.open`, "dialog#game-over to open",
		`[document.getElementById('board')?.getAttribute('data-status'), document.querySelector('dialog#game-over')?.outerHTML?.slice(0, 200)]`, limit)
	return eval[gameOver](tb, `(() => { const d = document.querySelector('dialog#game-over');
		const v = sel => { const el = d.querySelector(sel); if (!el) return '';
			const a = el.getAttribute(sel.slice(1, -1)); return (a || el.textContent || '').trim(); };
		return {open: d.open, result: v('[data-result]'), reason: v('[data-reason]')}; })()`)
}

// moveText is the text of the move list entry for ply n ("" when absent).
func (tb *tab) moveText(n int) string {
	tb.t.Helper()
	return eval[string](tb, fmt.Sprintf(`(document.querySelector('#moves [data-ply="%d"]')?.textContent || '').trim()`, n))
}

// recorded returns the recorder's log of one board attribute's values in order.
func (tb *tab) recorded(attr string) []string {
	tb.t.Helper()
	return eval[[]string](tb, fmt.Sprintf(`(window.__kw ? window.__kw.log : []).filter(e => e.attr === %s).map(e => e.value)`, jsq(attr)))
}

// clearRecorder empties the recorder's log, so a test sees only what follows.
func (tb *tab) clearRecorder() {
	tb.t.Helper()
	eval[bool](tb, `(window.__kw && (window.__kw.log = []), true)`)
}

// layout is the board's place on the screen and whether the page scrolls
// sideways, for the "board fits the viewport" checks.
type layout struct {
	VW, VH      float64 // viewport
	ScrollW     float64 // document width; > VW means sideways scrolling
	X, Y, W, H  float64 // #board after scrolling it into view
	SquareW     float64 // one square's width
	PieceImages int     // [data-piece] elements that rendered with a non-zero box
}

func (tb *tab) layout() layout {
	tb.t.Helper()
	return eval[layout](tb, `(() => {
		const b = document.getElementById('board');
		b.scrollIntoView({block: 'nearest', inline: 'nearest'});
		const r = b.getBoundingClientRect();
		const sq = b.querySelector('[data-square]').getBoundingClientRect();
		let n = 0; for (const p of b.querySelectorAll('[data-piece]')) { const q = p.getBoundingClientRect(); if (q.width > 0 && q.height > 0) n++; }
		return {VW: innerWidth, VH: innerHeight, ScrollW: document.documentElement.scrollWidth,
			X: r.left, Y: r.top, W: r.width, H: r.height, SquareW: sq.width, PieceImages: n};
	})()`)
}

// checkFits asserts the board is wholly visible in the viewport, square,
// and not uselessly small, and the page does not scroll sideways.
func (tb *tab) checkFits(l layout) {
	tb.t.Helper()
	t := tb.t
	const slack = 1.5 // sub-pixel rounding
	if l.ScrollW > l.VW+slack {
		t.Errorf("[%s] page scrolls sideways: document %v px wide in a %v px viewport", tb.vp.name, l.ScrollW, l.VW)
	}
	if l.X < -slack || l.X+l.W > l.VW+slack {
		t.Errorf("[%s] board spans x %.1f..%.1f, outside the %v px wide viewport", tb.vp.name, l.X, l.X+l.W, l.VW)
	}
	if l.H > l.VH+slack {
		t.Errorf("[%s] board is %.1f px tall, taller than the %v px viewport", tb.vp.name, l.H, l.VH)
	}
	if math.Abs(l.W-l.H) > 2 {
		t.Errorf("[%s] board is %.1fx%.1f px, not square", tb.vp.name, l.W, l.H)
	}
	if minSide := math.Min(l.VW, l.VH); l.W < 0.6*minSide {
		t.Errorf("[%s] board is %.1f px wide, under 60%% of the viewport's short side (%v px)", tb.vp.name, l.W, minSide)
	}
	if math.Abs(l.SquareW*8-l.W) > 4 {
		t.Errorf("[%s] a square is %.1f px wide but the board is %.1f px: not an 8x8 grid", tb.vp.name, l.SquareW, l.W)
	}
}

// fenBoard is the piece placement field of a FEN.
func fenBoard(fen string) string {
	f := strings.Fields(fen)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// fenSquares expands a FEN's placement field into square -> piece hooks
// (wP, bK), so a test can compare what the board draws with what the
// position says without trusting the page's own bookkeeping.
func fenSquares(fen string) map[string]string {
	out := map[string]string{}
	rank := 8
	file := 0
	for _, c := range fenBoard(fen) {
		switch {
		case c == '/':
			rank--
			file = 0
		case c >= '1' && c <= '8':
			file += int(c - '0')
		default:
			color := "w"
			if c >= 'a' && c <= 'z' {
				color = "b"
			}
			if file < 8 && rank >= 1 {
				out[fmt.Sprintf("%c%d", 'a'+file, rank)] = color + strings.ToUpper(string(c))
			}
			file++
		}
	}
	return out
}

// checkDrawn asserts the pieces on the board match its own data-fen.
func (tb *tab) checkDrawn(b board) {
	tb.t.Helper()
	want := fenSquares(b.FEN)
	for sq, p := range want {
		if b.Pieces[sq] != p {
			tb.t.Errorf("[%s] %s: fen %q has %s, board draws %q", tb.vp.name, sq, b.FEN, p, b.Pieces[sq])
		}
	}
	for sq, p := range b.Pieces {
		if want[sq] == "" {
			tb.t.Errorf("[%s] %s: board draws %s but fen %q has it empty", tb.vp.name, sq, p, b.FEN)
		}
	}
}

// checkNoSideways asserts the page (what names it) does not scroll sideways
// and the element sel, when present, lies within the viewport's width.
func (tb *tab) checkNoSideways(what, sel string) {
	tb.t.Helper()
	w := eval[[]float64](tb, fmt.Sprintf(`(() => { const el = document.querySelector(%s);
		const r = el ? el.getBoundingClientRect() : {left: 0, right: 0};
		return [innerWidth, document.documentElement.scrollWidth, r.left + scrollX, r.right + scrollX]; })()`, jsq(sel)))
	if len(w) != 4 {
		tb.fail("measuring %s: %v", what, w)
	}
	if w[1] > w[0]+1.5 {
		tb.t.Errorf("[%s] %s scrolls sideways: %v px wide in a %v px viewport", tb.vp.name, what, w[1], w[0])
	}
	if w[2] < -1.5 || w[3] > w[0]+1.5 {
		tb.t.Errorf("[%s] %s: %s spans x %.0f..%.0f, outside the %v px viewport", tb.vp.name, what, sel, w[2], w[3], w[0])
	}
}
