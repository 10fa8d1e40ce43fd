package syzygy

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"knightwatch/game"
)

// epdCase is one line of testdata/expected.epd.
type epdCase struct {
	fen                string
	wdlTable, wdl, dtz int
}

func loadEPD(t testing.TB) []epdCase {
	t.Helper()
	f, err := os.Open("testdata/expected.epd")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []epdCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		fields := strings.Fields(line)
		c := epdCase{fen: strings.Join(fields[:4], " ")}
		ops := strings.Split(strings.Join(fields[4:], " "), ";")
		seen := 0
		for _, op := range ops {
			kv := strings.Fields(op)
			if len(kv) != 2 {
				continue
			}
			v, err := strconv.Atoi(kv[1])
			if err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			switch kv[0] {
			case "wdl_table":
				c.wdlTable = v
			case "wdl":
				c.wdl = v
			case "dtz":
				c.dtz = v
			default:
				continue
			}
			seen++
		}
		if seen != 3 {
			t.Fatalf("%q: want wdl_table, wdl and dtz", line)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

func openTestdata(t testing.TB) *Tablebase {
	t.Helper()
	tb, err := Open("testdata")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

// TestExpectedEPD checks every position of expected.epd: the raw table
// value, WDL and DTZ.
func TestExpectedEPD(t *testing.T) {
	tb := openTestdata(t)
	cases := loadEPD(t)
	if len(cases) != 200 {
		t.Fatalf("expected.epd has %d positions, want 200", len(cases))
	}
	pass := 0
	for _, c := range cases {
		p, err := game.ParseFEN(c.fen)
		if err != nil {
			t.Errorf("%s: %v", c.fen, err)
			continue
		}
		ok := true
		raw, err := tb.probeWDLTable(p)
		if err != nil || raw != c.wdlTable {
			t.Errorf("%s: wdl_table = %d, %v; want %d", c.fen, raw, err, c.wdlTable)
			ok = false
		}
		wdl, err := tb.ProbeWDL(p)
		if err != nil || int(wdl) != c.wdl {
			t.Errorf("%s: wdl = %d, %v; want %d", c.fen, wdl, err, c.wdl)
			ok = false
		}
		dtz, err := tb.ProbeDTZ(p)
		if err != nil || dtz != c.dtz {
			t.Errorf("%s: dtz = %d, %v; want %d", c.fen, dtz, err, c.dtz)
			ok = false
		}
		if ok {
			pass++
		}
	}
	t.Logf("%d/%d positions agree", pass, len(cases))
}
