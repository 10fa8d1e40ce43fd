package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// Issue 34: every unfinished game is listed on the home page with
// Continue, Resign and Delete, and the game tables fit a phone.

// unfinishedRowIDs is the game IDs of the home page's unfinished rows, in order.
func (tb *tab) unfinishedRowIDs() []string {
	tb.t.Helper()
	return eval[[]string](tb, `[...document.querySelectorAll('#unfinished-games tbody tr')].map(r => r.getAttribute('data-game-id'))`)
}

// waitUnfinishedRows waits for the home page to list n unfinished games.
func (tb *tab) waitUnfinishedRows(n int) []string {
	tb.t.Helper()
	tb.waitJS(fmt.Sprintf(`document.querySelectorAll('#unfinished-games tbody tr').length === %d`, n),
		fmt.Sprintf("%d rows in #unfinished-games", n),
		`[location.href, document.querySelectorAll('#unfinished-games tbody tr').length, document.body.innerText.slice(0, 300)]`, uiWait)
	return tb.unfinishedRowIDs()
}

// rowSel is a selector inside game id's row of the unfinished list.
func rowSel(id, inner string) string {
	return fmt.Sprintf(`#unfinished-games tr[data-game-id=%q] %s`, id, inner)
}

// gameIDOf is the game ID in a game page's URL.
func gameIDOf(u string) string {
	i := strings.Index(u, "/game/")
	if i < 0 {
		return ""
	}
	return strings.TrimSuffix(u[i+len("/game/"):], "/")
}

// checkControlsInside asserts the page does not scroll sideways and every
// link and button of the game tables lies within the viewport's width.
func (tb *tab) checkControlsInside(what string) {
	tb.t.Helper()
	type box struct {
		Text        string
		Left, Right float64
	}
	res := eval[struct {
		VW, ScrollW float64
		Boxes       []box
	}](tb, `(() => ({VW: innerWidth, ScrollW: document.documentElement.scrollWidth,
		Boxes: [...document.querySelectorAll('#unfinished-games a, #unfinished-games button, #finished-games a')].map(el => {
			const r = el.getBoundingClientRect(); return {Text: el.textContent.trim(), Left: r.left + scrollX, Right: r.right + scrollX}; })}))()`)
	if res.ScrollW > res.VW+1.5 {
		tb.t.Errorf("[%s] %s scrolls sideways: %v px wide in a %v px viewport", tb.vp.name, what, res.ScrollW, res.VW)
	}
	if len(res.Boxes) == 0 {
		tb.fail("%s: no links or buttons in the game tables", what)
	}
	seen := map[string]bool{}
	for _, b := range res.Boxes {
		seen[b.Text] = true
		if b.Left < -1.5 || b.Right > res.VW+1.5 || b.Right-b.Left < 1 {
			tb.t.Errorf("[%s] %s: %q spans x %.0f..%.0f, outside the %v px viewport", tb.vp.name, what, b.Text, b.Left, b.Right, res.VW)
		}
	}
	for _, want := range []string{"Continue", "Resign", "Delete", "View", "PGN"} {
		if !seen[want] {
			tb.t.Errorf("[%s] %s: no %q control in the game tables", tb.vp.name, what, want)
		}
	}
}

// TestUnfinishedGamesList: three games started from the form are all
// listed (newest first, with Continue); the middle one continues; one is
// resigned and one deleted from the list (an open tab of each sees the
// end or is sent home); on a phone nothing sticks out sideways.
func TestUnfinishedGamesList(t *testing.T) {
	for _, vp := range []viewport{desktop, phone} {
		t.Run(vp.name, func(t *testing.T) { unfinishedGamesList(t, vp) })
	}
}

