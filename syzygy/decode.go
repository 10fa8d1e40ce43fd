package syzygy

import (
	"encoding/binary"
)

// binomial[k][n] is C(n, k) for n < 64, k < MaxTablePieces.
var binomial [MaxTablePieces][64]uint64

// pawnIdx and pawnFactor index the leading pawns: by the number of leading
// pawns minus one and the flap index (pawnIdx) or file (pawnFactor).
var (
	pawnIdx    [5][24]uint64
	pawnFactor [5][4]uint64
)

func init() {
	for n := 0; n < 64; n++ {
		binomial[0][n] = 1
		for k := 1; k < MaxTablePieces && k <= n; k++ {
			binomial[k][n] = binomial[k-1][n-1] + binomial[k][n-1]
		}
	}
	for i := 0; i < 5; i++ {
		j := 0
		for file := 0; file < 4; file++ {
			var s uint64
			for ; j < 6*(file+1); j++ {
				pawnIdx[i][j] = s
				if i == 0 {
					s++
				} else {
					s += binom(int(ptwist[invflap[j]]), i)
				}
			}
			pawnFactor[i][file] = s
		}
	}
}

// binom returns C(n, k), 0 when out of range.
func binom(n, k int) uint64 {
	if n < 0 || n >= 64 || k < 0 || k >= MaxTablePieces {
		return 0
	}
	return binomial[k][n]
}

// subfactor returns C(n, k): the placements of k like pieces on n squares.
func subfactor(k, n int) uint64 {
	f, l := uint64(n), uint64(1)
	for i := 1; i < k; i++ {
		f *= uint64(n - i)
		l *= uint64(i + 1)
	}
	return f / l
}

func offDiag(s int) int  { return s>>3 - s&7 }
func flipDiag(s int) int { return (s>>3 | s<<3) & 63 }

// encodeRest adds the index of the groups from i on: each group's squares
// sorted and encoded as a combination of the squares the earlier pieces
// leave free. base is 8 for the second colour's pawns (ranks 2-7), else 0.
func encodeRest(pos *[MaxTablePieces]int, e *encoding, i, end, base int, idx uint64) uint64 {
	for i < end {
		t := int(e.norm[i])
		if t == 0 {
			return idx
		}
		for j := i; j < i+t; j++ {
			for k := j + 1; k < i+t; k++ {
				if pos[j] > pos[k] {
					pos[j], pos[k] = pos[k], pos[j]
				}
			}
		}
		var s uint64
		for m := i; m < i+t; m++ {
			p := pos[m]
			j := 0
			for l := 0; l < i; l++ {
				if p > pos[l] {
					j++
				}
			}
			s += binom(p-j-base, m-i+1)
		}
		idx += s * e.factor[i]
		i += t
	}
	return idx
}

// encodePiece returns the index of a pawnless position (squares in pos, in
// the order of e.pieces). It reorders pos. ok is false for placements the
// encoding has no index for (adjacent kings).
func (t *table) encodePiece(pos *[MaxTablePieces]int, e *encoding) (uint64, bool) {
	n := t.num
	if pos[0]&4 != 0 {
		for i := 0; i < n; i++ {
			pos[i] ^= 7
		}
	}
	if pos[0]&0x20 != 0 {
		for i := 0; i < n; i++ {
			pos[i] ^= 0x38
		}
	}
	lim := 3
	if t.encType == 2 {
		lim = 2
	}
	for i := 0; i < n; i++ {
		if d := offDiag(pos[i]); d != 0 {
			if i < lim && d > 0 {
				for j := 0; j < n; j++ {
					pos[j] = flipDiag(pos[j])
				}
			}
			break
		}
	}
	var idx uint64
	var i int
	if t.encType == 0 { // three unique leading pieces
		a, b, c := pos[0], pos[1], pos[2]
		bi, ci := 0, 0
		if b > a {
			bi = 1
		}
		if c > a {
			ci++
		}
		if c > b {
			ci++
		}
		switch {
		case offDiag(a) != 0:
			idx = uint64(int(triangle[a])*63*62 + (b-bi)*62 + (c - ci))
		case offDiag(b) != 0:
			idx = uint64(6*63*62 + int(diag[a])*28*62 + int(lower[b])*62 + c - ci)
		case offDiag(c) != 0:
			idx = uint64(6*63*62 + 4*28*62 + int(diag[a])*7*28 + (int(diag[b])-bi)*28 + int(lower[c]))
		default:
			idx = uint64(6*63*62 + 4*28*62 + 4*7*28 + int(diag[a])*7*6 + (int(diag[b])-bi)*6 + (int(diag[c]) - ci))
		}
		i = 3
	} else { // the two kings lead
		v := kkIdx[triangle[pos[0]]][pos[1]]
		if v < 0 {
			return 0, false
		}
		idx = uint64(v)
		i = 2
	}
	idx *= e.factor[0]
	return encodeRest(pos, e, i, n, 0, idx), true
}

