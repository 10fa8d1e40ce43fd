package e2e

import (
	"testing"
)

// TestBoardTheme: a board colour scheme chosen on the game page is
// remembered by the browser: after a reload the squares have the chosen
// colours (computed style), set before the board script runs, and the
// control shows the choice.
func TestBoardTheme(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.newGame(gameOpts{})
	squares := `(() => {
		const l = document.querySelector('#board .sq.light'), d = document.querySelector('#board .sq.dark');
		return getComputedStyle(l).backgroundColor + ' ' + getComputedStyle(d).backgroundColor;
	})()`
	if got := eval[string](tb, squares); got != "rgb(240, 217, 181) rgb(181, 136, 99)" {
		tb.fail("default squares %q, want the brown ones", got)
	}
	for _, c := range []struct{ theme, want string }{
		{"green", "rgb(238, 238, 210) rgb(118, 150, 86)"},
		{"contrast", "rgb(255, 255, 255) rgb(61, 122, 176)"},
		{"blue", "rgb(222, 227, 230) rgb(140, 162, 173)"},
	} {
		tb.clickSel("#board-theme") // a person opens the control first
		eval[bool](tb, `(() => { const s = document.getElementById('board-theme'); s.value = `+jsq(c.theme)+`;
			s.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`)
		if got := eval[string](tb, squares); got != c.want {
			tb.fail("%s at once: squares %q, want %q", c.theme, got, c.want)
		}
		tb.open(eval[string](tb, `location.pathname`)) // reload
		tb.waitBoard()
		if got := eval[string](tb, squares); got != c.want {
			tb.fail("%s after a reload: squares %q, want %q", c.theme, got, c.want)
		}
		if got := eval[string](tb, `document.getElementById('board-theme').value`); got != c.theme {
			tb.fail("control shows %q after a reload, want %q", got, c.theme)
		}
		// Applied before first paint: a blocking classic script in <head>.
		if !eval[bool](tb, `(() => { const s = document.head.querySelector('script[src*="/js/theme."]');
			return !!s && !s.async && !s.defer && s.type !== 'module'; })()`) {
			tb.fail("theme.js is not a blocking script in <head>")
		}
		if got := eval[string](tb, `document.documentElement.getAttribute('data-board-theme') || 'brown'`); got != c.theme {
			tb.fail("html[data-board-theme] %q, want %q", got, c.theme)
		}
		tb.shot("theme-" + c.theme)
	}
}