func unfinishedGamesList(t *testing.T, vp viewport) {
	e := newEnv(t)
	tb := e.newTab(t, vp)

	var ids []string
	for i, o := range []gameOpts{
		{color: "white", level: "1", clock: "5+3"},
		{color: "black", level: "2", clock: "none"},
		{color: "white", level: "1", variant: "chess960", clock: "3+2"},
	} {
		if i > 0 {
			tb.open("/")
			note := eval[string](tb, `document.getElementById('unfinished-note')?.textContent || ''`)
			if want := fmt.Sprintf("You have %d unfinished", i); !strings.Contains(note, want) {
				t.Errorf("[%s] the new-game form says %q, want it to contain %q", vp.name, note, want)
			}
		}
		tb.newGame(o)
		if o.color == "black" {
			tb.waitPly(1, engineWait) // the engine opens
		}
		ids = append(ids, gameIDOf(tb.location()))
	}

	tb.open("/")
	rows := tb.waitUnfinishedRows(3)
	tb.shot("three-unfinished")
	if want := []string{ids[2], ids[1], ids[0]}; strings.Join(rows, " ") != strings.Join(want, " ") {
		t.Errorf("[%s] rows %v, want newest first %v", vp.name, rows, want)
	}
	for _, id := range ids {
		href := eval[string](tb, fmt.Sprintf(`document.querySelector(%s)?.getAttribute('href') || ''`, jsq(rowSel(id, `[data-list-action=continue]`))))
		if href != "/game/"+id {
			t.Errorf("[%s] row %s: Continue goes to %q", vp.name, id, href)
		}
	}
	row := eval[string](tb, fmt.Sprintf(`document.querySelector(%s).innerText`, jsq(rowSel(ids[0], ""))))
	for _, want := range []string{"White", "5+3", "just now"} {
		if !strings.Contains(row, want) {
			t.Errorf("[%s] row of the first game %q lacks %q", vp.name, row, want)
		}
	}
	if title := eval[string](tb, fmt.Sprintf(`document.querySelector(%s)?.title || ''`, jsq(rowSel(ids[0], "time[datetime]")))); title == "" {
		t.Errorf("[%s] the last activity has no exact time in its title", vp.name)
	}
	if n := eval[string](tb, `document.getElementById('unfinished-count')?.textContent || ''`); n != "(3)" {
		t.Errorf("[%s] count %q, want (3)", vp.name, n)
	}

	// Continue the middle one.
	tb.clickSel(rowSel(ids[1], `[data-list-action=continue]`))
	tb.waitJS(fmt.Sprintf(`location.pathname === %s`, jsq("/game/"+ids[1])), "the middle game's page", `location.href`, uiWait)
	b := tb.waitBoard()
	if b.Orientation != "black" || b.Ply != "1" {
		t.Errorf("[%s] continued game: orientation %q ply %q, want black at ply 1", vp.name, b.Orientation, b.Ply)
	}
	tb.shot("continued-middle")

	// Resign the first from the list while another tab has it open.
	watch := e.newTab(t, vp)
	watch.open("/game/" + ids[0])
	watch.waitBoard()
	tb.open("/")
	tb.waitUnfinishedRows(3)
	tb.clickSel(rowSel(ids[0], `[data-list-action=resign]`))
	if q := tb.answerConfirm(true); !strings.Contains(q, "Resign") {
		t.Errorf("[%s] the list's resign asked %q", vp.name, q)
	}
	tb.waitJS(`location.search === '?done=resigned' && document.getElementById('home-notice')`, "home with the resigned notice", `location.href`, uiWait)
	rows = tb.waitUnfinishedRows(2)
	if strings.Contains(strings.Join(rows, " "), ids[0]) {
		t.Errorf("[%s] the resigned game is still unfinished: %v", vp.name, rows)
	}
	fin := eval[string](tb, `document.getElementById('finished-games')?.innerText || ''`)
	if !strings.Contains(fin, "0-1") || !strings.Contains(fin, "resignation") {
		t.Errorf("[%s] finished games after resigning: %q", vp.name, fin)
	}
	over := watch.waitGameOver(uiWait)
	if over.Result != "0-1" {
		t.Errorf("[%s] the open tab shows %+v after the resign", vp.name, over)
	}
	watch.close()
	tb.shot("resigned")

	// Delete the third while another tab has it open: that tab is sent home.
	watch = e.newTab(t, vp)
	watch.open("/game/" + ids[2])
	watch.waitBoard()
	tb.clickSel(rowSel(ids[2], `[data-list-action=delete]`))
	if q := tb.answerConfirm(true); !strings.Contains(q, "Delete") {
		t.Errorf("[%s] the list's delete asked %q", vp.name, q)
	}
	tb.waitJS(`location.search === '?done=deleted' && document.getElementById('home-notice')`, "home with the deleted notice", `location.href`, uiWait)
	rows = tb.waitUnfinishedRows(1)
	if rows[0] != ids[1] {
		t.Errorf("[%s] after the delete the list is %v, want %v", vp.name, rows, ids[1:2])
	}
	watch.waitJS(`location.pathname === '/' && location.search === '?done=deleted'`, "the deleted game's tab sent home", `location.href`, uiWait)
	watch.close()
	// Its page, opened again, sends the person home too.
	watch = e.newTab(t, vp)
	watch.open("/game/" + ids[2])
	watch.waitJS(`location.pathname === '/' && location.search === '?done=deleted'`, "the deleted game's page sent home", `location.href`, uiWait)
	watch.close()
	tb.shot("deleted")

	// Both tables fit: nothing scrolls sideways, every control is on screen.
	tb.open("/")
	tb.waitUnfinishedRows(1)
	tb.checkControlsInside("home page")
	tb.shot("tables")
	tb.rectOf("#finished-games")
	tb.shot("finished-table")
}
