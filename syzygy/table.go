package syzygy

import (
	"encoding/binary"
	"fmt"
	"os"
	"sync"

	"knightwatch/game"
)

// Magic bytes at the start of WDL and DTZ files.
var (
	wdlMagic = [4]byte{0x71, 0xe8, 0x23, 0x5d}
	dtzMagic = [4]byte{0xd7, 0x66, 0x0c, 0xa5}
)

// tableFile is one table file, loaded on first use.
type tableFile struct {
	path string
	name string // the file name without extension, e.g. "KRvKP"
	dtz  bool
	key  materialKey // from the file name
	num  int         // number of pieces

	once sync.Once
	t    *table // set by load when err is nil
	err  error
}

// get loads the table on first use and returns it or the loading error,
// which is kept: a broken file fails every probe the same way.
func (tf *tableFile) get() (*table, error) {
	tf.once.Do(func() {
		tf.t, tf.err = loadTable(tf.path, tf.key, tf.num, tf.dtz)
	})
	return tf.t, tf.err
}

// close unmaps the table if it was loaded. The caller excludes probes.
func (tf *tableFile) close() error {
	tf.once.Do(func() { tf.err = ErrClosed }) // never load after Close
	if tf.t != nil && tf.t.data != nil {
		err := unmapFile(tf.t.data)
		tf.t.data = nil
		if err != nil {
			return &TableError{Path: tf.path, Err: err}
		}
	}
	return nil
}

// pairsData describes one compressed value stream: its Huffman-like code
// (canonical code lengths minLen..maxLen over a symbol tree of pairs) and the
// offsets of its index table, block size table and data blocks in the file.
type pairsData struct {
	constant  bool  // every value is constValue: no data at all
	constVal  int   // value when constant
	blockBits uint  // log2 of the block size in bytes
	idxBits   uint  // log2 of the number of values between index entries
	numBlocks int   // entries of the size table
	realBlks  int   // data blocks
	minLen    int   // shortest code length
	maxLen    int   // longest code length
	lowestSym int   // offset of the lowest symbol of each length (uint16 each)
	symPat    int   // offset of the symbol definitions (3 bytes each)
	numSyms   int   // number of symbols
	symLen    []int // number of values a symbol stands for, minus one
	base      []uint64
	tbSize    uint64 // number of values (positions) in the stream

	indexTable int // 6 bytes per index entry
	sizeTable  int // 2 bytes per block
	dataStart  int // first block, 64-byte aligned
}

// encoding is how positions of one file (pawn tables: one of the leading
// pawn's four files) and one side to move map to indices.
type encoding struct {
	pieces [MaxTablePieces]uint8 // piece codes (colour<<3 | type) in index order
	norm   [MaxTablePieces]uint8 // size of the group starting at each index
	factor [MaxTablePieces]uint64
	pairs  *pairsData
}

// table is a parsed, mapped table file.
type table struct {
	data      []byte
	path      string
	dtz       bool
	num       int
	hasPawns  bool
	pawns     [2]int // leading pawns, other pawns (pawn tables)
	encType   int    // pawnless: 0 (three or more unique pieces) or 2 (two: the kings)
	symmetric bool
	key       materialKey // material whose White is the table's colour 0
	split     bool
	files     int
	// enc[f][side]: WDL tables have both sides to move when split; DTZ
	// tables store one side (dtzFlags&1) in enc[f][0].
	enc [4][2]encoding
	// DTZ only.
	dtzFlags [4]uint8
	mapIdx   [4][4]int
	mapStart int
}

// corrupt builds the error for inconsistent data in t.
func (t *table) corrupt(format string, args ...any) error {
	return &TableError{Path: t.path, Err: fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))}
}

// loadTable maps and parses a table file. key and num come from its name.
func loadTable(path string, key materialKey, num int, dtz bool) (*table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &TableError{Path: path, Err: err}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, &TableError{Path: path, Err: err}
	}
	size := fi.Size()
	if size < 64+16 || size%64 != 16 || int64(int(size)) != size {
		return nil, &TableError{Path: path, Err: fmt.Errorf("%w: size %d is not 64k+16 bytes", ErrTruncated, size)}
	}
	data, err := mapFile(f, int(size))
	if err != nil {
		return nil, &TableError{Path: path, Err: err}
	}
	t, err := parseTable(data, path, key, num, dtz)
	if err != nil {
		unmapFile(data)
		return nil, err
	}
	return t, nil
}

// reader reads little-endian fields with bounds checks; the first read out
// of bounds sets bad and later reads return zero.
type reader struct {
	data []byte
	bad  bool
}

func (r *reader) u8(off int) int {
	if off < 0 || off >= len(r.data) {
		r.bad = true
		return 0
	}
	return int(r.data[off])
}

