package cli

import (
	"bytes"
	"io"
	"os"
	"sort"
	"strings"
	"testing"
)

// repoAssets are the web assets main embeds, read from the repository.
var repoAssets = os.DirFS("..")

// runMain runs the binary's entry point in-process with the repository's
// web assets.
func runMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return Run(repoAssets, args, stdin, stdout, stderr)
}

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runMain(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestHelpListsEverySubcommand(t *testing.T) {
	code, out, _ := run(t, "help")
	if code != 0 {
		t.Fatalf("help exit %d", code)
	}
	for name := range commands {
		if !strings.Contains(out, "  "+name+" ") {
			t.Errorf("help does not list %q:\n%s", name, out)
		}
	}
}

func TestEverySubcommandHasHelpFlag(t *testing.T) {
	for name := range commands {
		code, _, errOut := run(t, name, "-h")
		if code != 0 {
			t.Errorf("%s -h: exit %d", name, code)
		}
		if !strings.Contains(errOut, "usage: knightwatch "+name) {
			t.Errorf("%s -h printed no usage:\n%s", name, errOut)
		}
	}
}

func TestUnknownSubcommand(t *testing.T) {
	code, _, errOut := run(t, "nonsense")
	if code != 2 || !strings.Contains(errOut, `unknown subcommand "nonsense"`) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestPerftCommand(t *testing.T) {
	tests := []struct {
		args []string
		last string
	}{
		{[]string{"perft", "--depth", "3"}, "Nodes searched: 8902"},
		{[]string{"perft", "--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "--depth", "2"}, "Nodes searched: 2039"},
		{[]string{"perft", "--fen", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "--depth", "3", "--divide"}, "Nodes searched: 2812"},
	}
	for _, tc := range tests {
		code, out, errOut := run(t, tc.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errOut)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if got := lines[len(lines)-1]; got != tc.last {
			t.Errorf("%v: last line %q, want %q", tc.args, got, tc.last)
		}
	}
}

func TestPerftDivideIsSortedAndSums(t *testing.T) {
	code, out, _ := run(t, "perft", "--depth", "2", "--divide")
	if code != 0 {
		t.Fatal("exit", code)
	}
	var moves []string
	for _, line := range strings.Split(out, "\n") {
		if k := strings.Index(line, ": "); k > 0 && !strings.HasPrefix(line, "Nodes") {
			moves = append(moves, line[:k])
			if line[k+2:] != "20" {
				t.Errorf("divide line %q: every reply count from the start is 20", line)
			}
		}
	}
	if len(moves) != 20 || !sort.StringsAreSorted(moves) {
		t.Errorf("want 20 sorted moves, got %v", moves)
	}
}

func TestPerftRejectsBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"perft", "--fen", "not a fen", "--depth", "1"},
		{"perft", "--depth", "0"},
		{"perft", "--depth", "x"},
	} {
		code, _, errOut := run(t, args...)
		if code == 0 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want an error", args, code, errOut)
		}
	}
}
