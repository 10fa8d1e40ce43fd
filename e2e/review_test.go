package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// reviewWait bounds the wait for a short game's review: three positions at
// the default budget, on a shared two-core machine.
const reviewWait = 60 * time.Second

// blunderFEN is a start where 1. Qa4?? drops the queen to the rook on a2,
// which even level 1 takes: a blunder the review must mark.
const blunderFEN = "4k3/8/8/8/8/8/r7/3QK3 w - - 0 1"

// reviewView is what the review box shows.
type reviewView struct {
	Status  string   `json:"status"`
	Points  int      `json:"points"`
	Moves   int      `json:"moves"`
	Glyphs  []string `json:"glyphs"`  // per move in the list: its glyph ("" none)
	Titles  []string `json:"titles"`  // per move: its title
	Acc     []string `json:"acc"`     // White's and Black's accuracy figures
	Counts  []string `json:"counts"`  // White's ?! ? ?? then Black's
	Advice  string   `json:"advice"`  // #review-advice's text
	Best    string   `json:"best"`    // its data-best
	Hint    string   `json:"hint"`    // the board's hint arrow (data-hint)
	Current string   `json:"current"` // the move list's current ply
	Graph   string   `json:"graph"`   // the graph's cursor ply
}

func (tb *tab) reviewView() reviewView {
	tb.t.Helper()
	return eval[reviewView](tb, `(() => {
		const box = document.getElementById('review');
		const moves = [...document.querySelectorAll('#moves button[data-ply]')];
		const adv = document.getElementById('review-advice');
		return {
			status: box && !box.hidden ? box.dataset.status : '',
			points: document.querySelectorAll('#eval-graph circle.graph-point').length,
			moves: moves.length,
			glyphs: moves.map((b) => b.querySelector('.glyph')?.textContent || ''),
			titles: moves.map((b) => b.title || ''),
			acc: [...document.querySelectorAll('#review-summary .accuracy')].map((td) => td.textContent.trim()),
			counts: [...document.querySelectorAll('#review-summary td.count')].map((td) => td.textContent.trim()),
			advice: adv && !adv.hidden ? adv.textContent.trim() : '',
			best: adv?.dataset.best || '',
			hint: document.querySelector('#board svg.annotations line[data-hint]')?.dataset.hint || '',
			current: document.querySelector('#moves button.current')?.dataset.ply || '',
			graph: document.getElementById('eval-graph')?.dataset.ply || '',
		};
	})()`)
}

// waitReview waits until the page shows the finished review.
func (tb *tab) waitReview() reviewView {
	tb.t.Helper()
	tb.waitJS(`document.getElementById('review')?.dataset.status === 'done' && document.querySelector('#eval-graph svg circle')`,
		"the review (graph) to show", `[document.getElementById('review')?.dataset.status, document.getElementById('review-status')?.textContent]`, reviewWait)
	return tb.reviewView()
}

// blunderGame plays 1. Qa4?? Rxa4 from blunderFEN and resigns; it returns
// the game's path.
func blunderGame(tb *tab) string {
	tb.t.Helper()
	tb.newGame(gameOpts{color: "white", level: "1", fen: blunderFEN})
	path := tb.gamePath()
	tb.playAndWait("d1", "a4", 2)
	if b := tb.board(); b.Pieces["a4"] != "bR" {
		tb.fail("level 1 did not take the queen: %v", b.Pieces)
	}
	tb.resign()
	tb.waitGameOver(uiWait)
	tb.clickSel(`dialog#game-over button[value=close]`)
	tb.waitJS(`!document.querySelector('dialog#game-over').open`, "the dialog to close", ``, uiWait)
	return path
}

