package loadtest

import (
	"testing"
	"time"

	"knightwatch/pgtest"
)

// The proof that a site of several servers loses nothing (issue 44), the
// short form of bench/crash.sh -site: three servers and two engine
// workers on one PostgreSQL behind a round-robin proxy that cuts every
// connection within a second or two, so that each player's socket comes
// back to another server again and again; players of chess (against the
// engine, whose every reply is a job a worker takes) and of
// Reconnaissance Chess; a server or a worker killed with SIGKILL at
// random moments, in turn, and started again. Every acknowledged move and
// recon action must be stored, nothing beyond what was played (an engine
// or bot move twice in a turn would be), every game must replay (recon
// games through the arbiter, as rbc-playback does), no player may be told
// a state that contradicts one it saw on another server, and every player
// must play on after the last restart; at the end the clocks of the games
// in play read the same on every server. Only those invariants are
// asserted, never a time.
func TestSiteCrashShort(t *testing.T) {
	rep := runCrashTest(t, CrashConfig{
		Kills: 4, Games: 8, Recon: 0.25, ReconBot: "random",
		MinUp: 1500 * time.Millisecond, MaxUp: 3 * time.Second, Think: 50 * time.Millisecond,
		Progress: 2 * time.Minute,
		Postgres: pgtest.DB(t), Servers: 3, Workers: 2, ConnLife: 2 * time.Second,
	})
	if rep.Kills != 4 || rep.CheckedMoves == 0 || rep.CheckedActions == 0 || rep.ReconGames == 0 || rep.EngineAnswers == 0 || rep.ClockGames == 0 {
		t.Errorf("seed %d: %d kills, %d chess moves and %d recon actions checked in %d recon games, %d engine jobs, %d games' clocks: the test tested too little",
			rep.Config.Seed, rep.Kills, rep.CheckedMoves, rep.CheckedActions, rep.ReconGames, rep.EngineAnswers, rep.ClockGames)
	}
}
