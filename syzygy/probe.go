package syzygy

import (
	"fmt"

	"knightwatch/game"
)

// wdlToMap picks the DTZ value map by WDL value + 2; paFlags is the flag bit
// telling that DTZ values of that WDL value are stored in full plies.
var (
	wdlToMap = [5]int{1, 3, 0, 2, 0}
	paFlags  = [5]uint8{8, 0, 0, 0, 4}
)

// ProbeWDL returns the win/draw/loss value of p for the side to move,
// assuming p arose just after a zeroing move (capture or pawn move), so that
// the full fifty moves are ahead. En passant captures are taken into
// account. It fails with ErrCastling, ErrTooManyPieces, a *MissingTableError
// (for p's material or one a capture reaches) or a *TableError.
func (tb *Tablebase) ProbeWDL(p *game.Position) (WDL, error) {
	if err := tb.begin(p); err != nil {
		return 0, err
	}
	defer tb.mu.RUnlock()
	v, err := tb.probeWDL(p)
	return WDL(v), err
}

// ProbeDTZ returns the DTZ value of p (see the package documentation):
// the distance in plies to the next zeroing move with best play under the
// fifty-move rule, positive when the side to move wins (above 100 for a
// cursed win), negative when it loses, 0 for a draw. It needs both the WDL
// and DTZ tables. Errors are as for ProbeWDL.
func (tb *Tablebase) ProbeDTZ(p *game.Position) (int, error) {
	if err := tb.begin(p); err != nil {
		return 0, err
	}
	defer tb.mu.RUnlock()
	return tb.probeDTZ(p)
}

// begin checks that p can be probed and read-locks tb (on success only).
func (tb *Tablebase) begin(p *game.Position) error {
	if p.HasCastlingRights() {
		return fmt.Errorf("%w: %s", ErrCastling, p.FEN())
	}
	if n := p.Occupied().Count(); n > tb.maxPieces {
		return fmt.Errorf("%w: %d pieces, tables have at most %d", ErrTooManyPieces, n, tb.maxPieces)
	}
	tb.mu.RLock()
	if tb.closed {
		tb.mu.RUnlock()
		return ErrClosed
	}
	return nil
}

// isCapture reports whether m takes a piece on its target square (en
// passant excluded).
func isCapture(p *game.Position, m game.Move) bool {
	return !m.IsCastling() && p.PieceAt(m.To()) != game.NoPiece
}

// probeAB returns the WDL value of p within (alpha, beta) with captures
// resolved, and success 2 when a capture gives the value, 1 otherwise.
func (tb *Tablebase) probeAB(p *game.Position, alpha, beta int) (int, int, error) {
	var ml game.MoveList
	p.GenerateCaptures(&ml) // captures and promotions; promotions are skipped below
	for _, m := range ml.Slice() {
		if !isCapture(p, m) {
			continue
		}
		child := *p
		child.MakeMove(m)
		v, _, err := tb.probeAB(&child, -beta, -alpha)
		if err != nil {
			return 0, 0, err
		}
		v = -v
		if v > alpha {
			if v >= beta {
				return v, 2, nil
			}
			alpha = v
		}
	}
	v, err := tb.probeWDLTable(p)
	if err != nil {
		return 0, 0, err
	}
	if alpha >= v {
		if alpha > 0 {
			return alpha, 2, nil
		}
		return alpha, 1, nil
	}
	return v, 1, nil
}

// probeWDL is ProbeWDL without the checks and locking.
func (tb *Tablebase) probeWDL(p *game.Position) (int, error) {
	v, _, err := tb.probeAB(p, -2, 2)
	if err != nil || p.EnPassant() == game.NoSquare {
		return v, err
	}
	v1, onlyEP, err := tb.bestEnPassant(p)
	if err != nil {
		return 0, err
	}
	if v1 > -3 {
		if v1 >= v {
			v = v1
		} else if v == 0 && onlyEP {
			// En passant is the only legal move: it must be played.
			v = v1
		}
	}
	return v, nil
}

// bestEnPassant returns the best WDL value over the legal en passant
// captures (-3 if there is none) and whether they are the only legal moves.
func (tb *Tablebase) bestEnPassant(p *game.Position) (best int, onlyEP bool, err error) {
	var ml game.MoveList
	p.GenerateLegal(&ml)
	best, onlyEP = -3, true
	for _, m := range ml.Slice() {
		if !m.IsEnPassant() {
			onlyEP = false
			continue
		}
		child := *p
		child.MakeMove(m)
		v, _, err := tb.probeAB(&child, -2, 2)
		if err != nil {
			return 0, false, err
		}
		best = max(best, -v)
	}
	return best, onlyEP, nil
}

