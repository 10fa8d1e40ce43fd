package web

import "time"

// The clocks across a crash (issue 41 item 7). Each game's record holds
// the clocks as at its last commit and, while the mover's clock runs, the
// moment it started running from them (ClockSince: set by each commit and
// by a room's clock starting when a tab opens the game; cleared when the
// clock stops, the server's own stop included). A kill -9 leaves it set.
// The server marks every aliveEvery that it is running (store.MarkAlive),
// so the next start knows when the last one was last alive, and charges
// each such clock up to then: the mover's thinking before the crash, at
// most aliveEvery of it missed, and none of the time the server was down.

// aliveEvery is Config.aliveEvery's default.
const aliveEvery = time.Second

// runAliveMarker marks the server alive every aliveEvery until it closes.
func (s *Server) runAliveMarker() {
	every := s.cfg.aliveEvery
	if every <= 0 {
		every = aliveEvery
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	failed := false
	for {
		err := s.store.MarkAlive(time.Now())
		if err != nil && !failed {
			s.logf("%v (a crash now would not charge the clocks for their last moves' thinking)", err)
		}
		failed = err != nil
		select {
		case <-s.ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// crashCharge is the time to charge a clock that a record says had been
// running since since (nil: it was stopped) when the previous server
// stopped: from since up to when that server was last alive, read as this
// one started. Zero when nothing ran or nothing is known; never negative
// (a record written by this server, whose room then failed to stop its
// clock, is charged nothing here).
func (s *Server) crashCharge(since *time.Time) time.Duration {
	if since == nil || s.lastAlive.IsZero() {
		return 0
	}
	return max(s.lastAlive.Sub(*since), 0)
}
