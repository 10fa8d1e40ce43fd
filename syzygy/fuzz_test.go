package syzygy

import (
	"os"
	"path/filepath"
	"testing"
)

// fuzzTargets are the tables FuzzSyzygyTable replaces with fuzzed bytes,
// with positions that read them (both sides to move, a few piece layouts).
var fuzzTargets = []struct {
	file string
	fens []string
}{
	{"KRvK.rtbw", []string{"8/8/8/2R5/1K6/8/5k2/8 w - - 0 1", "8/8/8/2R5/1K6/8/5k2/8 b - - 0 1", "R7/8/8/8/8/8/k7/2K5 b - - 0 1"}},
	{"KRvK.rtbz", []string{"8/8/8/2R5/1K6/8/5k2/8 w - - 0 1", "8/8/8/2R5/1K6/8/5k2/8 b - - 0 1", "R7/8/8/8/8/8/k7/2K5 b - - 0 1"}},
	{"KPvK.rtbw", []string{"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", "8/8/8/4k3/8/8/4P3/4K3 b - - 0 1", "8/1P6/8/8/8/8/k7/6K1 w - - 0 1"}},
	{"KPvK.rtbz", []string{"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", "8/8/8/4k3/8/8/4P3/4K3 b - - 0 1", "8/6p1/8/8/8/8/K7/6k1 b - - 0 1"}},
	{"KRRvK.rtbw", []string{"8/8/8/2R5/1K6/8/5k2/6R1 w - - 0 1", "8/8/8/2R5/1K6/8/5k2/7R b - - 0 1"}},
	{"KQvKR.rtbw", []string{"1R6/3k4/8/8/8/1K6/8/2q5 b - - 0 1", "1R6/3k4/8/8/8/1K6/8/2q5 w - - 0 1"}},
}

// FuzzSyzygyTable probes positions with one table replaced by fuzzed bytes
// (zero-padded to a size of the form 64k+16, so that mutations reach the
// parser and decoder rather than the size check), the other tables intact.
// Probes may fail; they must not panic or hang.
func FuzzSyzygyTable(f *testing.F) {
	for i, tg := range fuzzTargets {
		b, err := os.ReadFile(filepath.Join("testdata", tg.file))
		if err != nil {
			f.Fatal(err)
		}
		if len(b) <= 1<<15 {
			f.Add(uint8(i), b)
		}
	}
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir() // one per fuzzing process; each input's file is removed after it
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		tg := fuzzTargets[int(which)%len(fuzzTargets)]
		if len(data) > 1<<16 {
			return // the targets are at most 20 KB; larger inputs only slow the fuzzer
		}
		size := len(data) - len(data)%64 + 16
		if size < len(data) {
			size += 64
		}
		buf := make([]byte, size)
		copy(buf, data)
		path := filepath.Join(dir, tg.file)
		if err := os.WriteFile(path, buf, 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(path)
		tb, err := Open(dir + string(os.PathListSeparator) + testdata)
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Close()
		// Two of the target's positions, picked by which: corrupt data can
		// make every decoded value walk a whole block, so a probe costs up
		// to milliseconds and the fuzzer's 10 s limit per input must hold
		// on a loaded machine.
		for k := 0; k < 2; k++ {
			p := mustFEN(t, tg.fens[(int(which)/len(fuzzTargets)+k)%len(tg.fens)])
			tb.probeWDLTable(p)
			tb.ProbeWDL(p)
			tb.ProbeDTZ(p)
		}
	})
}