// probeWDLTable returns the value stored in the WDL table for p, before
// captures and en passant are resolved.
func (tb *Tablebase) probeWDLTable(p *game.Position) (int, error) {
	if p.Occupied() == p.ByType(game.King) {
		return 0, nil // KvK
	}
	key := positionKey(p)
	tf := tb.wdl[key]
	if tf == nil {
		return 0, &MissingTableError{Material: key.tableName(), Suffix: WDLSuffix}
	}
	t, err := tf.get()
	if err != nil {
		return 0, err
	}
	var pos [MaxTablePieces]int
	e, _, _, err := t.place(p, &pos, key)
	if err != nil {
		return 0, err
	}
	idx, ok := t.encode(&pos, e)
	if !ok {
		return 0, t.corrupt("no index for %s", p.FEN())
	}
	v, ok := t.decompress(e.pairs, idx)
	if !ok || v > 4 {
		return 0, t.corrupt("bad value at index %d", idx)
	}
	return v - 2, nil
}

// place fills pos with the squares of p's pieces in the order of the piece
// list of the table's encoding for p (by side to move and, for pawn tables,
// the leading pawn's file). It returns that encoding, the table side (0 or
// 1) p's side to move maps to and the leading pawn's file (0 if pawnless).
func (t *table) place(p *game.Position, pos *[MaxTablePieces]int, key materialKey) (e *encoding, side, file int, err error) {
	var cmirror uint8
	var mirror int
	stm := int(p.Side())
	if t.symmetric {
		if stm == 1 {
			cmirror, mirror = 8, 0x38
		}
		side = 0
	} else if key != t.key {
		cmirror, mirror = 8, 0x38
		side = 1 - stm
	} else {
		side = stm
	}
	// DTZ tables store one side to move, in enc[f][0] (the caller compares
	// side with the flags); WDL tables store both when split.
	tside := side
	if t.dtz {
		tside = 0
	} else if side == 1 && !t.split {
		return nil, 0, 0, t.corrupt("no data for the second side")
	}
	if !t.hasPawns {
		mirror = 0 // pawnless tables are symmetric under a vertical flip
	}
	fill := func(pieces *[MaxTablePieces]uint8, i int) error {
		for i < t.num {
			pc := pieces[i] ^ cmirror
			bb := p.Pieces(game.Color(pc>>3), game.PieceType(pc&7))
			if bb == 0 {
				return t.corrupt("piece list does not match the position")
			}
			for bb != 0 {
				if i >= t.num {
					return t.corrupt("piece list does not match the position")
				}
				pos[i] = int(bb.PopFirst()) ^ mirror
				i++
			}
		}
		return nil
	}
	if !t.hasPawns {
		e = &t.enc[0][tside]
		return e, side, 0, fill(&e.pieces, 0)
	}
	lead := t.enc[0][0].pieces[0] ^ cmirror
	bb := p.Pieces(game.Color(lead>>3), game.Pawn)
	i := 0
	for bb != 0 {
		if i >= t.pawns[0] {
			return nil, 0, 0, t.corrupt("piece list does not match the position")
		}
		pos[i] = int(bb.PopFirst()) ^ mirror
		i++
	}
	f := t.pawnFile(pos)
	e = &t.enc[f][tside]
	return e, side, f, fill(&e.pieces, i)
}

// encode returns the index of the placed position.
func (t *table) encode(pos *[MaxTablePieces]int, e *encoding) (uint64, bool) {
	if t.hasPawns {
		return t.encodePawn(pos, e), true
	}
	return t.encodePiece(pos, e)
}