func (r *reader) u16(off int) int {
	if off < 0 || off+2 > len(r.data) {
		r.bad = true
		return 0
	}
	return int(binary.LittleEndian.Uint16(r.data[off:]))
}

func (r *reader) u32(off int) int {
	if off < 0 || off+4 > len(r.data) {
		r.bad = true
		return 0
	}
	return int(binary.LittleEndian.Uint32(r.data[off:]))
}

// parseTable parses the header of a mapped table. It checks every offset
// against the mapping so that probes need only light checks.
func parseTable(data []byte, path string, key materialKey, num int, dtz bool) (*table, error) {
	t := &table{data: data, path: path, dtz: dtz, num: num}
	magic := wdlMagic
	if dtz {
		magic = dtzMagic
	}
	if len(data) < 5 || [4]byte(data[:4]) != magic {
		return nil, &TableError{Path: path, Err: ErrBadMagic}
	}
	t.symmetric = key == key.mirror()
	t.key = key
	wp, bp := key.count(game.White, game.Pawn), key.count(game.Black, game.Pawn)
	t.hasPawns = wp+bp > 0
	if t.hasPawns {
		// The leading pawns are those of the side with fewer (but some) pawns.
		t.pawns = [2]int{wp, bp}
		if bp > 0 && (wp == 0 || bp < wp) {
			t.pawns = [2]int{bp, wp}
		}
	} else {
		unique := 0
		for c := game.White; c <= game.Black; c++ {
			for pt := game.Pawn; pt <= game.King; pt++ {
				if key.count(c, pt) == 1 {
					unique++
				}
			}
		}
		if unique >= 3 {
			t.encType = 0
		} else {
			t.encType = 2 // only the kings are unique, e.g. KRRvK
		}
	}

	r := &reader{data: data}
	t.split = data[4]&1 != 0 && !dtz // DTZ tables store one side only
	t.files = 1
	if data[4]&2 != 0 {
		t.files = 4
	}
	if t.hasPawns != (t.files == 4) {
		return nil, t.corrupt("header flags 0x%02x do not match the material", data[4])
	}
	sides := 1
	if !dtz && t.split {
		sides = 2
	}
	if !t.split && !t.symmetric && !dtz {
		return nil, t.corrupt("WDL table of asymmetric material is not split")
	}

	off := 5
	extra := 1 // bytes of order before the piece list
	if t.hasPawns && t.pawns[1] > 0 {
		extra = 2
	}
	for f := 0; f < t.files; f++ {
		for s := 0; s < sides; s++ {
			shift := uint(4 * s)
			e := &t.enc[f][s]
			for i := 0; i < num; i++ {
				e.pieces[i] = uint8(r.u8(off+extra+i) >> shift & 0x0f)
			}
			order := r.u8(off) >> shift & 0x0f
			order2 := 0x0f
			if extra == 2 {
				order2 = r.u8(off+1) >> shift & 0x0f
			}
			if r.bad {
				return nil, &TableError{Path: path, Err: ErrTruncated}
			}
			if err := t.checkPieces(e, f, s); err != nil {
				return nil, err
			}
			var size uint64
			if t.hasPawns {
				t.setNormPawn(e)
				size = t.factorsPawn(e, order, order2, f)
			} else {
				t.setNormPiece(e)
				size = t.factorsPiece(e, order)
			}
			e.pairs = &pairsData{tbSize: size}
		}
		off += num + extra
	}
	// The table's colour 0 may be either side of the file name (some
	// files are stored so); probes compare the position with this key.
	t.key = piecesKey(t.enc[0][0].pieces[:num])
	off += off & 1

	// Code descriptions.
	for f := 0; f < t.files; f++ {
		for s := 0; s < sides; s++ {
			if dtz {
				t.dtzFlags[f] = uint8(r.u8(off))
			}
			var err error
			if off, err = t.setupPairs(r, t.enc[f][s].pairs, off); err != nil {
				return nil, err
			}
		}
	}
	if dtz {
		t.mapStart = off
		for f := 0; f < t.files; f++ {
			fl := t.dtzFlags[f]
			if fl&2 == 0 {
				continue
			}
			if fl&16 == 0 {
				for i := 0; i < 4; i++ {
					t.mapIdx[f][i] = off + 1 - t.mapStart
					off += 1 + r.u8(off)
				}
			} else {
				off += off & 1
				for i := 0; i < 4; i++ {
					t.mapIdx[f][i] = (off + 2 - t.mapStart) / 2
					off += 2 + 2*r.u16(off)
				}
			}
		}
		off += off & 1
	}
	truncated := func() error {
		return &TableError{Path: path, Err: fmt.Errorf("%w: data ends past the file's %d bytes", ErrTruncated, len(data))}
	}
	if r.bad || off > len(data) {
		return nil, truncated()
	}
	// Index tables, size tables, then data, file by file. Each part is
	// checked to fit before the next is laid out, so no sum can overflow.
	for f := 0; f < t.files; f++ {
		for s := 0; s < sides; s++ {
			d := t.enc[f][s].pairs
			d.indexTable = off
			if !d.constant {
				off += 6 * int((d.tbSize+(1<<d.idxBits)-1)>>d.idxBits)
			}
			if off > len(data) {
				return nil, truncated()
			}
		}
	}
	for f := 0; f < t.files; f++ {
		for s := 0; s < sides; s++ {
			d := t.enc[f][s].pairs
			d.sizeTable = off
			if !d.constant {
				off += 2 * d.numBlocks
			}
			if off > len(data) {
				return nil, truncated()
			}
		}
	}
	for f := 0; f < t.files; f++ {
		for s := 0; s < sides; s++ {
			d := t.enc[f][s].pairs
			if !d.constant {
				off = (off + 63) &^ 63
				d.dataStart = off
				off += d.realBlks << d.blockBits
			}
			if off > len(data) {
				return nil, truncated()
			}
		}
	}
	return t, nil
}

