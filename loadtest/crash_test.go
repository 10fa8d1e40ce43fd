package loadtest

import (
	"strings"
	"testing"
	"time"

	"knightwatch/e2e"
)

// runCrashTest builds the real binary, runs the crash test cfg (its Bin
// and Seed filled in), logs the report and fails on an error or any
// problem; the caller checks that it tested enough.
func runCrashTest(t *testing.T, cfg CrashConfig) *CrashReport {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and kills the real server; runs in make test (unit)")
	}
	bin, err := e2e.BuildInto(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Bin, cfg.Seed = bin, uint64(time.Now().UnixNano())
	rep, err := Crash(cfg)
	if rep != nil {
		var b strings.Builder
		rep.Print(&b)
		t.Log(b.String())
	}
	if err != nil {
		t.Fatalf("seed %d: %v", cfg.Seed, err)
	}
	for _, p := range rep.Problems {
		t.Errorf("seed %d: %s", cfg.Seed, p)
	}
	return rep
}

// The crash test's short form (the long form is bench/crash.sh): the real
// server under a few players of chess and Reconnaissance Chess, killed
// with SIGKILL four times at random moments and restarted on the same
// database. Every acknowledged move, sense and recon move must be stored,
// nothing beyond what the players sent, every game must replay (recon
// games through the arbiter), and every player must play on after the
// last restart. Only those invariants are asserted, never a time.
func TestCrashShort(t *testing.T) {
	rep := runCrashTest(t, CrashConfig{
		Kills: 4, Games: 8, Recon: 0.25, ReconBot: "random",
		MinUp: 400 * time.Millisecond, MaxUp: 1500 * time.Millisecond, Think: 50 * time.Millisecond,
		Progress: 2 * time.Minute,
	})
	// It must have tested something: kills done, acknowledged chess moves
	// and recon actions compared.
	if rep.Kills != 4 || rep.CheckedMoves == 0 || rep.CheckedActions == 0 || rep.ReconGames == 0 {
		t.Errorf("seed %d: %d kills, %d chess moves and %d recon actions checked in %d recon games: the test tested too little",
			rep.Config.Seed, rep.Kills, rep.CheckedMoves, rep.CheckedActions, rep.ReconGames)
	}
}
