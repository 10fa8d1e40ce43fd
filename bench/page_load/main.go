// Command page_load measures the first page load of the web app on loopback:
// bytes transferred and the time until the game board is usable, in headless
// Chromium with an empty cache. It builds and starts the real binary with a
// temporary database, like the e2e tests, and prints a table for the README.
//
//	go run ./bench/page_load [-runs 7]     (or bash bench/page_load.sh)
//
// Three loads are measured per run, each in a fresh browser context (no
// cookies, no cache):
//   - home: GET / cold; time to the load event.
//   - game after home: submitting form#new-game (POST /games, 303, GET
//     /game/{id}) with the home page's assets cached, as a person would;
//     time from the form's navigation start to a usable board.
//   - game cold: the same game page opened in a new tab with the cache
//     disabled, i.e. a returning link to a game on a first visit.
//
// "Usable" is e2e.RecorderJS's definition: #board has data-fen and
// data-status, pieces are drawn, and the WebSocket's first message (the
// state with the legal moves) has arrived. Bytes are the resource timing
// API's transferSize (headers plus body as sent, per HTTP response) plus the
// WebSocket messages received until the board was usable.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"knightwatch/e2e"
)

// sample is one page load's figures.
type sample struct {
	Requests  int     `json:"requests"`
	HTTPBytes float64 `json:"httpBytes"` // transferSize of the document and every resource
	WSBytes   float64 `json:"wsBytes"`   // WebSocket message bytes received until usable
	DCL       float64 `json:"dcl"`       // DOMContentLoaded end, ms since navigation start
	Load      float64 `json:"load"`      // load event end, ms
	Usable    float64 `json:"usable"`    // board usable, ms (0 when never)
	URLs      []string
}

const measureJS = `(() => {
	const nav = performance.getEntriesByType('navigation')[0] || {};
	const res = performance.getEntriesByType('resource');
	let bytes = nav.transferSize || 0;
	for (const r of res) bytes += r.transferSize || 0;
	const kw = window.__kw || {};
	return {requests: 1 + res.length, httpBytes: bytes, wsBytes: kw.wsBytes || 0,
		dcl: nav.domContentLoadedEventEnd || 0, load: nav.loadEventEnd || 0, usable: kw.usableAt || 0,
		URLs: [location.pathname].concat(res.map(r => new URL(r.name).pathname + ' ' + r.transferSize))};
})()`

func main() {
	runs := flag.Int("runs", 7, "page loads of each kind to measure (the median is reported)")
	verbose := flag.Bool("v", false, "print every run and the resources of the first")
	flag.Parse()
	if err := run(*runs, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "page_load:", err)
		os.Exit(1)
	}
}

func run(runs int, verbose bool) error {
	tmp, err := os.MkdirTemp("", "kw-pageload-")
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
	defer srv.Stop(10 * time.Second)

	browser, cancel, err := e2e.NewBrowser(context.Background(), e2e.ChromePath(), filepath.Join(tmp, "profile"))
	if err != nil {
		return err
	}
	defer cancel()

	var home, game, cold []sample
	for i := 0; i < runs; i++ {
		h, g, c, err := oneRun(browser, srv.URL())
		if err != nil {
			return fmt.Errorf("run %d: %w", i+1, err)
		}
		if verbose {
			fmt.Printf("run %d: home %+v\n       game %+v\n       cold %+v\n", i+1, brief(h), brief(g), brief(c))
			if i == 0 {
				for _, s := range []sample{h, g, c} {
					fmt.Println("  " + strings.Join(s.URLs, "\n    "))
				}
			}
		}
		home, game, cold = append(home, h), append(game, g), append(cold, c)
	}
	chromeVersion, _ := chromedp.Run(browser, chromedp.Evaluate[string](`navigator.userAgent`))
	fmt.Printf("First page load on loopback, %d runs each, median (min-max); %s, %d cores, %s\n",
		runs, runtime.GOOS+"/"+runtime.GOARCH, runtime.NumCPU(), chromeVersion)
	fmt.Printf("%-34s %8s %9s %7s %18s %18s %18s\n", "load", "requests", "HTTP KiB", "WS KiB", "DOMContentLoaded", "load event", "usable board")
	row := func(name string, s []sample) {
		usable := "-" // the home page has no board
		if s[0].Usable > 0 || len(s[0].URLs) > 0 && strings.HasPrefix(s[0].URLs[0], "/game/") {
			usable = spread(s, func(x sample) float64 { return x.Usable })
		}
		fmt.Printf("%-34s %8.0f %9.1f %7.1f %18s %18s %18s\n", name,
			median(s, func(x sample) float64 { return float64(x.Requests) }),
			median(s, func(x sample) float64 { return x.HTTPBytes })/1024,
			median(s, func(x sample) float64 { return x.WSBytes })/1024,
			spread(s, func(x sample) float64 { return x.DCL }),
			spread(s, func(x sample) float64 { return x.Load }),
			usable)
	}
	fmt.Println("(times in ms from navigation start, median (min-max); sizes are medians)")
	row("home / (cold cache)", home)
	row("game page after home (form POST)", game)
	row("game page (cold cache)", cold)
	for _, s := range append(game, cold...) {
		if s.Usable == 0 {
			fmt.Println("note: in some runs the board never became usable (0 above); see -v")
			break
		}
	}
	return nil
}

