package e2e

import (
	"encoding/json"
	"fmt"
	"knightwatch/game"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// analysisWait bounds the waits for the engine's lines on a shared
// two-core machine.
const analysisWait = 30 * time.Second

// importedPGN has a variation, a nested one and comments.
const importedPGN = `[Event "e2e"]

1. e4 {the king's pawn} e5 (1... c5 2. Nf3 (2. c3 d5) d6) 2. Nf3 Nc6 *`

// study is the page's tree as this browser keeps it (analysis.js's
// localStorage copy, analysisboard.Study's JSON), tags left out.
func (tb *tab) study() string {
	tb.t.Helper()
	raw := eval[string](tb, `localStorage.getItem('kw-analysis') || ''`)
	var v map[string]any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		tb.fail("the kept tree %q: %v", raw, err)
	}
	delete(v, "tags")
	b, _ := json.Marshal(v)
	return string(b)
}

// importText pastes text into the import form and sends it.
func (tb *tab) importText(text string) {
	tb.t.Helper()
	eval[bool](tb, `document.getElementById('import-box').open = true`)
	tb.do(chromedp.SetValue(`#import-text`, text))
	eval[bool](tb, `(document.querySelector('#import-form button[type=submit]').scrollIntoView({block: 'center'}), true)`)
	tb.clickSel(`#import-form button[type=submit]`)
}

// TestAnalysisBoard: import a PGN with a variation, step to the end of
// the main line, add a move on the board, see the engine's lines deepen,
// export the tree as PGN, and import that PGN back to the same tree; a
// bad PGN is refused with its line and column and changes nothing.
func TestAnalysisBoard(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	defer tb.close()
	tb.open("/analysis")
	tb.waitJS(`document.getElementById('board').dataset.ready`, "the start position", ``, uiWait)
	tb.importText(importedPGN)
	tb.waitJS(`document.getElementById('tree').dataset.size === '9'`, "the imported tree", `document.getElementById('tree').dataset.size`, uiWait)
	tb.shot("imported")
	if got := eval[string](tb, `document.querySelector('#tree .comment')?.textContent || ''`); got != "the king's pawn" {
		tb.fail("the comment shows as %q", got)
	}
	// End: the main line's last move, 2... Nc6.
	tb.do(chromedp.KeyEvent(kb.End))
	tb.waitJS(`document.querySelector('#tree .move.current')?.textContent === 'Nc6'`, "2... Nc6 shown", `document.querySelector('#tree .move.current')?.textContent`, uiWait)
	tb.waitJS(`document.getElementById('board').dataset.ready && document.querySelector('#board .mine')`, "White to move", ``, uiWait)
	tb.clickSquare("f1")
	tb.clickSquare("b5")
	tb.waitJS(`document.querySelector('#tree .move.current')?.textContent === '3. Bb5'`, "3. Bb5 added", `document.querySelector('#tree .move.current')?.textContent`, uiWait)
	if got := eval[string](tb, `document.getElementById('opening-line').textContent`); !strings.Contains(got, "Ruy Lopez") {
		tb.fail("the opening shows as %q", got)
	}
	tb.waitJS(`document.querySelectorAll('#engine-lines li').length >= 1`, "the engine's lines", `document.getElementById('engine-state').textContent`, analysisWait)
	first := eval[int](tb, `Number(document.getElementById('engine-lines').dataset.depth)`)
	tb.waitJS(`Number(document.getElementById('engine-lines').dataset.depth) > `+strconv.Itoa(first), "a deeper line", `document.getElementById('engine-lines').dataset.depth`, analysisWait)
	if n := eval[int](tb, `document.querySelectorAll('#engine-lines li').length`); n != 3 {
		tb.fail("%d engine lines, want 3", n)
	}
	// The best line's first move is the board's arrow.
	tb.waitJS(`document.querySelector('#board svg.annotations line[data-hint]')?.dataset.hint.length >= 4`, "the best move's arrow", ``, uiWait)
	tb.shot("engine lines")
	before := tb.study()

	eval[bool](tb, `document.getElementById('export-box').open = true`)
	eval[bool](tb, `(document.getElementById('export-btn').scrollIntoView({block: 'center'}), true)`)
	tb.clickSel(`#export-btn`)
	tb.waitJS(`document.getElementById('export-text').value.includes('Bb5')`, "the PGN", `document.getElementById('export-text').value`, uiWait)
	pgn := eval[string](tb, `document.getElementById('export-text').value`)
	if !strings.Contains(pgn, "(1... c5 2. Nf3 (2. c3 d5) 2... d6)") || !strings.Contains(pgn, "3. Bb5") {
		tb.fail("exported PGN:\n%s", pgn)
	}

	// A bad PGN: the library's error with its line and column; the tree stays.
	tb.importText("[Event \"x\"]\n\n1. e4 e5 2. Ke3 *")
	tb.waitJS(`!document.getElementById('import-error').hidden`, "the import error", ``, uiWait)
	if got := eval[string](tb, `document.getElementById('import-error').textContent`); !strings.HasPrefix(got, "Line 3, column") {
		tb.fail("import error %q", got)
	}
	if after := tb.study(); after != before {
		tb.fail("a bad import changed the tree")
	}

	tb.importText(pgn)
	tb.waitJS(`document.getElementById('tree').dataset.size === '10'`, "the re-imported tree", `document.getElementById('tree').dataset.size`, uiWait)
	if after := tb.study(); after != before {
		tb.fail("the tree came back different:\n%s\n%s", before, after)
	}
}

