package e2e

// Issue 34: premoves during the engine's turn, as on lichess's
// play-against-the-computer board.

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// The premove tests play level 8 (about three seconds a move), so there is
// time to set a premove while the engine thinks, from positions outside the
// opening book (a book reply comes at once).
const slowLevel = "8"

// sendSpyJS records every message the page sends on its WebSocket, with
// the board's data-ply at that moment, in window.__sent.
const sendSpyJS = `(() => {
  if (window.__sent) return true;
  window.__sent = [];
  const orig = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    let msg = null;
    try { msg = JSON.parse(data); } catch { msg = {raw: String(data)}; }
    window.__sent.push({msg, boardPly: document.getElementById('board')?.getAttribute('data-ply') || ''});
    return orig.call(this, data);
  };
  return true;
})()`

type sentMove struct {
	Move     string `json:"move"`
	Ply      int    `json:"ply"`
	BoardPly string `json:"boardPly"`
}

// sentMoves lists the move messages the page has sent since sendSpyJS.
func (tb *tab) sentMoves() []sentMove {
	tb.t.Helper()
	return eval[[]sentMove](tb, `(window.__sent || []).filter(e => e.msg && e.msg.type === 'move').map(e => ({move: e.msg.move, ply: e.msg.ply, boardPly: e.boardPly}))`)
}

// premoveShown is #board's data-premove and the squares drawn as premove.
func (tb *tab) premoveShown() (string, []string) {
	tb.t.Helper()
	held := eval[string](tb, `document.getElementById('board').getAttribute('data-premove') || ''`)
	sqs := eval[[]string](tb, `[...document.querySelectorAll('#board .sq.premove')].map(s => s.dataset.square).sort()`)
	return held, sqs
}

// waitPremoving waits until the board offers premoves (the engine's turn).
func (tb *tab) waitPremoving() {
	tb.t.Helper()
	tb.waitJS(`document.getElementById('board').classList.contains('premoving')`, "#board.premoving (the engine's turn)",
		`document.getElementById('board').className + ' ply ' + document.getElementById('board').dataset.ply`, uiWait)
}

// setPremoveByClicks premoves from-to with two clicks and checks it is held
// and highlighted while the engine still thinks at ply.
func (tb *tab) setPremoveByClicks(from, to string, ply int) {
	tb.t.Helper()
	tb.waitPremoving()
	tb.clickSquare(from)
	tb.clickSquare(to)
	tb.checkPremoveHeld(from, to, ply)
}

func (tb *tab) checkPremoveHeld(from, to string, ply int) {
	tb.t.Helper()
	held, sqs := tb.premoveShown()
	if b := tb.board(); b.Ply != fmt.Sprint(ply) {
		tb.fail("the engine replied (ply %s) before the premove %s-%s could be checked: too fast for this test", b.Ply, from, to)
	}
	if held != from+to || strings.Join(sqs, " ") != strings.Join(sortedPair(from, to), " ") {
		tb.fail("premove %s-%s: data-premove=%q, highlighted %v", from, to, held, sqs)
	}
}

func sortedPair(a, b string) []string {
	if a > b {
		return []string{b, a}
	}
	return []string{a, b}
}

// checkNoPremove fails when a premove is still held or drawn.
func (tb *tab) checkNoPremove(what string) {
	tb.t.Helper()
	if held, sqs := tb.premoveShown(); held != "" || len(sqs) != 0 {
		tb.fail("%s: premove still held %q / highlighted %v", what, held, sqs)
	}
}

// checkMovesInTurn fails when a move was sent while the board said it was
// the engine's turn: with White to move at even plies, every move message
// must carry (and be sent at) an even ply.
func (tb *tab) checkMovesInTurn() {
	tb.t.Helper()
	for _, m := range tb.sentMoves() {
		if m.Ply%2 != 0 || m.BoardPly != fmt.Sprint(m.Ply) {
			tb.fail("move %s sent at ply %d (board at %s): not White's turn", m.Move, m.Ply, m.BoardPly)
		}
	}
}

