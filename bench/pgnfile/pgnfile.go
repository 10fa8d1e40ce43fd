// Package pgnfile reads the PGN files the bench tools analyse: plain or
// gzipped (the match results in bench/results are kept as .pgn.gz).
package pgnfile

import (
	"compress/gzip"
	"io"
	"os"
	"strings"

	"knightwatch/game"
)

// Read parses a plain or gzipped (".gz") PGN file with the rules library.
func Read(path string) ([]*game.PGNGame, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		defer gz.Close()
		r = gz
	}
	return game.ReadPGN(r)
}
