package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"knightwatch/game"
)

// readLines reads the lines of an eco.tsv that gen wrote (-lines-from): for
// each source entry, the moves of the row with its EPD, replayed from the
// start; nil where the row's moves column is empty or the file has no row
// for the entry. A row the source no longer names is passed over. A row
// whose moves are not legal or do not arrive at its EPD is an error, as is
// an entry given twice: then the file is not gen's, or was damaged.
func readLines(r io.Reader, entries []sourceEntry, targets []*game.Position) ([][]game.Move, error) {
	index := make(map[string]int, len(entries))
	for i, e := range entries {
		index[e.epd] = i
	}
	out := make([][]game.Move, len(entries))
	given := make([]int, len(entries)) // the file's line of each entry's row
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("line %d: want 4 tab-separated fields (eco, name, epd, moves), got %d", n, len(f))
		}
		i, ok := index[f[2]]
		if !ok {
			continue
		}
		if given[i] != 0 {
			return nil, fmt.Errorf("line %d: the position of line %d again", n, given[i])
		}
		given[i] = n
		if f[3] == "" {
			continue
		}
		p := game.NewPosition()
		var line []game.Move
		for j, san := range strings.Fields(f[3]) {
			m, err := p.ParseSAN(san)
			if err == nil && m == game.NullMove {
				err = fmt.Errorf("a null move")
			}
			if err != nil {
				return nil, fmt.Errorf("line %d: move %d %q: %w", n, j+1, san, err)
			}
			line = append(line, m)
			p.MakeMove(m)
		}
		if p.RepetitionKey() != targets[i].RepetitionKey() {
			return nil, fmt.Errorf("line %d: the moves arrive at %s, not at the row's %s", n, p.EPD(), f[2])
		}
		out[i] = line
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
