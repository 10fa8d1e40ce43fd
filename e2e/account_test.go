package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestAccountFollowsAcrossBrowsers (issue 45): a game started signed out
// in one browser, then signing up from the page's header, then continued
// in a second browser (a cookie jar of its own) signed in to the same
// account; the moves made in either show in both. Only White's rook moves
// (up the h-file, always legal against a lone king), so the engine's
// replies change nothing the test needs.
func TestAccountFollowsAcrossBrowsers(t *testing.T) {
	e := newEnv(t)
	desk := e.newTab(t, desktop, chromedp.WithNewBrowserContext())
	desk.newGame(gameOpts{color: "white", level: "1", fen: "k7/8/8/8/8/8/8/K6R w - - 0 1"})
	desk.clickSquare("h1")
	desk.clickSquare("h2")
	desk.waitPly(1, uiWait)
	desk.waitPly(2, engineWait)
	gamePath := eval[string](desk, `location.pathname`)

	// Sign up from the header: back on the game, signed in, the game the
	// account's.
	desk.clickSel(`#header-signup`)
	desk.waitJS(`document.querySelector('#signup-form')`, "the sign-up form", `document.body.innerText.slice(0, 300)`, uiWait)
	desk.do(chromedp.SetValue(`#signup-form input[name=username]`, "gail"),
		chromedp.SetValue(`#signup-form input[name=password]`, "gail's password"),
		chromedp.SetValue(`#signup-form input[name=password2]`, "gail's password"))
	desk.shot("sign-up")
	desk.clickSel(`#signup-form button[type=submit]`)
	desk.waitJS(fmt.Sprintf(`location.pathname === %s && document.getElementById('signed-in')?.textContent === 'gail'`, jsq(gamePath)),
		"back on the game, signed in as gail", `location.href + ' ' + document.body.innerText.slice(0, 300)`, uiWait)
	desk.waitPly(2, uiWait)

	// The phone: its own browser, signed in from the account page; its
	// home lists the game.
	phone := e.newTab(t, phone390, chromedp.WithNewBrowserContext())
	phone.open("/account")
	phone.waitJS(`document.querySelector('#signin-form')`, "the sign-in form", `document.body.innerText.slice(0, 300)`, uiWait)
	phone.do(chromedp.SetValue(`#signin-form input[name=username]`, "gail"),
		chromedp.SetValue(`#signin-form input[name=password]`, "gail's password"))
	phone.clickSel(`#signin-form button[type=submit]`)
	link := fmt.Sprintf(`#unfinished-games a[href=%s]`, jsq(gamePath))
	phone.waitJS(fmt.Sprintf(`location.pathname === '/' && document.getElementById('signed-in')?.textContent === 'gail' && document.querySelector(%s)`, jsq(link)),
		"the phone's home, signed in, listing the game", `location.href + ' ' + document.body.innerText.slice(0, 400)`, uiWait)
	phone.shot("home-signed-in")
	if over := eval[float64](phone, `document.getElementById('account-area').getBoundingClientRect().right - document.documentElement.clientWidth`); over > 0 {
		t.Errorf("the phone's header account area ends %.0f px beyond the screen", over)
	}
	phone.open(gamePath) // the listed link's target
	phone.waitBoard()
	phone.waitPly(2, uiWait)

	// A move on the phone shows on the desk; the desk's on the phone.
	phone.clickSquare("h2")
	phone.clickSquare("h3")
	phone.waitPly(3, uiWait)
	desk.waitPly(3, uiWait)
	if got := desk.board().Pieces["h3"]; got != "wR" {
		t.Errorf("the desk shows %q on h3 after the phone's move", got)
	}
	desk.waitPly(4, engineWait)
	phone.waitPly(4, uiWait)
	desk.clickSquare("h3")
	desk.clickSquare("h4")
	desk.waitPly(5, uiWait)
	phone.waitPly(5, uiWait)
	if got := phone.board().Pieces["h4"]; got != "wR" {
		t.Errorf("the phone shows %q on h4 after the desk's move", got)
	}
	phone.shot("after-desk-move")
}
