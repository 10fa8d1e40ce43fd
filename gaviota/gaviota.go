// Package gaviota probes Gaviota endgame tablebases (".gtb.cp4" files):
// win/draw/loss and distance to mate (DTM) for positions with few pieces,
// with python-chess's chess.gaviota conventions.
//
// Open scans directories for table files without reading them. A table is
// opened, and its block index read, on the first probe that needs it; its
// LZMA-compressed blocks (16384 positions each) are decoded on demand into
// an LRU cache of bounded size (CacheBytes, DefaultCacheBytes unless
// OpenCache says otherwise), so memory stays bounded whatever is probed. A
// Tablebase is safe for concurrent use by many goroutines.
//
// Values, from the side to move's point of view:
//
//   - ProbeDTM returns the distance to mate in plies: positive when the
//     side to move mates (1: mate in one), negative when it is mated (-2:
//     mated after its move and the reply), 0 when the position is drawn and
//     also when the side to move is checkmated already.
//   - ProbeWDL returns Win (1), Draw (0) or Loss (-1); a checkmated side to
//     move has lost.
//
// This version reads the index schemes of the 3-piece tables (KQK, KRK,
// KBK, KNK, KPK, either colour stronger), which is what Debian's gaviotatb
// package holds; MaxPieces is at most 3 and a larger position gives
// ErrTooManyPieces. Two bare kings are a draw without any table.
//
// Errors: a position the tables do not cover gives an error for which
// errors.Is(err, ErrNotCovered) holds: ErrCastling, ErrTooManyPieces or a
// *MissingTableError (also errors.Is ErrMissingTable) naming the file
// needed. A position that cannot arise in a game (no king, the side not to
// move in check, a pawn on the first or last rank) gives ErrIllegal. A file
// that cannot be used gives a *TableError (errors.Is ErrCorrupt for bad
// headers, offsets or data); every offset and length read from a file is
// checked before use, so a corrupt file is an error, never a panic or a
// large allocation.
package gaviota

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"knightwatch/game"
)

// Suffix is the file name extension of the tables read.
const Suffix = ".gtb.cp4"

// DebianPath is where Debian's gaviotatb package puts the 3-piece tables.
const DebianPath = "/usr/share/gaviotatb/gtb4"

// MaxTablePieces is the largest number of pieces (kings included) of the
// tables this package reads.
const MaxTablePieces = 3

// DefaultCacheBytes is the block cache's size when Open is used: 2 MiB,
// 128 decoded blocks, more than the whole 3-piece set (28 blocks).
const DefaultCacheBytes = 2 << 20

// WDL is a win/draw/loss value from the side to move's point of view.
type WDL int

// The three WDL values (python-chess's probe_wdl).
const (
	Loss WDL = -1
	Draw WDL = 0
	Win  WDL = 1
)

// String returns "loss", "draw" or "win".
func (w WDL) String() string {
	switch w {
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	case Win:
		return "win"
	}
	return fmt.Sprintf("WDL(%d)", int(w))
}

// Sentinel errors; test for them with errors.Is.
var (
	// ErrNotCovered: the tables found do not cover the position.
	// ErrCastling, ErrTooManyPieces and every *MissingTableError are also
	// ErrNotCovered.
	ErrNotCovered = errors.New("gaviota: position not covered")
	// ErrCastling: Gaviota tables hold no position with castling rights.
	ErrCastling = fmt.Errorf("%w: castling rights present", ErrNotCovered)
	// ErrTooManyPieces: more pieces than the largest table found
	// (Tablebase.MaxPieces).
	ErrTooManyPieces = fmt.Errorf("%w: too many pieces", ErrNotCovered)
	// ErrMissingTable: no file for the position's material. The error is
	// a *MissingTableError.
	ErrMissingTable = errors.New("gaviota: missing table")
	// ErrIllegal: the position cannot arise in a game.
	ErrIllegal = errors.New("gaviota: illegal position")
	// ErrClosed: the Tablebase has been closed.
	ErrClosed = errors.New("gaviota: tablebase closed")
	// ErrCorrupt: a table's header, block index or data is inconsistent.
	// Wrapped in a *TableError.
	ErrCorrupt = errors.New("corrupt data")
)

// MissingTableError reports a material without a table file.
type MissingTableError struct {
	Table string // the file's base name, e.g. "kqk" (stronger side first)
}

// Error names the missing file.
func (e *MissingTableError) Error() string {
	return "gaviota: missing table " + e.Table + Suffix
}

// Is makes errors.Is(err, ErrMissingTable) and errors.Is(err,
// ErrNotCovered) true.
func (e *MissingTableError) Is(target error) bool {
	return target == ErrMissingTable || target == ErrNotCovered
}

// TableError reports a table file that cannot be used: Err is ErrCorrupt
// (wrapped with details) or an I/O error.
type TableError struct {
	Path string
	Err  error
}