// probeDTZTable returns the DTZ table's value for p, whose WDL value is wdl,
// and ok false when the table stores the other side to move.
func (tb *Tablebase) probeDTZTable(p *game.Position, wdl int) (int, bool, error) {
	key := positionKey(p)
	tf := tb.dtz[key]
	if tf == nil {
		return 0, false, &MissingTableError{Material: key.tableName(), Suffix: DTZSuffix}
	}
	t, err := tf.get()
	if err != nil {
		return 0, false, err
	}
	var pos [MaxTablePieces]int
	e, side, f, err := t.place(p, &pos, key)
	if err != nil {
		return 0, false, err
	}
	flags := t.dtzFlags[f]
	if int(flags&1) != side && !t.symmetric {
		return 0, false, nil
	}
	idx, ok := t.encode(&pos, e)
	if !ok {
		return 0, false, t.corrupt("no index for %s", p.FEN())
	}
	res, ok := t.decompress(e.pairs, idx)
	if !ok {
		return 0, false, t.corrupt("bad data at index %d", idx)
	}
	if flags&2 != 0 {
		m := t.mapIdx[f][wdlToMap[wdl+2]]
		if flags&16 == 0 {
			o := t.mapStart + m + res
			if o >= len(t.data) {
				return 0, false, t.corrupt("DTZ map out of range")
			}
			res = int(t.data[o])
		} else {
			o := t.mapStart + 2*(m+res)
			if o+2 > len(t.data) {
				return 0, false, t.corrupt("DTZ map out of range")
			}
			res = int(t.data[o]) | int(t.data[o+1])<<8
		}
	}
	if flags&paFlags[wdl+2] == 0 || wdl&1 != 0 {
		res *= 2
	}
	return res, true, nil
}

// dtzBeforeZeroing is the DTZ of a position whose best move zeroes.
func dtzBeforeZeroing(wdl int) int {
	switch {
	case wdl == 2:
		return 1
	case wdl == 1:
		return 101
	case wdl == -1:
		return -101
	case wdl == -2:
		return -1
	}
	return 0
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// probeDTZNoEP is the DTZ of p ignoring en passant captures.
func (tb *Tablebase) probeDTZNoEP(p *game.Position) (int, error) {
	wdl, success, err := tb.probeAB(p, -2, 2)
	if err != nil || wdl == 0 {
		return 0, err
	}
	if success == 2 {
		return dtzBeforeZeroing(wdl), nil
	}
	var ml game.MoveList
	p.GenerateLegal(&ml)
	moves := ml.Slice()
	if wdl > 0 {
		// A winning pawn push zeroes at once.
		for _, m := range moves {
			if p.PieceAt(m.From()).Type() != game.Pawn || isCapture(p, m) || m.IsEnPassant() {
				continue
			}
			child := *p
			child.MakeMove(m)
			v, err := tb.probeWDL(&child)
			if err != nil {
				return 0, err
			}
			if -v == wdl {
				return dtzBeforeZeroing(wdl), nil
			}
		}
	}
	dtz, ok, err := tb.probeDTZTable(p, wdl)
	if err != nil {
		return 0, err
	}
	if ok {
		return dtzBeforeZeroing(wdl) + sign(wdl)*dtz, nil
	}
	// The table stores the other side to move: one ply of search.
	if wdl > 0 {
		best := 0xffff
		for _, m := range moves {
			if p.PieceAt(m.From()).Type() == game.Pawn || isCapture(p, m) || m.IsEnPassant() {
				continue
			}
			child := *p
			child.MakeMove(m)
			v, err := tb.probeDTZ(&child)
			if err != nil {
				return 0, err
			}
			v = -v
			if v == 1 && child.InCheck() && !child.HasLegalMoves() {
				best = 1
			} else if v > 0 && v+1 < best {
				best = v + 1
			}
		}
		return best, nil
	}
	best := -1
	for _, m := range moves {
		child := *p
		child.MakeMove(m)
		var v int
		if child.HalfmoveClock() == 0 {
			if wdl == -2 {
				v = -1
			} else {
				w, _, err := tb.probeAB(&child, 1, 2)
				if err != nil {
					return 0, err
				}
				if w == 2 {
					v = 0
				} else {
					v = -101
				}
			}
		} else {
			d, err := tb.probeDTZ(&child)
			if err != nil {
				return 0, err
			}
			v = -d - 1
		}
		best = min(best, v)
	}
	return best, nil
}

// probeDTZ is ProbeDTZ without the checks and locking.
func (tb *Tablebase) probeDTZ(p *game.Position) (int, error) {
	v, err := tb.probeDTZNoEP(p)
	if err != nil || p.EnPassant() == game.NoSquare {
		return v, err
	}
	v1, onlyEP, err := tb.bestEnPassant(p)
	if err != nil {
		return 0, err
	}
	if v1 <= -3 {
		return v, nil
	}
	v1 = [5]int{-1, -101, 0, 101, 1}[v1+2]
	switch {
	case v < -100:
		if v1 >= 0 {
			v = v1
		}
	case v < 0:
		if v1 >= 0 || v1 < -100 {
			v = v1
		}
	case v > 100:
		if v1 > 0 {
			v = v1
		}
	case v > 0:
		if v1 == 1 {
			v = v1
		}
	case v1 >= 0:
		v = v1
	default:
		if onlyEP {
			v = v1
		}
	}
	return v, nil
}
