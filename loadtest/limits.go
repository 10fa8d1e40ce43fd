package loadtest

import (
	"fmt"
	"net"
	"net/url"
	"time"
)

// Bounds on what one run may ask for. The tools talk only to a server they
// started themselves on loopback, and these keep a mistyped flag from
// turning a benchmark into a machine-wide outage.
const (
	// MaxActiveGames bounds the games played at once by Run and Crash.
	MaxActiveGames = 2000
	// MaxIdleGames bounds the games Idle opens (each costs the server
	// and this process a descriptor).
	MaxIdleGames = 20000
	// MaxDuration bounds one load run and one crash run.
	MaxDuration = 10 * time.Minute
	// MaxKills bounds the kills of one crash run.
	MaxKills = 500
)

// checkLoopback refuses a base URL (http:// or ws://) whose host is not a
// loopback IP address: nothing here may load another machine.
func checkLoopback(base string) error {
	u, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("loadtest: target %q: %v", base, err)
	}
	ip := net.ParseIP(u.Hostname())
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("loadtest: target %q is not a loopback address; only loopback targets are allowed", base)
	}
	return nil
}

// checkCount refuses n outside 1..limit for the thing called what.
func checkCount(what string, n, limit int) error {
	if n < 1 || n > limit {
		return fmt.Errorf("loadtest: %s %d: must be from 1 to %d", what, n, limit)
	}
	return nil
}

// checkDuration refuses d outside (0, MaxDuration].
func checkDuration(what string, d time.Duration) error {
	if d <= 0 || d > MaxDuration {
		return fmt.Errorf("loadtest: %s %v: must be above 0 and at most %v", what, d, MaxDuration)
	}
	return nil
}

// checkShares refuses a share of level-8 players or of recon players
// outside [0, 1], and the two together above 1.
func checkShares(level8, recon float64) error {
	for _, sh := range []struct {
		what string
		f    float64
	}{{"level-8 share", level8}, {"recon share", recon}} {
		if !(sh.f >= 0 && sh.f <= 1) {
			return fmt.Errorf("loadtest: %s %v: must be from 0 to 1", sh.what, sh.f)
		}
	}
	if level8+recon > 1 {
		return fmt.Errorf("loadtest: level-8 share %v plus recon share %v exceed 1", level8, recon)
	}
	return nil
}
