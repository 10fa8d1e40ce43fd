package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// reconWait is how long the random bot may take to reply (it answers at
// once; the rest is the page).
const reconWait = 15 * time.Second

// newRecon fills form#new-game for a Reconnaissance Chess game and waits
// for its board (web/PROTOCOL.md's recon hooks).
func (tb *tab) newRecon(color, opponent, clock string) {
	tb.t.Helper()
	tb.open("/")
	tb.waitJS(`document.querySelector('form#new-game')`, "form#new-game", `document.body.innerText.slice(0, 300)`, uiWait)
	missing := eval[string](tb, fmt.Sprintf(`(() => {
		const f = document.querySelector('form#new-game');
		const want = {variant: 'recon', color: %s, opponent: %s, clock: %s};
		const bad = [];
		for (const [k, v] of Object.entries(want)) {
			const el = f.elements.namedItem(k);
			if (!el) { bad.push(k + ' (no field)'); continue; }
			el.value = v;
			if (el.value !== v) bad.push(k + '=' + v);
			const items = el instanceof RadioNodeList ? [...el] : [el];
			for (const i of items) i.dispatchEvent(new Event('change', {bubbles: true}));
		}
		return bad.join(', ');
	})()`, jsq(color), jsq(opponent), jsq(clock)))
	if missing != "" {
		tb.fail("form#new-game: could not set %s", missing)
	}
	tb.shot("recon-form")
	tb.clickSel(`form#new-game button[type=submit]`)
	tb.waitJS(`/\/game\/r_/.test(location.pathname) && document.querySelector('#board[data-variant="recon"]')?.getAttribute('data-seq') !== null`,
		"the Reconnaissance game page", `location.href + ' ' + document.body.innerText.slice(0, 300)`, uiWait)
}

// phase is the board's data-phase.
func (tb *tab) phase() string {
	return eval[string](tb, `document.getElementById('board').getAttribute('data-phase') || ''`)
}

// waitMyPhase waits until it is the person's sense or move phase, or the end.
func (tb *tab) waitMyPhase() string {
	tb.t.Helper()
	tb.waitJS(`['sense', 'move', 'over'].includes(document.getElementById('board').getAttribute('data-phase'))`,
		"the person's phase or the end", `document.getElementById('board').getAttribute('data-phase')`, reconWait)
	return tb.phase()
}

// seq is the board's data-seq: actions played so far.
func (tb *tab) seq() int {
	n, _ := strconv.Atoi(eval[string](tb, `document.getElementById('board').getAttribute('data-seq') || '0'`))
	return n
}

// senseAt senses around sq: a click, or on a touch screen a tap to show the
// window and a second tap to sense.
func (tb *tab) senseAt(sq string) {
	tb.t.Helper()
	before := tb.seq()
	x, y := tb.squareCenter(sq)
	if tb.vp.touch {
		tb.press(x, y)
		tb.waitJS(fmt.Sprintf(`document.querySelector('#board [data-square=%s]').classList.contains('sense-window')`, jsq(sq)),
			"the sense window after the first tap", "", uiWait)
	}
	tb.press(x, y)
	tb.waitJS(fmt.Sprintf(`+document.getElementById('board').getAttribute('data-seq') > %d`, before), "the sense to be played",
		`document.querySelector('[data-recon-result]').textContent`, uiWait)
}

// tryMove clicks from, and then to if the board offers it; it reports
// whether the move was requested.
func (tb *tab) tryMove(from, to string) bool {
	tb.t.Helper()
	own := eval[string](tb, fmt.Sprintf(`document.querySelector('#board [data-square=%s] [data-piece]:not([data-seen])')?.getAttribute('data-piece') || ''`, jsq(from)))
	if own == "" {
		return false
	}
	tb.clickSquare(from)
	offered := eval[bool](tb, fmt.Sprintf(`!!document.querySelector('#board [data-square=%s] .dest')`, jsq(to)))
	if !offered {
		tb.clickSquare(from) // put it down again
		return false
	}
	before := tb.seq()
	tb.clickSquare(to)
	if !eval[bool](tb, `document.getElementById('promotion').hidden`) {
		tb.clickSel(`#promotion [data-promotion="q"]`)
	}
	tb.waitJS(fmt.Sprintf(`+document.getElementById('board').getAttribute('data-seq') > %d`, before), "the move to be played",
		`document.querySelector('[data-recon-result]').textContent`, uiWait)
	return true
}

