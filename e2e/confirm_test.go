package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// shown is true when sel matches an element with a box.
func (tb *tab) shown(sel string) bool {
	tb.t.Helper()
	return eval[bool](tb, fmt.Sprintf(`(() => { const el = document.querySelector(%s); if (!el) return false;
		const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; })()`, jsq(sel)))
}

// checkQuestionInView asserts the open in-page question mentions want and
// its words and both its answers are in sight.
func (tb *tab) checkQuestionInView(want string) {
	tb.t.Helper()
	tb.waitJS(`document.querySelector(`+jsq(openConfirmSel)+`)`, "an in-page question", ``, uiWait)
	for _, why := range tb.notInView([]mustSee{
		{"the question", openConfirmSel + " .confirm-q"},
		{"yes", openConfirmSel + ` button[data-answer="yes"]`},
		{"no", openConfirmSel + ` button[data-answer="no"]`},
	}) {
		tb.t.Errorf("[%s] %s", tb.vp.name, why)
	}
	if q := eval[string](tb, `document.querySelector(`+jsq(openConfirmSel+" .confirm-q")+`).textContent`); !strings.Contains(q, want) {
		tb.t.Errorf("[%s] the page asked %q, want it to mention %q", tb.vp.name, q, want)
	}
}

// TestInPageConfirm (issue 42, item 5): during play the game pages offer
// no Rematch and no New game (each would leave the game unfinished; they
// come once it is over); Resign and Offer draw, and Resign and Delete in
// the home page's list, ask in the page, in sight, and a No changes
// nothing. A browser dialog fails any test (helpers_test.go).
func TestInPageConfirm(t *testing.T) {
	e := newEnv(t)
	for _, vp := range []viewport{desktop1440, phone390, phone844} {
		t.Run("chess-"+vp.name, func(t *testing.T) {
			tb := e.newTab(t, vp)
			defer tb.close()
			tb.newGame(gameOpts{color: "white", level: "1", clock: "10+5"})
			tb.playAndWait("e2", "e4", 2)
			for _, a := range []string{"rematch", "new-game"} {
				if sel := `.actions [data-action="` + a + `"]`; tb.shown(sel) {
					t.Errorf("[%s] %s is offered during play", vp.name, a)
				}
			}
			for _, c := range []struct{ action, words string }{{"resign", "Resign"}, {"draw", "draw"}} {
				tb.clickAction(c.action)
				tb.checkQuestionInView(c.words)
				tb.answerConfirm(false)
				if b := tb.board(); b.Status != "playing" || b.Ply != "2" {
					t.Errorf("[%s] %s answered No: the game is %s at ply %s", vp.name, c.action, b.Status, b.Ply)
				}
			}
			tb.playAndWait("g1", "f3", 4) // the board still plays after a No
			tb.resign()
			tb.waitGameOver(uiWait)
			tb.clickSel(`dialog#game-over button[value=close]`)
			tb.waitJS(`!document.querySelector('dialog#game-over').open`, "the dialog to close", ``, uiWait)
			for _, a := range []string{"rematch", "new-game"} {
				if sel := `.actions [data-action="` + a + `"]`; !tb.shown(sel) {
					t.Errorf("[%s] %s is not offered once the game is over", vp.name, a)
				}
			}
			tb.shot("over")
		})
	}
	for _, vp := range []viewport{desktop1440, phone390} {
		t.Run("recon-"+vp.name, func(t *testing.T) {
			tb := e.newTab(t, vp)
			defer tb.close()
			tb.newRecon("white", "random", "15+5")
			tb.waitMyPhase()
			for _, a := range []string{"rematch", "new-game"} {
				if sel := `.actions [data-action="` + a + `"]`; tb.shown(sel) {
					t.Errorf("[%s] %s is offered during play", vp.name, a)
				}
			}
			tb.clickAction("resign")
			tb.checkQuestionInView("Resign")
			tb.answerConfirm(false)
			if s := eval[string](tb, `document.getElementById('board').dataset.status`); s != "playing" {
				t.Errorf("[%s] resign answered No: the game is %s", vp.name, s)
			}
			tb.resign()
			tb.waitGameOver(reconWait)
			tb.clickSel(`dialog#game-over button[value=close]`)
			tb.waitJS(`!document.querySelector('dialog#game-over').open`, "the dialog to close", ``, uiWait)
			if !tb.shown(`.actions [data-action="rematch"]`) {
				t.Errorf("[%s] rematch is not offered once the game is over", vp.name)
			}
		})
		t.Run("home-"+vp.name, func(t *testing.T) {
			tb := e.newTab(t, vp)
			defer tb.close()
			tb.newGame(gameOpts{color: "white", level: "1"})
			id := gameIDOf(tb.location())
			tb.open("/")
			tb.waitJS(`document.querySelector(`+jsq(rowSel(id, ""))+`)`, "the game's row in the unfinished list", ``, uiWait)
			for _, c := range []struct{ action, words string }{{"resign", "Resign your game"}, {"delete", "Delete your unfinished game"}} {
				tb.clickSel(rowSel(id, `[data-list-action=`+c.action+`]`))
				tb.checkQuestionInView(c.words)
				tb.answerConfirm(false)
				if !tb.shown(rowSel(id, `[data-list-action=`+c.action+`]`)) || tb.gamePath() != "/" {
					t.Errorf("[%s] %s answered No: the row's buttons are gone or the page left (%s)", vp.name, c.action, tb.location())
				}
			}
		})
	}
}
