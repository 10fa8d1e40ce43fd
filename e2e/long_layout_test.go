package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// The player's and the spectator's must-see controls through a long game.
var (
	playerMustSee = []mustSee{
		{"board", "#board"},
		{"opponent's clock", "#player-top .clock"},
		{"own clock", "#player-bottom .clock"},
		{"current move", "#moves button.current"},
		{"take back", `[data-action="takeback"]`},
		{"offer draw", `[data-action="draw"]`},
		{"resign", `[data-action="resign"]`},
	}
	spectatorMustSee = []mustSee{
		{"board", "#board"},
		{"top clock", "#player-top .clock"},
		{"bottom clock", "#player-bottom .clock"},
		{"current move", "#moves button.current"},
		{"flip", `[data-action="flip"]`},
		{"last move button", `[data-nav="last"]`},
	}
)

// TestLongGameInView (issue 42, item 1): through a 150-move game the
// clocks, the current move and the game's buttons stay in sight on every
// screen, for the player and for a spectator; the move list scrolls to
// follow the game instead of growing; and on desktop and landscape tablet
// screens the page itself never scrolls.
func TestLongGameInView(t *testing.T) {
	e := newEnv(t)
	gamePath, watchPath := e.newTab(t, desktop).newLongGame(longGamePlies)
	for _, vp := range fiveSizes {
		t.Run(vp.name, func(t *testing.T) {
			player := e.newTab(t, vp)
			defer player.close()
			spectator := e.newTab(t, vp, chromedp.WithNewBrowserContext())
			defer spectator.close()
			player.open(gamePath)
			b := player.waitBoard()
			spectator.open(watchPath)
			spectator.waitPly(mustAtoi(t, b.Ply), uiWait)
			check := func(when string, ply int) {
				t.Helper()
				for _, v := range []struct {
					tb   *tab
					want []mustSee
				}{{player, playerMustSee}, {spectator, spectatorMustSee}} {
					who := "player"
					if v.tb == spectator {
						who = "spectator"
					}
					v.tb.waitJS(fmt.Sprintf(`document.querySelector('#moves button.current')?.dataset.ply === '%d'`, ply),
						"the move list to mark the last move", `document.querySelector('#moves button.current')?.dataset.ply`, uiWait)
					v.tb.shot(who + "-" + when)
					for _, why := range v.tb.notInView(v.want) {
						t.Errorf("[%s] %s, %s: %s", vp.name, who, when, why)
					}
					if !vp.touch || vp.width > vp.height && vp.width >= 1000 {
						if s := v.tb.pageScroll(); s > 0 {
							t.Errorf("[%s] %s, %s: the page scrolls by %.0f px", vp.name, who, when, s)
						}
					}
				}
			}
			check(fmt.Sprintf("ply-%s", b.Ply), mustAtoi(t, b.Ply))
			ply := player.playSafe()
			spectator.waitPly(ply, uiWait)
			check(fmt.Sprintf("ply-%d", ply), ply)
		})
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return n
}
