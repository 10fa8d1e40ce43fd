package tune

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ReadPGNFile reads plain and gzipped files alike, and names the file in
// the errors it finds inside.
func TestReadPGNFile(t *testing.T) {
	dir := t.TempDir()
	const games = "1. e4 e5 2. Nf3 Nc6 1/2-1/2\n\n1. d4 d5 0-1\n"
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte(games))
	zw.Close()
	files := map[string][]byte{
		"plain.pgn":        []byte(games),
		"zipped.pgn.gz":    zipped.Bytes(),
		"notzipped.pgn.gz": []byte(games),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name    string
		games   int
		errWith string // a part of the error, "" for none
	}{
		{"plain.pgn", 2, ""},
		{"zipped.pgn.gz", 2, ""},
		{"notzipped.pgn.gz", 0, "notzipped.pgn.gz: gzip"},
		{"missing.pgn", 0, "missing.pgn"},
	}
	for _, c := range cases {
		pgs, err := ReadPGNFile(filepath.Join(dir, c.name))
		switch {
		case c.errWith == "" && (err != nil || len(pgs) != c.games):
			t.Errorf("%s: %d games, %v; want %d", c.name, len(pgs), err, c.games)
		case c.errWith != "" && (err == nil || !strings.Contains(err.Error(), c.errWith)):
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.errWith)
		}
	}
}
