package loadtest

import (
	"strings"
	"testing"
	"time"
)

func TestClockDisagreement(t *testing.T) {
	at := time.Unix(1000, 0)
	for _, tc := range []struct {
		name string
		a, b spectatorClock
		want string // "" or a part of the words
	}{
		{"both standing, equal", spectatorClock{White: 5000, Black: 4000, at: at}, spectatorClock{White: 5000, Black: 4000, at: at.Add(time.Second)}, ""},
		{"standing, a millisecond apart", spectatorClock{White: 5000, Black: 4000, at: at}, spectatorClock{White: 4999, Black: 4000, at: at}, "white's clock stands at 5000 and 4999"},
		{"one runs, one stands", spectatorClock{White: 5000, Running: "white", at: at}, spectatorClock{White: 5000, at: at}, `running "white" and ""`},
		{"running, by the time between", spectatorClock{White: 5000, Black: 4000, Running: "white", at: at}, spectatorClock{White: 4800, Black: 4000, Running: "white", at: at.Add(200 * time.Millisecond)}, ""},
		{"running, more than the time between", spectatorClock{White: 5000, Black: 4000, Running: "white", at: at}, spectatorClock{White: 4700, Black: 4000, Running: "white", at: at.Add(200 * time.Millisecond)}, "white's clock runs"},
		{"running, later reading shows more", spectatorClock{White: 5000, Black: 4000, Running: "white", at: at}, spectatorClock{White: 5002, Black: 4000, Running: "white", at: at.Add(time.Millisecond)}, "white's clock runs"},
		{"running white, black's differs", spectatorClock{White: 5000, Black: 4000, Running: "white", at: at}, spectatorClock{White: 5000, Black: 3999, Running: "white", at: at}, "black's clock stands"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := clockDisagreement(tc.a, tc.b)
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}
