package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// rawWords is what a person should never read on a page: a form field's
// code name before a colon, a constant of the API (KING_CAPTURE), a JSON
// parser's or Go's own words, the standard library's bare 404.
var rawWords = regexp.MustCompile(`\b(fen|color|level|clock|variant|opponent): |\bhistory: \w+[.:\[]|\b[A-Z]{3,}(_[A-Z]+)+\b|\b(RESIGN|TIMEOUT)\b|invalid character|literal null|404 page not found|unexpected end of JSON`)

// sentence checks text reads as a sentence: a capital first, a full stop
// (or question mark) last, and no raw words.
func sentence(text string) string {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return "empty"
	case rawWords.MatchString(text):
		return fmt.Sprintf("%q shows %q", text, rawWords.FindString(text))
	case !strings.ContainsAny(text[:1], "ABCDEFGHIJKLMNOPQRSTUVWXYZ"):
		return fmt.Sprintf("%q does not start as a sentence", text)
	case !strings.HasSuffix(text, ".") && !strings.HasSuffix(text, "?"):
		return fmt.Sprintf("%q does not end as a sentence", text)
	}
	return ""
}

// TestWordsInPlace (issue 42, item 7): every message a person meets on the
// way is a sentence about their game, in the page's own style, with a way
// on: a refused start position (and the address stays the home page's), a
// file that is not a history on /replay, how API games ended on /bots, the
// editor's problems, and another browser's game, file or a wrong address.
func TestWordsInPlace(t *testing.T) {
	e := newEnv(t)

	for _, vp := range []viewport{desktop1440, phone390} {
		t.Run("start-position-"+vp.name, func(t *testing.T) {
			tb := e.newTab(t, vp)
			defer tb.close()
			tb.open("/")
			tb.waitJS(`document.querySelector('form#new-game')`, "the new-game form", "", uiWait)
			const typed = "4k3/8/8/8/8/8/8/8 w - - 0 1"
			eval[bool](tb, `(() => { const f = document.querySelector('form#new-game');
				f.elements.namedItem('variant').value = 'standard';
				f.querySelector('details.fen-field').open = true;
				f.elements.namedItem('fen').value = `+jsq(typed)+`; return true; })()`)
			// As a person does: Play once the opened section shows its editor.
			tb.waitJS(`!document.getElementById('editor').hidden`, "the board editor", ``, uiWait)
			tb.clickSel(`form#new-game button[type=submit]`)
			tb.waitJS(`document.querySelector('#new-game-card .alert')`, "the refusal above the form", `location.href + ' ' + document.body.innerText.slice(0, 200)`, uiWait)
			tb.shot("refused")
			if p := eval[string](tb, `location.pathname`); p != "/" {
				t.Errorf("[%s] after a refused start position the address is %s, want /", vp.name, p)
			}
			msg := eval[string](tb, `document.querySelector('#new-game-card .alert').textContent`)
			if why := sentence(msg); why != "" {
				t.Errorf("[%s] the refusal: %s", vp.name, why)
			}
			if !strings.Contains(msg, "no white king") || !strings.Contains(msg, "FEN box") {
				t.Errorf("[%s] the refusal %q does not say what is wrong and what to do", vp.name, msg)
			}
			for _, why := range tb.notInView([]mustSee{{"the refusal", "#new-game-card .alert"}}) {
				t.Errorf("[%s] %s", vp.name, why)
			}
			if got := eval[string](tb, `document.getElementById('fen-input').value`); got != typed {
				t.Errorf("[%s] the FEN box holds %q, want %q", vp.name, got, typed)
			}
		})
	}

	t.Run("replay-upload", func(t *testing.T) {
		tb := e.newTab(t, desktop1440)
		defer tb.close()
		bad := filepath.Join(t.TempDir(), "notes.json")
		if err := os.WriteFile(bad, []byte("nope, not a game\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		tb.open("/replay")
		tb.do(chromedp.SetUploadFiles(chromedp.CSS(`input[type=file][name=history]`), []string{bad}))
		tb.clickSel(`.replay-upload button[type=submit]`)
		tb.waitJS(`document.querySelector('.replay-upload .alert')`, "the refusal", `document.body.innerText.slice(0, 300)`, uiWait)
		tb.shot("replay-refused")
		msg := eval[string](tb, `document.querySelector('.replay-upload .alert').textContent`)
		if why := sentence(msg); why != "" {
			t.Errorf("the upload's refusal: %s", why)
		}
		if !strings.Contains(msg, "not a Reconnaissance Chess history") || !strings.Contains(msg, "Choose") {
			t.Errorf("the upload's refusal %q does not say what the file is and what to choose", msg)
		}
		if !tb.shown(`.replay-upload input[type=file]`) {
			t.Errorf("no way to choose another file after the refusal")
		}
	})

	t.Run("bots-results", func(t *testing.T) {
		amy := &apiUser{t: t, srv: e.srv, name: "amy", pass: "amy's password"}
		amy.must("POST", "/api/users/", map[string]string{"username": amy.name, "email": "", "affiliation": "", "password": amy.pass}, "", nil)
		var id int64
		amy.must("POST", "/api/invitations/", map[string]any{"opponent": "random", "color": true}, "game_id", &id)
		g := fmt.Sprintf("/api/games/%d/", id)
		amy.must("POST", g+"ready", nil, "", nil)
		amy.must("POST", g+"error_resign", nil, "", nil)
		tb := e.newTab(t, desktop1440)
		defer tb.close()
		tb.open("/bots")
		tb.waitJS(`document.querySelector('#finished-api-games tbody tr')`, "the finished game on /bots", `document.body.innerText.slice(0, 300)`, uiWait)
		tb.rectOf("#finished-api-games")
		tb.shot("bots-results")
		row := eval[string](tb, `document.querySelector('#finished-api-games tbody tr').innerText`)
		if m := rawWords.FindString(row); m != "" || !strings.Contains(row, "on time") {
			t.Errorf("the finished game reads %q (shows %q), want how it ended in words", row, m)
		}
	})

	t.Run("editor-problems", func(t *testing.T) {
		tb := e.newTab(t, desktop1440)
		defer tb.close()
		tb.openEditor()
		tb.clickSel(`[data-editor="clear"]`)
		tb.waitJS(`!document.getElementById('editor-problems').hidden`, "the editor's problems", ``, uiWait)
		tb.shotEditor("editor-problems")
		got := eval[struct {
			Items   []string
			Ratio   float64
			IsMuted bool
		}](tb, contrastJS+`(() => { const l = document.getElementById('editor-problems');
			const muted = getComputedStyle(document.documentElement).getPropertyValue('--muted').trim();
			const probe = document.createElement('span'); probe.style.color = muted; document.body.append(probe);
			const mutedRGB = getComputedStyle(probe).color; probe.remove();
			return {Items: [...l.querySelectorAll('li')].map((li) => li.textContent.trim()), Ratio: contrast(l),
				IsMuted: getComputedStyle(l).color === mutedRGB}; })()`)
		if got.IsMuted {
			t.Errorf("the editor's problems are in the muted grey of side notes")
		}
		if got.Ratio < 4.5 {
			t.Errorf("the editor's problems have a contrast of %.2f:1, want 4.5:1", got.Ratio)
		}
		wayOn := false
		for _, it := range got.Items {
			if why := sentence(it); why != "" {
				t.Errorf("an editor problem: %s", why)
			}
			if strings.Contains(it, "Start position") {
				wayOn = true
			}
		}
		if !wayOn {
			t.Errorf("the editor's problems %q give no way on", got.Items)
		}
	})

	t.Run("another-browser", func(t *testing.T) {
		owner := e.newTab(t, desktop1440)
		defer owner.close()
		owner.newGame(gameOpts{color: "white", level: "1"})
		chess := owner.gamePath()
		owner.newRecon("white", "random", "15+5")
		recon := owner.gamePath()
		other := e.newTab(t, phone390, chromedp.WithNewBrowserContext())
		defer other.close()
		for _, p := range []string{chess, chess + "/pgn", recon, recon + "/replay", recon + "/history.json", "/bots/games/424242/play", "/no/such/page"} {
			other.open(p)
			other.waitJS(`document.body && document.body.innerText.length > 0`, "a page", ``, uiWait)
			other.shot("other-browser")
			page := eval[struct {
				Title, Text string
				Home, Bar   bool
			}](other, `({Title: document.querySelector('main h1')?.textContent || '', Text: document.querySelector('main p')?.textContent || document.body.innerText,
				Home: !!document.querySelector('main a[href="/"]'), Bar: !!document.querySelector('header.topbar')})`)
			if page.Title == "" || !page.Home || !page.Bar {
				t.Errorf("%s in another browser: %+v, want a page with the site's header, a title and a way home", p, page)
			}
			if why := sentence(page.Text); why != "" {
				t.Errorf("%s in another browser: %s", p, why)
			}
		}
	})
}

// contrastJS defines contrast(el): the contrast ratio of el's text colour
// against the first opaque background behind it (WCAG's formula).
const contrastJS = `var contrast = (el) => {
	const rgb = (s) => (s.match(/[\d.]+/g) || []).map(Number);
	const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
		return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
	let bg = [255, 255, 255];
	for (let p = el; p; p = p.parentElement) { const c = rgb(getComputedStyle(p).backgroundColor); if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) { bg = c.slice(0, 3); break; } }
	const fg = rgb(getComputedStyle(el).color).slice(0, 3);
	const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
	return (a + 0.05) / (b + 0.05);
};
`