func brief(s sample) string {
	return fmt.Sprintf("req=%d http=%.0fB ws=%.0fB dcl=%.1fms load=%.1fms usable=%.1fms", s.Requests, s.HTTPBytes, s.WSBytes, s.DCL, s.Load, s.Usable)
}

func median(s []sample, f func(sample) float64) float64 {
	v := make([]float64, len(s))
	for i, x := range s {
		v[i] = f(x)
	}
	slices.Sort(v)
	if len(v) == 0 {
		return 0
	}
	return v[len(v)/2]
}

func spread(s []sample, f func(sample) float64) string {
	v := make([]float64, len(s))
	for i, x := range s {
		v[i] = f(x)
	}
	slices.Sort(v)
	if len(v) == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f (%.0f-%.0f)", v[len(v)/2], v[0], v[len(v)-1])
}

// oneRun measures the three loads in a fresh browser context.
func oneRun(browser context.Context, base string) (home, game, cold sample, err error) {
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	defer cancel()
	if err = prepare(ctx, false); err != nil {
		return
	}
	if home, err = load(ctx, base+"/", ""); err != nil {
		return
	}
	// Submit the form as it is (its defaults), like a person pressing the button.
	game, err = load(ctx, "", `document.querySelector('form#new-game').requestSubmit()`)
	if err != nil {
		return
	}
	gameURL, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		return
	}
	tab, cancelTab := chromedp.NewContext(ctx)
	defer cancelTab()
	if err = prepare(tab, true); err != nil {
		return
	}
	cold, err = load(tab, gameURL, "")
	return
}

// prepare installs the recorder and sets the cache mode of a tab.
func prepare(ctx context.Context, noCache bool) error {
	if err := chromedp.Do(ctx); err != nil {
		return err
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: e2e.RecorderJS}); err != nil {
		return err
	}
	if noCache {
		if _, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
			return err
		}
	}
	return nil
}

// load navigates to url (or runs trigger, which must navigate), waits for the
// load event and, on a game page, for the usable board, then reads timings.
func load(ctx context.Context, url, trigger string) (sample, error) {
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var act chromedp.Action[chromedp.Void]
	if url != "" {
		act = chromedp.Navigate(url)
	} else {
		act = chromedp.Evaluate[chromedp.Void](trigger)
	}
	if _, err := chromedp.Run(tctx, chromedp.WaitEvent(page.LoadEventFired, nil, act)); err != nil {
		return sample{}, err
	}
	isGame, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`/\/game\//.test(location.pathname)`))
	if err != nil {
		return sample{}, err
	}
	if isGame {
		if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`window.__kw && window.__kw.usableAt > 0 && performance.getEntriesByType('navigation')[0].loadEventEnd > 0`,
			chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
			return sample{}, fmt.Errorf("waiting for a usable board on %s: %w", url, err)
		}
	} else {
		if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`performance.getEntriesByType('navigation')[0].loadEventEnd > 0`)); err != nil {
			return sample{}, err
		}
		// Let late resources (modules imported after load) finish.
		time.Sleep(200 * time.Millisecond)
	}
	return chromedp.Run(tctx, chromedp.Evaluate[sample](measureJS))
}