// setupPairs parses the code description at off into d and returns the
// offset after it.
func (t *table) setupPairs(r *reader, d *pairsData, off int) (int, error) {
	flags := r.u8(off)
	if r.bad {
		return 0, &TableError{Path: t.path, Err: ErrTruncated}
	}
	if flags&0x80 != 0 {
		d.constant = true
		if !t.dtz {
			d.constVal = r.u8(off + 1)
		}
		return off + 2, nil
	}
	d.blockBits = uint(r.u8(off + 1))
	d.idxBits = uint(r.u8(off + 2))
	d.realBlks = r.u32(off + 4)
	d.numBlocks = d.realBlks + r.u8(off+3)
	d.maxLen = r.u8(off + 8)
	d.minLen = r.u8(off + 9)
	if r.bad {
		return 0, &TableError{Path: t.path, Err: ErrTruncated}
	}
	if d.blockBits < 3 || d.blockBits > 30 || d.idxBits < 1 || d.idxBits > 40 {
		return 0, t.corrupt("block size 2^%d or index span 2^%d out of range", d.blockBits, d.idxBits)
	}
	if d.minLen < 1 || d.maxLen < d.minLen || d.maxLen > 64 {
		return 0, t.corrupt("code lengths %d..%d out of range", d.minLen, d.maxLen)
	}
	h := d.maxLen - d.minLen + 1
	d.lowestSym = off + 10
	d.numSyms = r.u16(off + 10 + 2*h)
	d.symPat = off + 12 + 2*h
	next := d.symPat + 3*d.numSyms + d.numSyms&1
	if r.bad || next > len(t.data) {
		return 0, &TableError{Path: t.path, Err: ErrTruncated}
	}
	if d.numSyms == 0 {
		return 0, t.corrupt("no symbols")
	}
	if err := t.symbolLengths(d); err != nil {
		return 0, err
	}
	d.base = make([]uint64, h)
	for i := h - 2; i >= 0; i-- {
		lo, hi := r.u16(d.lowestSym+2*i), r.u16(d.lowestSym+2*i+2)
		d.base[i] = (d.base[i+1] + uint64(lo) - uint64(hi)) / 2
	}
	for i := range d.base {
		d.base[i] <<= uint(64 - (d.minLen + i))
	}
	return next, nil
}

// symbol returns the two halves of symbol s's definition: a pair of
// symbols, or right == 0xfff for a leaf whose value is in left.
func (t *table) symbol(d *pairsData, s int) (left, right int) {
	w := t.data[d.symPat+3*s:]
	return int(w[1]&0x0f)<<8 | int(w[0]), int(w[2])<<4 | int(w[1]>>4)
}

// maxSymLen caps symbol lengths so that corrupt trees cannot overflow.
const maxSymLen = 1 << 40

// symbolLengths computes how many values each symbol expands to (minus
// one), rejecting references out of range and cycles.
func (t *table) symbolLengths(d *pairsData) error {
	d.symLen = make([]int, d.numSyms)
	state := make([]uint8, d.numSyms) // 0 new, 1 in progress, 2 done
	var visit func(s int) error
	visit = func(s int) error {
		switch state[s] {
		case 1:
			return t.corrupt("cyclic symbol %d", s)
		case 2:
			return nil
		}
		state[s] = 1
		left, right := t.symbol(d, s)
		if right != 0xfff {
			if left >= d.numSyms || right >= d.numSyms {
				return t.corrupt("symbol %d refers to %d, %d of %d", s, left, right, d.numSyms)
			}
			if err := visit(left); err != nil {
				return err
			}
			if err := visit(right); err != nil {
				return err
			}
			d.symLen[s] = min(d.symLen[left]+d.symLen[right]+1, maxSymLen)
		}
		state[s] = 2
		return nil
	}
	for s := 0; s < d.numSyms; s++ {
		if err := visit(s); err != nil {
			return err
		}
	}
	return nil
}