// TestReviewGraph (issue 34): a finished game is reviewed while the page
// is open: the status says where the review stands, then without a reload
// the graph shows one point per position, the blunder 1. Qa4?? is marked
// ?? in the move list with the best move in its title, clicking its point
// goes to that move (board, move list, graph cursor), which shows "Best
// was …" and an arrow on the board; both sides' accuracies and counts
// show. A phone shows the same, and tapping the graph goes to the start;
// the spectator's page shows the review too.
func TestReviewGraph(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	path := blunderGame(tb)
	// Recorded from the moment the game ended: the status words seen.
	seen := eval[string](tb, `document.getElementById('review-status')?.textContent || ''`)
	v := tb.waitReview()
	tb.shot("review-desktop")
	t.Logf("status on ending: %q; review: %+v", seen, v)
	if seen != "" && !strings.HasPrefix(seen, "Analysis: queued") && !strings.HasPrefix(seen, "Analysing… ") {
		t.Errorf("status while the review ran: %q", seen)
	}
	if v.Moves != 2 || v.Points != v.Moves+1 {
		t.Fatalf("%d points in the graph for %d moves, want one per position (%d)", v.Points, v.Moves, v.Moves+1)
	}
	if v.Glyphs[0] != "??" || !strings.HasPrefix(v.Titles[0], "Blunder. Best was ") {
		t.Errorf("1. Qa4: glyph %q, title %q; want ?? and the best move", v.Glyphs[0], v.Titles[0])
	}
	if v.Glyphs[1] != "" {
		t.Errorf("1... Rxa4 marked %q", v.Glyphs[1])
	}
	if len(v.Acc) != 2 || !strings.HasSuffix(v.Acc[0], "%") || !strings.HasSuffix(v.Acc[1], "%") || len(v.Counts) != 6 || v.Counts[2] != "1" {
		t.Errorf("summary: accuracy %v, counts %v (want White's blunders 1)", v.Acc, v.Counts)
	}
	if v.Current != "2" || v.Graph != "2" {
		t.Errorf("the live position: move list at %q, graph at %q", v.Current, v.Graph)
	}

	tb.clickSel(`#eval-graph circle[data-ply="1"]`)
	tb.waitJS(`document.querySelector('#moves button.current')?.dataset.ply === '1'`, "the review at move 1 after clicking its point",
		`document.querySelector('#moves button.current')?.dataset.ply`, uiWait)
	v = tb.reviewView()
	tb.shot("review-blunder")
	if b := tb.board(); b.Pieces["d1"] != "" || b.Pieces["a4"] != "wQ" {
		t.Errorf("the board after clicking ply 1's point: %v", b.Pieces)
	}
	if v.Graph != "1" || !strings.Contains(v.Advice, "Blunder (??)") || !strings.Contains(v.Advice, "Best was "+v.Best) || v.Best == "" {
		t.Errorf("at 1. Qa4: graph %q, advice %q (best %q)", v.Graph, v.Advice, v.Best)
	}
	if v.Hint == "" || !strings.HasPrefix(v.Hint, "d1") {
		t.Errorf("the best move's arrow: %q, want one from d1 (the queen)", v.Hint)
	}
	tb.clickSel(`#eval-graph circle[data-ply="0"]`)
	tb.waitJS(`!document.querySelector('#moves button.current') && document.getElementById('eval-graph').dataset.ply === '0'`,
		"the start position after clicking the first point", `document.getElementById('eval-graph').dataset.ply`, uiWait)
	if h := tb.reviewView().Hint; h != "" {
		t.Errorf("the start position shows the arrow %q", h)
	}

	t.Run("phone", func(t *testing.T) {
		ph := e.newTab(t, phone)
		defer ph.close()
		ph.open(path)
		pv := ph.waitReview()
		ph.shot("review-phone")
		if pv.Points != 3 || pv.Glyphs[0] != "??" {
			t.Errorf("phone: %+v", pv)
		}
		ph.checkNoSideways("the review", "#review")
		ph.clickSel(`#eval-graph circle[data-ply="1"]`)
		ph.waitJS(`document.querySelector('#moves button.current')?.dataset.ply === '1'`, "the review at move 1 after a tap on the graph",
			`document.getElementById('eval-graph').dataset.ply`, uiWait)
		ph.shot("review-phone-blunder")
	})

	t.Run("spectator", func(t *testing.T) {
		link := eval[string](tb, `document.getElementById('watch-link')?.value || ''`)
		sp := e.newTab(t, phone, chromedp.WithNewBrowserContext())
		defer sp.close()
		sp.open(link[strings.Index(link, "/watch/"):])
		sv := sp.waitReview()
		sp.shot("review-spectator")
		if sv.Points != 3 || sv.Glyphs[0] != "??" || len(sv.Acc) != 2 {
			t.Errorf("spectator: %+v", sv)
		}
	})
}

// TestLayoutReview: a finished, reviewed game lays out at every viewport of
// layoutViewports without overlap, the graph, the advice and the accuracy
// table among the measured parts.
func TestLayoutReview(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	path := blunderGame(tb)
	tb.waitReview()
	tb.close()
	// The game page's parts, but the move box (hidden once the game is
	// over), and the review's.
	var keys [][2]string
	for _, k := range gameKeys {
		if k[0] != "move input" {
			keys = append(keys, k)
		}
	}
	keys = append(keys, [2]string{"graph", "#eval-graph"}, [2]string{"advice", "#review-advice"}, [2]string{"accuracy", "#review-summary"})
	for _, vp := range layoutViewports {
		t.Run(vp.name, func(t *testing.T) {
			tb := e.newTab(t, vp)
			defer tb.close()
			tb.open(path)
			tb.waitReview()
			// Move 1, the blunder: the advice at its longest.
			eval[bool](tb, `(document.querySelector('[data-nav="prev"]').click(), true)`)
			tb.waitJS(`document.getElementById('review-advice').dataset.ply === '1'`, "the review at move 1", ``, uiWait)
			tb.settle()
			tb.shot("review")
			tb.checkNoOverlap(keys)
			if g, ok := tb.rectOf("#eval-graph"); !ok || g.W < 150 || g.H < 40 {
				t.Errorf("[%s] the graph is %.0fx%.0f px", vp.name, g.W, g.H)
			}
		})
	}
}