// TestAnalysisPhone: on a phone the engine's lines fold into one line
// under the board, the tree becomes a row, and nothing is wider than the
// screen.
func TestAnalysisPhone(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, phone)
	defer tb.close()
	tb.open("/analysis")
	tb.waitJS(`document.querySelectorAll('#engine-lines li').length === 3`, "the engine's lines", ``, analysisWait)
	tb.importText(importedPGN)
	tb.waitJS(`document.getElementById('tree').dataset.size === '9'`, "the imported tree", `document.getElementById('import-error').textContent`, uiWait)
	eval[bool](tb, `document.getElementById('import-box').open = false`)
	tb.waitJS(`document.querySelectorAll('#engine-lines li').length === 3`, "the engine's lines", ``, analysisWait)
	type layout struct {
		TreeShown, RowShown bool
		LinesShown          int
		LinesBelowBoard     bool
		RowMoves            int
		Width               int
	}
	got := eval[layout](tb, `(() => {
		const shown = (el) => el && el.getBoundingClientRect().height > 0;
		const board = document.getElementById('board').getBoundingClientRect();
		const lines = [...document.querySelectorAll('#engine-lines li')].filter(shown);
		return {
			treeShown: shown(document.getElementById('tree')),
			rowShown: shown(document.getElementById('tree-row')),
			linesShown: lines.length,
			linesBelowBoard: lines.length > 0 && lines[0].getBoundingClientRect().top >= board.bottom,
			rowMoves: document.querySelectorAll('#tree-row .move').length,
			width: document.documentElement.scrollWidth,
		};
	})()`)
	tb.shot("phone")
	if got.TreeShown || !got.RowShown || got.LinesShown != 1 || !got.LinesBelowBoard || got.RowMoves != 4 || got.Width > int(phone.width) {
		tb.fail("phone layout %+v", got)
	}
}

