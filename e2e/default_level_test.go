package e2e

import "testing"

// TestHomeDefaultLevel: a newcomer's form has the middle level (4)
// checked; a browser that played at another level gets its own choice
// back.
func TestHomeDefaultLevel(t *testing.T) {
	e := newEnv(t)
	tb := e.newTab(t, desktop)
	tb.open("/")
	tb.waitJS(`document.querySelector('form#new-game')`, "the new-game form", "", uiWait)
	checked := `document.querySelector('form#new-game').elements.namedItem('level').value`
	if got := eval[string](tb, checked); got != "4" {
		t.Errorf("a new browser's form has level %q checked, want 4", got)
	}
	tb.newGame(gameOpts{color: "white", level: "2"})
	tb.open("/")
	tb.waitJS(`document.querySelector('form#new-game')`, "the new-game form", "", uiWait)
	if got := eval[string](tb, checked); got != "2" {
		t.Errorf("after a game at level 2 the form has level %q checked, want the remembered 2", got)
	}
}
