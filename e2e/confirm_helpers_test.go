package e2e

import (
	"fmt"
)

// openConfirmSel is the page's open in-page question (static/js/confirm.js).
const openConfirmSel = `.confirm[role="alertdialog"]`

// answerConfirm waits for the page's in-page question, answers it with a
// real click (or tap) on yes or no, waits for it to go, and returns its
// words.
func (tb *tab) answerConfirm(yes bool) string {
	tb.t.Helper()
	tb.waitJS(`document.querySelector(`+jsq(openConfirmSel)+`)`, "an in-page question", `document.activeElement?.outerHTML`, uiWait)
	q := eval[string](tb, `document.querySelector(`+jsq(openConfirmSel+` .confirm-q`)+`).textContent.trim()`)
	answer := "no"
	if yes {
		answer = "yes"
	}
	tb.shot("asked")
	tb.clickSel(fmt.Sprintf(`%s button[data-answer=%q]`, openConfirmSel, answer))
	tb.waitJS(`!document.querySelector(`+jsq(openConfirmSel)+`)`, "the in-page question to close", ``, uiWait)
	return q
}

// resign presses Resign and says yes when the page asks.
func (tb *tab) resign() {
	tb.t.Helper()
	tb.clickAction("resign")
	tb.answerConfirm(true)
}
