package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// learnWait bounds a tried move's check (one search of the review's
// budget, as the player's work) and the generator's search of a short
// game, on a shared two-core machine.
const learnWait = 60 * time.Second

// learnView is what the learn page shows.
type learnView struct {
	State    string `json:"state"`
	Current  string `json:"current"`
	Results  string `json:"results"`
	Progress string `json:"progress"`
	Said     string `json:"said"`
	Verdict  string `json:"verdict"`
	Words    string `json:"words"`
}

func (tb *tab) learnView() learnView {
	tb.t.Helper()
	return eval[learnView](tb, `(() => {
		const m = document.getElementById('main');
		const v = document.getElementById('learn-verdict');
		return {state: m.dataset.state || '', current: m.dataset.current || '', results: m.dataset.results || '',
			progress: document.getElementById('learn-progress').textContent, said: document.getElementById('learn-said').textContent,
			verdict: v.dataset.verdict || '', words: v.textContent};
	})()`)
}

// TestLearnFromMistakes (issue 47): from a reviewed game, "Learn from your
// mistakes" goes to the player's blunder 1. Qa4+??, says what happened,
// refuses a move that loses the queen too (the player may retry), keeps
// the session across a reload, accepts the review's best move, and ends
// the session with a summary that a later visit shows again; on a phone,
// started again, the solution shown is counted as such. A game without
// the player's mistakes offers no learning.
func TestLearnFromMistakes(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	blunderGame(tb)
	v := tb.waitReview()
	tb.clickSel(`#moves button[data-ply="1"]`)
	tb.waitJS(`document.getElementById('review-advice').dataset.ply === '1'`, "the review at move 1", ``, uiWait)
	best := tb.reviewView().Hint
	if len(best) < 4 {
		t.Fatalf("no best move in the review at the blunder: %+v", v)
	}
	tb.waitJS(`!document.getElementById('learn-link').hidden`, "the learn link once reviewed", ``, uiWait)
	tb.clickSel(`#learn-link a`)
	tb.waitJS(`document.getElementById('main')?.dataset.state === 'playing'`, "the learn page's first position",
		`document.getElementById('main')?.outerHTML.slice(0, 300)`, uiWait)
	learnPath := eval[string](tb, `location.pathname`)
	lv := tb.learnView()
	tb.shot("learn-start")
	if lv.Progress != "Mistake 1 of 1" || lv.Said != "You played Qa4+ and lost your queen." || lv.Current != "0" {
		t.Errorf("the first position: %+v", lv)
	}
	if b := tb.board(); b.Pieces["d1"] != "wQ" || b.Orientation != "white" {
		t.Errorf("the board at the blunder: %+v", b)
	}

	// Qd8+ loses the queen to the king: not good enough, try again.
	tb.clickSquare("d1")
	tb.clickSquare("d8")
	tb.waitJS(`document.getElementById('learn-verdict').dataset.verdict === 'bad'`, "the verdict on Qd8+",
		`document.getElementById('learn-verdict').textContent`, learnWait)
	lv = tb.learnView()
	tb.shot("learn-bad")
	if !strings.Contains(lv.Words, "not good enough") || lv.State != "playing" {
		t.Errorf("after Qd8+: %+v", lv)
	}

	// Come back later: the same position, nothing done yet.
	tb.open(learnPath)
	tb.waitJS(`document.getElementById('main')?.dataset.state === 'playing'`, "the learn page again", ``, uiWait)
	if lv := tb.learnView(); lv.Current != "0" || lv.Results != "." {
		t.Errorf("resumed: %+v", lv)
	}

	tb.clickSquare(best[:2])
	tb.clickSquare(best[2:4])
	tb.waitJS(`document.getElementById('main').dataset.state === 'answered'`, "the verdict on the best move",
		`document.getElementById('learn-verdict').textContent`, learnWait)
	if lv := tb.learnView(); lv.Verdict != "good" {
		t.Errorf("the best move %s: %+v", best, lv)
	}
	if h := eval[string](tb, `document.querySelector('#board svg.annotations line[data-hint]')?.dataset.hint || ''`); h != best {
		t.Errorf("the arrow after the best move: %q, want %q", h, best)
	}
	tb.clickSel(`[data-learn="next"]`)
	tb.waitJS(`document.getElementById('main').dataset.state === 'done'`, "the end of the session", ``, uiWait)
	lv = tb.learnView()
	tb.shot("learn-done")
	if lv.Results != "s" || !strings.HasPrefix(lv.Progress, "Done: 1 of 1. Found 1") {
		t.Errorf("the end: %+v", lv)
	}
	tb.open(learnPath)
	tb.waitJS(`document.getElementById('main')?.dataset.state === 'done'`, "the finished session on a later visit", ``, uiWait)

	// Again, on a phone, asking for the solution this time.
	ph := e.newTab(t, phone)
	defer ph.close()
	ph.open(learnPath)
	ph.waitJS(`document.getElementById('main')?.dataset.state === 'done'`, "the finished session on the phone", ``, uiWait)
	ph.clickSel(`[data-learn="restart"]`)
	ph.waitJS(`document.getElementById('main').dataset.state === 'playing'`, "the session started again", ``, uiWait)
	ph.checkNoSideways("the learn page", "#main")
	ph.clickSel(`[data-learn="solution"]`)
	ph.waitJS(`document.getElementById('main').dataset.state === 'answered'`, "the solution", ``, uiWait)
	if lv := ph.learnView(); lv.Verdict != "shown" || !strings.HasPrefix(lv.Words, "The best move was ") {
		t.Errorf("the solution shown: %+v", lv)
	}
	ph.shot("learn-solution-phone")
	ph.clickSel(`[data-learn="next"]`)
	ph.waitJS(`document.getElementById('main').dataset.state === 'done'`, "the end again", ``, uiWait)
	if lv := ph.learnView(); lv.Results != "r" || !strings.Contains(lv.Progress, "solution shown 1") {
		t.Errorf("the end, the solution shown: %+v", lv)
	}
	// A game the player won without a mistake offers nothing to learn.
	mateInOne(tb)
	tb.waitReview()
	if !eval[bool](tb, `document.getElementById('learn-link').hidden`) {
		t.Error("the learn link shows for a game without the player's mistakes")
	}
}

