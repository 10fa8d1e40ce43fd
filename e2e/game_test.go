package e2e

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestWholeGameByClicks plays a game to its end with clicks only: a mate in
// two against level 1 where Black's only reply is forced, so the game's end
// does not depend on the engine's choice.
//
//  1. Rb7 (Black's king can only go to g8) Kg8 2. Ra8#
func TestWholeGameByClicks(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	const start = "7k/8/R7/8/8/8/8/1R4K1 w - - 0 1"
	b := tb.newGame(gameOpts{color: "white", level: "1", fen: start})
	if fenBoard(b.FEN) != fenBoard(start) {
		t.Fatalf("game started from %q, want the form's fen %q", b.FEN, start)
	}
	if b.Status != "playing" || b.Ply != "0" || b.Orientation != "white" {
		t.Errorf("start: status=%q ply=%q orientation=%q, want playing 0 white", b.Status, b.Ply, b.Orientation)
	}
	tb.checkDrawn(b)

	// Select the rook: the legal-move markers come from the server's list.
	tb.clickSquare("b1")
	tb.waitJS(`document.querySelector('#board [data-square="b7"] .dest')`, "a .dest marker on b7 after selecting b1",
		`[...document.querySelectorAll('#board .dest')].map(d => d.closest('[data-square]')?.getAttribute('data-square')).join(' ')`, uiWait)
	dests := eval[[]string](tb, `[...document.querySelectorAll('#board .dest')].map(d => d.closest('[data-square]').getAttribute('data-square')).sort()`)
	// Rb1 reaches b2..b8, a1 and c1..f1 (g1 holds its own king): 12 squares.
	want := []string{"a1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "c1", "d1", "e1", "f1"}
	slices.Sort(want)
	if !slices.Equal(dests, want) {
		t.Errorf("legal-move markers for b1: %v, want %v", dests, want)
	}
	tb.shot("b1-selected")
	tb.clickSquare("b7")
	tb.waitPly(1, uiWait)
	tb.shot("after-Rb7")

	b = tb.waitPly(2, engineWait)
	if got := b.Pieces["g8"]; got != "bK" {
		t.Fatalf("after the engine's forced reply the black king should be on g8, board has %q there (fen %s)", got, b.FEN)
	}
	tb.shot("after-Kg8")
	tb.clickSquare("a6")
	tb.clickSquare("a8")
	b = tb.waitPly(3, uiWait)
	over := tb.waitGameOver(uiWait)
	tb.shot("checkmate-dialog")
	if b = tb.board(); b.Status != "over" {
		t.Errorf("data-status=%q after mate, want over", b.Status)
	}
	if !strings.Contains(over.Result, "1-0") {
		t.Errorf("game-over result %q, want 1-0", over.Result)
	}
	if !strings.Contains(strings.ToLower(over.Reason), "checkmate") {
		t.Errorf("game-over reason %q, want checkmate", over.Reason)
	}
	for ply, san := range map[int]string{1: "Rb7", 2: "Kg8", 3: "Ra8#"} {
		if got := tb.moveText(ply); !strings.Contains(got, san) {
			t.Errorf("move list ply %d: %q, want it to contain %q", ply, got, san)
		}
	}
	tb.checkDrawn(b)
}

// TestDragMove moves a pawn by dragging it with the mouse (pointer events).
func TestDragMove(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.newGame(gameOpts{color: "white", level: "1"})
	tb.dragPiece("e2", "e4")
	b := tb.waitPly(1, uiWait)
	tb.shot("after-drag-e4")
	if b.Pieces["e4"] != "wP" || b.Pieces["e2"] != "" {
		t.Errorf("after dragging e2 to e4: e2=%q e4=%q, want empty and wP", b.Pieces["e2"], b.Pieces["e4"])
	}
	if got := tb.moveText(1); !strings.Contains(got, "e4") {
		t.Errorf("move list ply 1: %q, want e4", got)
	}
	// The engine's reply follows; wait for it so the server is idle at exit.
	tb.waitPly(2, engineWait)
	tb.checkDrawn(tb.board())
}

// TestIllegalDropSnapsBack drops pieces where they cannot go: nothing is
// sent that changes the game, and the piece is drawn back on its square.
func TestIllegalDropSnapsBack(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	start := tb.newGame(gameOpts{color: "white", level: "1"})
	cases := []struct {
		name, from, to string
	}{
		{"pawn three squares", "e2", "e5"},
		{"knight like a bishop", "g1", "e3"},
		{"onto own piece", "b1", "d2"},
		{"king through own pawn", "e1", "e3"},
		{"opponent's piece", "e7", "e5"},
		{"rook through pawn", "a1", "a4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := tb.in(t)
			piece := start.Pieces[c.from]
			onTarget := start.Pieces[c.to]
			tb.dragPiece(c.from, c.to)
			// A snap-back is an absence of change: whatever the page sent,
			// the server has answered and the page drawn before looking.
			tb.roundTrip()
			b := tb.board()
			tb.shot("after-illegal-" + c.from + c.to)
			if b.FEN != start.FEN || b.Ply != "0" {
				t.Errorf("%s-%s changed the game: fen %q ply %q, want %q ply 0", c.from, c.to, b.FEN, b.Ply, start.FEN)
			}
			if b.Pieces[c.from] != piece {
				t.Errorf("%s is drawn with %q after the illegal drop, want %q back", c.from, b.Pieces[c.from], piece)
			}
			if b.Pieces[c.to] != onTarget {
				t.Errorf("%s is drawn with %q after the illegal drop, want %q", c.to, b.Pieces[c.to], onTarget)
			}
			if n := eval[int](tb, `document.querySelectorAll('#moves [data-ply]').length`); n != 0 {
				t.Errorf("move list has %d entries after an illegal drop", n)
			}
			tb.checkDrawn(b)
		})
	}
	// The board still takes a legal move afterwards.
	tb.dragPiece("g1", "f3")
	if b := tb.waitPly(1, uiWait); b.Pieces["f3"] != "wN" {
		t.Errorf("Nf3 after the illegal drops: f3=%q", b.Pieces["f3"])
	}
	tb.waitPly(2, engineWait)
}

