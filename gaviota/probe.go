package gaviota

import (
	"fmt"
	"strings"

	"knightwatch/game"
)

// Entry values: the two low bits say who mates, the rest a count of moves.
const (
	infoDraw   = 0
	infoWMate  = 1
	infoBMate  = 2
	infoForbid = 3
)

// probe is ProbeDTM under the read lock.
func (tb *Tablebase) probe(p *game.Position) (int, error) {
	if p.HasCastlingRights() {
		return 0, ErrCastling
	}
	if err := checkLegal(p); err != nil {
		return 0, err
	}
	n := p.Occupied().Count()
	if n == 2 {
		return 0, nil // two bare kings: a draw, no table needed
	}
	if n > tb.max {
		return 0, fmt.Errorf("%w: %d pieces, the tables hold at most %d", ErrTooManyPieces, n, tb.max)
	}
	ws, wl := sidePieces(p, game.White)
	bs, bl := sidePieces(p, game.Black)
	return tb.probeSquares(ws, wl, bs, bl, int(p.Side()))
}

// probeSquares probes the legal position with White's pieces on ws (king
// first, then by falling value) with letters wl ("kq"), Black's on bs with
// bl, and side to move side (0 White, 1 Black).
func (tb *Tablebase) probeSquares(ws []game.Square, wl string, bs []game.Square, bl string, side int) (int, error) {
	// The table's name has the side with more (or stronger) pieces first
	// as White; when Black is that side, the board is mirrored north-south
	// and the colours swapped, which changes no value.
	tf, ok := tb.tables[wl+bl]
	if !ok {
		tf, ok = tb.tables[bl+wl]
		if !ok {
			return 0, &MissingTableError{Table: tableName(wl, bl)}
		}
		ws, bs = mirror(bs), mirror(ws)
		side ^= 1
	}
	t, err := tf.get()
	if err != nil {
		return 0, err
	}
	idx := t.scheme.index(ws, bs)
	if idx < 0 || idx >= t.scheme.maxIndex {
		return 0, fmt.Errorf("%w: no entry for the placement", ErrIllegal)
	}
	key := blockKey{t: t, side: side, block: idx / blockEntries}
	block := tb.cache.get(key)
	if block == nil {
		if block, err = t.decode(side, key.block); err != nil {
			return 0, &TableError{Path: tf.path, Err: err}
		}
		tb.cache.put(key, block)
	}
	dtm, ok := unpack(side, block[idx%blockEntries])
	if !ok {
		return 0, &TableError{Path: tf.path, Err: corrupt("entry %d of side %d marks a legal position illegal", idx, side)}
	}
	return dtm, nil
}

// unpack decodes an entry of a table with side to move (0 White, 1 Black)
// into the DTM in plies from that side's point of view; ok is false for
// an entry marking the position illegal. Entries hold moves, not plies,
// and which side mates; counts past 63 moves borrow the draw and illegal
// codes (Gaviota's packing, which 3-piece tables never need but which
// costs nothing to read).
func unpack(side int, e byte) (dtm int, ok bool) {
	if e == infoDraw {
		return 0, true
	}
	if e == infoForbid {
		return 0, false
	}
	info, store := int(e&3), int(e>>2)
	// mover and other: the info codes of the side to move mating and of
	// it being mated.
	mover, other := infoWMate, infoBMate
	if side == 1 {
		mover, other = infoBMate, infoWMate
	}
	switch info {
	case mover: // mates in store+1 moves
		return 2*(store+1) - 1, true
	case other: // mated in store moves
		return -2 * store, true
	case infoDraw: // the side to move mates in store+64 moves
		if side == 1 && store == 63 {
			return -2 * 127, true
		}
		return 2*(store+64) - 1, true
	default: // infoForbid: mated in store+63 moves
		return -2 * (store + 63), true
	}
}

// sidePieces returns the squares of c's pieces, king first, then by
// falling value (python-chess's order: king, queen, rook, bishop, knight,
// pawn; squares rising within a type), and their letters, "kq".
func sidePieces(p *game.Position, c game.Color) ([]game.Square, string) {
	var sq []game.Square
	var letters []byte
	for pt := game.King; pt >= game.Pawn; pt-- {
		for b := p.Pieces(c, pt); b != 0; {
			sq = append(sq, b.PopFirst())
			letters = append(letters, pt.Letter())
		}
	}
	return sq, string(letters)
}

// mirror reflects squares north-south.
func mirror(sq []game.Square) []game.Square {
	out := make([]game.Square, len(sq))
	for i, s := range sq {
		out[i] = s ^ 56
	}
	return out
}

// tableName is the file name the material wl against bl would have: the
// side with more pieces, or as many and the stronger pieces, first.
func tableName(wl, bl string) string {
	if len(bl) > len(wl) || len(bl) == len(wl) && stronger(bl, wl) {
		return bl + wl
	}
	return wl + bl
}

// stronger reports whether the letters a (king first, then by falling
// value) outrank b of the same length at the first piece they differ.
func stronger(a, b string) bool {
	const order = "kqrbnp"
	for i := range len(a) {
		if a[i] != b[i] {
			return strings.IndexByte(order, a[i]) < strings.IndexByte(order, b[i])
		}
	}
	return false
}

// checkLegal reports positions that cannot arise in a game: a king
// missing or doubled, the side not to move in check, a pawn on the first
// or last rank.
func checkLegal(p *game.Position) error {
	for c := game.White; c <= game.Black; c++ {
		if p.Pieces(c, game.King).Count() != 1 {
			return fmt.Errorf("%w: %s has %d kings", ErrIllegal, c, p.Pieces(c, game.King).Count())
		}
	}
	if p.IsAttacked(p.KingSquare(p.Side().Other()), p.Side()) {
		return fmt.Errorf("%w: the side not to move is in check", ErrIllegal)
	}
	if p.ByType(game.Pawn)&(game.RankMask(0)|game.RankMask(7)) != 0 {
		return fmt.Errorf("%w: a pawn on the first or last rank", ErrIllegal)
	}
	return nil
}
