package match

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// TimeControl is a game's clock: Base for the whole game plus Inc added after
// each move (Fischer), or a fixed MoveTime per move when MoveTime > 0.
type TimeControl struct {
	Base, Inc time.Duration
	MoveTime  time.Duration
}

// maxSeconds caps parsed times at a day so durations cannot overflow.
const maxSeconds = 86400

// ParseTimeControl parses "BASE+INC" or "BASE" in seconds (e.g. "10+0.1",
// "60", "0.5+0.05"), or "movetime=SECONDS" for a fixed time per move.
func ParseTimeControl(s string) (TimeControl, error) {
	s = strings.TrimSpace(s)
	bad := func(why string) (TimeControl, error) {
		return TimeControl{}, fmt.Errorf("time control %q: %s (want BASE+INC in seconds, e.g. 10+0.1, or movetime=SECONDS)", s, why)
	}
	if rest, ok := strings.CutPrefix(s, "movetime="); ok {
		mt, err := parseSeconds(rest)
		if err != nil {
			return bad(err.Error())
		}
		if mt <= 0 {
			return bad("movetime must be positive")
		}
		return TimeControl{MoveTime: mt}, nil
	}
	baseText, incText, hasInc := strings.Cut(s, "+")
	base, err := parseSeconds(baseText)
	if err != nil {
		return bad(err.Error())
	}
	var inc time.Duration
	if hasInc {
		if inc, err = parseSeconds(incText); err != nil {
			return bad(err.Error())
		}
	}
	if base <= 0 {
		return bad("base time must be positive")
	}
	return TimeControl{Base: base, Inc: inc}, nil
}

func parseSeconds(s string) (time.Duration, error) {
	if s == "" {
		return 0, errors.New("missing number")
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	if v < 0 || v > maxSeconds {
		return 0, fmt.Errorf("%q is out of range (0 to %d seconds)", s, maxSeconds)
	}
	return time.Duration(math.Round(v * float64(time.Second))), nil
}

// String returns the time control in the form ParseTimeControl reads, which
// is also PGN's TimeControl tag form ("10+0.1").
func (tc TimeControl) String() string {
	if tc.MoveTime > 0 {
		return "movetime=" + secs(tc.MoveTime)
	}
	if tc.Inc == 0 {
		return secs(tc.Base)
	}
	return secs(tc.Base) + "+" + secs(tc.Inc)
}

func secs(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}
