package gaviota

// The index schemes: how a position of one table maps to an entry number,
// as Gaviota's probing code (and python-chess's port of it) computes them.
// Squares are 0 (a1) to 63 (h8); the stronger side is White in the table.

import "knightwatch/game"

const (
	noIndex      = -1
	maxKKIndex   = 462 // the kings' placements up to the board's 8 symmetries
	blockEntries = 16384
)

// scheme is one table's index: maxIndex entries a side to move, and the
// entry of a position given White's and Black's squares, each side's king
// first, then its pieces by falling value; noIndex for a placement the
// table does not hold.
type scheme struct {
	maxIndex int
	index    func(ws, bs []game.Square) int
}

// schemes are the tables this package reads, by base name.
var schemes = map[string]scheme{
	"kqk": {maxKKIndex * 64, kxkIndex},
	"krk": {maxKKIndex * 64, kxkIndex},
	"kbk": {maxKKIndex * 64, kxkIndex},
	"knk": {maxKKIndex * 64, kxkIndex},
	"kpk": {24 * 64 * 64, kpkIndex},
}

func flipWE(s int) int   { return s ^ 7 }
func flipNS(s int) int   { return s ^ 56 }
func flipNWSE(s int) int { return (s&7)<<3 | s>>3 }

// flipType says which of the three reflections bring x (the black king) to
// the a1-d1-d4 triangle, and y (the white king) below the diagonal when x
// is on it: bit 1 west-east, 2 north-south, 4 the a1-h8 diagonal.
func flipType(x, y int) int {
	ret := 0
	if x&7 > 3 {
		x, y = flipWE(x), flipWE(y)
		ret |= 1
	}
	if x>>3 > 3 {
		x, y = flipNS(x), flipNS(y)
		ret |= 2
	}
	rowx, colx := x>>3, x&7
	if rowx > colx {
		y = flipNWSE(y) // x is not looked at again
		ret |= 4
	}
	rowy, coly := y>>3, y&7
	if rowx == colx && rowy > coly {
		ret |= 4
	}
	return ret
}

// kkIdx[bk][wk] numbers the kings' placements with the black king in the
// triangle (and the white king below the diagonal when it is on it), in
// the order Gaviota's generator met them; -1 elsewhere.
var kkIdx [64][64]int16

func init() {
	for i := range kkIdx {
		for j := range kkIdx[i] {
			kkIdx[i][j] = -1
		}
	}
	idx := int16(0)
	for x := range 64 {
		for y := range 64 {
			if x == y || game.KingAttacks(game.Square(x))&game.Square(y).Bitboard() != 0 {
				continue
			}
			i, j := reflect(flipType(x, y), x), reflect(flipType(x, y), y)
			if kkIdx[i][j] == -1 {
				kkIdx[i][j] = idx
				kkIdx[x][y] = idx
				idx++
			}
		}
	}
	if idx != maxKKIndex {
		panic("gaviota: king index table has the wrong size")
	}
}

// reflect applies the reflections of flipType's result ft to s.
func reflect(ft, s int) int {
	if ft&1 != 0 {
		s = flipWE(s)
	}
	if ft&2 != 0 {
		s = flipNS(s)
	}
	if ft&4 != 0 {
		s = flipNWSE(s)
	}
	return s
}

// kxkIndex indexes king and one piece against king (KQK, KRK, KBK, KNK).
func kxkIndex(ws, bs []game.Square) int {
	ft := flipType(int(bs[0]), int(ws[0]))
	ki := kkIdx[reflect(ft, int(bs[0]))][reflect(ft, int(ws[0]))]
	if ki < 0 {
		return noIndex
	}
	return int(ki)*64 + reflect(ft, int(ws[1]))
}

// kpkIndex indexes king and pawn against king: the pawn's square on files
// a-d (the board mirrored west-east when it is on e-h), 24 a side, then
// the white king's square, then the black king's.
func kpkIndex(ws, bs []game.Square) int {
	pawn, wk, bk := int(ws[1]), int(ws[0]), int(bs[0])
	if pawn < 8 || pawn >= 56 {
		return noIndex
	}
	if pawn&7 > 3 {
		pawn, wk, bk = flipWE(pawn), flipWE(wk), flipWE(bk)
	}
	sq := flipNS(pawn) - 8
	slice := (sq + sq&3) >> 1
	return slice*64*64 + wk*64 + bk
}
