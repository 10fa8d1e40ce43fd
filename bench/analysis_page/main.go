// Command analysis_page measures, in headless Chromium against the real
// binary on loopback, the analysis board's time from a position change to
// the first engine line for it on the screen (issue 47; bench/analysis
// measures the same at the socket).
//
// The page (static/js/analysis.js) notes when it asks the server for a
// position (the socket message, per request id) and, once the first
// engine line for that request is in #engine-lines, makes a performance
// measure 'kw-first-line' from the one to the other. This program opens
// /analysis, imports a Ruy Lopez of 20 plies, and makes -changes position
// changes: steps forward through the game with the › button, moves typed
// into the move box at its end (each a new variation: the server checks
// the move, then analyses), steps back with ‹. After each it waits for
// the page's measure and stays -dwell on the position, as a person would.
// It prints two figures per change:
//
//   - from the ask: the page's measure, socket message sent to line in
//     the DOM (drawn in the next frame);
//
//   - from the click: from the moment the button was clicked or the move
//     submitted, which adds the page's own pause for steps (askSoon, 80
//     ms: a held arrow key sends one position, not one per repeat).
//
//     go run ./bench/analysis_page [-changes 30] [-dwell 2s] [-v]
//     (or bash bench/analysis.sh page)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"knightwatch/e2e"
	"knightwatch/loadtest"
)

// game is bench/analysis's session line, the Ruy Lopez, Closed, as PGN.
const game = `[Event "bench"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Na5 10. Bc2 c5 *`

// typed are the moves typed at the game's end, each a new variation.
var typed = []string{"d4", "Qc7", "Nbd2", "cxd4", "cxd4", "Nc6"}

// change is one position change: how the page is asked, in words and JS.
type change struct {
	kind, js string
}

func plan(n int) []change {
	var cs []change
	for range 20 {
		cs = append(cs, change{"step forward", `document.querySelector('[data-nav="next"]').click()`})
	}
	for _, m := range typed {
		cs = append(cs, change{"typed move " + m, `(() => { document.getElementById('move-input').value = '` + m + `'; document.getElementById('move-form').requestSubmit(); })()`})
	}
	for len(cs) < n {
		cs = append(cs, change{"step back", `document.querySelector('[data-nav="prev"]').click()`})
	}
	return cs[:min(n, len(cs))]
}

// timing is what the page says about one change.
type timing struct {
	FromAsk   float64 `json:"fromAsk"`   // ms, the page's measure
	FromClick float64 `json:"fromClick"` // ms, from the click or submit
	ID        int     `json:"id"`
	Refused   string  `json:"refused"` // the engine's words when it refused
}

func main() {
	changes := flag.Int("changes", 30, "position changes to time (at most 46: 20 steps forward, 6 typed moves, the rest back)")
	dwell := flag.Duration("dwell", 2*time.Second, "time on each position, from the change (the engine's 40 s a minute cap allows 2 s on each of 30)")
	verbose := flag.Bool("v", false, "print every change")
	flag.Parse()
	if err := run(min(*changes, 46), *dwell, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "analysis_page:", err)
		os.Exit(1)
	}
}

