package game

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

type perftCase struct {
	fen    string
	depth  int
	nodes  uint64
	source string
}

// loadEPD reads "FEN ;D1 n ;D2 n ..." lines.
func loadEPD(t testing.TB, path string) []perftCase {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []perftCase
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		parts := strings.Split(text, ";")
		fen := strings.TrimSpace(parts[0])
		for _, part := range parts[1:] {
			var d int
			var n uint64
			fields := strings.Fields(part)
			if len(fields) != 2 || !strings.HasPrefix(fields[0], "D") {
				t.Fatalf("%s:%d: bad field %q", path, line, part)
			}
			d, err1 := strconv.Atoi(fields[0][1:])
			n, err2 := strconv.ParseUint(fields[1], 10, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s:%d: bad field %q", path, line, part)
			}
			out = append(out, perftCase{fen, d, n, path + ":" + strconv.Itoa(line)})
		}
	}
	return out
}

// perftTestLimit keeps the unit tests quick; deeper counts run in make bench
// (BenchmarkPerftDeep) and in `go run . perft`.
const perftTestLimit = 5_000_000

func TestPerftStandardEPD(t *testing.T) {
	for _, c := range loadEPD(t, "testdata/perft.epd") {
		if c.nodes > perftTestLimit && !(testing.Short() == false && os.Getenv("PERFT_DEEP") != "") {
			continue
		}
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatalf("%s: %v", c.source, err)
		}
		if got := Perft(p, c.depth); got != c.nodes {
			t.Errorf("%s: perft(%d) of %s = %d, want %d", c.source, c.depth, c.fen, got, c.nodes)
		}
	}
}
