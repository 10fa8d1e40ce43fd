package e2e

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// tablebaseLine is what #tablebase-line shows: its text, whether it is
// visible, and the values it was made from.
type tablebaseLine struct {
	Text    string `json:"text"`
	Visible bool   `json:"visible"`
	Ply     string `json:"ply"`
	WDL     string `json:"wdl"`
	DTM     string `json:"dtm"`
}

func (tb *tab) tablebaseLine() tablebaseLine {
	tb.t.Helper()
	return eval[tablebaseLine](tb, `(() => { const el = document.getElementById('tablebase-line');
		if (!el) return {text: '', visible: false, ply: '', wdl: '', dtm: ''};
		const r = el.getBoundingClientRect();
		return {text: el.textContent.trim(), visible: !el.hidden && r.width > 0 && r.height > 0,
			ply: el.dataset.ply || '', wdl: el.dataset.wdl || '', dtm: el.dataset.dtm || ''}; })()`)
}

// waitTablebasePly waits until the line shows the values of ply.
func (tb *tab) waitTablebasePly(ply string) tablebaseLine {
	tb.t.Helper()
	tb.waitJS(`(() => { const el = document.getElementById('tablebase-line'); return el && !el.hidden && el.dataset.ply === `+jsq(ply)+`; })()`,
		"#tablebase-line for ply "+ply, `document.getElementById('tablebase-line')?.outerHTML`, uiWait)
	return tb.tablebaseLine()
}

// TestTablebaseReview (issue 36): with `serve --syzygy`, a finished KQvK
// game's review shows the tablebase's verdict for the reviewed position
// ("Tablebase: White wins · N plies to a capture or pawn move"), never
// during the game; opening the finished game again shows it too.
func TestTablebaseReview(t *testing.T) {
	tables, err := filepath.Abs(filepath.Join("..", "syzygy", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, "--syzygy", tables)
	tb := e.newTab(t, desktop)
	tb.newGame(gameOpts{color: "white", level: "1", fen: "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1"})
	path := tb.gamePath()
	tb.playAndWait("a1", "a7", 2)
	tb.do(chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowLeft))
	tb.waitJS(`document.getElementById('board').dataset.fen.startsWith('8/8/8/3k4/8/8/8/Q3K3 w')`, "the start shown",
		`document.getElementById('board').dataset.fen`, uiWait)
	if l := tb.tablebaseLine(); l.Visible || l.Text != "" {
		t.Errorf("during the game, reviewing the start: tablebase line %+v, want nothing", l)
	}
	tb.clickSel(`#back-live`)

	tb.resign()
	tb.waitGameOver(uiWait)
	tb.clickSel(`dialog#game-over button[value=close]`)
	tb.waitJS(`!document.querySelector('dialog#game-over').open`, "the dialog to close", ``, uiWait)
	// The review's graph and table arrive a moment after the end and move
	// the buttons below them: wait for them before clicking (a click aimed
	// before that landed on the move list in CI).
	tb.waitReview()

	// The final position (White to move, resigned) is still a win for White.
	l := tb.waitTablebasePly("2")
	tb.shot("final-position")
	if !strings.HasPrefix(l.Text, "Tablebase: White wins · ") || !strings.HasSuffix(l.Text, " to a capture or pawn move") || l.WDL != "2" {
		t.Errorf("final position: %+v", l)
	}
	// Back one move with the arrow key: Black to move, who loses.
	tb.do(chromedp.KeyEvent(kb.ArrowLeft))
	l = tb.waitTablebasePly("1")
	if !strings.HasPrefix(l.Text, "Tablebase: White wins · ") || l.WDL != "-2" {
		t.Errorf("after 1. Qa7, Black to move: %+v", l)
	}
	// The start position through the « button.
	tb.clickSel(`[data-nav="first"]`)
	l = tb.waitTablebasePly("0")
	if !strings.HasPrefix(l.Text, "Tablebase: White wins · ") || l.WDL != "2" {
		t.Errorf("start position: %+v", l)
	}
	// With the review, the tablebase line and the bar back to the end all
	// shown, the panel's parts still lie one under another: in CI the bar
	// once covered the game's buttons.
	if got := eval[string](tb, `document.getElementById('back-live').textContent`); got != "Reviewing an earlier position · back to the end" {
		t.Errorf("a finished game's bar back to the last position says %q", got)
	}
	tb.shot("start-position")
	tb.checkNoOverlap([][2]string{{"board", "#board"}, {"review", "#review"}, {"moves", "#moves"},
		{"review buttons", ".review-nav"}, {"tablebase line", "#tablebase-line"}, {"back to the end", "#back-live"},
		{"game buttons", `.actions[aria-label="Game actions"]`}, {"own bar", "#player-bottom"}})

	// Opening the finished game later shows the line as well.
	tb.open(path)
	tb.waitBoard()
	tb.waitAttr("#board", "data-status", "over", uiWait)
	l = tb.waitTablebasePly("2")
	if !strings.Contains(l.Text, "Tablebase:") {
		t.Errorf("reopened game: %+v", l)
	}
}

