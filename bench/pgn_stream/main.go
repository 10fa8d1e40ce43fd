// Command pgn_stream measures game.PGNReader on one PGN file: either
// reading every game in full (Next: tags, moves checked for legality,
// comments, variations) or scanning only the headers (NextHeaders: tags
// and byte offsets, movetext skipped unparsed, like python-chess's
// scan_headers). It prints games, games with errors, bytes, seconds,
// games/s and MB/s (10^6 bytes). Peak memory is measured from outside:
// bench/pgn_stream.sh runs it under /usr/bin/time -v.
//
//	go run ./bench/pgn_stream -mode next /tmp/big.pgn
//	go run ./bench/pgn_stream -mode headers /tmp/big.pgn
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"knightwatch/game"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func main() {
	mode := flag.String("mode", "next", "next (full games) or headers (header scan)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: pgn_stream [-mode next|headers] file.pgn")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || *mode != "next" && *mode != "headers" {
		flag.Usage()
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	cr := &countingReader{r: bufio.NewReaderSize(f, 1<<20)}
	pr := game.NewPGNReader(cr)
	start := time.Now()
	var games, bad, moves int64
	for {
		if *mode == "headers" {
			_, err = pr.NextHeaders()
		} else {
			var g *game.PGNGame
			if g, err = pr.Next(); err == nil {
				if len(g.Errors) > 0 {
					bad++
				}
				moves += int64(len(g.MainlineMoves()))
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		games++
	}
	sec := time.Since(start).Seconds()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("mode %s: %d games (%d with errors, %d main-line moves), %.1f MB in %.2f s: %.0f games/s, %.1f MB/s; Go heap from the OS %.1f MB\n",
		*mode, games, bad, moves, float64(cr.n)/1e6, sec, float64(games)/sec, float64(cr.n)/1e6/sec, float64(ms.HeapSys)/1e6)
}
