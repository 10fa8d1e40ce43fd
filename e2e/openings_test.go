package e2e

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"knightwatch/game"
	"knightwatch/openings"
)

// openingText is the game page's opening line as shown: "" or "B20
// Sicilian Defense" (the ECO code and the name).
func (tb *tab) openingText() string {
	tb.t.Helper()
	return eval[string](tb, `(document.getElementById('opening-line')?.textContent || '').replace(/\s+/g, ' ').trim()`)
}

// expectedOpenings works out, apart from the page, what the opening line
// should say at each ply: the name of the last named position at or
// before it ("" before the first), from the FENs of the positions.
func expectedOpenings(t *testing.T, fens []string) []string {
	t.Helper()
	out := make([]string, len(fens))
	cur := ""
	for i, fen := range fens {
		p, err := game.ParseFEN(fen)
		if err != nil {
			t.Fatalf("ply %d: %v", i, err)
		}
		if o, ok := openings.Lookup(p); ok {
			cur = o.ECO + " " + o.Name
		}
		out[i] = cur
	}
	return out
}

// TestOpeningName: the game page names the opening as the game goes (1.e4
// is the King's Pawn Game; each later move's name is the last named
// position's), in review mode names the reviewed move's opening, and the
// spectator page shows the same; a phone keeps the name to one line; the
// home page's finished games list names it too.
func TestOpeningName(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.newGame(gameOpts{color: "white", level: "1"})
	if got := tb.openingText(); got != "" {
		t.Errorf("at the start the opening line says %q, want nothing", got)
	}
	fens := []string{tb.board().FEN}
	var live []string // the line after each of the person's moves and the reply
	for i, mv := range [][2]string{{"e2", "e4"}, {"g1", "f3"}, {"f1", "c4"}} {
		tb.clickSquare(mv[0])
		tb.clickSquare(mv[1])
		tb.waitPly(2*i+2, engineWait)
		live = append(live, tb.openingText())
	}
	tb.shot("opening-live")

	// Review from the start with the review buttons: the board's FEN and
	// the line at each ply.
	var shown []string
	tb.clickSel(`[data-nav="first"]`)
	tb.waitJS(`!document.getElementById('back-live').hidden`, "review mode", "", uiWait)
	for ply := 0; ply <= 6; ply++ {
		if ply > 0 {
			tb.clickSel(`[data-nav="next"]`)
		}
		tb.waitJS(fmt.Sprintf(`document.querySelector('#moves button.current')?.dataset.ply === '%d' || (%d === 0 && !document.querySelector('#moves button.current'))`, ply, ply),
			fmt.Sprintf("ply %d shown", ply), "", uiWait)
		if ply > 0 {
			fens = append(fens, tb.board().FEN)
		}
		shown = append(shown, tb.openingText())
		if ply == 1 {
			tb.shot("opening-review-ply1")
		}
	}
	want := expectedOpenings(t, fens)
	for ply := range want {
		if shown[ply] != want[ply] {
			t.Errorf("reviewing ply %d the line says %q, want %q", ply, shown[ply], want[ply])
		}
	}
	if shown[1] != "B00 King's Pawn Game" {
		t.Errorf("after 1.e4 the line says %q, want B00 King's Pawn Game", shown[1])
	}
	for i, got := range live {
		if got != want[2*i+2] {
			t.Errorf("live after ply %d the line said %q, want %q", 2*i+2, got, want[2*i+2])
		}
	}

	// The spectator page names the same opening.
	link := eval[string](tb, `document.getElementById('watch-link')?.value || ''`)
	u, err := url.Parse(link)
	if err != nil || !strings.HasPrefix(u.Path, "/watch/") {
		tb.fail("watch link %q", link)
	}
	sp := e.newTab(t, phone, chromedp.WithNewBrowserContext())
	sp.open(u.Path)
	sp.waitPly(6, uiWait)
	sp.waitJS(`(document.getElementById('opening-line')?.textContent || '') !== ''`, "the spectator's opening line", "", uiWait)
	if got := sp.openingText(); got != want[6] {
		t.Errorf("the spectator's line says %q, want %q", got, want[6])
	}
	sp.shot("opening-spectator-phone")
	// One line on a phone: no wrapping, cut with an ellipsis if need be.
	lines := eval[float64](sp, `(() => { const el = document.getElementById('opening-line');
		const lh = parseFloat(getComputedStyle(el).lineHeight) || 16; return el.getBoundingClientRect().height / lh; })()`)
	if lines > 1.5 {
		t.Errorf("the opening line is %.1f lines tall on a phone, want one", lines)
	}

	// Resigned, the game is in the home page's finished list with the
	// opening it reached.
	tb.resign()
	tb.waitGameOver(uiWait)
	tb.open("/")
	tb.waitJS(`document.querySelector('#finished-games td.opening-col')`, "the finished games' opening column", "", uiWait)
	eval[bool](tb, `(document.getElementById('finished-games').scrollIntoView(), true)`)
	tb.shot("opening-finished-list")
	if got := eval[string](tb, `document.querySelector('#finished-games td.opening-col span').title`); got != want[6] {
		t.Errorf("the finished game's opening is %q in the list, want %q", got, want[6])
	}
}

// TestOpeningNameHiddenInChess960: Chess960 positions have no names; the
// line is not shown.
func TestOpeningNameHiddenInChess960(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.newGame(gameOpts{color: "white", level: "1", variant: "chess960"})
	if !eval[bool](tb, `document.getElementById('opening-line').hidden`) {
		t.Errorf("the opening line shows in a Chess960 game: %q", tb.openingText())
	}
}