// piecesKey returns the material of a table's piece list.
func piecesKey(pieces []uint8) materialKey {
	var k materialKey
	for _, pc := range pieces {
		k += 1 << keyShift(game.Color(pc>>3), game.PieceType(pc&7))
	}
	return k
}

// checkPieces validates the piece list of e: valid codes, the table's
// material, each kind of piece in one run, pawn tables' pawns first.
func (t *table) checkPieces(e *encoding, f, s int) error {
	pcs := e.pieces[:t.num]
	for i, pc := range pcs {
		if pt := pc & 7; pt < 1 || pt > 6 {
			return t.corrupt("bad piece code %d", pc)
		}
		for j := i + 1; j < len(pcs); j++ {
			if pcs[j] == pc && pcs[j-1] != pc {
				return t.corrupt("piece code %d not in one run", pc)
			}
		}
	}
	k := piecesKey(pcs)
	if k != t.key && k != t.key.mirror() {
		return t.corrupt("pieces do not match the file name")
	}
	if f+s > 0 && k != piecesKey(t.enc[0][0].pieces[:t.num]) {
		return t.corrupt("piece lists disagree")
	}
	if t.hasPawns {
		lead := pcs[0]
		if lead&7 != uint8(game.Pawn) || (f+s > 0 && lead != t.enc[0][0].pieces[0]) {
			return t.corrupt("leading piece %d is not the leading pawn", lead)
		}
		for i := 0; i < t.pawns[0]+t.pawns[1]; i++ {
			want := lead
			if i >= t.pawns[0] {
				want = lead ^ 8
			}
			if pcs[i] != want {
				return t.corrupt("pawns out of place")
			}
		}
	}
	return nil
}

// groups fills norm from index i on: the length of each run of equal pieces.
func (t *table) groups(e *encoding, i int) {
	for i < t.num {
		n := uint8(0)
		for j := i; j < t.num && e.pieces[j] == e.pieces[i]; j++ {
			n++
		}
		e.norm[i] = n
		i += int(n)
	}
}

func (t *table) setNormPiece(e *encoding) {
	e.norm = [MaxTablePieces]uint8{}
	if t.encType == 0 {
		e.norm[0] = 3
	} else {
		e.norm[0] = 2
	}
	t.groups(e, int(e.norm[0]))
}

func (t *table) setNormPawn(e *encoding) {
	e.norm = [MaxTablePieces]uint8{}
	e.norm[0] = uint8(t.pawns[0])
	if t.pawns[1] > 0 {
		e.norm[t.pawns[0]] = uint8(t.pawns[1])
	}
	t.groups(e, t.pawns[0]+t.pawns[1])
}

// pivotFactor is the number of placements of the leading pieces of a
// pawnless table, by encoding type (0: three unique pieces, 2: two kings).
var pivotFactor = [3]uint64{31332, 28056, 462}

// factorsPiece computes the index factors of a pawnless encoding; order
// says where the leading group sits in the index. It returns the table size.
func (t *table) factorsPiece(e *encoding, order int) uint64 {
	n := 64 - int(e.norm[0])
	f := uint64(1)
	i := int(e.norm[0])
	for k := 0; i < t.num || k == order; k++ {
		if k == order {
			e.factor[0] = f
			f *= pivotFactor[t.encType]
		} else {
			e.factor[i] = f
			f *= subfactor(int(e.norm[i]), n)
			n -= int(e.norm[i])
			i += int(e.norm[i])
		}
	}
	return f
}

// factorsPawn computes the index factors of a pawn encoding for the leading
// pawn on file (a-d) file. It returns the table size for that file.
func (t *table) factorsPawn(e *encoding, order, order2, file int) uint64 {
	i := int(e.norm[0])
	if order2 < 0x0f {
		i += int(e.norm[i])
	}
	n := 64 - i
	f := uint64(1)
	for k := 0; i < t.num || k == order || k == order2; k++ {
		switch k {
		case order:
			e.factor[0] = f
			f *= pawnFactor[e.norm[0]-1][file]
		case order2:
			e.factor[e.norm[0]] = f
			f *= subfactor(int(e.norm[e.norm[0]]), 48-int(e.norm[0]))
		default:
			e.factor[i] = f
			f *= subfactor(int(e.norm[i]), n)
			n -= int(e.norm[i])
			i += int(e.norm[i])
		}
	}
	return f
}
