package e2e

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestWatchSpectator: the owner shares the game's read-only link; another
// browser (its own cookies) opens it, sees the position and its updates
// after the owner's next move, has no move input and no buttons but flip
// and review, cannot move a piece by clicking, and gets a page in words
// for the owner's /game/ address.
func TestWatchSpectator(t *testing.T) {
	e := newEnv(t)
	owner := e.newTab(t, desktop)
	owner.newGame(gameOpts{color: "white", level: "1"})
	gamePath := eval[string](owner, `location.pathname`)
	owner.clickSquare("e2")
	owner.clickSquare("e4")
	owner.waitPly(2, engineWait)
	link := eval[string](owner, `document.getElementById('watch-link')?.value || ''`)
	u, err := url.Parse(link)
	if err != nil || !strings.HasPrefix(u.Path, "/watch/") || len(u.Path) < len("/watch/")+22 {
		owner.fail("watch link %q", link)
	}
	owner.shot("owner-share")

	spectator := e.newTab(t, viewport{name: "spectator", width: 1366, height: 900}, chromedp.WithNewBrowserContext())
	spectator.open(u.Path)
	b := spectator.waitBoard()
	spectator.waitPly(2, uiWait)
	if b.Pieces["e4"] != "wP" {
		spectator.fail("spectator's board has no pawn on e4: %v", b.Pieces)
	}
	spectator.shot("spectator-start")
	controls := eval[string](spectator, `(() => {
		const bad = [];
		if (document.querySelector('input, textarea, select, form')) bad.push('an input or form');
		for (const b of document.querySelectorAll('button, a.btn')) {
			if (b.dataset.nav || b.dataset.ply || b.id === 'back-live' || b.dataset.action === 'flip') continue; // review and flip
			bad.push(b.outerHTML.slice(0, 80));
		}
		return bad.join('; ');
	})()`)
	if controls != "" {
		spectator.fail("spectator page has controls: %s", controls)
	}

	// Clicking (and dragging) a piece does nothing.
	spectator.clickSquare("d2")
	spectator.clickSquare("d4")
	spectator.dragPiece("g1", "f3")
	// Whatever the spectator's page sent, the server has answered (or hung
	// up on it), and the owner's page has what the server then said.
	spectator.roundTrip()
	owner.roundTrip()
	if b := spectator.board(); b.Ply != "2" || b.Pieces["d2"] != "wP" || b.Pieces["g1"] != "wN" {
		spectator.fail("the spectator moved a piece: ply %s, %v", b.Ply, b.Pieces)
	}
	if b := owner.board(); b.Ply != "2" {
		owner.fail("the owner's game moved on: ply %s", b.Ply)
	}

	// The owner's next move reaches the spectator.
	owner.clickSquare("d2")
	owner.clickSquare("d4")
	ob := owner.waitPly(4, engineWait)
	b = spectator.waitPly(4, uiWait)
	if b.Pieces["d2"] != "" || b.FEN != ob.FEN {
		spectator.fail("spectator's position %q, owner's %q", b.FEN, ob.FEN)
	}
	spectator.shot("spectator-after-d4")

	// The flip button turns the spectator's board.
	spectator.clickAction("flip")
	spectator.waitAttr("#board", "data-orientation", "black", uiWait)

	// The owner's own address is not the spectator's to play: a page in words.
	spectator.open(gamePath)
	text := eval[string](spectator, `document.body.innerText`)
	if !strings.Contains(text, "not yours to play") || strings.Contains(text, "404 page not found") {
		spectator.fail("another browser's /game/ page: %q", short(text))
	}
	spectator.open("/watch/nosuchtoken")
	if text := eval[string](spectator, `document.body.innerText`); !strings.Contains(text, "No game at this link") {
		spectator.fail("wrong watch token page: %q", short(text))
	}
	spectator.shot("wrong-token")
}
