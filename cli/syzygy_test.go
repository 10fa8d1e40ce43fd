package cli

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const syzygyTestdata = "../syzygy/testdata"

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestSyzygyCommand(t *testing.T) {
	for _, c := range []struct{ fen, want string }{
		{"8/8/8/2R5/1K6/8/5k2/8 w - -", "wdl 2 dtz 21"},
		{"8/1K6/4q3/8/8/6p1/8/2k5 w - -", "wdl -2 dtz -2"},
		{"2K5/8/8/8/6P1/8/2n5/1k6 w - -", "wdl 0 dtz 0"},
		{"8/4r3/8/K7/4R3/8/8/5k2 w - - 0 1", "wdl 2 dtz 1"},
	} {
		code, out, errOut := run(t, "syzygy", "--path", syzygyTestdata, "--fen", c.fen)
		if code != 0 || lastLine(out) != c.want {
			t.Errorf("%s: exit %d, last line %q (stderr %q), want %q", c.fen, code, lastLine(out), errOut, c.want)
		}
	}
}

// TestSyzygyCommandExpectedEPD runs the subcommand on every position of
// the tables' expected.epd ("FEN; wdl_table W; wdl W; dtz D;").
func TestSyzygyCommandExpectedEPD(t *testing.T) {
	f, err := os.Open(filepath.Join(syzygyTestdata, "expected.epd"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 {
			continue
		}
		var wdlTable, wdl, dtz int
		if _, err := fmt.Sscanf(strings.Join(fields[4:], " "), "wdl_table %d; wdl %d; dtz %d;", &wdlTable, &wdl, &dtz); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		fen := strings.Join(fields[:4], " ")
		want := fmt.Sprintf("wdl %d dtz %d", wdl, dtz)
		code, out, errOut := run(t, "syzygy", "--path", syzygyTestdata, "--fen", fen)
		if code != 0 || lastLine(out) != want {
			t.Errorf("%s: exit %d, last line %q (stderr %q), want %q", fen, code, lastLine(out), errOut, want)
		}
		n++
	}
	if n != 200 {
		t.Errorf("%d positions, want 200", n)
	}
}

func TestSyzygyCommandErrors(t *testing.T) {
	only := t.TempDir()
	b, err := os.ReadFile(filepath.Join(syzygyTestdata, "KRvK.rtbw"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(only, "KRvK.rtbw"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no table for the material", []string{"--path", only, "--fen", "8/8/2Q5/8/1K6/8/5k2/8 w - - 0 1"}, "missing table KQvK.rtbw"},
		{"no DTZ table", []string{"--path", only, "--fen", "8/8/8/2R5/1K6/8/5k2/8 w - - 0 1"}, "missing table KRvK.rtbz"},
		{"malformed FEN", []string{"--path", syzygyTestdata, "--fen", "8/8/8/2R5/1K6/8/5k2 w - - 0 1"}, "invalid FEN"},
		{"too many pieces", []string{"--path", syzygyTestdata, "--fen", "8/8/8/2R5/1K6/8/4pk2/N7 w - - 0 1"}, "too many pieces"},
		{"castling", []string{"--path", syzygyTestdata, "--fen", "4k2r/8/8/8/8/8/8/4K3 b k - 0 1"}, "castling"},
		{"no tables", []string{"--path", t.TempDir(), "--fen", "8/8/8/2R5/1K6/8/5k2/8 w - - 0 1"}, "no Syzygy tables"},
		{"missing directory", []string{"--path", filepath.Join(only, "nope"), "--fen", "8/8/8/2R5/1K6/8/5k2/8 w - - 0 1"}, "no such file"},
		{"no flags", nil, "--path and --fen"},
	} {
		code, out, errOut := run(t, append([]string{"syzygy"}, c.args...)...)
		if code != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and %q", c.name, code, out, errOut, c.want)
		}
	}
}
