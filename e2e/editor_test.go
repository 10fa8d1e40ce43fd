package e2e

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The board editor of the home page's new-game form (static/js/editor.js).

// openEditor loads the home page and opens the start-position section.
func (tb *tab) openEditor() {
	tb.t.Helper()
	tb.open("/")
	tb.waitJS(`document.querySelector('form#new-game')`, "form#new-game", `document.body.innerText.slice(0, 200)`, uiWait)
	tb.clickSel(`#start-position > summary`)
	tb.waitJS(`(() => { const e = document.getElementById('editor'); return e && !e.hidden && e.getBoundingClientRect().height > 100; })()`,
		"the board editor open", `document.getElementById('start-position')?.outerHTML.slice(0, 300)`, uiWait)
}

// shotEditor saves a screenshot with the editor scrolled to the top.
func (tb *tab) shotEditor(name string) {
	tb.t.Helper()
	eval[bool](tb, `(() => { document.getElementById('start-position').scrollIntoView({block: 'start'}); return true; })()`)
	tb.shot(name)
}

// edSquare is the centre of a square of the editor's board.
func (tb *tab) edSquare(sq string) (float64, float64) {
	tb.t.Helper()
	tb.rectOf("#editor-board")
	r, ok := tb.rectOf(fmt.Sprintf(`#editor-board [data-square="%s"]`, sq))
	if !ok || r.W < 4 {
		tb.fail("editor square %s: %+v", sq, r)
	}
	return r.X + r.W/2, r.Y + r.H/2
}

// centre is the centre of the first element matching sel.
func (tb *tab) centre(sel string) (float64, float64) {
	tb.t.Helper()
	r, ok := tb.rectOf(sel)
	if !ok || r.W == 0 {
		tb.fail("%s is not visible", sel)
	}
	return r.X + r.W/2, r.Y + r.H/2
}

// dragSpare drags a spare piece (wK, bP...) onto a square of the editor.
func (tb *tab) dragSpare(code, sq string) {
	tb.t.Helper()
	tb.rectOf("#editor") // all of it in view, so both ends are on screen
	fx, fy := tb.centre(fmt.Sprintf(`.spare[data-piece="%s"]`, code))
	tx, ty := tb.edSquare(sq)
	tb.dragXY(fx, fy, tx, ty)
}

// editorFEN is what the FEN box holds.
func (tb *tab) editorFEN() string {
	return eval[string](tb, `document.getElementById('fen-input').value`)
}

// wantFEN fails unless the FEN box holds want.
func (tb *tab) wantFEN(what, want string) {
	tb.t.Helper()
	if got := tb.editorFEN(); got != want {
		tb.fail("%s: FEN box %q, want %q", what, got, want)
	}
}

// castling reads the four castling boxes as "K:on Q:off-disabled ...".
func (tb *tab) castling() string {
	return eval[string](tb, `[...document.querySelectorAll('input[name="editor-castling"]')].map(c => c.value + ':' + (c.checked ? 'on' : 'off') + (c.disabled ? '-disabled' : '')).join(' ')`)
}

// problemsShown is the editor's list of problems, as text.
func (tb *tab) problemsShown() string {
	return eval[string](tb, `(() => { const l = document.getElementById('editor-problems'); return l.hidden ? '' : l.innerText; })()`)
}

// playFromPosition presses "Play from this position" and waits for the
// game page, whose start position it returns.
func (tb *tab) playFromPosition() board {
	tb.t.Helper()
	tb.clickSel("#play-from-position")
	tb.waitJS(`/\/game\//.test(location.pathname)`, "the game page", `location.href + ' ' + document.body.innerText.slice(0, 300)`, uiWait)
	return tb.waitBoard()
}

