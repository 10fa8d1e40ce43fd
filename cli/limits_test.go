package cli

import (
	"fmt"
	"strings"
	"testing"

	"knightwatch/engine"
	"knightwatch/match/fakeuci"
)

// TestOptionLimitsFromUCITable: the commands that take the engine's UCI
// settings (bench --threads/--hash, match --levelN, chenserver -hash)
// accept exactly the range the UCI option table announces, and say so.
func TestOptionLimitsFromUCITable(t *testing.T) {
	threads, hash, level := engine.UCIOption("Threads"), engine.UCIOption("Hash"), engine.UCIOption("Level")
	// The limits as they were before they came from the table.
	if threads.Min != 1 || threads.Max != 64 || hash.Min != 1 || hash.Max != 4096 || level.Min != 1 || level.Max != 8 || level.Max != len(engine.Levels) {
		t.Fatalf("limits changed: threads %d..%d, hash %d..%d, level %d..%d", threads.Min, threads.Max, hash.Min, hash.Max, level.Min, level.Max)
	}
	if minLevel != level.Min || maxLevel != level.Max {
		t.Errorf("match accepts levels %d..%d, the Level option %d..%d", minLevel, maxLevel, level.Min, level.Max)
	}
	fakeCmd := fakeEngineCommand(fakeuci.First)
	cases := []struct {
		name string
		args []string
		code int
		want string // substring of stderr ("" when the command succeeds)
	}{
		{"bench threads below", []string{"bench", "--depth", "1", "--threads", fmt.Sprint(threads.Min - 1)}, 1, fmt.Sprintf("--threads must be in %d..%d, got %d", threads.Min, threads.Max, threads.Min-1)},
		{"bench threads above", []string{"bench", "--depth", "1", "--threads", fmt.Sprint(threads.Max + 1)}, 1, "--threads must be in 1..64, got 65"},
		{"bench hash below", []string{"bench", "--depth", "1", "--hash", fmt.Sprint(hash.Min - 1)}, 1, fmt.Sprintf("--hash must be in %d..%d, got %d", hash.Min, hash.Max, hash.Min-1)},
		{"bench hash above", []string{"bench", "--depth", "1", "--hash", fmt.Sprint(hash.Max + 1)}, 1, "--hash must be in 1..4096, got 4097"},
		{"bench threads and hash at their limits", []string{"bench", "--depth", "1", "--threads", fmt.Sprint(threads.Max), "--hash", fmt.Sprint(hash.Min)}, 0, ""},
		{"match level below", []string{"match", "--level1", "-1", "--engine2", fakeCmd}, 1, fmt.Sprintf("--level1 must be %d to %d, got -1", level.Min, level.Max)},
		{"match level above", []string{"match", "--engine1", fakeCmd, "--level2", fmt.Sprint(level.Max + 1)}, 1, "--level2 must be 1 to 8, got 9"},
		{"chenserver hash below", []string{"chenserver", "-s", "-hash", fmt.Sprint(hash.Min - 1)}, 1, fmt.Sprintf("-hash must be at least %d, got %d", hash.Min, hash.Min-1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := run(t, c.args...)
			if code != c.code || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q (stdout %q)", code, errOut, c.code, c.want, out)
			}
		})
	}
	// Every level of the table makes an engine spec; the ones beside it do not.
	for lv := level.Min - 1; lv <= level.Max+1; lv++ {
		if lv == 0 {
			continue // no --levelN at all
		}
		_, err := engineSpec(1, "", lv, nil)
		if ok := level.InRange(lv); (err == nil) != ok {
			t.Errorf("engineSpec level %d: %v (in range: %v)", lv, err, ok)
		}
	}
	// The match help names the range.
	if _, _, errOut := run(t, "match", "-h"); !strings.Contains(errOut, fmt.Sprintf("(%d-%d)", level.Min, level.Max)) {
		t.Errorf("match -h does not name the level range: %q", errOut)
	}
}