// TestPromotionChooser promotes through #promotion, to an under-promotion so
// an auto-queen would be caught, by clicks and by a drag.
func TestPromotionChooser(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	cases := []struct {
		name, how, piece, san, hook string
	}{
		{"click-knight", "click", "n", "a8=N", "wN"},
		{"drag-rook", "drag", "r", "a8=R", "wR"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := tb.in(t)
			tb.newGame(gameOpts{color: "white", level: "1", fen: "4k3/P7/8/8/8/8/4PPPP/4K3 w - - 0 1"})
			if c.how == "click" {
				tb.clickSquare("a7")
				tb.clickSquare("a8")
			} else {
				tb.dragPiece("a7", "a8")
			}
			tb.waitJS(`(() => { const p = document.getElementById('promotion'); if (!p) return false;
				const r = p.getBoundingClientRect(); return r.width > 0 && r.height > 0 && p.querySelectorAll('[data-promotion]').length === 4; })()`,
				"the promotion chooser #promotion with 4 [data-promotion] buttons", `document.getElementById('promotion')?.outerHTML?.slice(0, 300)`, uiWait)
			if b := tb.board(); b.Ply != "0" {
				t.Errorf("the move was played (ply %s) before a piece was chosen", b.Ply)
			}
			tb.shot("chooser-" + c.name)
			tb.clickSel(`#promotion [data-promotion="` + c.piece + `"]`)
			b := tb.waitPly(1, uiWait)
			tb.shot("promoted-" + c.name)
			if b.Pieces["a8"] != c.hook || b.Pieces["a7"] != "" {
				t.Errorf("after promoting to %s: a8=%q a7=%q, want %s and empty", c.piece, b.Pieces["a8"], b.Pieces["a7"], c.hook)
			}
			if got := tb.moveText(1); !strings.Contains(got, c.san) {
				t.Errorf("move list ply 1: %q, want %s", got, c.san)
			}
			tb.waitPly(2, engineWait)
		})
	}
}