// TestEditorMouse: with the mouse, a position is built by dragging spare
// pieces on, a piece around and one off the board; side to move and
// castling are set; flipping, a right-click and en passant work; the FEN
// box follows every step; the game starts from exactly that position.
// Typing a FEN redraws the board; one that cannot be read says why and
// keeps the text.
func TestEditorMouse(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.openEditor()
	tb.wantFEN("opened", "")
	if n := eval[int](tb, `document.querySelectorAll('#editor-board img.piece').length`); n != 32 {
		tb.fail("the editor opens on the start position: %d pieces, want 32", n)
	}
	tb.clickSel(`[data-editor="clear"]`)
	tb.wantFEN("cleared", "8/8/8/8/8/8/8/8 w - - 0 1")
	if p := tb.problemsShown(); !strings.Contains(p, "White has no king") || !strings.Contains(p, "Black has no king") {
		tb.fail("empty board: problems %q", p)
	}
	if c := tb.castling(); c != "K:off-disabled Q:off-disabled k:off-disabled q:off-disabled" {
		tb.fail("empty board: castling %s", c)
	}
	tb.dragSpare("wK", "e1")
	tb.dragSpare("wR", "h1")
	tb.dragSpare("bK", "e8")
	tb.wantFEN("kings and a rook", "4k3/8/8/8/8/8/8/4K2R w K - 0 1")
	tb.dragSpare("wQ", "d4")
	tb.shotEditor("editor-dragged-on")
	x, y := tb.edSquare("d4")
	tx, ty := tb.edSquare("d5")
	tb.dragXY(x, y, tx, ty) // a piece around the board
	tb.dragSpare("bP", "a7")
	tb.wantFEN("queen moved, pawn added", "4k3/p7/8/3Q4/8/8/8/4K2R w K - 0 1")
	x, y = tb.edSquare("a7")
	ox, oy := tb.centre("#editor-help")
	tb.dragXY(x, y, ox, oy) // off the board: removed
	tb.wantFEN("pawn dragged off", "4k3/8/8/3Q4/8/8/8/4K2R w K - 0 1")
	// Flipped, Black's side is at the bottom, its spare pieces too; a
	// right-click removes a piece.
	tb.clickSel(`[data-editor="flip"]`)
	if !eval[bool](tb, `(() => { const b = document.querySelector('#editor-board [data-square="a1"]').getBoundingClientRect(),
		h = document.querySelector('#editor-board [data-square="h8"]').getBoundingClientRect(),
		sb = document.querySelector('.editor-spares[data-color="b"]').getBoundingClientRect(),
		sw = document.querySelector('.editor-spares[data-color="w"]').getBoundingClientRect();
		return b.top < h.top && b.left > h.left && sb.top > sw.top; })()`) {
		tb.fail("flipped: a1 is not top right, or Black's spare pieces are not below")
	}
	tb.dragSpare("bN", "b8")
	x, y = tb.edSquare("b8")
	tb.do(chromedp.MouseClickXY(x, y, chromedp.ButtonRight))
	tb.wantFEN("knight added and right-clicked away", "4k3/8/8/3Q4/8/8/8/4K2R w K - 0 1")
	tb.clickSel(`[data-editor="flip"]`)
	// Castling: only White's short castling can be, and it can be turned off and on.
	if c := tb.castling(); c != "K:on Q:off-disabled k:off-disabled q:off-disabled" {
		tb.fail("castling boxes %s, want only K, on", c)
	}
	tb.clickSel(`input[name="editor-castling"][value="K"]`)
	tb.wantFEN("no castling", "4k3/8/8/3Q4/8/8/8/4K2R w - - 0 1")
	tb.clickSel(`input[name="editor-castling"][value="K"]`)
	tb.clickSel(`input[name="editor-turn"][value="b"] + span`)
	const built = "4k3/8/8/3Q4/8/8/8/4K2R b K - 0 1"
	tb.wantFEN("black to move, castling again", built)
	if p := tb.problemsShown(); p != "" {
		tb.fail("a good position shows problems: %q", p)
	}
	// Typing: a FEN that cannot be read keeps its text and the board.
	typeFEN := func(s string) {
		eval[bool](tb, `(() => { const i = document.getElementById('fen-input'); i.focus(); i.value = `+jsq(s)+`;
			i.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`)
	}
	bad := "4k3/8/8/3Q4/8/8/8/4K2X b K - 0 1"
	typeFEN(bad)
	tb.wantFEN("typed a bad letter", bad)
	if p := tb.problemsShown(); !strings.Contains(p, `"X" on rank 1 is not a piece letter`) {
		tb.fail("bad letter: problems %q", p)
	}
	if got := eval[string](tb, `document.getElementById('editor').dataset.fen`); got != built {
		tb.fail("after an unreadable FEN the board shows %q, want the last good one %q", got, built)
	}
	typeFEN("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
	if c := tb.castling(); c != "K:off-disabled Q:on k:off-disabled q:off-disabled" {
		tb.fail("typed FEN: castling boxes %s", c)
	}
	if n := eval[int](tb, `document.querySelectorAll('#editor-board img.piece').length`); n != 3 {
		tb.fail("typed FEN: %d pieces on the editor's board, want 3", n)
	}
	// En passant: offered where a pawn can just have moved two squares.
	typeFEN("4k3/8/8/8/4Pp2/8/8/4K3 b - - 0 1")
	if got := eval[string](tb, `[...document.querySelector('select[name="editor-ep"]').options].map(o => o.value).join(' ')`); got != "- e3" {
		tb.fail("en passant choices %q, want \"- e3\"", got)
	}
	eval[bool](tb, `(() => { const s = document.querySelector('select[name="editor-ep"]'); s.value = 'e3';
		s.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`)
	tb.wantFEN("en passant chosen", "4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1")
	typeFEN(built)
	tb.clickSel(`input[name="color"][value="black"] + span`) // Black to move is the person's move: the board waits
	tb.shotEditor("editor-built")
	b := tb.playFromPosition()
	if b.FEN != built {
		tb.fail("the game starts from %q, want %q", b.FEN, built)
	}
	if b.Orientation != "black" || b.Ply != "0" {
		tb.fail("game page: orientation %q ply %q, want black and 0", b.Orientation, b.Ply)
	}
	tb.shot("game-from-editor")
}

// TestEditorTouch: on a 360x640 phone with a finger, a position is built
// by picking spare pieces and tapping squares, the eraser, and one
// finger drag; the editor fits the screen without sideways scrolling and
// draws the browser's piece set; the game starts from that position.
func TestEditorTouch(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, viewport{name: "phone-360", width: 360, height: 640, mobile: true, touch: true})
	tb.open("/")
	eval[bool](tb, `(localStorage.setItem('knightwatch.pieceSet', 'spatial'), true)`) // chosen on another page
	tb.openEditor()
	if bad := eval[string](tb, `[...document.querySelectorAll('#editor img, form#new-game .seg img')].map(i => i.getAttribute('src') || '').filter(s => !s.includes('/pieces/spatial/')).join(' ')`); bad != "" {
		tb.fail("the editor and the colour choice draw pieces outside the chosen set: %s", bad)
	}
	tb.shotEditor("editor-phone")
	tb.checkNoSideways("the board editor", "#editor")
	tap := func(sel string) { tb.clickSel(sel) }
	tapSquare := func(sq string) { x, y := tb.edSquare(sq); tb.press(x, y) }
	tap(`[data-editor="clear"]`)
	tap(`.spare[data-piece="wK"]`)
	if got := eval[string](tb, `document.querySelector('.spare[data-piece="wK"]').getAttribute('aria-pressed')`); got != "true" {
		tb.fail("a tapped spare piece is not shown as picked (aria-pressed %q)", got)
	}
	tapSquare("e1")
	tap(`.spare[data-piece="bK"]`)
	tapSquare("e8")
	tap(`.spare[data-piece="wP"]`)
	tapSquare("e2")
	tapSquare("e3")
	tapSquare("f2")
	tb.wantFEN("tapped", "4k3/8/8/8/8/4P3/4PP2/4K3 w - - 0 1")
	tap(`[data-tool="erase"]`)
	tapSquare("e3")
	tap(`[data-tool="move"]`)
	// The board first (measuring it may scroll it into the middle of the
	// screen), then the spare pieces just under it: both ends in sight.
	tx, ty := tb.edSquare("g1")
	fx, fy := tb.centre(`.spare[data-piece="wN"]`)
	tb.do(touchDrag(fx, fy, tx, ty, 12))
	// A hand takes a moment after a drag; headless Chromium drops the click
	// of a tap that follows a touch drag within about 300 ms.
	time.Sleep(500 * time.Millisecond) // time itself is what is tested: a hand's pause, which the gesture detector goes by
	tap(`input[name="editor-turn"][value="b"] + span`)
	const built = "4k3/8/8/8/8/8/4PP2/4K1N1 b - - 0 1"
	tb.wantFEN("erased, dragged, black to move", built)
	tb.shotEditor("editor-phone-built")
	tb.checkNoSideways("the board editor, built", "#editor")
	tap(`input[name="color"][value="black"] + span`)
	b := tb.playFromPosition()
	if b.FEN != built {
		tb.fail("the game starts from %q, want %q", b.FEN, built)
	}
}

