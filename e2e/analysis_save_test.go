package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// into scrolls the first element matching sel to the middle of the
// viewport and clicks it.
func (tb *tab) into(sel string) {
	tb.t.Helper()
	eval[bool](tb, fmt.Sprintf(`(document.querySelector(%s).scrollIntoView({block: 'center'}), true)`, jsq(sel)))
	tb.clickSel(sel)
}

// exportPGN makes the PGN of the tree shown and returns it.
func (tb *tab) exportPGN() string {
	tb.t.Helper()
	eval[bool](tb, `(document.getElementById('export-text').value = '', document.getElementById('export-box').open = true)`)
	tb.into(`#export-btn`)
	tb.waitJS(`document.getElementById('export-text').value.includes('Nc6')`, "the PGN", `document.getElementById('export-text').value`, uiWait)
	return eval[string](tb, `document.getElementById('export-text').value`)
}

// TestAnalysisSave: signed out, the page has no Save, only a sign-in
// hint, and the save route refuses; signed up, a tree with a variation
// saved under a name is listed on /analysis, reopens as the same tree
// (the same exported PGN) after the browser's own copy is gone, and once
// deleted is neither listed nor opened.
func TestAnalysisSave(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop, chromedp.WithNewBrowserContext())
	defer tb.close()

	// Signed out.
	tb.open("/analysis")
	tb.waitJS(`document.getElementById('board').dataset.ready`, "the start position", ``, uiWait)
	type anon struct {
		SaveForm, SavedList bool
		Hint, SignIn        string
		Status              int
	}
	got := eval[anon](tb, `(async () => {
		const hint = document.querySelector('.saved-box p');
		const form = new FormData();
		form.append('study', JSON.stringify({fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', moves: []}));
		form.append('name', 'x');
		const r = await fetch('/analysis/saved', {method: 'POST', body: form, credentials: 'same-origin'});
		return {
			saveForm: !!document.getElementById('save-form'),
			savedList: !!document.getElementById('saved-list'),
			hint: hint ? hint.textContent : '',
			signIn: hint?.querySelector('a')?.getAttribute('href') || '',
			status: r.status,
		};
	})()`)
	if got.SaveForm || got.SavedList || !strings.Contains(got.Hint, "Sign in to save analyses") ||
		got.SignIn != "/account?next=/analysis#signin-card" || got.Status != 401 {
		tb.fail("signed out: %+v", got)
	}

	// Sign up from the hint's link; back on /analysis, signed in.
	tb.into(`.saved-box p a`)
	tb.waitJS(`document.querySelector('#signup-form')`, "the sign-up form", `location.href`, uiWait)
	tb.do(chromedp.SetValue(`#signup-form input[name=username]`, "hana"),
		chromedp.SetValue(`#signup-form input[name=password]`, "hana's password"),
		chromedp.SetValue(`#signup-form input[name=password2]`, "hana's password"))
	tb.into(`#signup-form button[type=submit]`)
	tb.waitJS(`location.pathname === '/analysis' && document.getElementById('signed-in')?.textContent === 'hana' && document.getElementById('save-form')`,
		"back on /analysis, signed in, with Save", `location.href + ' ' + document.body.innerText.slice(0, 300)`, uiWait)
	if n := eval[int](tb, `document.querySelectorAll('#saved-list li').length`); n != 0 {
		tb.fail("a new account lists %d saved analyses", n)
	}

	// A tree with variations, saved under a name.
	tb.importText(importedPGN)
	tb.waitJS(`document.getElementById('tree').dataset.size === '9' && document.querySelectorAll('#tree .variation').length > 0`, "the imported tree", `document.getElementById('tree').dataset.size`, uiWait)
	pgn := tb.exportPGN()
	if !strings.Contains(pgn, "(1... c5 2. Nf3 (2. c3 d5) 2... d6)") {
		tb.fail("exported PGN:\n%s", pgn)
	}
	tb.do(chromedp.SetValue(`#save-name`, "Open games, c5 too"))
	tb.into(`#save-form button[type=submit]`)
	tb.waitJS(`document.getElementById('save-state').textContent === 'Saved.' && /^\?saved=\d+$/.test(location.search)`, "saved",
		`document.getElementById('save-state').textContent + ' ' + location.href`, uiWait)
	savedURL := eval[string](tb, `location.pathname + location.search`)
	tb.shot("saved")

	// The browser's copy gone (New), the list on /analysis has it.
	tb.clickSel(`[data-action="clear"]`)
	tb.waitJS(`document.querySelector('.actions .confirm')`, "the question", ``, uiWait)
	tb.clickSel(`.actions .confirm button[data-answer="yes"]`)
	tb.waitJS(`document.getElementById('tree').dataset.size === '0'`, "a new tree", ``, uiWait)
	tb.open("/analysis")
	tb.waitJS(`document.getElementById('board').dataset.ready`, "the page again", ``, uiWait)
	if n := eval[string](tb, `document.getElementById('tree').dataset.size`); n != "0" {
		tb.fail("plain /analysis shows a tree of %s moves, want the browser's new one", n)
	}
	links := eval[[]string](tb, `[...document.querySelectorAll('#saved-list li a')].map((a) => a.textContent + ' ' + a.getAttribute('href'))`)
	if len(links) != 1 || links[0] != "Open games, c5 too "+savedURL {
		tb.fail("saved list %q, want the one saved at %s", links, savedURL)
	}

	// Reopened from the list: the same tree, the same name.
	tb.into(`#saved-list li a`)
	tb.waitJS(`location.search === `+jsq(strings.TrimPrefix(savedURL, "/analysis"))+` && document.getElementById('tree').dataset.size === '9' && document.getElementById('board').dataset.ready`,
		"the saved tree", `location.href + ' ' + document.getElementById('tree').dataset.size`, uiWait)
	if name := eval[string](tb, `document.getElementById('save-name').value`); name != "Open games, c5 too" {
		tb.fail("the reopened analysis is named %q", name)
	}
	if again := tb.exportPGN(); again != pgn {
		tb.fail("the reopened tree's PGN differs:\n%s\nwant:\n%s", again, pgn)
	}
	tb.shot("reopened")

	// Deleted: gone from the list, and its link finds nothing.
	tb.into(`#saved-list li form button[type=submit]`)
	tb.waitJS(`location.pathname === '/analysis' && location.search === '' && document.getElementById('save-form') && !document.querySelector('#saved-list li')`,
		"the list without it", `location.href + ' ' + document.querySelectorAll('#saved-list li').length`, uiWait)
	tb.open(savedURL)
	tb.waitJS(`document.getElementById('analysis-error')`, "the error", `document.body.innerText.slice(0, 300)`, uiWait)
	if msg := eval[string](tb, `document.getElementById('analysis-error').textContent`); msg != "No such analysis or finished game of yours." {
		tb.fail("the deleted analysis's link says %q", msg)
	}
}
