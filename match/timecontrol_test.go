package match

import (
	"testing"
	"time"

	"knightwatch/game"
)

func TestParseTimeControl(t *testing.T) {
	tests := []struct {
		in      string
		want    TimeControl
		wantErr bool
	}{
		{"10+0.1", TimeControl{Base: 10 * time.Second, Inc: 100 * time.Millisecond}, false},
		{"60", TimeControl{Base: time.Minute}, false},
		{" 2+0.05 ", TimeControl{Base: 2 * time.Second, Inc: 50 * time.Millisecond}, false},
		{"0.5+0", TimeControl{Base: 500 * time.Millisecond}, false},
		{"movetime=0.25", TimeControl{MoveTime: 250 * time.Millisecond}, false},
		{"", TimeControl{}, true},
		{"+1", TimeControl{}, true},
		{"10+", TimeControl{}, true},
		{"0+1", TimeControl{}, true},
		{"-5+1", TimeControl{}, true},
		{"10+-1", TimeControl{}, true},
		{"ten", TimeControl{}, true},
		{"NaN", TimeControl{}, true},
		{"Inf+0", TimeControl{}, true},
		{"1e300", TimeControl{}, true},
		{"movetime=0", TimeControl{}, true},
		{"movetime=", TimeControl{}, true},
		{"10+0.1+1", TimeControl{}, true},
	}
	for _, tc := range tests {
		got, err := ParseTimeControl(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ParseTimeControl(%q) = %+v, %v; want %+v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
		if err == nil {
			// String gives back something that parses to the same clock.
			again, err := ParseTimeControl(got.String())
			if err != nil || again != got {
				t.Errorf("round trip of %q via %q: %+v, %v", tc.in, got.String(), again, err)
			}
		}
	}
}

func TestGoCommand(t *testing.T) {
	clock := [2]time.Duration{3 * time.Second, 1500 * time.Microsecond}
	grace := 50 * time.Millisecond
	tests := []struct {
		tc        TimeControl
		side      int
		want      string
		wantLimit time.Duration
	}{
		{TimeControl{Base: 10 * time.Second, Inc: 100 * time.Millisecond}, 0, "go wtime 3000 btime 1 winc 100 binc 100", 3050 * time.Millisecond},
		{TimeControl{Base: 10 * time.Second}, 1, "go wtime 3000 btime 1", 1500*time.Microsecond + grace},
		{TimeControl{MoveTime: 200 * time.Millisecond}, 0, "go movetime 200", 250 * time.Millisecond},
	}
	for _, tc := range tests {
		got, limit := goCommand(tc.tc, clock, game.Color(tc.side), grace)
		if got != tc.want || limit != tc.wantLimit {
			t.Errorf("goCommand(%v, side %d) = %q, %v; want %q, %v", tc.tc, tc.side, got, limit, tc.want, tc.wantLimit)
		}
	}
}