// TestTablebaseReviewWithoutTables: a server without tables shows no
// tablebase line in a finished game's review, and the page logs no error.
func TestTablebaseReviewWithoutTables(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.newGame(gameOpts{color: "white", level: "1", fen: "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1"})
	tb.resign()
	tb.waitGameOver(uiWait)
	tb.clickSel(`dialog#game-over button[value=close]`)
	tb.waitReview() // it moves the buttons below it when it arrives
	tb.clickSel(`[data-nav="first"]`)
	tb.waitJS(`document.getElementById('board').dataset.fen.startsWith('8/8/8/3k4/8/8/8/Q3K3 w') &&
		performance.getEntriesByType('resource').some(e => e.name.includes('/tablebase'))`, "the start shown, the server's answer on tables in",
		`document.getElementById('board').dataset.fen`, uiWait)
	if l := tb.tablebaseLine(); l.Visible || l.Text != "" {
		t.Errorf("without tables: tablebase line %+v, want nothing", l)
	}
	tb.log.mu.Lock()
	defer tb.log.mu.Unlock()
	for _, m := range tb.log.errs {
		if strings.Contains(m, "tablebase") {
			t.Errorf("console: %s", m)
		}
	}
}

// TestTablebaseReviewGaviota (issue 48): with `serve --gaviota` beside
// --syzygy, a finished KQK game's review says how far mate is after the
// Syzygy verdict ("… · White mates in N", N the moves of the side that
// mates: (|DTM|+1)/2 of the DTM in plies the line carries); with Gaviota's
// tables alone, the line says only that ("Tablebase: White mates in N").
// Debian's tables are where scripts/deps.sh installs them.
func TestTablebaseReviewGaviota(t *testing.T) {
	syz, err := filepath.Abs(filepath.Join("..", "syzygy", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	const gtb = "/usr/share/gaviotatb/gtb4"
	for _, c := range []struct {
		name   string
		args   []string
		prefix string
	}{
		{"both", []string{"--syzygy", syz, "--gaviota", gtb}, "Tablebase: White wins · "},
		{"gaviota-alone", []string{"--gaviota", gtb}, "Tablebase: White mates in "},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, c.args...)
			tb := e.newTab(t, desktop)
			tb.newGame(gameOpts{color: "white", level: "1", fen: "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1"})
			tb.playAndWait("a1", "a7", 2)
			tb.resign()
			tb.waitGameOver(uiWait)
			tb.clickSel(`dialog#game-over button[value=close]`)
			tb.waitJS(`!document.querySelector('dialog#game-over').open`, "the dialog to close", ``, uiWait)
			tb.waitReview() // it moves the buttons below it when it arrives
			for _, ply := range []string{"2", "1"} {
				if ply == "1" {
					tb.clickSel(`[data-nav="prev"]`)
				}
				l := tb.waitTablebasePly(ply)
				tb.shot("ply-" + ply)
				dtm, err := strconv.Atoi(l.DTM)
				if err != nil || dtm == 0 {
					t.Fatalf("ply %s: %+v, want a DTM", ply, l)
				}
				want := fmt.Sprintf("White mates in %d", (max(dtm, -dtm)+1)/2)
				if !strings.HasPrefix(l.Text, c.prefix) || !strings.HasSuffix(l.Text, want) || (l.WDL != "") != (c.name == "both") {
					t.Errorf("ply %s: %+v, want %q … %q", ply, l, c.prefix, want)
				}
			}
		})
	}
}