// tryLongSliderMove moves one of White's queens, rooks or bishops as far
// into Black's half as the board offers; it reports whether it moved.
func (tb *tab) tryLongSliderMove() bool {
	tb.t.Helper()
	sliders := eval[[]string](tb, `[...document.querySelectorAll('#board [data-piece="wQ"]:not([data-seen]), #board [data-piece="wR"]:not([data-seen]), #board [data-piece="wB"]:not([data-seen])')].map(p => p.closest('[data-square]').dataset.square)`)
	for _, from := range sliders {
		tb.clickSquare(from)
		to := eval[string](tb, fmt.Sprintf(`(() => { const f = %s; let best = '', far = 0;
			for (const d of document.querySelectorAll('#board .dest')) { const sq = d.closest('[data-square]').dataset.square;
				const dist = Math.max(Math.abs(sq.charCodeAt(0) - f.charCodeAt(0)), Math.abs(+sq[1] - +f[1]));
				if (+sq[1] >= 6 && dist > far) { far = dist; best = sq; } }
			return best; })()`, jsq(from)))
		tb.clickSquare(from) // put it down again
		if to != "" && tb.tryMove(from, to) {
			return true
		}
	}
	return false
}

func (tb *tab) resultText() string {
	return eval[string](tb, `document.querySelector('[data-recon-result]').textContent`)
}

