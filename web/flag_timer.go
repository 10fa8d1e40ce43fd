package web

import (
	"time"

	"knightwatch/recon"
)

// flagTimer fires when the mover's clock of a Reconnaissance Chess arbiter
// runs out: the flag timer of a game in the browser (reconRoom) and of a
// game of the HTTP API (apiTable). Its owner arms and stops it under its
// own lock; fire runs without it, and looks again under the lock.
type flagTimer struct {
	t *time.Timer
}

// flagSlack is how long after the clock runs out the timer fires, so that
// the arbiter, asked then, agrees that it has.
const flagSlack = 5 * time.Millisecond

// stop disarms the timer.
func (f *flagTimer) stop() {
	if f.t != nil {
		f.t.Stop()
		f.t = nil
	}
}

// arm (re)arms the timer for the time g's mover has left, as g's own clock
// measures it (a room whose clock stands still has its own time), when g
// has a running clock; otherwise it only stops it.
func (f *flagTimer) arm(g *recon.Game, fire func()) {
	f.stop()
	if _, ok := g.Deadline(); ok {
		f.t = time.AfterFunc(g.SecondsLeft(g.Turn())+flagSlack, fire)
	}
}