// TestEngineReplies checks the engine answers: data-ply grows by 2 after the
// person's move and data-thinking goes true then false; as Black, the engine
// opens.
func TestEngineReplies(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		color       string
		orientation string
		from, to    string // the person's move once it is their turn
		firstPly    int    // the ply at which it is the person's turn
	}{
		{"white", "white", "e2", "e4", 0},
		{"black", "black", "g8", "f6", 1},
	}
	for _, c := range cases {
		t.Run(c.color, func(t *testing.T) {
			tb := e.newTab(t, desktop)
			defer tb.close()
			b := tb.newGame(gameOpts{color: c.color, level: "1"})
			if b.Orientation != c.orientation {
				t.Errorf("data-orientation=%q for a game as %s", b.Orientation, c.color)
			}
			b = tb.waitPly(c.firstPly, engineWait)
			tb.waitAttr("#board", "data-thinking", "false", engineWait)
			tb.clearRecorder()
			tb.clickSquare(c.from)
			tb.clickSquare(c.to)
			b = tb.waitPly(c.firstPly+2, engineWait)
			tb.waitAttr("#board", "data-thinking", "false", uiWait)
			tb.shot("engine-replied-" + c.color)
			thinking := tb.recorded("data-thinking")
			ti := slices.Index(thinking, "true")
			if ti < 0 || !slices.Contains(thinking[ti:], "false") {
				t.Errorf("data-thinking went %v during the engine's turn, want true then false", thinking)
			}
			plies := tb.recorded("data-ply")
			want := []string{strconv.Itoa(c.firstPly + 1), strconv.Itoa(c.firstPly + 2)}
			if i := slices.Index(plies, want[0]); i < 0 || !slices.Contains(plies[i:], want[1]) {
				t.Errorf("data-ply went %v, want %v in that order", plies, want)
			}
			if got := tb.moveText(c.firstPly + 2); got == "" {
				t.Errorf("no #moves [data-ply=%d] for the engine's reply", c.firstPly+2)
			}
			if b.Pieces[c.to] == "" {
				t.Errorf("the person's piece is not on %s after the reply (fen %s)", c.to, b.FEN)
			}
			tb.checkDrawn(b)
		})
	}
}

// TestResign resigns and checks the dialog and the board's status.
func TestResign(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.newGame(gameOpts{color: "white", level: "1"})
	tb.resign()
	over := tb.waitGameOver(uiWait)
	tb.shot("resigned-dialog")
	if !strings.Contains(over.Result, "0-1") {
		t.Errorf("result after White resigns: %q, want 0-1", over.Result)
	}
	if !strings.Contains(strings.ToLower(over.Reason), "resign") {
		t.Errorf("reason after resigning: %q, want it to mention resignation", over.Reason)
	}
	tb.waitAttr("#board", "data-status", "over", uiWait)
	// A finished game takes no more moves.
	tb.clickSquare("e2")
	tb.clickSquare("e4")
	tb.roundTrip()
	if b := tb.board(); b.Ply != "0" || b.Pieces["e2"] != "wP" {
		t.Errorf("a move was played after resigning: ply %q, e2=%q", b.Ply, b.Pieces["e2"])
	}
}

// continueSel finds the home page's resume control: a link or button whose
// text contains "Continue" (web/PROTOCOL.md), marked so clickSel can reach it.
const markContinue = `(() => { const el = [...document.querySelectorAll('a, button')].find(e => e.textContent.includes('Continue'));
	if (!el) return false; el.setAttribute('data-e2e-continue', ''); return true; })()`

// playAndWait plays from-to by clicks and waits for the engine's reply.
func (tb *tab) playAndWait(from, to string, plyAfterReply int) board {
	tb.t.Helper()
	tb.clickSquare(from)
	tb.clickSquare(to)
	tb.waitPly(plyAfterReply, engineWait)
	tb.waitAttr("#board", "data-thinking", "false", engineWait)
	return tb.board()
}

// TestResumeInNewTab closes the game's tab and finds the game again through
// "Continue" on the home page in a new tab of the same browser.
func TestResumeInNewTab(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.newGame(gameOpts{color: "white", level: "1"})
	before := tb.playAndWait("e2", "e4", 2)
	gameURL := tb.location()
	tb.shot("before-close")
	tb.close()

	tb2 := e.newTab(t, desktop)
	tb2.open("/")
	tb2.waitJS(markContinue, `a link or button containing "Continue" on the home page`, `document.body.innerText.slice(0, 400)`, uiWait)
	tb2.shot("home-with-continue")
	tb2.clickSel(`[data-e2e-continue]`)
	after := tb2.waitBoard()
	tb2.shot("resumed")
	if got := tb2.location(); got != gameURL {
		t.Errorf("Continue led to %s, want the game %s", got, gameURL)
	}
	if after.FEN != before.FEN || after.Ply != before.Ply {
		t.Errorf("resumed at fen %q ply %s, want %q ply %s", after.FEN, after.Ply, before.FEN, before.Ply)
	}
	// The resumed game is live: it takes a move and the engine answers.
	b := tb2.playAndWait("g1", "f3", 4)
	if b.Pieces["f3"] != "wN" {
		t.Errorf("after Nf3 in the resumed game f3=%q", b.Pieces["f3"])
	}
}