// TestAnalysisNew: New asks first, in the page; yes starts again from the
// start position, Cancel keeps the tree. Then a typed move and a dragged
// one start the new tree.
func TestAnalysisNew(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	defer tb.close()
	tb.open("/analysis")
	tb.importText(importedPGN)
	tb.waitJS(`document.getElementById('tree').dataset.size === '9'`, "the imported tree", ``, uiWait)
	for _, c := range []struct {
		answer string
		size   string
	}{{"no", "9"}, {"yes", "0"}} {
		tb.clickSel(`[data-action="clear"]`)
		tb.waitJS(`document.querySelector('.actions .confirm')`, "the question", ``, uiWait)
		tb.clickSel(`.actions .confirm button[data-answer="` + c.answer + `"]`)
		tb.waitJS(`!document.querySelector('.actions .confirm') && document.getElementById('tree').dataset.size === '`+c.size+`'`, "the answer's tree", `document.getElementById('tree').dataset.size`, uiWait)
	}
	tb.do(chromedp.SendKeys(chromedp.CSS(`input#move-input`), "e4\n"))
	tb.waitJS(`document.querySelector('#tree .move.current')?.textContent === '1. e4'`, "1. e4 typed", `document.querySelector('#tree .move.current')?.textContent`, uiWait)
	tb.waitJS(`document.getElementById('board').dataset.ready && document.querySelector('#board .mine')`, "Black to move", ``, uiWait)
	tb.dragPiece("e7", "e5")
	tb.waitJS(`document.querySelector('#tree .move.current')?.textContent === 'e5'`, "1... e5 dragged", `document.querySelector('#tree .move.current')?.textContent + ' / ' + document.getElementById('engine-state').textContent + ' / ' + document.getElementById('tree').dataset.size`, uiWait)
	if got := eval[string](tb, `document.getElementById('fen').value`); got != "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2" {
		tb.fail("FEN %q", got)
	}
}

// TestAnalysisFromGame: a finished game's Analyse (in the game-over
// dialog and beside the board) opens the analysis board with the game's
// moves, at the move the game page shows.
func TestAnalysisFromGame(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	defer tb.close()
	tb.newGame(gameOpts{color: "white", level: "1"})
	tb.playAndWait("e2", "e4", 2)
	tb.resign()
	tb.waitJS(`document.getElementById('game-over').open`, "the game-over dialog", ``, uiWait)
	if got := eval[string](tb, `document.querySelector('#game-over [data-action="analyse"]').href`); !strings.HasSuffix(got, "ply=2") {
		tb.fail("the dialog's Analyse links %q", got)
	}
	tb.clickSel(`#game-over button[value=close]`)
	tb.waitJS(`!document.getElementById('game-over').open && !document.querySelector('.actions [data-action="analyse"]').hidden`, "the Analyse button", ``, uiWait)
	// Back to the start of the game: the board opens there.
	tb.clickSel(`[data-nav="first"]`)
	tb.waitJS(`document.querySelector('[data-action="analyse"]').href.endsWith('ply=0')`, "the link at the start", `document.querySelector('[data-action="analyse"]').href`, uiWait)
	tb.clickSel(`.actions [data-action="analyse"]`)
	tb.waitJS(`location.pathname === '/analysis' && document.getElementById('tree')?.dataset.size === '2'`, "the game on the board", `location.href`, uiWait)
	tb.waitJS(`document.getElementById('board').dataset.path === '' && document.getElementById('board').dataset.ready && !document.querySelector('#tree .move.current')`, "the start shown", `document.getElementById('board').dataset.path`, uiWait)
	if got := eval[string](tb, `document.querySelector('#tree .move')?.textContent`); got != "1. e4" {
		tb.fail("the tree starts with %q", got)
	}
	tb.shot("from the game")
}

