package syzygy

import (
	"math/rand/v2"
	"testing"

	"knightwatch/game"
)

// childValues returns, for each legal move of p, the WDL value for p's side
// to move after the move, and the DTZ of the child (0 after a zeroing move).
func childValues(t *testing.T, tb *Tablebase, p *game.Position) (wdl []int, dtz []int, zeroing []bool) {
	t.Helper()
	for _, m := range p.LegalMoves() {
		child := *p
		child.MakeMove(m)
		w, err := tb.ProbeWDL(&child)
		if err != nil {
			t.Fatalf("%s after %s: %v", p.FEN(), m, err)
		}
		d, err := tb.ProbeDTZ(&child)
		if err != nil {
			t.Fatalf("%s after %s: %v", p.FEN(), m, err)
		}
		wdl = append(wdl, -int(w))
		dtz = append(dtz, d)
		zeroing = append(zeroing, child.HalfmoveClock() == 0)
	}
	return
}

// TestConsistency checks random positions of the 3-piece tables (none of
// which has fifty-move-rule results) against a one-ply search over probed
// children: the WDL value is the negamax of the children's, mates are
// losses, stalemates draws, and DTZ decreases along the best line (give or
// take Syzygy's one-ply rounding).
func TestConsistency(t *testing.T) {
	tb := openTestdata(t)
	rng := rand.New(rand.NewPCG(1, 36))
	n := 2000
	if testing.Short() {
		n = 300
	}
	for _, material := range []string{"KQvK", "KRvK", "KPvK", "KBvK"} {
		t.Run(material, func(t *testing.T) {
			mates := 0
			for i := 0; i < n; i++ {
				p := randomPosition(t, rng, material)
				w, err := tb.ProbeWDL(p)
				if err != nil {
					t.Fatalf("%s: %v", p.FEN(), err)
				}
				d, err := tb.ProbeDTZ(p)
				if err != nil {
					t.Fatalf("%s: %v", p.FEN(), err)
				}
				if w == CursedWin || w == BlessedLoss {
					t.Fatalf("%s: %v in a 3-piece table", p.FEN(), w)
				}
				if sign(d) != sign(int(w)) || d > 100 || d < -100 {
					t.Fatalf("%s: wdl %d but dtz %d", p.FEN(), w, d)
				}
				cw, cd, cz := childValues(t, tb, p)
				if len(cw) == 0 {
					want := Draw
					if p.InCheck() {
						want = Loss
						mates++
					}
					if w != want {
						t.Fatalf("%s: no legal moves, wdl %d, want %d", p.FEN(), w, want)
					}
					continue
				}
				best := -3
				for _, v := range cw {
					best = max(best, v)
				}
				if int(w) != best {
					t.Fatalf("%s: wdl %d, negamax of children %d", p.FEN(), w, best)
				}
				switch {
				case d > 0:
					// Some move keeps the win and zeroes now, or leads to a
					// child lost in about d-1 plies.
					bestD := 1 << 20
					for j := range cw {
						if cw[j] != 2 {
							continue
						}
						if cz[j] {
							bestD = min(bestD, 1)
						} else {
							bestD = min(bestD, -cd[j]+1)
						}
					}
					if bestD > d+1 || bestD < d-1 {
						t.Fatalf("%s: dtz %d, best child line %d", p.FEN(), d, bestD)
					}
				case d < 0:
					// The loser's longest resistance is about -d plies.
					worst := 0
					for j := range cw {
						if cz[j] {
							worst = max(worst, 1)
						} else {
							worst = max(worst, cd[j]+1)
						}
					}
					if worst > -d+1 || worst < -d-1 {
						t.Fatalf("%s: dtz %d, longest child line %d", p.FEN(), d, worst)
					}
				}
			}
			t.Logf("%d positions, %d mates", n, mates)
		})
	}
}

// TestMates checks a few hand-picked mates and stalemates.
func TestMates(t *testing.T) {
	tb := openTestdata(t)
	for _, c := range []struct {
		fen      string
		wdl, dtz int
	}{
		{"k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", -2, -1}, // mated
		{"k7/8/1QK5/8/8/8/8/8 b - - 0 1", 0, 0},    // stalemate
		{"7k/5K2/8/8/8/8/8/6R1 w - - 0 1", 2, 1},   // mate in one
		{"8/8/8/8/8/2k5/8/2K5 w - - 0 1", 0, 0},    // KvK
	} {
		p, err := game.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		w, err := tb.ProbeWDL(p)
		if err != nil || int(w) != c.wdl {
			t.Errorf("%s: wdl %d, %v; want %d", c.fen, w, err, c.wdl)
		}
		d, err := tb.ProbeDTZ(p)
		if err != nil || d != c.dtz {
			t.Errorf("%s: dtz %d, %v; want %d", c.fen, d, err, c.dtz)
		}
	}
}