// TestRestartServer stops the server (gracefully, and with kill -9) and
// checks the game comes back at the same move with the same cookie; when the
// engine was to move at the kill, it moves after the restart.
func TestRestartServer(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name         string
		kill         bool // SIGKILL instead of SIGTERM
		duringEngine bool // stop right after the person's move is shown, before the reply
	}{
		{"graceful", false, false},
		{"kill9", true, false},
		{"kill9-engine-to-move", true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := e.newTab(t, desktop)
			defer tb.close()
			tb.newGame(gameOpts{color: "white", level: "1"})
			var before board
			if c.duringEngine {
				tb.clickSquare("e2")
				tb.clickSquare("e4")
				before = tb.waitPly(1, uiWait)
			} else {
				before = tb.playAndWait("e2", "e4", 2)
			}
			gameURL := tb.location()
			tb.shot("before-" + c.name)
			var err error
			if c.kill {
				err = e.srv.Kill()
			} else {
				err = e.srv.Stop(10 * time.Second)
			}
			if err != nil {
				t.Errorf("stopping the server: %v", err)
			}
			tb.shot("server-down-" + c.name)
			if err := e.srv.Start(); err != nil {
				t.Fatalf("restarting the server: %v", err)
			}
			tb.open(strings.TrimPrefix(gameURL, e.srv.URL()))
			after := tb.waitBoard()
			tb.shot("after-restart-" + c.name)
			if c.duringEngine {
				t.Logf("at reload after the kill: ply %s", after.Ply)
				if got := tb.moveText(1); !strings.Contains(got, "e4") {
					t.Errorf("the person's e4 was lost by kill -9: move list ply 1 is %q", got)
				}
				after = tb.waitPly(2, engineWait)
				tb.shot("engine-moved-after-restart")
				if b := fenSquares(after.FEN); b["e4"] != "wP" {
					t.Errorf("after the restart e4=%q, want wP (fen %s)", b["e4"], after.FEN)
				}
			} else if after.FEN != before.FEN || after.Ply != before.Ply {
				t.Errorf("after restart: fen %q ply %s, want %q ply %s", after.FEN, after.Ply, before.FEN, before.Ply)
			}
			b := tb.playAndWait("g1", "f3", 4)
			if b.Pieces["f3"] != "wN" {
				t.Errorf("after the restart Nf3 did not land: f3=%q", b.Pieces["f3"])
			}
		})
	}
}

// TestPhone plays the core flow on a 390x844 touch screen: the board fits
// the width, tap-tap moves, a finger drag moves, resign shows the dialog.
func TestPhone(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, phone)
	tb.open("/")
	tb.shot("home")
	tb.newGame(gameOpts{color: "white", level: "1"})
	l := tb.layout()
	t.Logf("phone layout: %+v", l)
	tb.checkFits(l)
	if l.PieceImages != 32 {
		t.Errorf("%d pieces drawn with a non-zero box, want 32", l.PieceImages)
	}
	b := tb.playAndWait("e2", "e4", 2) // tap, tap
	tb.shot("after-tap-tap-e4")
	if b.Pieces["e4"] != "wP" {
		t.Errorf("tap e2, tap e4: e4=%q", b.Pieces["e4"])
	}
	tb.dragPiece("g1", "f3") // one finger
	b = tb.waitPly(3, uiWait)
	tb.shot("after-touch-drag-Nf3")
	if b.Pieces["f3"] != "wN" {
		t.Errorf("touch drag g1-f3: f3=%q", b.Pieces["f3"])
	}
	tb.waitPly(4, engineWait)
	tb.waitAttr("#board", "data-thinking", "false", engineWait)
	tb.resign()
	tb.waitGameOver(uiWait)
	tb.shot("resigned")
	d := eval[rect](tb, `(() => { const r = document.querySelector('dialog#game-over').getBoundingClientRect(); return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`)
	if d.X < 0 || d.X+d.W > float64(phone.width)+1 {
		t.Errorf("the game-over dialog spans x %.0f..%.0f, wider than the phone", d.X, d.X+d.W)
	}
}

