// Package syzygy probes Syzygy endgame tablebases: win/draw/loss (WDL,
// ".rtbw" files) and distance to zeroing (DTZ, ".rtbz" files) for positions
// with few pieces, as python-chess's chess.syzygy and Stockfish do.
//
// Open scans one or more directories for table files without reading them.
// A table is memory-mapped and its header parsed on the first probe of its
// material signature; the data is never copied, so the full 6- and 7-piece
// sets (hundreds of GB) cost only address space. A Tablebase is safe for
// concurrent use by many goroutines.
//
// Values follow Syzygy's definitions, from the side to move's point of view:
//
//   - ProbeWDL returns -2 (loss), -1 (blessed loss: lost, but drawn by the
//     fifty-move rule), 0 (draw), 1 (cursed win) or 2 (win), assuming the
//     position arose just after a capture or pawn move (halfmove clock 0).
//   - ProbeDTZ returns the distance to the next zeroing move (capture or pawn
//     move) in plies, signed like the WDL value: 1..100 for a win, above 100
//     for a cursed win, negative for losses, 0 for a draw. It can be one
//     ply off (the rounding Syzygy's DTZ tables use), never in a way that
//     changes the outcome.
//
// Both resolve captures and en passant themselves (the tables store "don't
// care" values where a capture is best). Positions with castling rights are
// not covered by Syzygy and give ErrCastling.
//
// Errors: ErrCastling, ErrTooManyPieces (more pieces than the largest
// table found), a *MissingTableError (errors.Is ErrMissingTable) naming the
// table needed, possibly one reached by a capture, and a *TableError naming
// a file that is truncated, has bad magic or corrupt data (errors.Is
// ErrTruncated, ErrBadMagic, ErrCorrupt). Corrupt data is detected by bounds
// checks on every read: it gives an error or a wrong value, never a panic
// or a read outside the mapping.
//
// Typical use in an engine:
//
//	tb, err := syzygy.Open(os.Getenv("SYZYGY_PATH")) // "dir1:dir2"
//	if err != nil { ... }
//	defer tb.Close()
//	if pos.Occupied().Count() <= tb.MaxPieces() {
//		wdl, err := tb.ProbeWDL(pos)
//		...
//	}
package syzygy

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

// MaxTablePieces is the largest number of pieces (kings included) a Syzygy
// table can hold.
const MaxTablePieces = 7

// File name extensions of the two kinds of table.
const (
	WDLSuffix = ".rtbw"
	DTZSuffix = ".rtbz"
)

// WDL is a win/draw/loss value from the side to move's point of view.
type WDL int

// The five WDL values. CursedWin and BlessedLoss are a win and a loss that
// the fifty-move rule turns into draws.
const (
	Loss        WDL = -2
	BlessedLoss WDL = -1
	Draw        WDL = 0
	CursedWin   WDL = 1
	Win         WDL = 2
)

// String returns "loss", "blessed loss", "draw", "cursed win" or "win".
func (w WDL) String() string {
	switch w {
	case Loss:
		return "loss"
	case BlessedLoss:
		return "blessed loss"
	case Draw:
		return "draw"
	case CursedWin:
		return "cursed win"
	case Win:
		return "win"
	}
	return fmt.Sprintf("WDL(%d)", int(w))
}

// Sentinel errors; test for them with errors.Is.
var (
	// ErrMissingTable: no table for the position's material (or for one
	// reached by a capture) was found. The error is a *MissingTableError.
	ErrMissingTable = errors.New("syzygy: missing table")
	// ErrTooManyPieces: the position has more pieces than the largest
	// table found (Tablebase.MaxPieces).
	ErrTooManyPieces = errors.New("syzygy: too many pieces")
	// ErrCastling: Syzygy tables do not cover positions with castling rights.
	ErrCastling = errors.New("syzygy: castling rights present")
	// ErrClosed: the Tablebase has been closed.
	ErrClosed = errors.New("syzygy: tablebase closed")
	// ErrTruncated: a table file is too short or its size is not of the
	// form 64k+16 that Syzygy files have. Wrapped in a *TableError.
	ErrTruncated = errors.New("truncated file")
	// ErrBadMagic: a table file does not start with the Syzygy magic bytes.
	// Wrapped in a *TableError.
	ErrBadMagic = errors.New("bad magic")
	// ErrCorrupt: a table's header or data is inconsistent. Wrapped in a
	// *TableError.
	ErrCorrupt = errors.New("corrupt data")
)