// puzzleView is what the puzzle page shows.
type puzzleView struct {
	ID       string `json:"id"`
	State    string `json:"state"`
	Solver   string `json:"solver"`
	Result   string `json:"result"`
	Solution string `json:"solution"`
	Change   string `json:"change"`
	Game     string `json:"game"`
	Rating   string `json:"rating"`
}

func (tb *tab) puzzleView() puzzleView {
	tb.t.Helper()
	return eval[puzzleView](tb, `(() => {
		const m = document.getElementById('main');
		const r = document.getElementById('puzzle-result');
		return {id: m.dataset.puzzleId || '', state: m.dataset.state || '', solver: m.dataset.solver || '',
			result: r && !r.hidden ? r.textContent : '', solution: r?.dataset.solution || '', change: r?.dataset.change || '',
			game: document.getElementById('puzzle-game')?.getAttribute('href') || '', rating: document.getElementById('player-rating').textContent};
	})()`)
}

// openPuzzle opens /puzzles and waits for a puzzle to play (the page
// without one moves on by itself once the generator has found one).
func (tb *tab) openPuzzle() puzzleView {
	tb.t.Helper()
	tb.open("/puzzles")
	tb.waitJS(`document.getElementById('main')?.dataset.state === 'playing'`, "a puzzle to play",
		`location.href + ' ' + (document.getElementById('no-puzzle')?.textContent || '')`, learnWait)
	return tb.puzzleView()
}

