package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// playTyped plays the person's move at ply through the move box: the first
// of cands the server accepts (the others are refused as illegal here).
func (tb *tab) playTyped(ply int, cands ...string) string {
	tb.t.Helper()
	for _, c := range cands {
		eval[bool](tb, `(() => { const m = document.querySelector('[data-status-msg]'); m.textContent = ''; m.classList.remove('error'); return true; })()`)
		tb.typeMove(c)
		tb.waitJS(fmt.Sprintf(`Number(document.getElementById('board').dataset.ply) > %d || document.querySelector('[data-status-msg]').classList.contains('error')`, ply),
			"the move "+c+" played or refused", `document.getElementById('status-line').innerText`, uiWait)
		if n, _ := strconv.Atoi(tb.board().Ply); n > ply {
			return c
		}
	}
	tb.fail("none of %v was accepted at ply %d", cands, ply)
	return ""
}

// learntGames is the number of games /experience says the engine learnt
// from (fetched from the page the tab is on).
func (tb *tab) learntGames() string {
	tb.t.Helper()
	return eval[string](tb, `(() => { const x = new XMLHttpRequest(); x.open('GET', '/experience', false); x.send();
		const m = /data-games="(\d+)"/.exec(x.responseText); return m ? m[1] : ''; })()`)
}

// experienceMark is what the move list shows for one ply.
type experienceMark struct {
	Sentence string `json:"sentence"`
	Title    string `json:"title"`
	Label    string `json:"label"`
	Mark     bool   `json:"mark"`
}

func (tb *tab) experienceMark(ply int) experienceMark {
	tb.t.Helper()
	return eval[experienceMark](tb, fmt.Sprintf(`(() => { const b = document.querySelector('#moves [data-ply="%d"]');
		if (!b) return {sentence: '', title: '', label: '', mark: false};
		const x = b.querySelector('.xp-mark'); const r = x ? x.getBoundingClientRect() : null;
		return {sentence: b.dataset.experience || '', title: b.title || '', label: b.getAttribute('aria-label') || '',
			mark: !!r && r.width > 0 && r.height > 0}; })()`, ply))
}

// TestExperienceMark (issue 34, the engine learns): with `serve
// --experience=true`, a game the person plays 1.e4 in and then gives up
// after ten plies teaches the engine that 1.e4 lost; in the rematch, with
// colours swapped, the engine's first move (from its opening book) leaves
// out 1.e4, and the move list marks that move with ↺ and the sentence
// "Chosen from experience: 1.e4 lost 1 of 1 earlier game here" (tooltip,
// spoken label, status line); after a reload, and on a phone, the mark is
// still there, and a tap on the move says the sentence. (web/experience_test.go's TestEngineLearnsFromLostLine
// plays a whole winning line again and again through the real server.)
func TestExperienceMark(t *testing.T) {
	e := newEnv(t, "--experience=true")
	tb := e.newTab(t, desktop)
	tb.newGame(gameOpts{color: "white", level: "1"})
	tb.playTyped(0, "e4")
	knights := []string{"Nf3", "Ng1", "Nc3", "Nb1", "a3", "h3", "Kf1", "Ke1", "Ke2", "Kd1"}
	for ply := 2; ply < 10; ply += 2 {
		b := tb.waitPly(ply, engineWait)
		if b.Status == "over" {
			break // the engine mated: a lesson all the same
		}
		tb.playTyped(ply, knights...)
	}
	if b := tb.board(); b.Status != "over" {
		tb.waitPly(10, engineWait)
		tb.resign()
	}
	tb.waitGameOver(engineWait)
	tb.waitJS(`(() => { const x = new XMLHttpRequest(); x.open('GET', '/experience', false); x.send(); return x.responseText.includes('data-games="1"'); })()`,
		"/experience to count the game", ``, uiWait)
	if n := tb.learntGames(); n != "1" {
		t.Fatalf("/experience counts %q games learnt from, want 1", n)
	}

	// The rematch: the engine has White and opens without 1.e4.
	tb.clickSel(`dialog#game-over [data-action="rematch"]`)
	tb.waitJS(`document.getElementById('board')?.dataset.orientation === 'black'`, "the rematch's board", `location.href`, uiWait)
	tb.waitJS(`!!document.querySelector('#moves [data-ply="1"][data-experience]')`, "the engine's first move, marked",
		`document.getElementById('moves')?.outerHTML`, engineWait)
	const want = "Chosen from experience: 1.e4 lost 1 of 1 earlier game here"
	m := tb.experienceMark(1)
	tb.shot("marked-move")
	if !strings.HasPrefix(m.Sentence, want) || m.Title != m.Sentence || !strings.HasSuffix(m.Label, m.Sentence) || !m.Mark {
		t.Errorf("the engine's first move: %+v, want the mark and %q", m, want)
	}
	if first := tb.moveText(1); strings.HasPrefix(first, "e4") {
		t.Errorf("the engine played %q after 1.e4 lost", first)
	}
	if msg := eval[string](tb, `document.querySelector('[data-status-msg]').textContent`); !strings.HasPrefix(msg, want) {
		t.Errorf("status line %q, want the sentence", msg)
	}

	// A reload keeps it (it is stored with the game); a phone shows it too.
	path := tb.gamePath()
	tb.open(path)
	tb.waitBoard()
	tb.waitJS(`!!document.querySelector('#moves [data-ply="1"][data-experience]')`, "the mark after a reload", ``, uiWait)
	if m2 := tb.experienceMark(1); m2 != m {
		t.Errorf("after a reload: %+v, before %+v", m2, m)
	}
	ph := e.newTab(t, phone)
	ph.open(path)
	ph.waitBoard()
	ph.waitJS(`!!document.querySelector('#moves [data-ply="1"][data-experience]')`, "the mark on a phone", ``, uiWait)
	if m3 := ph.experienceMark(1); !m3.Mark || m3.Sentence != m.Sentence {
		t.Errorf("on a phone: %+v", m3)
	}
	// No hover on a phone: a tap on the move says the sentence.
	ph.clickSel(`#moves [data-ply="1"]`)
	ph.waitJS(`document.querySelector('[data-status-msg]').textContent.startsWith(`+jsq(want)+`)`, "the sentence after a tap",
		`document.getElementById('status-line').innerText`, uiWait)
	ph.settle()
	ph.shot("marked-move-phone")

	// What the engine has learnt, on its page.
	for _, t2 := range []*tab{tb, ph} {
		t2.open("/experience")
		t2.waitJS(`document.querySelectorAll('#recent-lessons tbody tr').length === 1`, "the game on /experience",
			`document.body.innerText.slice(0, 400)`, uiWait)
		t2.shot("experience-page")
		t2.checkNoSideways("the experience page", "main")
	}
}
