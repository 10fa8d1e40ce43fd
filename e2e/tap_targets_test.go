package e2e

import (
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// smallTargetsJS lists every control a finger may use on the page that is
// smaller than 44x44 CSS px (WCAG 2.5.5), with its size. Left out, as WCAG
// allows: board squares (as large as the screen lets the board be), the
// rows of a move list in a column (the review buttons reach each move: an
// equivalent), links inside running text, and what is not shown now. A
// radio button or checkbox drawn by its label is measured by its label.
const smallTargetsJS = `(() => {
	const out = [], seen = new Set();
	const desc = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
		(el.dataset.action ? '[data-action=' + el.dataset.action + ']' : '') + (el.dataset.nav ? '[data-nav=' + el.dataset.nav + ']' : '') +
		' "' + (el.textContent || el.value || el.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ').slice(0, 30) + '"';
	for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, summary, textarea, [role=button], [tabindex]:not([tabindex="-1"])')) {
		if (el.closest('.board') && !el.closest('.promotion')) continue;
		if (el.closest('dialog:not([open]), .skip, .sr-only')) continue;
		const list = el.closest('#moves, #recon-log, #replay-steps');
		if (list && getComputedStyle(list).display !== 'flex') continue;
		const target = el.matches('input[type=radio], input[type=checkbox]') ? (el.closest('label') || el) : el;
		if (seen.has(target)) continue;
		seen.add(target);
		const r = target.getBoundingClientRect(), cs = getComputedStyle(target);
		if (r.width === 0 || r.height === 0 || cs.visibility === 'hidden') continue;
		if (el.matches('a') && cs.display === 'inline') {
			const block = el.parentElement.closest('p, li, td, dd, div') || el.parentElement;
			let rest = block.textContent;
			for (const a of block.querySelectorAll('a')) rest = rest.replace(a.textContent, '');
			if (rest.replace(/[^A-Za-z]/g, '').length >= 10) continue; // a link in a sentence
		}
		if (r.width < 43.5 || r.height < 43.5) out.push(desc(el) + ' is ' + Math.round(r.width) + 'x' + Math.round(r.height));
	}
	return out;
})()`

// mateInOne plays 1. Qb8# from a start where White mates at once and
// returns the finished game's path.
func mateInOne(tb *tab) string {
	tb.t.Helper()
	tb.newGame(gameOpts{color: "white", level: "1", fen: "7k/8/6K1/8/8/8/8/1Q6 w - - 0 40"})
	tb.clickSquare("b1")
	tb.clickSquare("b8")
	tb.waitGameOver(uiWait)
	tb.clickSel(`dialog#game-over button[value=close]`)
	tb.waitJS(`!document.querySelector('dialog#game-over').open`, "the dialog to close", ``, uiWait)
	return tb.gamePath()
}

// TestTapTargets (issue 42, item 4): on phones (and upright tablets) every
// control a finger uses, on every page, is at least 44x44 CSS px.
func TestTapTargets(t *testing.T) {
	e := newEnv(t)
	setup := e.newTab(t, desktop)
	over := mateInOne(setup)
	setup.newGame(gameOpts{color: "white", level: "1", clock: "5+3"})
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
		name  string
		path  string
		ready string // JS: the page is drawn
		then  func(tb *tab)
	}{
		{"home", "/", `document.querySelector('#unfinished-games tbody tr') && document.querySelector('#finished-games')`, func(tb *tab) {
			eval[bool](tb, `(document.getElementById('start-position').open = true, true)`)
			tb.waitJS(`document.querySelector('#editor:not([hidden]) .spare')`, "the editor", ``, uiWait)
		}},
		{"game", playing, `document.querySelector('#board[data-fen] [data-piece]') && document.querySelector('#moves')`, nil},
		{"game-over", over, `document.getElementById('board').dataset.status === 'over'`, nil},
		{"recon", recon, `['sense', 'move'].includes(document.getElementById('board').dataset.phase)`, nil},
		{"watch", watch, `document.querySelector('#board [data-piece]')`, nil},
		{"replay-form", "/replay", `document.querySelector('.replay-upload form')`, nil},
		{"replay", "/replay", `document.querySelector('.replay-upload form')`, func(tb *tab) {
			tb.do(chromedp.SetUploadFiles(chromedp.CSS(`input[type=file][name=history]`), []string{fixture}))
			tb.clickSel(`.replay-upload button[type=submit]`)
			tb.waitJS(`document.querySelector('main.replay-page')?.dataset.step === '0'`, "the replay", ``, uiWait)
		}},
		{"bots", "/bots", `document.querySelector('#bots-signin')`, nil},
		{"account", "/account", `document.querySelector('#signin-form')`, nil},
		{"experience", "/experience", `document.querySelector('.experience-stats')`, nil},
		{"no-page", "/no/such/page", `document.querySelector('.gone-page')`, nil},
	}
	for _, vp := range []viewport{phone390, phone844, tablet820} {
		for _, p := range pages {
			t.Run(p.name+"-"+vp.name, func(t *testing.T) {
				tb := e.newTab(t, vp)
				defer tb.close()
				tb.open(p.path)
				tb.waitJS(p.ready, "the "+p.name+" page", `document.body.innerText.slice(0, 200)`, uiWait)
				if p.then != nil {
					p.then(tb)
				}
				for _, small := range eval[[]string](tb, smallTargetsJS) {
					t.Errorf("[%s] %s: %s", vp.name, p.name, small)
				}
			})
		}
	}
}
