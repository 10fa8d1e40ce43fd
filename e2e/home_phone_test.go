package e2e

import (
	"fmt"
	"testing"
)

// createGames starts n chess games for the tab's browser by posting the
// new-game form's fields, as the form does, without opening them.
func (tb *tab) createGames(n int) {
	tb.t.Helper()
	got := eval[string](tb, fmt.Sprintf(`(async () => { const out = [];
		for (let i = 0; i < %d; i++) {
			const r = await fetch('/games', {method: 'POST', body: new URLSearchParams({color: i %% 2 ? 'black' : 'white', level: String(1 + i %% 8), variant: 'standard', clock: '5+3'})});
			if (!r.ok || !/\/game\//.test(r.url)) out.push(r.status + ' ' + r.url);
		}
		return out.join('; '); })()`, n))
	if got != "" {
		tb.fail("creating %d games: %s", n, got)
	}
}

// TestHomePlayReachable (issue 42, item 6): on a phone, either way up, the
// new-game form's Play button and the latest unfinished game's Continue
// are in sight when the home page opens, however many unfinished games
// the list holds.
func TestHomePlayReachable(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.open("/")
	made := 0
	for _, n := range []int{0, 1, 6, 12} {
		tb.createGames(n - made)
		made = n
		for _, vp := range []viewport{phone390, phone844} {
			t.Run(fmt.Sprintf("%d-games-%s", n, vp.name), func(t *testing.T) {
				p := e.newTab(t, vp)
				defer p.close()
				p.open("/")
				p.waitJS(`document.querySelector('form#new-game')`, "the new-game form", "", uiWait)
				if n > 0 {
					p.waitUnfinishedRows(n)
				}
				p.shot("home")
				want := []mustSee{{"Play", `form#new-game button[type=submit]`}}
				if n > 0 {
					want = append(want, mustSee{"Continue of the latest game", `[data-latest-continue]`})
				}
				for _, why := range p.notInView(want) {
					t.Errorf("[%s] with %d unfinished games: %s", vp.name, n, why)
				}
				p.checkNoSideways("home page", "form#new-game")
			})
		}
	}
}