// TestReconGameByClicks plays a whole game against the random bot with the
// mouse: senses, a pass, a queen sent through the enemy's pieces (which the
// rules stop on the first piece in the way: a revised move and a capture),
// then for the king; the end shows the true board.
func TestReconGameByClicks(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.newRecon("white", "random", "none")
	if got := tb.waitMyPhase(); got != "sense" {
		t.Fatalf("first phase %q, want sense", got)
	}
	own := eval[int](tb, `document.querySelectorAll('#board [data-piece]:not([data-seen])').length`)
	enemy := eval[int](tb, `document.querySelectorAll('#board [data-piece^="b"]').length`)
	if own != 16 || enemy != 0 {
		t.Errorf("at the start: %d own pieces and %d black pieces drawn, want 16 and 0", own, enemy)
	}
	tb.shot("start")
	// Turn 1: sense the opponent's king side, then pass.
	tb.senseAt("f7")
	if got := tb.phase(); got != "move" {
		t.Fatalf("after the sense: phase %q", got)
	}
	seen := eval[int](tb, `document.querySelectorAll('#board [data-piece][data-seen="now"]').length`)
	if seen != 6 { // e8, f8, g8, e7, f7, g7 hold black pieces at the start
		t.Errorf("the sense around f7 shows %d black pieces, want 6 (e8, f8, g8, e7, f7, g7)", seen)
	}
	if r := tb.resultText(); !strings.Contains(r, "You sensed around f7") {
		t.Errorf("words after the sense: %q", r)
	}
	tb.shot("after-sense")
	before := tb.seq()
	tb.clickAction("pass")
	tb.waitJS(fmt.Sprintf(`+document.getElementById('board').getAttribute('data-seq') > %d`, before), "the pass", "", uiWait)
	if r := tb.resultText(); !strings.Contains(r, "passed") {
		t.Errorf("words after the pass: %q", r)
	}
	// Then the plan of reconPlan. A random opponent may open the way to
	// its king before any of it happens (Qh5-e8 once f7 has moved takes the
	// king at once), so a game that ends without both a revised move and a
	// capture is followed by another, up to four.
	revised, captured, over := playReconPlan(tb)
	for game := 2; game <= 4 && !(revised && captured); game++ {
		t.Logf("game %d: the last ended %s (%s) before a revised move and a capture were both seen", game, over.Result, over.Reason)
		tb.newRecon("white", "random", "none")
		r, c, o := playReconPlan(tb)
		revised, captured, over = revised || r, captured || c, o
	}
	tb.shot("game-over")
	if !revised || !captured {
		t.Errorf("saw a revised move: %v, a capture: %v", revised, captured)
	}
	b := tb.board()
	if b.Status != "over" || b.FEN == "" {
		t.Fatalf("after the end: status %q, data-fen %q", b.Status, b.FEN)
	}
	tb.checkDrawn(b) // the true board, every piece
	t.Logf("result %s: %s", over.Result, over.Reason)
	// The end is said once beside the board (the dialog and the screen
	// reader's announcer say it too), and a king's capture is said with its
	// move, which the board marks.
	said := eval[string](tb, `document.querySelector('dialog#game-over [data-reason]').textContent`)
	outside := eval[string](tb, `(() => { const m = document.querySelector('main').cloneNode(true); for (const x of m.querySelectorAll('dialog, .sr-only')) x.remove(); return m.textContent; })()`)
	if n := strings.Count(outside, said); said == "" || n != 1 {
		t.Errorf("the end %q is said %d times beside the board", said, n)
	}
	if over.Reason == "KING_CAPTURE" {
		if !strings.Contains(said, " with ") {
			t.Errorf("the end %q does not name the capturing move", said)
		}
		if n := eval[int](tb, `document.querySelectorAll('#board .last').length`); n != 2 {
			t.Errorf("the capturing move marks %d squares", n)
		}
	}
	// The replay link opens the replay of this game.
	href := eval[string](tb, `document.querySelector('dialog#game-over [data-action="replay"]').getAttribute('href')`)
	if !strings.HasSuffix(href, "/replay") {
		t.Fatalf("replay link %q", href)
	}
	tb.open(href)
	tb.waitJS(`document.querySelector('main.replay-page')?.dataset.step === '0'`, "the replay viewer", `document.body.innerText.slice(0, 200)`, uiWait)
}

// playReconPlan plays White's turns of one game from its current phase:
// e4, Qh5, Qh5-e8 through f7 (stopped on the first piece in the way: a
// revised move and a capture), then anything onto e8; when none of these is
// offered, a long slider move into the enemy's half (which the rules stop
// on an unseen piece now and then); a pass when nothing is offered at all.
// Once both a revised move and a capture have been seen (or after 80 turns)
// the game ends by resignation if the king has not fallen. It reports what
// it saw and how the game ended.
func playReconPlan(tb *tab) (revised, captured bool, over gameOver) {
	tb.t.Helper()
	plan := [][2]string{{"f7", "e8"}, {"g6", "e8"}, {"h5", "e8"}, {"d1", "h5"}, {"e2", "e4"}}
	for turn := 0; turn < 80 && !(revised && captured && turn > 8); turn++ {
		ph := tb.waitMyPhase()
		if ph == "over" {
			break
		}
		if ph == "sense" {
			tb.senseAt("e7")
			continue
		}
		moved := false
		for _, m := range plan {
			if tb.tryMove(m[0], m[1]) {
				moved = true
				break
			}
		}
		if !moved {
			moved = tb.tryLongSliderMove()
		}
		if !moved {
			before := tb.seq()
			tb.clickAction("pass")
			tb.waitJS(fmt.Sprintf(`+document.getElementById('board').getAttribute('data-seq') > %d`, before), "a pass", "", uiWait)
		}
		r := tb.resultText()
		if strings.Contains(r, "the move taken was") && !revised {
			revised = true
			tb.shot("revised-move")
		}
		if strings.Contains(r, "You captured") {
			captured = true
		}
	}
	if tb.phase() != "over" {
		tb.resign()
	}
	return revised, captured, tb.waitGameOver(reconWait)
}