// TestPuzzleFailedAndSolved (issue 47): the blunder game's review gives
// the generator its puzzle (Black's Rxa4, the only winning move). Its
// player fails it (Kf8): the solution shows and their rating falls;
// "Next puzzle" says there is none left for them, the puzzle opened again
// says a try no longer counts, and "From this game" opens the game at the
// puzzle's position. A player in another browser solves it: their rating
// rises; each page links the game it came from (the owner's page, the
// other's spectator link).
func TestPuzzleFailedAndSolved(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	path := blunderGame(tb)
	pv := tb.openPuzzle()
	tb.shot("puzzle-start")
	if pv.Solver != "black" || pv.Game != path+"#ply=1" {
		t.Errorf("the owner's puzzle: %+v (the game %s)", pv, path)
	}
	if b := tb.board(); b.Orientation != "black" || b.Pieces["a4"] != "wQ" {
		t.Errorf("the puzzle's board: %+v", b)
	}
	tb.clickSquare("e8")
	tb.clickSquare("f8")
	tb.waitJS(`document.getElementById('main').dataset.state === 'failed'`, "the failed puzzle", ``, uiWait)
	pv = tb.puzzleView()
	tb.shot("puzzle-failed")
	if !strings.HasPrefix(pv.Result, "Puzzle failed. Your rating: 1500 → ") || pv.Solution != "a2a4" || !strings.HasPrefix(pv.Change, "-") {
		t.Errorf("failed: %+v", pv)
	}
	// The solution on the board: the start again, its move as an arrow,
	// said once; the facts count the try (the puzzle won it: it rises).
	facts := eval[struct{ Verdict, Turn, Plays, Rating string }](tb, `({verdict: document.getElementById('puzzle-verdict').textContent, turn: document.getElementById('puzzle-turn').textContent,
		plays: document.getElementById('puzzle-plays').textContent, rating: document.getElementById('puzzle-rating').textContent})`)
	if r, err := strconv.Atoi(facts.Rating); facts.Verdict != "That is not the move." || !strings.HasPrefix(facts.Turn, "The solution is on the board") || facts.Plays != "1 time" || err != nil || r <= 1500 {
		t.Errorf("after the failure: %+v", facts)
	}
	if n := eval[int](tb, `document.querySelectorAll('#board [data-hint="a2a4"]').length`); n != 1 {
		t.Errorf("the solution's arrow a2a4: %d drawn", n)
	}
	if b := tb.board(); b.Pieces["a4"] != "wQ" || b.Pieces["a2"] != "bR" {
		t.Errorf("the failed puzzle's board is not its start: %+v", b.Pieces)
	}
	tb.clickSel(`[data-puzzle="replay"]`)
	tb.waitJS(`document.getElementById('main').dataset.replayed === '1'`, "the solution played", ``, uiWait)
	if b := tb.board(); b.Pieces["a4"] != "bR" || eval[int](tb, `document.querySelectorAll('#board [data-hint]').length`) != 0 {
		t.Errorf("after the solution played: %+v", b.Pieces)
	}

	// Next: none left for this player, said in words.
	tb.clickSel(`#next-puzzle`)
	tb.waitJS(`document.getElementById('no-puzzle')?.textContent.includes('You have tried every puzzle there is (1)')`, "no next puzzle",
		`document.body.innerText.slice(0, 200)`, uiWait)
	tb.open("/puzzles/" + pv.ID)
	tb.waitJS(`document.getElementById('main')?.dataset.state === 'playing' && !!document.getElementById('puzzle-tried')`, "the puzzle again, marked tried", ``, uiWait)

	// The game it came from, at the puzzle's position (after 1. Qa4+).
	tb.clickSel(`#puzzle-game`)
	tb.waitJS(`document.querySelector('#moves button.current')?.dataset.ply === '1'`, "the game at the puzzle's position",
		`location.href + ' ' + document.querySelector('#moves button.current')?.dataset.ply`, uiWait)

	other := e.newTab(t, desktop, chromedp.WithNewBrowserContext())
	defer other.close()
	ov := other.openPuzzle()
	if ov.ID != pv.ID || !strings.HasPrefix(ov.Game, "/watch/") {
		t.Errorf("another player's puzzle: %+v", ov)
	}
	other.clickSquare("a2")
	other.clickSquare("a4")
	other.waitJS(`document.getElementById('main').dataset.state === 'solved'`, "the solved puzzle", `document.getElementById('puzzle-verdict').textContent`, uiWait)
	ov = other.puzzleView()
	other.shot("puzzle-solved")
	if !strings.HasPrefix(ov.Result, "Puzzle solved. Your rating: 1500 → ") || ov.Change == "" || strings.HasPrefix(ov.Change, "-") || ov.Rating == "1500" {
		t.Errorf("solved: %+v", ov)
	}
}
