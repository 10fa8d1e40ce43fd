package engine

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"sync"

	"knightwatch/game"
)

// BookEntry is one Polyglot book entry.
type BookEntry struct {
	Key    uint64
	Move   game.Move // decoded against the position; castling as king takes rook
	Raw    uint16    // the move as stored in the file
	Weight uint16
	Learn  uint32
}

// Book is a Polyglot opening book held in memory: 16-byte big-endian
// entries (key, move, weight, learn) sorted by key.
type Book struct {
	data []byte
}

// ParseBook checks and wraps the bytes of a Polyglot book: whole 16-byte
// entries, sorted by key, each move with a valid encoding.
func ParseBook(data []byte) (*Book, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("polyglot book: empty")
	}
	if len(data)%16 != 0 {
		return nil, fmt.Errorf("polyglot book: size %d is not a multiple of 16 (truncated?)", len(data))
	}
	b := &Book{data: data}
	for i := 0; i < b.Len(); i++ {
		if i > 0 && b.key(i) < b.key(i-1) {
			return nil, fmt.Errorf("polyglot book: entry %d is out of key order: not a Polyglot book", i)
		}
		raw := binary.BigEndian.Uint16(data[16*i+8:])
		if raw>>12 > 4 || raw&63 == raw>>6&63 {
			return nil, fmt.Errorf("polyglot book: entry %d has an invalid move 0x%04x: not a Polyglot book", i, raw)
		}
	}
	return b, nil
}

// maxBookSize is the largest book file read into memory (the largest
// Polyglot books are a few hundred MB).
const maxBookSize = 1 << 30

// OpenBook reads a Polyglot book file. Its errors name the file.
func OpenBook(path string) (*Book, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("polyglot book %s: not a regular file", path)
	}
	if fi.Size() > maxBookSize {
		return nil, fmt.Errorf("polyglot book %s: %d bytes, more than the %d accepted", path, fi.Size(), maxBookSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	b, err := ParseBook(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// Len returns the number of entries.
func (b *Book) Len() int { return len(b.data) / 16 }

func (b *Book) key(i int) uint64 { return binary.BigEndian.Uint64(b.data[16*i:]) }

// decodeMove turns a Polyglot move into a legal move of p, or NoMove.
// Polyglot writes castling as king takes rook, which is also our encoding.
func decodeMove(p *game.Position, raw uint16) game.Move {
	to := game.NewSquare(int(raw&7), int(raw>>3&7))
	from := game.NewSquare(int(raw>>6&7), int(raw>>9&7))
	promo := game.NoPieceType
	if pr := raw >> 12 & 7; pr >= 1 && pr <= 4 {
		promo = game.PieceType(pr) + game.Pawn // 1 = knight ... 4 = queen
	}
	var ml game.MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		if m.From() == from && m.To() == to && m.Promotion() == promo {
			return m
		}
	}
	return game.NoMove
}

// Find returns the legal book moves for p, highest weight first.
// Entries whose move is not legal in p (corrupt books, key collisions) are
// skipped.
func (b *Book) Find(p *game.Position) []BookEntry {
	key := p.Hash()
	n := b.Len()
	i := sort.Search(n, func(i int) bool { return b.key(i) >= key })
	var out []BookEntry
	for ; i < n && b.key(i) == key; i++ {
		rec := b.data[16*i:]
		e := BookEntry{
			Key:    key,
			Raw:    binary.BigEndian.Uint16(rec[8:]),
			Weight: binary.BigEndian.Uint16(rec[10:]),
			Learn:  binary.BigEndian.Uint32(rec[12:]),
		}
		if e.Move = decodeMove(p, e.Raw); e.Move != game.NoMove {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Weight > out[j].Weight })
	return out
}

// Choose picks a book move for p at random in proportion to the weights.
func (b *Book) Choose(p *game.Position, rng *rand.Rand) (game.Move, bool) {
	entries := b.Find(p)
	total := 0
	for _, e := range entries {
		total += int(e.Weight)
	}
	if len(entries) == 0 {
		return game.NoMove, false
	}
	if total == 0 {
		return entries[rng.IntN(len(entries))].Move, true
	}
	r := rng.IntN(total)
	for _, e := range entries {
		if r < int(e.Weight) {
			return e.Move, true
		}
		r -= int(e.Weight)
	}
	return entries[0].Move, true
}

// Books are shared between engines: the web server keeps a pool of
// engines and loading a 3 MB file for each would be wasteful.
var (
	bookMu    sync.Mutex
	bookCache = map[string]*Book{}
)

func loadBook(path string) *Book {
	bookMu.Lock()
	defer bookMu.Unlock()
	if b, ok := bookCache[path]; ok {
		return b
	}
	b, err := OpenBook(path)
	if err != nil {
		b = nil // remembered as missing; a missing book just means no book moves
	}
	bookCache[path] = b
	return b
}

// reloadBook reads the book at path again, replacing what loadBook
// remembers about it, and says why it cannot be used.
func reloadBook(path string) error {
	b, err := OpenBook(path)
	bookMu.Lock()
	defer bookMu.Unlock()
	bookCache[path] = b // nil when unusable: no book moves
	return err
}

func (e *Engine) bookMove(p *game.Position) (game.Move, bool) {
	path := e.opts.BookFile
	if path == "" {
		path = DefaultBookFile
	}
	b := loadBook(path)
	if b == nil {
		return game.NoMove, false
	}
	return b.Choose(p, e.rng)
}