// TestEditorRefuses: a position the editor can tell is impossible is not
// sent and the list says why; one only the server can judge (checkmate)
// is sent, refused there in words, and comes back in the box and on the
// editor's board; Chess960 hides the editor and sends no FEN.
func TestEditorRefuses(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.openEditor()
	tb.clickSel(`[data-editor="clear"]`)
	tb.dragSpare("wK", "e1")
	tb.clickSel("#play-from-position")
	tb.waitJS(`document.getElementById('editor-problems').classList.contains('refused')`, "the problems shown as the reason", "", uiWait)
	if p := tb.problemsShown(); !strings.Contains(p, "Black has no king") {
		tb.fail("no king: problems %q", p)
	}
	if eval[string](tb, `location.pathname`) != "/" {
		tb.fail("an impossible position was sent: at %s", eval[string](tb, `location.href`))
	}
	tb.wantFEN("refused here", "8/8/8/8/8/8/8/4K3 w - - 0 1")
	tb.shotEditor("editor-refused")

	const mate = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"
	eval[bool](tb, `(() => { const i = document.getElementById('fen-input'); i.value = `+jsq(mate)+`;
		i.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`)
	if p := tb.problemsShown(); p != "" {
		tb.fail("checkmate: the editor shows %q, want nothing (only the server can tell)", p)
	}
	tb.clickSel("#play-from-position")
	tb.waitJS(`document.querySelector('.alert')?.textContent.includes('already over (checkmate)')`, "the server's refusal in words",
		`document.body.innerText.slice(0, 300)`, uiWait)
	tb.shot("server-refused")
	tb.wantFEN("refused by the server", mate)
	if got := eval[string](tb, `document.getElementById('fen-refused')?.innerText || ''`); !strings.Contains(got, "already over (checkmate)") {
		tb.fail("beside the FEN box: %q, want the server's reason", got)
	}
	if got := eval[string](tb, `document.getElementById('editor').dataset.fen || ''`); got != mate {
		tb.fail("after the server's refusal the editor shows %q, want %q", got, mate)
	}
	if !eval[bool](tb, `(() => { const r = document.getElementById('editor-board').getBoundingClientRect(); return r.width > 100; })()`) {
		tb.fail("after the server's refusal the editor is not open")
	}

	tb.clickSel(`input[name="variant"][value="chess960"] + span`)
	if !eval[bool](tb, `document.getElementById('start-position').hidden && document.getElementById('fen-input').disabled`) {
		tb.fail("Chess960: the start position is still offered")
	}
	tb.clickSel(`form#new-game button[type=submit]`)
	tb.waitJS(`/\/game\//.test(location.pathname)`, "the Chess960 game (the FEN left out)", `document.body.innerText.slice(0, 300)`, uiWait)
}

// TestEditorChecks: the editor's checks (position.js) and the server's
// agree on every position of web/testdata/start_positions.tsv, the table
// web/fen_words_test.go runs through the server: the editor refuses what
// the server refuses, in its own words, except mate and stalemate, which
// only the server can see.
func TestEditorChecks(t *testing.T) {
	f, err := os.Open("../web/testdata/start_positions.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.open("/")
	tb.waitJS(`document.querySelector('form#new-game')`, "form#new-game", "", uiWait)
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) != 4 {
			t.Fatalf("start_positions.tsv: %q", line)
		}
		verdict, fen, words := c[0], c[1], c[2]
		said := eval[string](tb, `import('/static/js/position.js').then(m => { const r = m.parseFEN(`+jsq(fen)+`);
			return (r.error ? [r.error] : m.problems(r.pos)).join(' | '); })`)
		switch {
		case verdict == "refused" && !strings.Contains(said, words):
			t.Errorf("%s: the editor says %q, want it refused with %q", fen, said, words)
		case verdict != "refused" && said != "":
			t.Errorf("%s: the editor refuses it (%q); the server accepts it or alone can judge it", fen, said)
		}
		n++
	}
	if n < 10 {
		t.Fatalf("only %d positions", n)
	}
}
