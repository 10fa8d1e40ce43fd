package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// axeVersion is the axe-core scripts/e2e.sh installs (AXE_VERSION there).
const axeVersion = "4.11.0"

// axeSource reads axe-core's script: from $KNIGHTWATCH_E2E_AXE (set by
// scripts/e2e.sh, which installs it), else from the folder that script
// installs it into. Without it the accessibility test fails: it must
// never pass by not running.
func axeSource(t *testing.T) string {
	t.Helper()
	path := os.Getenv("KNIGHTWATCH_E2E_AXE")
	if path == "" {
		path = filepath.Join(".deps", "axe-core-"+axeVersion, "node_modules", "axe-core", "axe.min.js")
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 1000 {
		t.Fatalf("axe-core %s is not installed (%v): run scripts/e2e.sh, which installs it from npm", axeVersion, err)
	}
	return string(b)
}

// axeViolation is one failed rule of axe.run, with the elements it failed on.
type axeViolation struct {
	ID, Impact, Help, HelpURL string
	Nodes                     []struct {
		Target         []any
		FailureSummary string
	}
}

// axeCheck injects axe-core into the tab's page and runs it with the WCAG
// 2.1 A and AA rules; it fails the test for every serious or critical
// finding, naming the rule and each element with axe's summary.
func (tb *tab) axeCheck(src, page string) {
	tb.t.Helper()
	eval[bool](tb, src+";true")
	if v := eval[string](tb, `window.axe ? axe.version : ''`); v != axeVersion {
		tb.fail("axe-core %q loaded, want %s (scripts/e2e.sh's AXE_VERSION and axeVersion must agree)", v, axeVersion)
	}
	raw := eval[json.RawMessage](tb, `axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']},
		resultTypes: ['violations']}).then((r) => r.violations.map((v) => ({ID: v.id, Impact: v.impact || '', Help: v.help, HelpURL: v.helpUrl,
			Nodes: v.nodes.map((n) => ({Target: n.target, FailureSummary: n.failureSummary}))})))`)
	var vs []axeViolation
	if err := json.Unmarshal(raw, &vs); err != nil {
		tb.fail("reading axe's results: %v", err)
	}
	for _, v := range vs {
		if v.Impact != "serious" && v.Impact != "critical" {
			tb.t.Logf("[%s] %s: axe (%s) %s: %s", tb.vp.name, page, v.Impact, v.ID, v.Help)
			continue
		}
		var nodes []string
		for _, n := range v.Nodes {
			nodes = append(nodes, fmt.Sprintf("%v: %s", n.Target, strings.ReplaceAll(n.FailureSummary, "\n", " ")))
		}
		tb.t.Errorf("[%s] %s: axe (%s) %s: %s (%s)\n\t%s", tb.vp.name, page, v.Impact, v.ID, v.Help, v.HelpURL, strings.Join(nodes, "\n\t"))
	}
}

// colourScheme asks the tab's pages for their "dark" or "light" colours
// (prefers-color-scheme).
func (tb *tab) colourScheme(scheme string) {
	tb.t.Helper()
	tb.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	}))
}

// TestAxe (issue 42, item 9): axe-core's WCAG 2.1 A and AA rules find
// nothing serious or critical on any page: home, a game on a desktop and
// on a phone, a Reconnaissance Chess game, the spectator's view, a replay,
// /bots, /experience, a reviewed game, learning from its mistakes and a
// puzzle, in light and dark colours.
func TestAxe(t *testing.T) {
	src := axeSource(t)
	e := newEnv(t)
	setup := e.newTab(t, desktop)
	review := mateInOne(setup)
	setup.waitReview()
	learn := blunderGame(setup) + "/learn"
	setup.waitReview()
	setup.newGame(gameOpts{color: "white", level: "1", clock: "5+3"})
	setup.playAndWait("e2", "e4", 2)
	playing := setup.gamePath()
	watch := eval[string](setup, `new URL(document.getElementById('watch-link').value).pathname`)
	setup.newRecon("white", "random", "15+5")
	setup.waitMyPhase()
	recon := setup.gamePath()
	setup.close()
	fixture, err := filepath.Abs(filepath.Join("..", "recon", "testdata", "fixtures", "random_seed2.json"))
	if err != nil {
		t.Fatal(err)
	}
	pages := []struct {
		name, path, ready string
		vp                viewport
		then              func(tb *tab)
	}{
		{"home", "/", `document.querySelector('#unfinished-games') && document.querySelector('#finished-games')`, desktop1440, nil},
		{"home", "/", `document.querySelector('#unfinished-games')`, phone390, nil},
		{"game", playing, `document.querySelector('#moves [data-ply="2"]')`, desktop1440, nil},
		{"game", playing, `document.querySelector('#moves [data-ply="2"]')`, phone390, nil},
		{"recon", recon, `['sense', 'move'].includes(document.getElementById('board').dataset.phase)`, desktop1440, nil},
		{"watch", watch, `document.querySelector('#moves [data-ply="2"]')`, desktop1440, nil},
		{"replay", "/replay", `document.querySelector('.replay-upload form')`, desktop1440, func(tb *tab) {
			tb.do(chromedp.SetUploadFiles(chromedp.CSS(`input[type=file][name=history]`), []string{fixture}))
			tb.clickSel(`.replay-upload button[type=submit]`)
			tb.waitJS(`document.querySelector('main.replay-page')?.dataset.step === '0'`, "the replay", ``, uiWait)
		}},
		{"replay-form", "/replay", `document.querySelector('.replay-upload form')`, desktop1440, nil},
		{"bots", "/bots", `document.querySelector('#bots-signin')`, desktop1440, nil},
		{"bots", "/bots", `document.querySelector('#bots-signin')`, phone390, nil},
		{"account", "/account", `document.querySelector('#signin-form') && document.querySelector('#signup-form')`, desktop1440, nil},
		{"account", "/account", `document.querySelector('#signin-form')`, phone390, nil},
		{"experience", "/experience", `document.querySelector('.experience-stats')`, desktop1440, nil},
		{"review", review, `document.getElementById('review')?.dataset.status === 'done'`, desktop1440, nil},
		{"review", review, `document.getElementById('review')?.dataset.status === 'done'`, phone390, nil},
		{"learn", learn, `document.getElementById('main')?.dataset.state === 'playing'`, desktop1440, nil},
		{"learn", learn, `document.getElementById('main')?.dataset.state === 'playing'`, phone390, nil},
		{"puzzle", "/puzzles", `document.getElementById('main')?.dataset.state === 'playing'`, desktop1440, nil},
		{"puzzle", "/puzzles", `document.getElementById('main')?.dataset.state === 'playing'`, phone390, nil},
		{"analysis", "/analysis", `document.getElementById('engine-lines')?.children.length > 0`, desktop1440, nil},
		{"analysis", "/analysis", `document.getElementById('engine-lines')?.children.length > 0`, phone390, nil},
		{"no-page", "/no/such/page", `document.querySelector('.gone-page')`, desktop1440, nil},
	}
	for _, scheme := range []string{"light", "dark"} {
		for _, p := range pages {
			t.Run(scheme+"-"+p.name+"-"+p.vp.name, func(t *testing.T) {
				tb := e.newTab(t, p.vp)
				defer tb.close()
				tb.colourScheme(scheme)
				tb.open(p.path)
				tb.waitJS(p.ready, "the "+p.name+" page", `document.body.innerText.slice(0, 200)`, 20*time.Second)
				if p.then != nil {
					p.then(tb)
				}
				tb.axeCheck(src, p.name)
			})
		}
	}
}
