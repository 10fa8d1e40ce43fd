package gaviota

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/ulikunitz/xz/lzma"
)

// File layout of a .gtb.cp4 table: a header of ten little-endian uint32s,
// the ninth the offset where the block index ends; then the block index,
// one uint32 offset per block and one past the last (the file's end); then
// the blocks, White to move's first. A block holds blockEntries entries
// (the last of a side fewer), one byte each, LZMA-compressed.
const (
	headerLen = 40
	// maxZipped bounds one compressed block: LZMA never grows 16 KiB of
	// input by much, so anything larger is a corrupt index.
	maxZipped = 1 << 16
	// lzmaPrefix is the bytes before a block's LZMA data: a flag byte (0:
	// plain LZMA with its own 13-byte header; else LZMA86, whose 15
	// leading bytes are replaced by a header made here) and one more.
	lzmaPrefix = 2
	lzma86Skip = 15
)

// tableFile is one table file, opened on first use.
type tableFile struct {
	path   string
	name   string // base name, "kqk"
	scheme scheme

	once sync.Once
	t    *table // set when err is nil
	err  error
}

// get opens the table on first use and returns it or the error, which is
// kept: a broken file fails every probe the same way.
func (tf *tableFile) get() (*table, error) {
	tf.once.Do(func() {
		f, err := os.Open(tf.path)
		if err != nil {
			tf.err = &TableError{Path: tf.path, Err: err}
			return
		}
		st, err := f.Stat()
		if err == nil {
			tf.t, err = readTable(f, st.Size(), tf.scheme)
		}
		if err != nil {
			f.Close()
			tf.err = &TableError{Path: tf.path, Err: err}
			return
		}
		tf.t.closer = f
	})
	return tf.t, tf.err
}

// close closes the file if it was opened. The caller excludes probes.
func (tf *tableFile) close() error {
	tf.once.Do(func() { tf.err = ErrClosed }) // never open after Close
	if tf.t != nil && tf.t.closer != nil {
		err := tf.t.closer.Close()
		tf.t.closer = nil
		if err != nil {
			return &TableError{Path: tf.path, Err: err}
		}
	}
	return nil
}

// table is an opened table: where each block lies in r.
type table struct {
	r             io.ReaderAt
	closer        io.Closer
	scheme        scheme
	blocksPerSide int
	offsets       []uint32 // 2*blocksPerSide+1, non-decreasing, within the file
}

// corrupt wraps ErrCorrupt with details.
func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// readTable reads and checks the header and block index of a table of
// size bytes with scheme s. The index must have exactly the blocks the
// scheme needs, each within the file and of a plausible size.
func readTable(r io.ReaderAt, size int64, s scheme) (*table, error) {
	bps := (s.maxIndex + blockEntries - 1) / blockEntries
	n := 2*bps + 1
	indexEnd := headerLen + 4*n
	if size < int64(indexEnd) {
		return nil, corrupt("file of %d bytes is shorter than its header and block index (%d)", size, indexEnd)
	}
	buf := make([]byte, indexEnd)
	if _, err := r.ReadAt(buf, 0); err != nil {
		return nil, err
	}
	if got := binary.LittleEndian.Uint32(buf[32:]); got != uint32(indexEnd) {
		return nil, corrupt("block index ends at %d, want %d for %d blocks", got, indexEnd, n-1)
	}
	t := &table{r: r, scheme: s, blocksPerSide: bps, offsets: make([]uint32, n)}
	for i := range t.offsets {
		t.offsets[i] = binary.LittleEndian.Uint32(buf[headerLen+4*i:])
	}
	prev := uint32(indexEnd)
	for i, off := range t.offsets {
		if off < prev || int64(off) > size || (i > 0 && off-prev > maxZipped) {
			return nil, corrupt("block offset %d (entry %d) out of order or out of the file", off, i)
		}
		prev = off
	}
	return t, nil
}

// blockLen is the number of entries of block b of one side.
func (t *table) blockLen(b int) int {
	return min(blockEntries, t.scheme.maxIndex-b*blockEntries)
}

// decode reads and decompresses block number b of the side (0 White, 1
// Black to move): blockLen bytes, one entry each.
func (t *table) decode(side, b int) ([]byte, error) {
	k := side*t.blocksPerSide + b
	lo, hi := t.offsets[k], t.offsets[k+1]
	n := t.blockLen(b)
	if hi-lo < lzmaPrefix+lzma.HeaderLen {
		return nil, corrupt("block %d: %d bytes", k, hi-lo)
	}
	zipped := make([]byte, hi-lo)
	if _, err := t.r.ReadAt(zipped, int64(lo)); err != nil {
		return nil, err
	}
	var hdr [lzma.HeaderLen]byte
	var body []byte
	if zipped[0] == 0 {
		// Plain LZMA: its own properties, a dictionary no larger than
		// the block can use, and the size known here.
		hdr[0] = zipped[lzmaPrefix]
		body = zipped[lzmaPrefix+lzma.HeaderLen:]
	} else {
		// LZMA86: lc 3, lp 0, pb 2, as Gaviota's compressor writes it.
		if len(zipped) < lzma86Skip {
			return nil, corrupt("block %d: %d bytes", k, len(zipped))
		}
		hdr[0] = (2*5+0)*9 + 3
		body = zipped[lzma86Skip:]
	}
	binary.LittleEndian.PutUint32(hdr[1:], uint32(blockEntries))
	binary.LittleEndian.PutUint64(hdr[5:], uint64(n))
	zr, err := lzma.ReaderConfig{DictCap: blockEntries}.NewReader(io.MultiReader(bytes.NewReader(hdr[:]), bytes.NewReader(body)))
	if err != nil {
		return nil, corrupt("block %d: %v", k, err)
	}
	out := make([]byte, n)
	if _, err := io.ReadFull(zr, out); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			err = errors.New("data ends early")
		}
		return nil, corrupt("block %d: %v", k, err)
	}
	return out, nil
}
