package cli

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"knightwatch/match"
	"knightwatch/match/fakeuci"
)

// TestMatchFakeEngineHelper is not a test: the match tests run the test
// binary again with "-- fakeuci MODE" and it becomes a tiny UCI engine.
func TestMatchFakeEngineHelper(t *testing.T) {
	args := flag.Args()
	if len(args) != 2 || args[0] != "fakeuci" {
		t.Skip("helper process for the match command tests")
	}
	_ = fakeuci.Run(os.Stdin, os.Stdout, args[1])
	os.Exit(0)
}

func fakeEngineCommand(mode string) string {
	return fmt.Sprintf("%q -test.run=^TestMatchFakeEngineHelper$ -- fakeuci %s", os.Args[0], mode)
}

func TestMatchCommand(t *testing.T) {
	dir := t.TempDir()
	pgn := filepath.Join(dir, "games.pgn")
	epd := filepath.Join(dir, "openings.epd")
	if err := os.WriteFile(epd, []byte("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "match",
		"--engine1", fakeEngineCommand(fakeuci.Greedy), "--engine2", fakeEngineCommand(fakeuci.Varied),
		"--option2", "Hash=8", "--name2", "victim", "--games", "4", "--tc", "3+0.05",
		"--concurrency", "2", "--pgn", pgn, "--openings", epd)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	for _, want := range []string{"Score of fake-greedy vs victim", "RESULT games=4 ", "[e4]", "game 4/4"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	m := regexp.MustCompile(`RESULT games=4 wins=(\d+) draws=(\d+) losses=(\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no RESULT line:\n%s", out)
	}
	var w, d, l int
	fmt.Sscan(m[1]+" "+m[2]+" "+m[3], &w, &d, &l)
	if w+d+l != 4 {
		t.Errorf("W/D/L %d/%d/%d do not add up to 4", w, d, l)
	}
	data, err := os.ReadFile(pgn)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "[Event "); n != 4 {
		t.Errorf("PGN has %d games, want 4", n)
	}
	if !strings.Contains(string(data), `[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]`) {
		t.Errorf("PGN lacks the opening's FEN tag")
	}
}

func TestMatchCommandErrors(t *testing.T) {
	fakeCmd := fakeEngineCommand(fakeuci.First)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--engine2", fakeCmd}, "give --engine1 CMD or --level1 N"},
		{[]string{"--engine1", fakeCmd, "--level1", "3", "--engine2", fakeCmd}, "not both"},
		{[]string{"--level1", "9", "--engine2", fakeCmd}, "--level1 must be 1 to 8"},
		{[]string{"--engine1", fakeCmd, "--engine2", fakeCmd, "--tc", "fast"}, "time control"},
		{[]string{"--engine1", fakeCmd, "--engine2", fakeCmd, "--games", "0"}, "--games must be at least 1"},
		{[]string{"--engine1", fakeCmd, "--engine2", `"unclosed`}, "unclosed quote"},
		{[]string{"--engine1", fakeCmd, "--engine2", fakeCmd, "--openings", "/nonexistent.epd"}, "nonexistent"},
		{[]string{"--engine1", fakeCmd, "--engine2", fakeCmd, "--option1", "UCI_Elo=1500"}, `no option "UCI_Elo"`},
		{[]string{"--engine1", "/nonexistent/engine", "--engine2", fakeCmd}, "nonexistent"},
	}
	for _, tc := range tests {
		code, out, errOut := run(t, append([]string{"match"}, tc.args...)...)
		if code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want exit 1 and %q (stdout %q)", tc.args, code, errOut, tc.want, out)
		}
	}
	if code, _, errOut := run(t, "match", "--option1", "novalue"); code != 2 || !strings.Contains(errOut, "want Name=Value") {
		t.Errorf("bad --option1: exit %d, %q", code, errOut)
	}
}

func TestEngineSpecFromLevel(t *testing.T) {
	spec, err := engineSpec(1, "", 3, []match.Option{{Name: "Hash", Value: "64"}})
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	want := []match.Option{{Name: "Level", Value: "3"}, {Name: "Hash", Value: "64"}}
	if spec.Name != "knightwatch-L3" || len(spec.Command) != 2 || spec.Command[0] != exe || spec.Command[1] != "uci" || !reflect.DeepEqual(spec.Options, want) {
		t.Errorf("level spec %+v", spec)
	}
}