// TestViewports keeps screenshots of the home page, a game in progress and
// the game-over dialog at desktop, tablet and phone sizes, and checks the
// board fits each screen.
func TestViewports(t *testing.T) {
	e := newEnv(t)
	for _, vp := range []viewport{desktop, tabletLand, tabletPortrait, phone} {
		t.Run(vp.name, func(t *testing.T) {
			tb := e.newTab(t, vp)
			defer tb.close()
			tb.open("/")
			tb.shot("home")
			tb.checkNoSideways("home page", "form#new-game")
			tb.newGame(gameOpts{color: "white", level: "1"})
			tb.checkNoSideways("game page", "#board")
			b := tb.playAndWait("e2", "e4", 2)
			tb.clickSquare("g1") // a selection, so the screenshot shows the move markers
			tb.shot("game-selected")
			l := tb.layout()
			t.Logf("%s layout: %+v", vp.name, l)
			tb.checkFits(l)
			tb.checkDrawn(b)
			tb.clickSquare("g1") // deselect
			tb.resign()
			tb.waitGameOver(uiWait)
			tb.shot("game-over")
		})
	}
}

// TestKeyboardMove enters moves in input#move-input (SAN and UCI), the way
// a person without a mouse or with a screen reader plays, and checks the
// aria-live announcer says something about the moves.
func TestKeyboardMove(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.newGame(gameOpts{color: "white", level: "1"})
	cases := []struct {
		typed, square, piece string
		plyAfterReply        int
	}{
		{"e4", "e4", "wP", 2},   // SAN
		{"g1f3", "f3", "wN", 4}, // UCI
	}
	for _, c := range cases {
		tb.do(chromedp.Focus(chromedp.CSS(`input#move-input`)),
			chromedp.SendKeys(chromedp.CSS(`input#move-input`), c.typed+"\n"))
		b := tb.waitPly(c.plyAfterReply-1, uiWait)
		if b.Pieces[c.square] != c.piece {
			t.Errorf("typed %q: %s=%q, want %s", c.typed, c.square, b.Pieces[c.square], c.piece)
		}
		tb.waitPly(c.plyAfterReply, engineWait)
		tb.waitAttr("#board", "data-thinking", "false", engineWait)
	}
	tb.shot("after-keyboard-moves")
	said := eval[string](tb, `(document.getElementById('announcer')?.textContent || '').trim()`)
	live := eval[string](tb, `document.getElementById('announcer')?.getAttribute('aria-live') || ''`)
	t.Logf("announcer says %q", said)
	if live != "polite" || said == "" {
		t.Errorf("#announcer aria-live=%q text=%q, want polite and an announcement of the last move", live, said)
	}
}

// TestTwoTabs opens the same game in two tabs: a move in one shows in the
// other, and the game stays consistent.
func TestTwoTabs(t *testing.T) {
	e := newEnv(t)
	a := e.newTab(t, desktop)
	a.newGame(gameOpts{color: "white", level: "1"})
	gameURL := a.location()
	b := e.newTab(t, desktop)
	b.open(strings.TrimPrefix(gameURL, e.srv.URL()))
	b.waitBoard()
	a.playAndWait("e2", "e4", 2)
	got := b.waitPly(2, engineWait)
	b.shot("second-tab-sees-moves")
	if want := a.board(); got.FEN != want.FEN {
		t.Errorf("second tab shows %q, first %q", got.FEN, want.FEN)
	}
	// The second tab plays the next move; the first sees it.
	b.playAndWait("g1", "f3", 4)
	if got := a.waitPly(4, engineWait); got.Pieces["f3"] != "wN" {
		t.Errorf("first tab after the second tab's Nf3: f3=%q", got.Pieces["f3"])
	}
}