// negamaxWDL returns the best WDL value over p's legal moves of the
// probed children (or the mate/stalemate value), and whether any child is a
// fifty-move-rule result, where a one-ply search does not apply.
func negamaxWDL(t *testing.T, tb *Tablebase, p *game.Position) (best int, cursed bool) {
	t.Helper()
	moves := p.LegalMoves()
	if len(moves) == 0 {
		if p.InCheck() {
			return -2, false
		}
		return 0, false
	}
	best = -3
	for _, m := range moves {
		child := *p
		child.MakeMove(m)
		w, err := tb.ProbeWDL(&child)
		if err != nil {
			t.Fatalf("%s after %s: %v", p.FEN(), m, err)
		}
		if w == CursedWin || w == BlessedLoss {
			cursed = true
		}
		best = max(best, -int(w))
	}
	return best, cursed
}

// TestConsistency4 checks random positions of every 4-piece table: the
// WDL value equals the negamax of the children's where no fifty-move-rule
// value is involved.
func TestConsistency4(t *testing.T) {
	tb := openTestdata(t)
	rng := rand.New(rand.NewPCG(4, 36))
	n := 200
	if testing.Short() {
		n = 30
	}
	for _, name := range tb.Tables() {
		if len(name) != 5 {
			continue
		}
		checked := 0
		for i := 0; i < n; i++ {
			p := randomPosition(t, rng, name)
			w, err := tb.ProbeWDL(p)
			if err != nil {
				t.Fatalf("%s: %v", p.FEN(), err)
			}
			best, cursed := negamaxWDL(t, tb, p)
			if cursed || w == CursedWin || w == BlessedLoss {
				continue
			}
			checked++
			if int(w) != best {
				t.Fatalf("%s (%s): wdl %d, negamax of children %d", p.FEN(), name, w, best)
			}
		}
		if checked < n/2 {
			t.Errorf("%s: only %d of %d positions checked", name, checked, n)
		}
	}
}

// TestEnPassant checks positions where en passant is possible: WDL equals
// the negamax over all legal moves (the en passant capture included), and
// DTZ has the sign of WDL.
func TestEnPassant(t *testing.T) {
	tb := openTestdata(t)
	rng := rand.New(rand.NewPCG(5, 36))
	found, changed := 0, 0
	for try := 0; try < 20000 && found < 300; try++ {
		// A pawn that has just moved two squares, an enemy pawn beside it.
		file := rng.IntN(8)
		side := rng.IntN(2)
		capFile := file + 1
		if capFile > 7 || (capFile > 0 && rng.IntN(2) == 0) {
			capFile = file - 1
		}
		var board [64]byte
		var pushed, capturer, epSq int
		stm := " w "
		if side == 0 { // White to move, Black pushed
			pushed, capturer, epSq = 32+file, 32+capFile, 40+file
			board[pushed], board[capturer] = 'p', 'P'
		} else {
			pushed, capturer, epSq = 24+file, 24+capFile, 16+file
			board[pushed], board[capturer] = 'P', 'p'
			stm = " b "
		}
		// The squares the pawn passed must be empty.
		kings := 0
		for kings < 2 {
			sq := rng.IntN(64)
			if board[sq] != 0 || sq == epSq || sq == epSq+8 || sq == epSq-8 {
				continue
			}
			board[sq] = "Kk"[kings]
			kings++
		}
		ep := string(rune('a'+epSq%8)) + string(rune('1'+epSq/8))
		p, err := game.ParseFEN(boardFEN(&board) + stm + "- " + ep + " 0 1")
		if err != nil || p.EnPassant() == game.NoSquare {
			continue
		}
		w, err := tb.ProbeWDL(p)
		if err != nil {
			t.Fatalf("%s: %v", p.FEN(), err)
		}
		d, err := tb.ProbeDTZ(p)
		if err != nil {
			t.Fatalf("%s: %v", p.FEN(), err)
		}
		if sign(d) != sign(int(w)) {
			t.Fatalf("%s: wdl %d but dtz %d", p.FEN(), w, d)
		}
		noEP, err := game.ParseFEN(boardFEN(&board) + stm + "- - 0 1")
		if err != nil {
			t.Fatal(err)
		}
		if wNoEP, err := tb.ProbeWDL(noEP); err != nil {
			t.Fatal(err)
		} else if wNoEP != w {
			changed++
		}
		best, cursed := negamaxWDL(t, tb, p)
		if cursed || w == CursedWin || w == BlessedLoss {
			continue
		}
		found++
		if int(w) != best {
			t.Fatalf("%s: wdl %d, negamax of children %d", p.FEN(), w, best)
		}
	}
	if found < 100 || changed == 0 {
		t.Fatalf("only %d en passant positions checked, %d where en passant changes the value", found, changed)
	}
	t.Logf("%d positions, en passant changes the value in %d", found, changed)
}
