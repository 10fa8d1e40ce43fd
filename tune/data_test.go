package tune

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadTrainingData(t *testing.T) {
	cases := []struct {
		name string
		in   string
		n    int
		bad  bool
	}{
		{"two positions", "# comment\n" + "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;0.5\n\n4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1\n", 2, false},
		{"missing result", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1\n", 0, true},
		{"blended label", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;0.7\n", 1, false},
		{"result above 1", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1.5\n", 0, true},
		{"negative result", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;-0\n", 1, false},
		{"not a number", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;NaN\n", 0, true},
		{"bad fen", "4k3/8/8/8/8/8/8/3QKK2 w - - 0 1;1\n", 0, true},
		{"scored", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1;-35\n", 1, false},
		{"score not a number", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1;0.5\n", 0, true},
		{"score too large", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1;1000000\n", 0, true},
		{"empty", "", 0, false},
	}
	for _, c := range cases {
		got, err := ReadTrainingData(strings.NewReader(c.in))
		if (err != nil) != c.bad || len(got) != c.n {
			t.Errorf("%s: %d positions, error %v", c.name, len(got), err)
		}
	}
	// Round trip through the writer.
	ps := []TrainingPosition{{FEN: "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", Result: 1},
		{FEN: "4k3/8/8/8/8/8/8/3qK3 w - - 0 1", Result: 0, Score: -870, Scored: true}}
	var buf bytes.Buffer
	if err := WriteTrainingData(&buf, ps); err != nil {
		t.Fatal(err)
	}
	back, err := ReadTrainingData(&buf)
	if err != nil || len(back) != 2 || back[0] != ps[0] || back[1] != ps[1] {
		t.Errorf("round trip: %v %v", back, err)
	}
}

// TestTrainingFiles writes two files and reads them back in order; a
// missing file or a bad line names the file.
func TestTrainingFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	pa := []TrainingPosition{{FEN: "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", Result: 1}}
	pb := []TrainingPosition{{FEN: "4k3/8/8/8/8/8/q7/4K3 b - - 0 1", Result: 0.25, Score: -300, Scored: true}}
	if err := WriteTrainingFile(a, pa); err != nil {
		t.Fatal(err)
	}
	if err := WriteTrainingFile(b, pb); err != nil {
		t.Fatal(err)
	}
	got, err := ReadTrainingFiles([]string{a, b})
	if err != nil || len(got) != 2 || got[0] != pa[0] || got[1] != pb[0] {
		t.Fatalf("read back %v, %v", got, err)
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("not a position;1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, names := range [][]string{{a, filepath.Join(dir, "missing.txt")}, {bad}} {
		if _, err := ReadTrainingFiles(names); err == nil || !strings.Contains(err.Error(), filepath.Base(names[len(names)-1])) {
			t.Errorf("%v: error %v does not name the file", names, err)
		}
	}
	if err := WriteTrainingFile(filepath.Join(dir, "no-such-dir", "x.txt"), pa); err == nil {
		t.Error("wrote into a missing directory")
	}
}

// FuzzReadTrainingData: arbitrary files give positions or an error, never a panic.
func FuzzReadTrainingData(f *testing.F) {
	f.Add("4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1\n")
	f.Add("# x\n;;;\n")
	f.Add("8/8/8/8/8/8/8/8 w - - 0 1;0.5")
	f.Fuzz(func(t *testing.T, in string) {
		ps, err := ReadTrainingData(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, p := range ps {
			if !(p.Result >= 0 && p.Result <= 1) {
				t.Fatalf("bad result %v", p.Result)
			}
		}
	})
}