// pawnFile moves the leading pawn that decides the file to pos[0] and
// returns its file folded to a-d.
func (t *table) pawnFile(pos *[MaxTablePieces]int) int {
	for i := 1; i < t.pawns[0]; i++ {
		if flap[pos[0]] > flap[pos[i]] {
			pos[0], pos[i] = pos[i], pos[0]
		}
	}
	f := pos[0] & 7
	if f > 3 {
		f = 7 - f
	}
	return f
}

// encodePawn returns the index of a position of a pawn table (squares in
// pos, leading pawns first, already mirrored for the table's colours). It
// reorders pos.
func (t *table) encodePawn(pos *[MaxTablePieces]int, e *encoding) uint64 {
	n := t.num
	if pos[0]&4 != 0 {
		for i := 0; i < n; i++ {
			pos[i] ^= 7
		}
	}
	lead := t.pawns[0]
	for i := 1; i < lead; i++ {
		for j := i + 1; j < lead; j++ {
			if ptwist[pos[i]] < ptwist[pos[j]] {
				pos[i], pos[j] = pos[j], pos[i]
			}
		}
	}
	tt := lead - 1
	idx := pawnIdx[tt][flap[pos[0]]]
	for i := tt; i > 0; i-- {
		idx += binom(int(ptwist[pos[i]]), tt-i+1)
	}
	idx *= e.factor[0]
	i := lead
	if t.pawns[1] > 0 {
		end := lead + t.pawns[1]
		idx = encodeRest(pos, e, i, end, 8, idx)
		i = end
	}
	return encodeRest(pos, e, i, n, 0, idx)
}

// decompress returns the value at index idx of the stream d, or ok false
// when the data is inconsistent (every read is bounds-checked).
func (t *table) decompress(d *pairsData, idx uint64) (int, bool) {
	if d.constant {
		return d.constVal, true
	}
	if idx >= d.tbSize {
		return 0, false
	}
	data := t.data
	main := int(idx >> d.idxBits)
	lit := int64(idx&(1<<d.idxBits-1)) - int64(1)<<(d.idxBits-1)
	entry := d.indexTable + 6*main // inside the file: checked by parseTable
	block := int64(binary.LittleEndian.Uint32(data[entry:]))
	lit += int64(binary.LittleEndian.Uint16(data[entry+4:]))
	blockSize := func(b int64) int64 {
		return int64(binary.LittleEndian.Uint16(data[d.sizeTable+2*int(b):]))
	}
	if block >= int64(d.numBlocks) {
		return 0, false
	}
	if lit < 0 {
		for lit < 0 {
			block--
			if block < 0 {
				return 0, false
			}
			lit += blockSize(block) + 1
		}
	} else {
		for {
			if block >= int64(d.numBlocks) {
				return 0, false
			}
			s := blockSize(block)
			if lit <= s {
				break
			}
			lit -= s + 1
			block++
		}
	}
	if block >= int64(d.realBlks) {
		return 0, false
	}
	ptr := d.dataStart + int(block)<<d.blockBits
	end := len(data)
	read32 := func(p int) uint64 {
		if p+4 <= end {
			return uint64(binary.BigEndian.Uint32(data[p:]))
		}
		var b [4]byte // past the mapping: the bits are never decisive
		if p < end {
			copy(b[:], data[p:end])
		}
		return uint64(binary.BigEndian.Uint32(b[:]))
	}
	code := read32(ptr)<<32 | read32(ptr+4)
	ptr += 8
	bitCnt := 0 // bits of code consumed since the last refill
	base, symLen, minLen := d.base, d.symLen, d.minLen
	lowest := data[d.lowestSym : d.lowestSym+2*len(base)]
	var sym int
	for {
		i := 0 // code length minus minLen
		for code < base[i] {
			i++
			if i >= len(base) {
				return 0, false
			}
		}
		l := minLen + i
		sym = int(binary.LittleEndian.Uint16(lowest[2*i:])) + int((code-base[i])>>uint(64-l))
		if sym < 0 || sym >= len(symLen) {
			return 0, false
		}
		if lit < int64(symLen[sym])+1 {
			break
		}
		lit -= int64(symLen[sym]) + 1
		code <<= uint(l)
		bitCnt += l
		if bitCnt >= 32 {
			bitCnt -= 32
			code |= read32(ptr) << uint(bitCnt)
			ptr += 4
		}
	}
	for d.symLen[sym] != 0 {
		left, right := t.symbol(d, sym)
		if lit < int64(d.symLen[left])+1 {
			sym = left
		} else {
			lit -= int64(d.symLen[left]) + 1
			sym = right
		}
	}
	left, _ := t.symbol(d, sym)
	if !t.dtz {
		return left & 0xff, true
	}
	return left, true
}