// TestReconResumeInNewTab opens a game in a second tab in the middle of a
// sense phase and plays on there.
func TestReconResumeInNewTab(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.newRecon("black", "random", "15+5")
	if got := tb.waitMyPhase(); got != "sense" {
		t.Fatalf("Black's first phase %q, want sense (after White's turn)", got)
	}
	url := tb.location()
	seq := tb.seq()
	// A note on d4: right-click cycles black pawn, knight, ...
	x, y := tb.squareCenter("d4")
	for i := 0; i < 2; i++ {
		tb.do(chromedp.MouseClickXY(x, y, chromedp.ButtonType("right")))
	}
	tb.waitJS(`document.querySelector('#board [data-square="d4"] [data-marker]')?.dataset.marker === 'wN'`, "a white knight note on d4",
		`document.querySelector('#board [data-square="d4"]').outerHTML`, uiWait)
	tb.shot("before-close")
	tb.close()

	tb2 := e.newTab(t, desktop)
	tb2.open(strings.TrimPrefix(url, e.srv.URL()))
	if got := tb2.waitMyPhase(); got != "sense" || tb2.seq() != seq {
		t.Fatalf("resumed in phase %q at action %d, want sense at %d", got, tb2.seq(), seq)
	}
	if m := eval[string](tb2, `document.querySelector('#board [data-square="d4"] [data-marker]')?.dataset.marker || ''`); m != "wN" {
		t.Errorf("the note on d4 after reopening: %q, want wN", m)
	}
	clock := eval[string](tb2, `document.querySelector('#player-bottom .clock').textContent`)
	if !strings.HasPrefix(clock, "14:") && !strings.HasPrefix(clock, "15:") {
		t.Errorf("resumed clock %q", clock)
	}
	tb2.shot("resumed")
	tb2.senseAt("d2")
	if got := tb2.phase(); got != "move" {
		t.Errorf("after sensing in the resumed tab: phase %q", got)
	}
	if !tb2.tryMove("e7", "e5") && !tb2.tryMove("d7", "d5") {
		t.Fatal("no pawn move offered")
	}
	tb2.waitMyPhase()
	tb2.shot("played-on")
}