func run(n int, dwell time.Duration, verbose bool) error {
	tmp, err := os.MkdirTemp("", "kw-analysis-page-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin, err := e2e.BuildInto(tmp)
	if err != nil {
		return err
	}
	addr, err := e2e.FreeAddr()
	if err != nil {
		return err
	}
	srv, err := e2e.StartServer(bin, filepath.Join(tmp, "kw.db"), addr, filepath.Join(tmp, "server.log"))
	if err != nil {
		return err
	}
	defer srv.Stop(15 * time.Second)
	fmt.Printf("machine: %s\n", loadtest.Machine())

	browser, cancel, err := e2e.NewBrowser(context.Background(), e2e.ChromePath(), filepath.Join(tmp, "profile"))
	if err != nil {
		return err
	}
	defer cancel()
	if _, err := chromedp.Call(browser, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: e2e.RecorderJS}); err != nil {
		return err
	}
	if err := waitFor(browser, 30*time.Second, chromedp.Navigate(srv.URL()+"/analysis")); err != nil {
		return err
	}
	if err := wait(browser, `document.getElementById('board').dataset.ready`, 30*time.Second); err != nil {
		return fmt.Errorf("the start position: %w", err)
	}
	if err := evalJS(browser, `(() => { document.getElementById('import-text').value = `+jsString(game)+`; document.getElementById('import-form').requestSubmit(); })()`); err != nil {
		return err
	}
	if err := wait(browser, `document.getElementById('tree').dataset.size === '20' && document.getElementById('board').dataset.path === ''`, 30*time.Second); err != nil {
		return fmt.Errorf("the imported game: %w", err)
	}
	// The start position's own line first, so the first change starts clean.
	if err := wait(browser, `document.querySelectorAll('#engine-lines li').length > 0`, time.Minute); err != nil {
		return fmt.Errorf("the start position's lines: %w", err)
	}

	chrome, _ := chromedp.Run(browser, chromedp.Evaluate[string](`navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0] || navigator.userAgent`))
	var fromAsk, fromClick []float64
	kinds := map[string]int{}
	for i, c := range plan(n) {
		kinds[strings.Fields(c.kind)[0]+" "+strings.Fields(c.kind)[1]]++
		start := time.Now()
		t, err := measure(browser, c.js)
		if err != nil {
			return fmt.Errorf("change %d (%s): %w", i+1, c.kind, err)
		}
		if t.Refused != "" {
			return fmt.Errorf("change %d (%s): the engine refused: %s", i+1, c.kind, t.Refused)
		}
		if verbose {
			fmt.Printf("%2d %-16s request %3d: %6.1f ms from the ask, %6.1f ms from the click\n", i+1, c.kind, t.ID, t.FromAsk, t.FromClick)
		}
		fromAsk, fromClick = append(fromAsk, t.FromAsk), append(fromClick, t.FromClick)
		time.Sleep(time.Until(start.Add(dwell)))
	}
	fmt.Printf("first engine line on the screen after a position change, %d changes (%d steps forward, %d typed moves, %d steps back), %s on each; %s; load average now %s\n",
		len(fromAsk), kinds["step forward"], kinds["typed move"], kinds["step back"], dwell, chrome, loadtest.LoadAverage())
	fmt.Printf("  from the page's ask (socket message) to the line in #engine-lines: p50 %s, p90 %s, max %s\n", ms(fromAsk, .5), ms(fromAsk, .9), ms(fromAsk, 1))
	fmt.Printf("  from the click or the typed move (steps add the page's 80 ms pause): p50 %s, p90 %s, max %s\n", ms(fromClick, .5), ms(fromClick, .9), ms(fromClick, 1))
	return nil
}

// measure runs js (one position change) and waits for the page's measure
// of the first line that follows it.
func measure(ctx context.Context, js string) (timing, error) {
	if err := evalJS(ctx, `(() => { window.__bench = {t: performance.now(), n: performance.getEntriesByName('kw-first-line').length}; `+js+`; })()`); err != nil {
		return timing{}, err
	}
	const done = `performance.getEntriesByName('kw-first-line').length > window.__bench.n || document.getElementById('engine-state').dataset.state === 'refused'`
	if err := wait(ctx, done, time.Minute); err != nil {
		return timing{}, fmt.Errorf("waiting for the first line: %w", err)
	}
	return eval[timing](ctx, `(() => {
		const st = document.getElementById('engine-state');
		if (st.dataset.state === 'refused') return {refused: st.textContent || 'refused'};
		const e = performance.getEntriesByName('kw-first-line').at(-1);
		return {fromAsk: e.duration, fromClick: e.startTime + e.duration - window.__bench.t, id: e.detail.id};
	})()`)
}

func eval[T any](ctx context.Context, js string) (T, error) {
	c, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	return chromedp.Run(c, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
}

func evalJS(ctx context.Context, js string) error {
	c, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	_, err := chromedp.Run(c, chromedp.Evaluate[chromedp.Void](js))
	return err
}

// wait resolves once cond holds in the page (the recorder's kw.wait:
// checked after every change the page can see), or fails after limit.
func wait(ctx context.Context, cond string, limit time.Duration) error {
	c, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	ok, err := chromedp.Run(c, chromedp.Evaluate[bool](`window.__kw.wait(() => (`+cond+`))`, chromedp.EvalAwaitPromise))
	if err == nil && !ok {
		err = errors.New("not true")
	}
	return err
}

func waitFor(ctx context.Context, limit time.Duration, act chromedp.Action[chromedp.Void]) error {
	c, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	return chromedp.Do(c, act)
}

// jsString quotes s as a JS string literal (a template literal's
// characters do not occur in the game).
func jsString(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "") + "`"
}

// ms is the p-quantile of v, in whole milliseconds.
func ms(v []float64, p float64) string {
	s := slices.Clone(v)
	slices.Sort(s)
	return fmt.Sprintf("%.0f ms", s[int(p*float64(len(s)-1))])
}