// TestPremove: premoves set by click-click and by drag during the engine's
// turn are played as soon as its reply lands, with no further input; a
// premove is cancelled by a click on its piece, on an empty square, or by
// a right-click, and a cancelled premove is never sent.
func TestPremove(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	// Kings and pawns: in three moves Black can neither check White nor
	// reach the third rank, so a2-a3, h2-h3 stay legal whatever it plays.
	const start = "4k3/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/4K3 w - - 0 1"
	tb.newGame(gameOpts{color: "white", level: slowLevel, fen: start})
	eval[bool](tb, sendSpyJS)

	tb.clickSquare("e1")
	tb.clickSquare("e2")
	tb.waitPly(1, uiWait)
	tb.setPremoveByClicks("a2", "a3", 1)
	tb.shot("premove-a2a3-held")
	if b := tb.board(); b.Pieces["a2"] != "wP" || b.Pieces["a3"] != "" {
		t.Errorf("the premoved pawn moved before its turn: a2=%q a3=%q", b.Pieces["a2"], b.Pieces["a3"])
	}
	if n := len(tb.sentMoves()); n != 1 {
		t.Errorf("%d moves sent while the premove waits, want 1 (Ke2)", n)
	}
	b := tb.waitPly(3, engineWait)
	tb.shot("premove-a2a3-played")
	if got := tb.moveText(3); !strings.Contains(got, "a3") {
		t.Errorf("ply 3 is %q, want the premove a3", got)
	}
	if b.Pieces["a3"] != "wP" {
		t.Errorf("a3=%q after the premove, want wP", b.Pieces["a3"])
	}
	tb.checkNoPremove("after the premove was played")

	// A premove by drag: h2-h3, also legal whatever Black does.
	tb.waitPremoving()
	tb.dragPiece("h2", "h3")
	tb.checkPremoveHeld("h2", "h3", 3)
	b = tb.waitPly(5, engineWait)
	if got := tb.moveText(5); !strings.Contains(got, "h3") || b.Pieces["h3"] != "wP" {
		t.Errorf("ply 5 is %q (h3=%q), want the dragged premove h3", got, b.Pieces["h3"])
	}
	tb.checkNoPremove("after the dragged premove was played")

	// Cancelling, while the engine thinks on ply 5.
	tb.setPremoveByClicks("b2", "b3", 5)
	tb.clickSquare("b2") // the same piece
	tb.checkNoPremove("after clicking the premoved piece")
	tb.setPremoveByClicks("g2", "g3", 5)
	empty := ""
	for _, sq := range []string{"d3", "e3", "c3", "f3", "d6", "c6", "b6", "a6"} {
		if tb.board().Pieces[sq] == "" {
			empty = sq
			break
		}
	}
	tb.clickSquare(empty)
	tb.checkNoPremove("after clicking the empty square " + empty)
	tb.setPremoveByClicks("c2", "c3", 5)
	tb.shot("premove-c2c3-held")
	tb.rightClickSquare("c3", 0)
	tb.checkNoPremove("after a right-click")
	if b := tb.board(); b.Ply != "5" {
		t.Fatalf("the engine replied (ply %s) while the cancellations were tested: too fast for this test", b.Ply)
	}
	tb.waitPly(6, engineWait)
	tb.roundTrip() // a cancelled premove sent, wrongly, has been answered
	b = tb.board()
	tb.shot("after-cancelled-premoves")
	if b.Ply != "6" {
		t.Errorf("ply %s after the engine's reply to cancelled premoves, want 6 (nothing played)", b.Ply)
	}
	for _, sq := range []string{"b2", "g2", "c2"} {
		if b.Pieces[sq] != "wP" {
			t.Errorf("%s=%q: a cancelled premove moved it", sq, b.Pieces[sq])
		}
	}
	tb.checkMovesInTurn()
	if got := len(tb.sentMoves()); got != 3 {
		t.Errorf("%d moves sent, want 3 (Ke2 and the two premoves)", got)
	}
}

