package gaviota

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"knightwatch/game"
)

// fuzzTargets are the tables FuzzGaviotaTable reads from fuzzed bytes,
// with positions that probe them (both sides to move, several blocks).
var fuzzTargets = []struct {
	name string
	fens []string
}{
	{"kqk", []string{"7k/Q7/6K1/8/8/8/8/8 w - - 0 1", "7k/Q7/6K1/8/8/8/8/8 b - - 0 1", "8/8/8/3k4/8/8/8/Q3K3 b - - 0 1", "8/8/8/8/8/6k1/q7/7K b - - 0 1"}},
	{"kpk", []string{"8/8/3k4/8/8/3P4/8/3K4 b - - 0 1", "k7/8/K7/P7/8/8/8/8 w - - 0 1", "8/6p1/8/8/8/8/K7/6k1 b - - 0 1", "8/1P6/8/8/8/8/k7/6K1 w - - 0 1"}},
}

// FuzzGaviotaTable opens a table from fuzzed bytes (as the kqk or kpk
// table, by which) and probes positions in it. Probes may fail; they must
// not panic, hang or allocate beyond a block.
func FuzzGaviotaTable(f *testing.F) {
	for i, tg := range fuzzTargets {
		// The real tables, when installed, seed the fuzzer beside the
		// committed corpus (testdata/fuzz).
		if b, err := os.ReadFile(filepath.Join(DebianPath, tg.name+Suffix)); err == nil {
			f.Add(uint8(i), b)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		tg := fuzzTargets[int(which)%len(fuzzTargets)]
		s := schemes[tg.name]
		tf := &tableFile{path: "fuzzed", name: tg.name, scheme: s}
		tf.once.Do(func() { tf.t, tf.err = readTable(bytes.NewReader(data), int64(len(data)), s) })
		tb := &Tablebase{tables: map[string]*tableFile{tg.name: tf}, cache: newBlockCache(2), max: 3}
		for k := range 2 {
			p, err := game.ParseFEN(tg.fens[(int(which)/len(fuzzTargets)+k)%len(tg.fens)])
			if err != nil {
				t.Fatal(err)
			}
			if dtm, err := tb.ProbeDTM(p); err == nil && (dtm > 255 || dtm < -255) {
				t.Fatalf("DTM %d out of what an entry can say", dtm)
			}
		}
	})
}