// Error names the file and the fault.
func (e *TableError) Error() string { return "gaviota: " + e.Path + ": " + e.Err.Error() }

// Unwrap returns the underlying fault.
func (e *TableError) Unwrap() error { return e.Err }

// Tablebase is a set of Gaviota tables found by Open. It is safe for
// concurrent use; Close waits for probes in flight.
type Tablebase struct {
	mu     sync.RWMutex // read-held by probes, write-held by Close
	closed bool
	tables map[string]*tableFile // by base name, "kqk"
	cache  *blockCache
	max    int
}

// Open scans the directories in paths, separated by the OS's list
// separator (':' on Unix), for files named like "kqk.gtb.cp4", with a
// block cache of DefaultCacheBytes. Files are opened on the first probe
// that needs them. A directory that cannot be read is an error; an empty
// list gives an empty Tablebase (MaxPieces 0). When a table is in several
// directories, the first one wins. Files of tables this package cannot
// read (more than MaxTablePieces pieces) are ignored.
func Open(paths string) (*Tablebase, error) { return OpenCache(paths, DefaultCacheBytes) }

// OpenCache is Open with a block cache of at most cacheBytes of decoded
// blocks (at least one block is always kept, whatever cacheBytes says).
func OpenCache(paths string, cacheBytes int) (*Tablebase, error) {
	tb := &Tablebase{tables: map[string]*tableFile{}, cache: newBlockCache(cacheBytes / blockEntries)}
	for _, dir := range filepath.SplitList(paths) {
		if dir == "" {
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("gaviota: %w", err)
		}
		for _, e := range entries {
			name, ok := strings.CutSuffix(e.Name(), Suffix)
			if !ok || e.IsDir() {
				continue
			}
			s, ok := schemes[name]
			if !ok {
				continue
			}
			if _, dup := tb.tables[name]; dup {
				continue
			}
			tb.tables[name] = &tableFile{path: filepath.Join(dir, e.Name()), name: name, scheme: s}
			tb.max = max(tb.max, len(name))
		}
	}
	return tb, nil
}

// MaxPieces returns the largest number of pieces (kings included) of the
// tables found, 0 if none. Positions with more pieces cannot be probed.
func (tb *Tablebase) MaxPieces() int { return tb.max }

// Tables returns the base names of the tables found ("kqk", ...), sorted.
func (tb *Tablebase) Tables() []string {
	names := make([]string, 0, len(tb.tables))
	for name := range tb.tables {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Close closes every open table file, waiting for probes in flight, and
// empties the cache. Probes after Close return ErrClosed. It returns the
// first error closing a file.
func (tb *Tablebase) Close() error {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if tb.closed {
		return nil
	}
	tb.closed = true
	tb.cache.clear()
	var first error
	for _, tf := range tb.tables {
		if err := tf.close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// ProbeDTM returns p's distance to mate in plies from the side to move's
// point of view (see the package comment).
func (tb *Tablebase) ProbeDTM(p *game.Position) (int, error) {
	tb.mu.RLock()
	defer tb.mu.RUnlock()
	if tb.closed {
		return 0, ErrClosed
	}
	return tb.probe(p)
}

// ProbeWDL returns p's win/draw/loss value for the side to move.
func (tb *Tablebase) ProbeWDL(p *game.Position) (WDL, error) {
	wdl, _, err := tb.Probe(p)
	return wdl, err
}

// Probe returns both p's WDL value and its DTM in plies.
func (tb *Tablebase) Probe(p *game.Position) (WDL, int, error) {
	dtm, err := tb.ProbeDTM(p)
	if err != nil {
		return 0, 0, err
	}
	return WDLOf(p, dtm), dtm, nil
}

// WDLOf is the WDL value of a position p whose DTM is dtm: the sign of
// dtm, except that a checkmated side to move (DTM 0) has lost.
func WDLOf(p *game.Position, dtm int) WDL {
	switch {
	case dtm > 0:
		return Win
	case dtm < 0:
		return Loss
	case p.InCheck() && len(p.LegalMoves()) == 0:
		return Loss
	}
	return Draw
}

// MateWords says a probe's verdict in words for a position with side to
// move: "White mates in 8" (in moves of the side that mates, its mating
// move included: (|dtm|+1)/2), "Black is checkmated", or "draw".
func MateWords(side game.Color, wdl WDL, dtm int) string {
	winner := side
	if wdl == Loss {
		winner = side.Other()
	}
	switch {
	case wdl == Draw:
		return "draw"
	case dtm == 0:
		return colourName(side) + " is checkmated"
	}
	return fmt.Sprintf("%s mates in %d", colourName(winner), (max(dtm, -dtm)+1)/2)
}

// colourName is "White" or "Black".
func colourName(c game.Color) string {
	if c == game.White {
		return "White"
	}
	return "Black"
}
