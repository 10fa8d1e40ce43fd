package engine

import (
	"math/bits"
	"sync/atomic"

	"knightwatch/game"
)

// Bound kinds stored with a score.
const (
	boundNone  = 0
	boundUpper = 1 // score <= stored (fail low)
	boundLower = 2 // score >= stored (fail high)
	boundExact = 3
)

// clusterSize entries share one 64-byte cache line.
const clusterSize = 4

// transTable is the transposition table shared by all search threads.
//
// Each entry is two words: the key XOR the data, and the data. Threads read
// and write entries without locks (Lazy SMP); a torn entry (one word from
// one write, one from another) fails the key check, so it is ignored rather
// than trusted. Atomic word access keeps the race detector quiet and costs
// nothing on amd64 loads.
type transTable struct {
	words    []uint64
	clusters uint64
	age      uint8
}

type ttEntry struct {
	move  game.Move
	score int
	eval  int
	depth int
	bound int
	// pv is set when the position was searched as a PV node: it lies, or
	// lay, on a principal variation, and deserves a gentler reduction.
	pv bool
}

func newTransTable(mb int) *transTable {
	n := uint64(mb) << 20 / (clusterSize * 16)
	if n == 0 {
		n = 1
	}
	return &transTable{words: allocTableWords(int(n * clusterSize * 2)), clusters: n}
}

func (t *transTable) clear() {
	clear(t.words)
	t.age = 0
}

// newSearch ages entries so that old ones are replaced first.
func (t *transTable) newSearch() { t.age = (t.age + 1) & 63 }

func (t *transTable) cluster(key uint64) int {
	hi, _ := bits.Mul64(key, t.clusters)
	return int(hi) * clusterSize * 2
}

func pack(m game.Move, score, eval, depth, bound int, pv bool, age uint8) uint64 {
	d := uint64(m) | uint64(uint16(int16(score)))<<16 | uint64(uint16(int16(eval)))<<32 |
		uint64(depth&maxTTDepth)<<48 | uint64(bound)<<56 | uint64(age)<<58
	if pv {
		d |= 1 << 55
	}
	return d
}

// maxTTDepth is the deepest depth an entry holds (7 bits; bit 55 is pv).
const maxTTDepth = 127

func unpack(d uint64) ttEntry {
	return ttEntry{
		move:  game.Move(d),
		score: int(int16(d >> 16)),
		eval:  int(int16(d >> 32)),
		depth: int(d >> 48 & maxTTDepth),
		bound: int(d >> 56 & 3),
		pv:    d>>55&1 != 0,
	}
}

// probe looks key up; ok is false when it is not stored.
func (t *transTable) probe(key uint64) (ttEntry, bool) {
	base := t.cluster(key)
	for i := 0; i < clusterSize; i++ {
		k := atomic.LoadUint64(&t.words[base+2*i])
		d := atomic.LoadUint64(&t.words[base+2*i+1])
		if k^d == key && d != 0 {
			return unpack(d), true
		}
	}
	return ttEntry{}, false
}

// store saves a result. It replaces the same key, else the entry with the
// lowest depth, preferring entries from earlier searches; an existing move
// is kept when the new result has none.
func (t *transTable) store(key uint64, m game.Move, score, eval, depth, bound int, pv bool) {
	if depth < 0 {
		depth = 0
	}
	if depth > maxTTDepth {
		depth = maxTTDepth
	}
	base := t.cluster(key)
	victim, worst := base, 1<<30
	for i := 0; i < clusterSize; i++ {
		idx := base + 2*i
		k := atomic.LoadUint64(&t.words[idx])
		d := atomic.LoadUint64(&t.words[idx+1])
		if d == 0 || k^d == key {
			if d != 0 && k^d == key {
				old := unpack(d)
				if m == game.NoMove {
					m = old.move
				}
				// Keep a deeper exact result from this search.
				if bound != boundExact && old.depth > depth+2 && uint8(d>>58) == t.age {
					return
				}
			}
			victim = idx
			break
		}
		age := (int(t.age) - int(d>>58) + 64) & 63
		v := int(d>>48&maxTTDepth) - 8*age
		if v < worst {
			worst, victim = v, idx
		}
	}
	d := pack(m, score, eval, depth, bound, pv, t.age)
	atomic.StoreUint64(&t.words[victim], key^d)
	atomic.StoreUint64(&t.words[victim+1], d)
}

// hashFull estimates the permille of entries written during this search.
func (t *transTable) hashFull() int {
	n := 0
	total := 0
	for i := 0; i < 1000 && i < len(t.words)/2; i++ {
		d := atomic.LoadUint64(&t.words[2*i+1])
		total++
		if d != 0 && uint8(d>>58) == t.age {
			n++
		}
	}
	if total == 0 {
		return 0
	}
	return n * 1000 / total
}
