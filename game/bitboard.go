package game

import (
	"math/bits"
	"strings"
)

// Bitboard is a set of squares, bit i standing for Square i.
type Bitboard uint64

// Useful square sets.
const (
	FileA Bitboard = 0x0101010101010101
	FileH Bitboard = FileA << 7
	Rank1 Bitboard = 0xff
	Rank2 Bitboard = Rank1 << 8
	Rank3 Bitboard = Rank1 << 16
	Rank4 Bitboard = Rank1 << 24
	Rank5 Bitboard = Rank1 << 32
	Rank6 Bitboard = Rank1 << 40
	Rank7 Bitboard = Rank1 << 48
	Rank8 Bitboard = Rank1 << 56

	DarkSquares  Bitboard = 0xaa55aa55aa55aa55
	LightSquares Bitboard = ^DarkSquares
)

// Count returns the number of squares in the set.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// Has reports whether s is in the set.
func (b Bitboard) Has(s Square) bool { return b>>uint(s)&1 != 0 }

// First returns the lowest square in a non-empty set.
func (b Bitboard) First() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// PopFirst removes and returns the lowest square of a non-empty set.
func (b *Bitboard) PopFirst() Square {
	s := Square(bits.TrailingZeros64(uint64(*b)))
	*b &= *b - 1
	return s
}

// More reports whether the set has more than one square.
func (b Bitboard) More() bool { return b&(b-1) != 0 }

// String draws the set as an 8x8 grid, rank 8 first; handy in test failures.
func (b Bitboard) String() string {
	var sb strings.Builder
	for r := 7; r >= 0; r-- {
		for f := 0; f < 8; f++ {
			if b.Has(NewSquare(f, r)) {
				sb.WriteByte('x')
			} else {
				sb.WriteByte('.')
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// FileMask returns all squares on file f (0 = a).
func FileMask(f int) Bitboard { return FileA << uint(f) }

// RankMask returns all squares on rank r (0 = first rank).
func RankMask(r int) Bitboard { return Rank1 << uint(8*r) }

// magic holds the "fancy magic" lookup data of one square for one slider kind.
type magic struct {
	mask    Bitboard
	magic   uint64
	attacks []Bitboard
	shift   uint
}

func (m *magic) index(occ Bitboard) uint {
	return uint(uint64(occ&m.mask) * m.magic >> m.shift)
}

var (
	knightAttacks [64]Bitboard
	kingAttacks   [64]Bitboard
	pawnAttacks   [2][64]Bitboard
	rookMagics    [64]magic
	bishopMagics  [64]magic
	// between[a][b] is the set of squares strictly between a and b on a
	// shared line, or empty when they share none.
	between [64][64]Bitboard
	// line[a][b] is the whole line through a and b (edge to edge), or empty.
	line [64][64]Bitboard
)

// KnightAttacks returns the squares a knight on s attacks.
func KnightAttacks(s Square) Bitboard { return knightAttacks[s] }

// KingAttacks returns the squares a king on s attacks.
func KingAttacks(s Square) Bitboard { return kingAttacks[s] }

// PawnAttacks returns the squares a pawn of colour c on s attacks.
func PawnAttacks(c Color, s Square) Bitboard { return pawnAttacks[c][s] }

// RookAttacks returns the squares a rook on s attacks given the occupancy occ.
func RookAttacks(s Square, occ Bitboard) Bitboard {
	m := &rookMagics[s]
	return m.attacks[m.index(occ)]
}

// BishopAttacks returns the squares a bishop on s attacks given the occupancy occ.
func BishopAttacks(s Square, occ Bitboard) Bitboard {
	m := &bishopMagics[s]
	return m.attacks[m.index(occ)]
}

// QueenAttacks returns the squares a queen on s attacks given the occupancy occ.
func QueenAttacks(s Square, occ Bitboard) Bitboard {
	return RookAttacks(s, occ) | BishopAttacks(s, occ)
}

// Between returns the squares strictly between a and b when they share a
// rank, file or diagonal, and the empty set otherwise.
func Between(a, b Square) Bitboard { return between[a][b] }

// Line returns the full line through a and b, or the empty set.
func Line(a, b Square) Bitboard { return line[a][b] }

var rookDirs = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
var bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

// slowSliderAttacks walks rays; used only to build tables and in tests.
func slowSliderAttacks(s Square, occ Bitboard, dirs [4][2]int) Bitboard {
	var att Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			sq := NewSquare(f, r)
			att |= sq.Bitboard()
			if occ.Has(sq) {
				break
			}
			f += d[0]
			r += d[1]
		}
	}
	return att
}

func init() {
	for s := A1; s <= H8; s++ {
		f, r := s.File(), s.Rank()
		for _, d := range [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if nf, nr := f+d[0], r+d[1]; nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
				knightAttacks[s] |= NewSquare(nf, nr).Bitboard()
			}
		}
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				if nf, nr := f+df, r+dr; (df != 0 || dr != 0) && nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
					kingAttacks[s] |= NewSquare(nf, nr).Bitboard()
				}
			}
		}
		for _, df := range []int{-1, 1} {
			if nf := f + df; nf >= 0 && nf < 8 {
				if r < 7 {
					pawnAttacks[White][s] |= NewSquare(nf, r+1).Bitboard()
				}
				if r > 0 {
					pawnAttacks[Black][s] |= NewSquare(nf, r-1).Bitboard()
				}
			}
		}
	}
	initMagics(&rookMagics, rookDirs)
	initMagics(&bishopMagics, bishopDirs)
	for a := A1; a <= H8; a++ {
		for b := A1; b <= H8; b++ {
			if a == b {
				continue
			}
			for _, dirs := range [][4][2]int{rookDirs, bishopDirs} {
				if slowSliderAttacks(a, 0, dirs).Has(b) {
					line[a][b] = slowSliderAttacks(a, 0, dirs)&slowSliderAttacks(b, 0, dirs) | a.Bitboard() | b.Bitboard()
					between[a][b] = slowSliderAttacks(a, b.Bitboard(), dirs) & slowSliderAttacks(b, a.Bitboard(), dirs)
				}
			}
		}
	}
}