// MissingTableError reports a material signature without a table.
type MissingTableError struct {
	Material string // the table's name, e.g. "KQvKR" (stronger side first)
	Suffix   string // WDLSuffix or DTZSuffix
}

// Error names the missing file.
func (e *MissingTableError) Error() string {
	return fmt.Sprintf("syzygy: missing table %s%s", e.Material, e.Suffix)
}

// Is makes errors.Is(err, ErrMissingTable) true.
func (e *MissingTableError) Is(target error) bool { return target == ErrMissingTable }

// TableError reports a table file that cannot be used. Err is ErrTruncated,
// ErrBadMagic, ErrCorrupt (possibly wrapped with details) or an I/O error.
type TableError struct {
	Path string
	Err  error
}

// Error names the file and the fault.
func (e *TableError) Error() string { return "syzygy: " + e.Path + ": " + e.Err.Error() }

// Unwrap returns the underlying fault.
func (e *TableError) Unwrap() error { return e.Err }

// Tablebase is a set of Syzygy tables found by Open. It is safe for
// concurrent use; Close waits for probes in flight.
type Tablebase struct {
	mu        sync.RWMutex // read-held by probes, write-held by Close
	closed    bool
	wdl       map[materialKey]*tableFile
	dtz       map[materialKey]*tableFile
	maxPieces int
	numWDL    int
	numDTZ    int
}

// Open scans the directories in paths, separated by the OS's list separator
// (':' on Unix, ';' on Windows, like UCI's SyzygyPath), for table files
// named like "KQvKR.rtbw". Files are opened lazily, on the first probe that
// needs them. A directory that cannot be read is an error; an empty path
// list gives an empty Tablebase (MaxPieces 0). When the same table is in
// several directories, the first one wins.
func Open(paths string) (*Tablebase, error) {
	tb := &Tablebase{wdl: map[materialKey]*tableFile{}, dtz: map[materialKey]*tableFile{}}
	for _, dir := range filepath.SplitList(paths) {
		if dir == "" {
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("syzygy: %w", err)
		}
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			tb.add(filepath.Join(dir, e.Name()))
		}
	}
	return tb, nil
}

// add registers one file if its name is a table name.
func (tb *Tablebase) add(path string) {
	base := filepath.Base(path)
	ext := filepath.Ext(base)
	var m map[materialKey]*tableFile
	switch ext {
	case WDLSuffix:
		m = tb.wdl
	case DTZSuffix:
		m = tb.dtz
	default:
		return
	}
	name := strings.TrimSuffix(base, ext)
	key, n, ok := parseMaterial(name)
	if !ok {
		return
	}
	if _, dup := m[key]; dup {
		return
	}
	tf := &tableFile{path: path, name: name, dtz: ext == DTZSuffix, key: key, num: n}
	m[key] = tf
	m[key.mirror()] = tf
	if ext == WDLSuffix {
		tb.numWDL++
		if n > tb.maxPieces {
			tb.maxPieces = n
		}
	} else {
		tb.numDTZ++
	}
}

// MaxPieces returns the largest number of pieces (kings included) of the
// WDL tables found, 0 if none. Positions with more pieces cannot be probed.
func (tb *Tablebase) MaxPieces() int { return tb.maxPieces }

// NumTables returns how many WDL and DTZ table files were found.
func (tb *Tablebase) NumTables() (wdl, dtz int) { return tb.numWDL, tb.numDTZ }