// TestPremoveIllegalAfterReply: a premove the engine's reply makes illegal
// is dropped silently. 1. Qd8+ leaves Black one move, Rxd8, which takes the
// queen the premove Qd8-a5 would have moved.
func TestPremoveIllegalAfterReply(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	const start = "2r4k/6pp/8/8/8/8/5PPP/3Q2K1 w - - 0 1"
	tb.newGame(gameOpts{color: "white", level: slowLevel, fen: start})
	eval[bool](tb, sendSpyJS)
	tb.clickSquare("d1")
	tb.clickSquare("d8")
	tb.waitPly(1, uiWait)
	tb.setPremoveByClicks("d8", "a5", 1)
	tb.shot("premove-d8a5-held")
	b := tb.waitPly(2, engineWait)
	if b.Pieces["d8"] != "bR" {
		t.Fatalf("Black's forced reply Rxd8 was not played: d8=%q (fen %s)", b.Pieces["d8"], b.FEN)
	}
	tb.roundTrip() // the premove sent, wrongly, has been answered
	b = tb.board()
	tb.shot("premove-dropped")
	if b.Ply != "2" || b.Pieces["a5"] != "" {
		t.Errorf("after Rxd8: ply %s, a5=%q; want ply 2 and the premove dropped", b.Ply, b.Pieces["a5"])
	}
	tb.checkNoPremove("after the reply made it illegal")
	if msg := eval[string](tb, `document.querySelector('#status-line, [data-message]')?.textContent || ''`); strings.Contains(strings.ToLower(msg), "illegal") {
		t.Errorf("the dropped premove left a message: %q", msg)
	}
	if moves := tb.sentMoves(); len(moves) != 1 {
		t.Errorf("moves sent: %+v, want only d1d8", moves)
	}
	// The person plays on normally.
	tb.clickSquare("h2")
	tb.clickSquare("h3")
	tb.waitPly(3, uiWait)
	tb.checkMovesInTurn()
}

// TestPremovePromotion: a promotion premove becomes a queen without asking.
// 1. a3 ... Black replies (it cannot check, nor reach b8); the premove b7-b8
// promotes.
func TestPremovePromotion(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	const start = "6k1/1P3ppp/8/4n3/8/8/PP6/K7 w - - 0 1"
	tb.newGame(gameOpts{color: "white", level: slowLevel, fen: start})
	eval[bool](tb, sendSpyJS)
	tb.clickSquare("a2")
	tb.clickSquare("a3")
	tb.waitPly(1, uiWait)
	tb.setPremoveByClicks("b7", "b8", 1)
	b := tb.waitPly(3, engineWait)
	tb.shot("premove-promoted")
	if b.Pieces["b8"] != "wQ" {
		t.Errorf("b8=%q after the promotion premove, want wQ (fen %s)", b.Pieces["b8"], b.FEN)
	}
	if hidden := eval[bool](tb, `document.getElementById('promotion').hidden`); !hidden {
		t.Errorf("the promotion chooser opened for a premove")
	}
	tb.checkMovesInTurn()
}

// rightMouse dispatches right-button mouse events: press at from, move in
// steps to to, release there (a click when from == to), with modifiers
// (modShift etc.).
func rightMouse(fx, fy, tx, ty float64, modifiers int64) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		mouse := func(typ input.DispatchMouseEventType, x, y float64, button input.MouseButton, buttons int64) error {
			p := input.DispatchMouseEventParams{Type: typ, X: x, Y: y, Button: button, Buttons: buttons, Modifiers: modifiers}
			if typ != chromedp.MouseMoved {
				p.ClickCount = 1
			}
			_, err := cdp.Call(ctx, t, input.DispatchMouseEvent, p)
			return err
		}
		if err := mouse(chromedp.MouseMoved, fx, fy, input.MouseButtonNone, 0); err != nil {
			return err
		}
		if err := mouse(chromedp.MousePressed, fx, fy, input.MouseButtonRight, 2); err != nil {
			return err
		}
		const steps = 8
		if fx != tx || fy != ty {
			for i := 1; i <= steps; i++ {
				f := float64(i) / steps
				if err := mouse(chromedp.MouseMoved, fx+(tx-fx)*f, fy+(ty-fy)*f, input.MouseButtonNone, 2); err != nil {
					return err
				}
				time.Sleep(10 * time.Millisecond) // time itself is what is tested: a hand's pace, step by step
			}
		}
		return mouse(chromedp.MouseReleased, tx, ty, input.MouseButtonRight, 0)
	})
}

func (tb *tab) rightClickSquare(sq string, mod int64) {
	tb.t.Helper()
	x, y := tb.squareCenter(sq)
	tb.do(rightMouse(x, y, x, y, mod))
}
