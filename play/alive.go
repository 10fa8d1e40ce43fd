package play

import "time"

// The clocks across a crash (issue 41 item 7). Each game's record holds
// the clocks as at its last commit and, while the mover's clock runs, the
// moment it started running from them (ClockSince: set by each commit and
// by a host's clock starting when a tab opens the game; cleared when the
// clock stops, the server's own stop included). A kill -9 leaves it set.
// The server marks every Config.AliveEvery that it is running
// (store.MarkAlive), so the next start knows when the last one was last
// alive, and charges each such clock up to then: the mover's thinking
// before the crash, at most AliveEvery of it missed, and none of the time
// the server was down (an API game's too: package rbcapi restores its
// arbiter with RestoreArbiter).

// DefaultAliveEvery is Config.AliveEvery's default.
const DefaultAliveEvery = time.Second

// runAliveMarker marks the server alive every Config.AliveEvery until
// Close; with a Presence, it renews the server's and sweeps the hosts'
// (live.Registry.SweepPresence) as often.
func (gs *Games) runAliveMarker() {
	tick := time.NewTicker(gs.cfg.AliveEvery)
	defer tick.Stop()
	failed := false
	for {
		err := gs.cfg.Store.MarkAlive(time.Now())
		if err != nil && !failed {
			gs.logf("%v (a crash now would not charge the clocks for their last moves' thinking)", err)
		}
		failed = err != nil
		if p := gs.cfg.Presence; p != nil {
			if err := p.Renew(time.Now()); err != nil {
				gs.logf("%v", err)
			}
			gs.reg.SweepPresence()
		}
		select {
		case <-gs.ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// crashCharge is the time to charge a clock that a record says had been
// running since since (nil: it was stopped) when the previous server
// stopped: from since up to when that server was last alive, read as this
// one started. Zero when nothing ran or nothing is known; never negative
// (a record written by this server, whose host then failed to stop its
// clock, is charged nothing here).
func (gs *Games) crashCharge(since *time.Time) time.Duration {
	if since == nil || gs.lastAlive.IsZero() {
		return 0
	}
	return max(gs.lastAlive.Sub(*since), 0)
}