// TestReconReplayUpload uploads a fixture written by the reference and
// steps through it with the buttons and the arrow keys, on the true board
// and as White saw it (the true board only at the end).
func TestReconReplayUpload(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.open("/replay")
	path, err := filepath.Abs(filepath.Join("..", "recon", "testdata", "fixtures", "random_seed2.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	tb.do(chromedp.SetUploadFiles(chromedp.CSS(`input[type=file][name=history]`), []string{path}))
	tb.clickSel(`.replay-upload button[type=submit]`)
	tb.waitJS(`document.querySelector('main.replay-page')?.dataset.step === '0'`, "the replay viewer", `document.body.innerText.slice(0, 300)`, uiWait)
	if c := eval[string](tb, `document.getElementById('replay-check').textContent`); !strings.Contains(c, "replays all 46 turns") {
		t.Errorf("check line %q", c)
	}
	step := func() int {
		n, _ := strconv.Atoi(eval[string](tb, `document.querySelector('main.replay-page').dataset.step`))
		return n
	}
	tb.clickSel(`[data-nav="next"]`)
	tb.clickSel(`[data-nav="next"]`) // white's first sense, then its move g2g3
	if s := step(); s != 2 {
		t.Fatalf("after two clicks on next: step %d", s)
	}
	if b := tb.board(); fenSquares(b.FEN)["g3"] != "wP" || b.Pieces["g3"] != "wP" {
		t.Errorf("after White's first move the board shows g3=%q (fen %s)", b.Pieces["g3"], b.FEN)
	}
	tb.shot("replay-step-2")
	tb.do(chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight))
	if s := step(); s != 4 {
		t.Errorf("after two right arrows: step %d", s)
	}
	tb.do(chromedp.KeyEvent(kb.ArrowLeft))
	if s := step(); s != 3 {
		t.Errorf("after a left arrow: step %d", s)
	}
	tb.clickSel(`[data-nav="last"]`)
	tb.clickSel(`input[name="view"][value="white"] + span`)
	// The last step tells everything: the true board.
	if black := eval[int](tb, `document.querySelectorAll('#board [data-piece^="b"]:not([data-seen])').length`); black == 0 {
		t.Errorf("White's view of the end draws no black piece")
	}
	tb.shot("replay-white-view-end")
	tb.clickSel(`[data-nav="prev"]`)
	black := eval[int](tb, `document.querySelectorAll('#board [data-piece^="b"]:not([data-seen])').length`)
	if black != 0 {
		t.Errorf("White's view before the end draws %d black pieces that White did not see", black)
	}
	tb.clickSel(`[data-nav="first"]`)
	if s := step(); s != 0 {
		t.Errorf("after first: step %d", s)
	}
}

// TestReconPhone senses by tap-tap and moves by taps on a phone, and checks
// the board fits the screen.
func TestReconPhone(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, phone)
	tb.newRecon("white", "random", "none")
	tb.waitMyPhase()
	l := tb.layout()
	tb.checkFits(l)
	tb.senseAt("d7")
	tb.shot("phone-after-sense")
	if !tb.tryMove("e2", "e4") {
		t.Fatal("e2e4 not offered")
	}
	tb.waitMyPhase()
	tb.shot("phone-after-move")
}

// TestReconKill9 kills the server with SIGKILL after the person's sense
// and checks that the reloaded page stands in the move phase with the same
// sense result, and plays on.
func TestReconKill9(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.newRecon("white", "random", "15+5")
	tb.waitMyPhase()
	tb.senseAt("e7")
	seen := eval[string](tb, `[...document.querySelectorAll('#board [data-seen="now"]')].map(p => p.closest('[data-square]').dataset.square + p.dataset.piece).sort().join(' ')`)
	url := tb.location()
	if err := e.srv.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.Start(); err != nil {
		t.Fatal(err)
	}
	tb.open(strings.TrimPrefix(url, e.srv.URL()))
	if got := tb.waitMyPhase(); got != "move" {
		t.Fatalf("after kill -9: phase %q, want move", got)
	}
	again := eval[string](tb, `[...document.querySelectorAll('#board [data-seen="now"]')].map(p => p.closest('[data-square]').dataset.square + p.dataset.piece).sort().join(' ')`)
	if again != seen || seen == "" {
		t.Errorf("sense result after kill -9: %q, before: %q", again, seen)
	}
	tb.shot("after-kill9")
	if !tb.tryMove("e2", "e4") {
		t.Fatal("e2e4 not offered after the restart")
	}
	tb.waitMyPhase()
}

// TestReconViewports checks the Reconnaissance board fits every screen,
// the page does not scroll sideways, and keeps screenshots of each.
func TestReconViewports(t *testing.T) {
	e := newEnv(t)
	for _, vp := range []viewport{desktop, tabletLand, tabletPortrait, phone} {
		t.Run(vp.name, func(t *testing.T) {
			tb := e.newTab(t, vp)
			defer tb.close()
			tb.newRecon("white", "random", "15+5")
			tb.waitMyPhase()
			tb.senseAt("e7")
			tb.checkNoSideways("recon page", "#board")
			tb.checkFits(tb.layout())
			tb.shot("recon-move-phase")
			for _, sel := range []string{`[data-action="pass"]`, `[data-recon-result]`, `#player-bottom .clock`} {
				r, ok := tb.rectOf(sel)
				if !ok || r.W == 0 || r.H == 0 || r.X < 0 || r.X+r.W > float64(vp.width)+1 {
					t.Errorf("[%s] %s is not fully on screen: %+v", vp.name, sel, r)
				}
			}
		})
	}
}

