package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestServerDownBoardVisible kills the server in the middle of a clocked
// game: the reconnect banner must show without covering any of the board,
// both clocks must stand still while nothing can be heard from the server
// (its clock is the truth), and after the restart the banner goes and the
// game carries on with the clocks running again.
func TestServerDownBoardVisible(t *testing.T) {
	e := newEnv(t)
	for _, vp := range []viewport{desktop, phone} {
		t.Run(vp.name, func(t *testing.T) { serverDown(t, e, vp) })
	}
}

func serverDown(t *testing.T, e *env, vp viewport) {
	tb := e.newTab(t, vp)
	defer tb.close()
	tb.newGame(gameOpts{color: "white", level: "1", clock: "3+0"})
	tb.playAndWait("e2", "e4", 2)
	clocks := `[...document.querySelectorAll('.clock[data-clock]')].map(c => c.dataset.clock + '=' + c.textContent).join(' ')`
	tb.waitJS(`document.querySelector('.clock.running') !== null`, "a running clock after the engine's reply", clocks, uiWait)

	boardBefore := eval[rect](tb, `(() => { const r = document.getElementById('board').getBoundingClientRect(); return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`)
	if err := e.srv.Kill(); err != nil {
		t.Fatalf("killing the server: %v", err)
	}
	banner := `(() => { const b = document.getElementById('conn-banner'); return !!b && !b.hidden && b.getBoundingClientRect().height > 0; })()`
	tb.waitJS(banner, "the reconnect banner while the server is down", `document.getElementById('conn-banner')?.outerHTML`, 5*time.Second)
	tb.shot("server-down")
	type box struct{ L, T, R, B float64 }
	rects := eval[map[string]box](tb, `(() => { const out = {};
		for (const [k, sel] of [['banner', '#conn-banner'], ['board', '#board']]) {
			const r = document.querySelector(sel).getBoundingClientRect();
			out[k] = {L: r.left, T: r.top, R: r.right, B: r.bottom};
		}
		return out; })()`)
	b, bd := rects["banner"], rects["board"]
	if b.L < bd.R && bd.L < b.R && b.T < bd.B && bd.T < b.B {
		t.Errorf("the reconnect banner %+v overlaps the board %+v", b, bd)
	}
	if (rect{X: bd.L, Y: bd.T, W: bd.R - bd.L, H: bd.B - bd.T}) != boardBefore {
		t.Errorf("the board moved when the banner showed: %+v, before %+v", bd, boardBefore)
	}
	before := eval[string](tb, clocks)
	time.Sleep(2 * time.Second) // time itself is what is tested: the clocks stand still while the server is down
	after := eval[string](tb, clocks)
	if before != after || !strings.Contains(before, "white=") {
		t.Errorf("the clocks moved while the server was down: %q, 2 s later %q", before, after)
	}

	if err := e.srv.Start(); err != nil {
		t.Fatalf("restarting the server: %v", err)
	}
	tb.waitJS(`document.getElementById('conn-banner').hidden`, "the banner gone after the restart", `document.getElementById('conn-banner')?.outerHTML`, 20*time.Second)
	tb.shot("reconnected")
	moved := tb.playAndWait("g1", "f3", 4)
	if moved.Pieces["f3"] != "wN" {
		t.Errorf("after the restart Nf3 did not land: f3=%q", moved.Pieces["f3"])
	}
	running := eval[string](tb, clocks)
	time.Sleep(1500 * time.Millisecond) // time itself is what is tested: the clocks run again
	if later := eval[string](tb, clocks); later == running {
		t.Errorf("the clocks stand still after reconnecting: %q", later)
	}
}
