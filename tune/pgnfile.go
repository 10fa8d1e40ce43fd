package tune

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"

	"knightwatch/game"
)

// ReadPGNFile reads every game of a PGN file, plain or gzipped (a name
// ending in .gz, as the match results in bench/results are kept). It is
// the one PGN file reader of the repository: `tune pgn` and the bench
// programs use it. Errors after opening the file name it.
func ReadPGNFile(name string) ([]*game.PGNGame, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		defer zr.Close()
		r = zr
	}
	pgs, err := game.ReadPGN(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return pgs, nil
}