// TestReconReplayPlayAndLink checks what a replay adds to stepping: the
// last step says how the game ended, autoplay steps on by itself at the
// chosen speed and pauses, the address keeps the step and the view (and a
// changed address shows its step), and Black's view marks none of White's
// senses or moves.
func TestReconReplayPlayAndLink(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.open("/replay")
	path, err := filepath.Abs(filepath.Join("..", "recon", "testdata", "fixtures", "random_seed2.json"))
	if err != nil {
		t.Fatal(err)
	}
	tb.do(chromedp.SetUploadFiles(chromedp.CSS(`input[type=file][name=history]`), []string{path}))
	tb.clickSel(`.replay-upload button[type=submit]`)
	tb.waitJS(`document.querySelector('main.replay-page')?.dataset.step === '0'`, "the replay viewer", `document.body.innerText.slice(0, 300)`, uiWait)
	step := func() int {
		n, _ := strconv.Atoi(eval[string](tb, `document.querySelector('main.replay-page').dataset.step`))
		return n
	}
	tb.do(chromedp.KeyEvent(kb.End))
	if line := eval[string](tb, `document.getElementById('step-line').textContent`); !strings.Contains(line, "Black captured the king with Bxf2.") {
		t.Errorf("last step says %q", line)
	}
	if last := eval[string](tb, `[...document.querySelectorAll('#board .last')].map((e) => e.dataset.square).sort().join(' ')`); last != "f2 g3" {
		t.Errorf("last step marks %q, want the king's capture g3f2", last)
	}
	tb.shot("replay-result")
	tb.do(chromedp.KeyEvent(kb.Home))
	if s := step(); s != 0 {
		t.Errorf("after Home: step %d", s)
	}

	// Autoplay at the fastest speed, then pause.
	eval[bool](tb, `(() => { const s = document.getElementById('replay-speed'); s.value = '400'; s.dispatchEvent(new Event('change')); return true; })()`)
	tb.clickSel(`[data-play]`)
	tb.waitJS(`Number(document.querySelector('main.replay-page').dataset.step) >= 3`, "autoplay to step on", `document.querySelector('main.replay-page').dataset.step`, uiWait)
	tb.clickSel(`[data-play]`)
	paused := step()
	if p := eval[string](tb, `document.querySelector('main.replay-page').dataset.playing`); p != "false" {
		t.Errorf("after pause: playing %q", p)
	}
	tb.waitJS(`new Promise((ok) => setTimeout(() => ok(true), 1000))`, "a second", ``, uiWait) // the speed is 0.4 s a step: a second would show two more
	if s := step(); s != paused {
		t.Errorf("paused at step %d, then step %d", paused, s)
	}

	// The address keeps the step and the view; a new address shows its step.
	tb.do(chromedp.KeyEvent(kb.Home), chromedp.KeyEvent(kb.ArrowRight))
	if h := eval[string](tb, `location.hash`); h != "#step=1" {
		t.Errorf("address at step 1: %q", h)
	}
	eval[bool](tb, `(location.hash = '#step=2&view=black', true)`)
	tb.waitJS(`document.querySelector('main.replay-page').dataset.view === 'black' && document.querySelector('main.replay-page').dataset.step === '2'`, "the linked step", `location.hash`, uiWait)
	// Step 2 is White's move: Black's view marks neither it nor White's sense.
	if n := eval[int](tb, `document.querySelectorAll('#board .last, #board .sense-window-white, #board .captured-here').length`); n != 0 {
		t.Errorf("Black's view marks %d squares of White's turn", n)
	}
	if line := eval[string](tb, `document.getElementById('step-line').textContent`); strings.Contains(line, "g2g3") {
		t.Errorf("Black's view names White's move: %q", line)
	}
	tb.shot("replay-black-view-step-2")
}
