package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"knightwatch/recon"
)

// TestRBCMatchCommand plays a short match and checks the lines it prints
// and the histories it saves, names as given on the command line.
func TestRBCMatchCommand(t *testing.T) {
	dir := t.TempDir()
	runRBCMatchOK(t, []string{"game 1: attacker (white) - random (black): ", "game 4: random (white) - attacker (black): ",
		"attacker vs random: 4 games", "score ", "attacker wins by: ", "draws by: "},
		"attacker", "random", "--games", "4", "--seconds", "60", "--increment", "1", "--seed", "3", "--out", dir, "--concurrency", "2")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 4 {
		t.Fatalf("%d histories saved, want 4", len(files))
	}
	for _, f := range files {
		h, err := recon.LoadHistory(f)
		if err != nil {
			t.Fatal(err)
		}
		if names := h.Names; !(names == [2]string{"attacker", "random"} || names == [2]string{"random", "attacker"}) {
			t.Errorf("%s: names %q", f, names)
		}
		code, pout, perr := run(t, "rbc-playback", f)
		if code != 0 || !strings.HasSuffix(strings.TrimSpace(pout), fmt.Sprintf("ok %d turns", h.NumTurns())) {
			t.Errorf("rbc-playback %s: exit %d\n%s%s", f, code, pout, perr)
		}
	}
}

// TestRBCMatchFirst checks that --first numbers the games from there, with
// the colours of their numbers: game 2 has the first bot as Black.
func TestRBCMatchFirst(t *testing.T) {
	dir := t.TempDir()
	runRBCMatchOK(t, []string{"game 2: random (white) - attacker (black): ", "game 3: attacker (white) - random (black): ",
		"attacker vs random: 2 games"},
		"attacker", "random", "--games", "2", "--first", "2", "--seconds", "0", "--turn-limit", "20", "--out", dir, "--concurrency", "1")
	if files, _ := filepath.Glob(filepath.Join(dir, "game0001-*")); len(files) != 0 {
		t.Errorf("--first 2 played game 1: %v", files)
	}
}

// runRBCMatchOK runs rbc-match with args, stops the test if it fails and checks
// that its output holds each of want.
func runRBCMatchOK(t *testing.T, want []string, args ...string) {
	t.Helper()
	code, out, errOut := run(t, append([]string{"rbc-match"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// TestRBCMatchErrors checks that bad arguments get a clear error.
func TestRBCMatchErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"rbc-match", "random"}, "want two bots"},
		{[]string{"rbc-match", "random", "nobody"}, "unknown bot"},
		{[]string{"rbc-match", "random", "random", "--games", "0"}, "--games"},
		{[]string{"rbc-match", "random", "random", "--first", "0"}, "--first"},
		{[]string{"rbc-match", "random", "random", "--seconds", "-1"}, "--seconds"},
		{[]string{"rbc-match", "random", "trout:speed=9"}, "unknown option"},
	}
	for _, tc := range tests {
		code, _, errOut := run(t, tc.args...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errOut)
		}
	}
}

// TestRBCPlaybackCommand checks ok, the first disagreement, malformed
// files, limits and feeding a bot.
func TestRBCPlaybackCommand(t *testing.T) {
	ok := "../recon/testdata/fixtures/random_seed2.json"
	code, out, errOut := run(t, "rbc-playback", ok)
	if code != 0 || !strings.HasSuffix(out, "ok 46 turns\n") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}

	data, err := os.ReadFile(ok)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// White's second move was b2b4 (taken b2b4); claim it was taken b2b3.
	tampered := strings.Replace(string(data), `"taken_moves": {"true": [{"type": "Move", "value": "g2g3"}, {"type": "Move", "value": "b2b4"}`,
		`"taken_moves": {"true": [{"type": "Move", "value": "g2g3"}, {"type": "Move", "value": "b2b3"}`, 1)
	if tampered == string(data) {
		t.Fatal("tampering found nothing to change")
	}
	code, out, errOut = run(t, "rbc-playback", write("tampered.json", tampered))
	if code == 0 || !strings.Contains(errOut, "turn white 1: taken move: expected b2b3, got b2b4") {
		t.Errorf("tampered: exit %d\n%s%s", code, out, errOut)
	}
	code, _, errOut = run(t, "rbc-playback", write("truncated.json", string(data[:len(data)/3])))
	if code == 0 || !strings.Contains(errOut, "not a JSON object") {
		t.Errorf("truncated: exit %d, %s", code, errOut)
	}
	code, _, errOut = run(t, "rbc-playback", filepath.Join(dir, "missing.json"))
	if code == 0 || !strings.Contains(errOut, "no such file") {
		t.Errorf("missing file: exit %d, %s", code, errOut)
	}

	// A turn-limit game re-plays with the inferred limit and with the
	// right one, and fails with a wrong one.
	tl := "../recon/testdata/fixtures/turn-limit-20/seed4343_game0.json"
	for _, tc := range []struct {
		args []string
		ok   bool
	}{{nil, true}, {[]string{"--turn-limit", "20"}, true}, {[]string{"--turn-limit", "15"}, false}, {[]string{"--turn-limit", "25"}, false}} {
		code, out, errOut := run(t, append([]string{"rbc-playback", tl}, tc.args...)...)
		if (code == 0) != tc.ok {
			t.Errorf("%v: exit %d\n%s%s", tc.args, code, out, errOut)
		}
	}

	// Feeding a bot: its differing choices are reported, the record is
	// still checked.
	code, out, errOut = run(t, "rbc-playback", ok, "--bot", "random", "--color", "black")
	if code != 0 || !strings.Contains(out, "turn black 0: the bot's") || !strings.HasSuffix(out, "ok 46 turns\n") {
		t.Errorf("--bot: exit %d\n%s%s", code, out, errOut)
	}
	code, _, errOut = run(t, "rbc-playback", ok, "--bot", "random")
	if code == 0 || !strings.Contains(errOut, "--color") {
		t.Errorf("--bot without --color: exit %d, %s", code, errOut)
	}

	// Studying a game: knightwatch's reasons and its belief's share of
	// the watched pieces before each choice (White's king on e1 at the
	// start: all of it; a black queen there: none).
	code, out, errOut = run(t, "rbc-playback", ok, "--bot", "knightwatch:turntime=20ms", "--color", "white", "--watch", "e1=K,e1=q")
	if code != 0 || !strings.Contains(out, "white 0: before the sense, 1 boards e1=K 1.000 e1=q 0.000\n") ||
		!strings.Contains(out, "white 0: sense ") || !strings.Contains(out, "white 0: move ") || !strings.HasSuffix(out, "ok 46 turns\n") {
		t.Errorf("--watch: exit %d\n%s%s", code, out, errOut)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--bot", "knightwatch", "--color", "white", "--watch", "e9=K"}, "--watch"},
		{[]string{"--bot", "knightwatch", "--color", "white", "--watch", "e1=X"}, "not a piece letter"},
		{[]string{"--bot", "knightwatch", "--color", "white", "--watch", "e1"}, "SQUARE=PIECE"},
		{[]string{"--bot", "random", "--color", "white", "--explain"}, "need --bot knightwatch"},
		{[]string{"--explain"}, "need --bot"},
	} {
		code, _, errOut := run(t, append([]string{"rbc-playback", ok}, tc.args...)...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want an error with %q", tc.args, code, errOut, tc.want)
		}
	}
}