// magicSeeds seed the magic search per rank. These are the seeds Stockfish
// found to make the search quick with this generator; with one seed for all
// squares the rook search alone took 200 ms of every program start.
var magicSeeds = [8]uint64{728, 10316, 55013, 32803, 12281, 15100, 16645, 255}

// initMagics finds magic multipliers with a fixed-seed generator, so the
// tables are identical on every run and take a few milliseconds to build.
func initMagics(table *[64]magic, dirs [4][2]int) {
	var seed uint64
	next := func() uint64 { // xorshift64*
		seed ^= seed >> 12
		seed ^= seed << 25
		seed ^= seed >> 27
		return seed * 2685821657736338717
	}
	var occs, refs [4096]Bitboard
	var epoch [4096]int
	cnt := 0
	for s := A1; s <= H8; s++ {
		seed = magicSeeds[s.Rank()]
		edges := (Rank1|Rank8)&^RankMask(s.Rank()) | (FileA|FileH)&^FileMask(s.File())
		m := &table[s]
		m.mask = slowSliderAttacks(s, 0, dirs) &^ edges
		n := m.mask.Count()
		m.shift = uint(64 - n)
		m.attacks = make([]Bitboard, 1<<n)
		// Enumerate all subsets of the mask (Carry-Rippler).
		size := 0
		for b := Bitboard(0); ; {
			occs[size] = b
			refs[size] = slowSliderAttacks(s, b, dirs)
			size++
			b = (b - m.mask) & m.mask
			if b == 0 {
				break
			}
		}
		for {
			for {
				// A sparse candidate: the AND of three random numbers.
				r1, r2, r3 := next(), next(), next()
				m.magic = r1 & r2 & r3
				if (Bitboard(uint64(m.mask)*m.magic) >> 56).Count() >= 6 {
					break
				}
			}
			cnt++
			ok := true
			for i := 0; i < size; i++ {
				idx := m.index(occs[i])
				if epoch[idx] < cnt {
					epoch[idx] = cnt
					m.attacks[idx] = refs[i]
				} else if m.attacks[idx] != refs[i] {
					ok = false
					break
				}
			}
			if ok {
				break
			}
		}
	}
}