// TestAnalysisTablebase: with `serve --syzygy`, a position the tables
// cover shows their verdict and each move's value, the best first, and a
// tablebase move's click plays it.
func TestAnalysisTablebase(t *testing.T) {
	tables, err := filepath.Abs(filepath.Join("..", "syzygy", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	// With Gaviota's tables too (issue 48) the line says the mate beside
	// Syzygy's verdict, in the game page's words.
	e := newEnv(t, "--syzygy", tables, "--gaviota", "/usr/share/gaviotatb/gtb4")
	tb := e.newTab(t, desktop)
	defer tb.close()
	tb.open("/analysis?fen=" + url.QueryEscape("8/8/8/8/8/8/6k1/4K2R w - - 0 1"))
	tb.waitJS(`!document.getElementById('tablebase-line').hidden && document.querySelectorAll('#tablebase-moves li').length > 0`, "the tablebase", ``, uiWait)
	line := eval[string](tb, `document.getElementById('tablebase-line').textContent`)
	moves := eval[[]string](tb, `[...document.querySelectorAll('#tablebase-moves li')].map((li) => li.textContent)`)
	if !strings.HasPrefix(line, "Tablebase: White wins") || !strings.Contains(line, " · White mates in ") || !strings.Contains(moves[0], "Win") || !strings.Contains(moves[len(moves)-1], "Draw") {
		tb.fail("tablebase %q, moves %q", line, moves)
	}
	tb.shot("tablebase")
	tb.clickSel(`#tablebase-moves li button`)
	tb.waitJS(`document.getElementById('tree').dataset.size === '1'`, "the tablebase move played", ``, uiWait)
}

// TestAnalysisUnderpromotion: a pawn dragged to the last rank asks for
// the piece (static/js/promotion.js, the chooser every board page shares,
// the learn and puzzle boards too); a knight chosen is a knight played,
// and Cancel plays nothing.
func TestAnalysisUnderpromotion(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	defer tb.close()
	tb.open("/analysis?fen=" + url.QueryEscape("8/4P3/8/8/8/8/k7/4K3 w - - 0 1"))
	tb.waitJS(`document.getElementById('board').dataset.ready && document.querySelector('#board .mine')`, "White to move", ``, uiWait)
	tb.dragPiece("e7", "e8")
	tb.waitJS(`!document.getElementById('promotion').hidden`, "the promotion chooser", ``, uiWait)
	tb.shot("chooser")
	tb.clickSel(`#promotion .promo-cancel`)
	tb.waitJS(`document.getElementById('promotion').hidden && document.getElementById('tree').dataset.size === '0' && document.getElementById('board').dataset.ready && document.querySelector('#board [data-square="e7"] .piece')?.dataset.piece === 'wP'`, "nothing played after Cancel",
		`document.getElementById('tree').dataset.size`, uiWait)
	tb.dragPiece("e7", "e8")
	tb.waitJS(`!document.getElementById('promotion').hidden`, "the promotion chooser again", ``, uiWait)
	tb.clickSel(`#promotion [data-promotion="n"]`)
	tb.waitJS(`document.querySelector('#tree .move.current')?.textContent === '1. e8=N'`, "1. e8=N",
		`document.querySelector('#tree .move.current')?.textContent`, uiWait)
	if got := eval[string](tb, `document.getElementById('fen').value`); !strings.HasPrefix(got, "4N3/8/8/8/8/8/k7/4K3 b") {
		tb.fail("FEN %q", got)
	}
}

// TestAnalysisLongGame: the last position of a game longer than a
// request may carry (600 plies; the server reads at most 500 moves, one
// socket message 4,096 bytes) is analysed: the page names it from a FEN
// nearer to it. Before, its path was refused and no line came.
func TestAnalysisLongGame(t *testing.T) {
	moves := longGameMoves(t, 600)
	g := game.NewGame()
	var pgn strings.Builder
	pgn.WriteString("[Event \"long\"]\n\n")
	for i, u := range moves {
		p := g.Position()
		m, err := p.ParseUCI(u)
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			fmt.Fprintf(&pgn, "%d. ", i/2+1)
		}
		pgn.WriteString(p.SAN(m) + " ")
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	pgn.WriteString("*")
	last := g.Position()

	e := newEnv(t)
	tb := e.newTab(t, desktop)
	defer tb.close()
	tb.open("/analysis")
	tb.waitJS(`document.getElementById('board').dataset.ready`, "the start position", ``, uiWait)
	tb.importText(pgn.String())
	tb.waitJS(`document.getElementById('tree').dataset.size === '600'`, "the imported game", `document.getElementById('tree').dataset.size`, uiWait)
	tb.do(chromedp.KeyEvent(kb.End))
	tb.waitJS(`document.querySelectorAll('#engine-lines li').length >= 1 && document.querySelector('#board svg.annotations line[data-hint]')`,
		"the last position's lines", `document.getElementById('engine-state').textContent`, analysisWait)
	if b := tb.board(); b.FEN != "" && strings.Fields(b.FEN)[0] != strings.Fields(last.FEN())[0] {
		t.Errorf("the board shows %s, want the game's end %s", b.FEN, last.FEN())
	}
	hint := eval[string](tb, `document.querySelector('#board svg.annotations line[data-hint]').dataset.hint`)
	if m, err := last.ParseUCI(hint); err != nil || !last.IsLegal(m) {
		t.Errorf("the best move's arrow %q is not a move of the last position %s", hint, last.FEN())
	}
}