// TestActions exercises the side panel's controls through their
// [data-action] hooks: flip, take back, rematch (colours swapped, once the
// game is over), a clock and a Chess960 start.
func TestActions(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)

	t.Run("flip", func(t *testing.T) {
		tb := tb.in(t)
		tb.newGame(gameOpts{color: "white", level: "1"})
		for _, want := range []string{"black", "white"} {
			tb.clickAction("flip")
			tb.waitAttr("#board", "data-orientation", want, uiWait)
			tb.shot("flipped-" + want)
		}
	})

	t.Run("takeback", func(t *testing.T) {
		tb := tb.in(t)
		start := tb.newGame(gameOpts{color: "white", level: "1"})
		tb.playAndWait("e2", "e4", 2)
		tb.clickAction("takeback")
		b := tb.waitPly(0, uiWait)
		tb.shot("taken-back")
		if b.FEN != start.FEN {
			t.Errorf("after taking back e4 and the reply: fen %q, want the start %q", b.FEN, start.FEN)
		}
		if n := eval[int](tb, `document.querySelectorAll('#moves [data-ply]').length`); n != 0 {
			t.Errorf("move list has %d entries after the takeback", n)
		}
	})

	t.Run("rematch", func(t *testing.T) {
		tb := tb.in(t)
		tb.newGame(gameOpts{color: "white", level: "1"})
		first := tb.location()
		// Rematch is offered once the game is over (issue 42): resign,
		// close the game-over dialog, and use the panel's Rematch.
		tb.resign()
		tb.waitGameOver(uiWait)
		tb.clickSel(`dialog#game-over button[value=close]`)
		tb.waitJS(`!document.querySelector('dialog#game-over').open`, "the dialog to close", ``, uiWait)
		tb.clickAction("rematch")
		tb.waitJS(`location.href !== `+jsq(first)+` && /\/game\//.test(location.pathname)`, "a new game page after rematch", `location.href`, uiWait)
		b := tb.waitBoard()
		if b.Orientation != "black" {
			t.Errorf("rematch of a game as White shows orientation %q, want black (colours swapped)", b.Orientation)
		}
		tb.waitPly(1, engineWait) // the engine, now White, opens
		tb.shot("rematch")
	})

	t.Run("clock", func(t *testing.T) {
		tb := tb.in(t)
		tb.newGame(gameOpts{color: "white", level: "1", clock: "5+3"})
		for _, side := range []string{"white", "black"} {
			sel := `[data-clock="` + side + `"]`
			tb.waitJS(`(() => { const c = document.querySelector(`+jsq(sel)+`); if (!c) return false;
				const r = c.getBoundingClientRect(); return r.width > 0 && /\d:\d\d/.test(c.textContent); })()`,
				"a visible "+sel+" showing m:ss", `document.querySelector(`+jsq(sel)+`)?.outerHTML`, uiWait)
		}
		tb.shot("clocks")
		tb.playAndWait("e2", "e4", 2)
	})

	t.Run("chess960", func(t *testing.T) {
		tb := tb.in(t)
		b := tb.newGame(gameOpts{color: "white", level: "1", variant: "chess960"})
		sq := fenSquares(b.FEN)
		back := ""
		for f := 'a'; f <= 'h'; f++ {
			w, bl := sq[string(f)+"1"], sq[string(f)+"8"]
			if len(w) != 2 || len(bl) != 2 || w[1] != bl[1] || sq[string(f)+"2"] != "wP" || sq[string(f)+"7"] != "bP" {
				t.Fatalf("chess960 start %q is not a mirrored back-rank setup (file %c: %q %q)", b.FEN, f, w, bl)
			}
			back += w[1:]
		}
		t.Logf("chess960 back rank %s", back)
		if strings.Count(back, "K") != 1 || strings.Count(back, "Q") != 1 || strings.Count(back, "R") != 2 ||
			strings.Count(back, "B") != 2 || strings.Count(back, "N") != 2 {
			t.Errorf("chess960 back rank %s does not have K, Q and two each of R, B, N", back)
		}
		bishops := []int{strings.Index(back, "B"), strings.LastIndex(back, "B")}
		rooks := []int{strings.Index(back, "R"), strings.LastIndex(back, "R")}
		if k := strings.Index(back, "K"); bishops[0]%2 == bishops[1]%2 || k < rooks[0] || k > rooks[1] {
			t.Errorf("chess960 back rank %s: bishops must be on opposite colours and the king between the rooks", back)
		}
		tb.checkDrawn(b)
		tb.shot("chess960")
	})
}