// Tables returns the names of the WDL tables found ("KQvK", ...), sorted.
func (tb *Tablebase) Tables() []string {
	var names []string
	seen := map[*tableFile]bool{}
	for _, tf := range tb.wdl {
		if !seen[tf] {
			seen[tf] = true
			names = append(names, tf.name)
		}
	}
	sort.Strings(names)
	return names
}

// Close unmaps every table, waiting for probes in flight. Probes after
// Close return ErrClosed. Close returns the first unmapping error.
func (tb *Tablebase) Close() error {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if tb.closed {
		return nil
	}
	tb.closed = true
	var first error
	for _, m := range []map[materialKey]*tableFile{tb.wdl, tb.dtz} {
		for key, tf := range m {
			if key == tf.key {
				if err := tf.close(); err != nil && first == nil {
					first = err
				}
			}
		}
	}
	return first
}

// materialKey packs the number of pieces of each colour and type, 3 bits
// each: bits 3*(6*colour + type-1).
type materialKey uint64

// pieceOrder is the order of piece letters in table names.
const pieceOrder = "KQRBNP"

var letterType = map[byte]game.PieceType{'K': game.King, 'Q': game.Queen, 'R': game.Rook, 'B': game.Bishop, 'N': game.Knight, 'P': game.Pawn}

func keyShift(c game.Color, pt game.PieceType) uint { return 3 * (6*uint(c) + uint(pt) - 1) }

// count returns the number of pieces of that colour and type.
func (k materialKey) count(c game.Color, pt game.PieceType) int {
	return int(k >> keyShift(c, pt) & 7)
}

// mirror swaps the colours.
func (k materialKey) mirror() materialKey { return k>>18 | (k&(1<<18-1))<<18 }

// String returns the table name, e.g. "KRPvKP" (White first).
func (k materialKey) String() string {
	var b strings.Builder
	for c := game.White; c <= game.Black; c++ {
		if c == game.Black {
			b.WriteByte('v')
		}
		for i := 0; i < len(pieceOrder); i++ {
			for n := k.count(c, letterType[pieceOrder[i]]); n > 0; n-- {
				b.WriteByte(pieceOrder[i])
			}
		}
	}
	return b.String()
}

// tableName returns the name of the file holding k's positions: the side
// with more pieces (or, as many, the stronger pieces) first, e.g. "KQvKR".
func (k materialKey) tableName() string {
	w, b := k.String(), k.mirror().String()
	ws, bs, _ := strings.Cut(w, "v")
	less := len(ws) < len(bs)
	if len(ws) == len(bs) {
		for i := 0; i < len(ws); i++ {
			wi, bi := strings.IndexByte(pieceOrder, ws[i]), strings.IndexByte(pieceOrder, bs[i])
			if wi != bi {
				less = bi < wi
				break
			}
		}
	}
	if less {
		return b
	}
	return w
}

// parseMaterial parses a table name such as "KRPvKP": one king a side, at
// most MaxTablePieces pieces, each side's letters in "KQRBNP" order.
func parseMaterial(name string) (key materialKey, pieces int, ok bool) {
	sides := strings.Split(name, "v")
	if len(sides) != 2 {
		return 0, 0, false
	}
	for c, s := range sides {
		if len(s) == 0 || s[0] != 'K' {
			return 0, 0, false
		}
		last := 0
		for i := 0; i < len(s); i++ {
			o := strings.IndexByte(pieceOrder, s[i])
			if o < 0 || o < last || (i > 0 && o == 0) {
				return 0, 0, false
			}
			last = o
			key += 1 << keyShift(game.Color(c), letterType[s[i]])
		}
		pieces += len(s)
	}
	if pieces > MaxTablePieces {
		return 0, 0, false
	}
	return key, pieces, true
}

// positionKey returns the material key of a position.
func positionKey(p *game.Position) materialKey {
	var k materialKey
	for c := game.White; c <= game.Black; c++ {
		for pt := game.Pawn; pt <= game.King; pt++ {
			k |= materialKey(p.Pieces(c, pt).Count()) << keyShift(c, pt)
		}
	}
	return k
}
