package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"knightwatch/game"
	"knightwatch/gaviota"
	"knightwatch/syzygy"
)

// openGaviota opens Debian's 3-piece Gaviota tables, which scripts/deps.sh
// installs (gaviotatb): their absence fails the test.
func openGaviota(t *testing.T) *gaviota.Tablebase {
	t.Helper()
	if _, err := os.Stat(gaviota.DebianPath); err != nil {
		t.Fatalf("no Gaviota tables (scripts/deps.sh installs Debian's gaviotatb): %v", err)
	}
	tb, err := gaviota.Open(gaviota.DebianPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

// randomMatePosition returns a random legal position of king and piece
// against king, either colour the stronger, either side to move, that
// the tables say is won by one side and not mated already, with its DTM.
func randomMatePosition(t *testing.T, rng *rand.Rand, tb *gaviota.Tablebase, piece byte) (*game.Position, int) {
	t.Helper()
	for range 10000 {
		sq := rng.Perm(64)[:3]
		var board [64]byte
		board[sq[0]], board[sq[1]], board[sq[2]] = 'K', 'k', piece
		if rng.IntN(2) == 0 {
			board[sq[2]] = piece + 'a' - 'A'
		}
		fen := boardPlacement(&board) + " " + string("wb"[rng.IntN(2)]) + " - - 0 1"
		p, err := game.ParseFEN(fen)
		if err != nil {
			continue // adjacent kings, the side not to move in check
		}
		if dtm, err := tb.ProbeDTM(p); err == nil && dtm != 0 {
			return p, dtm
		}
	}
	t.Fatal("no won position found")
	return nil, 0
}

// boardPlacement writes FEN's placement field of a mailbox (a1 = 0).
func boardPlacement(board *[64]byte) string {
	s := ""
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := range 8 {
			c := board[8*rank+file]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				s += fmt.Sprint(empty)
				empty = 0
			}
			s += string(c)
		}
		if empty > 0 {
			s += fmt.Sprint(empty)
		}
		if rank > 0 {
			s += "/"
		}
	}
	return s
}

// TestGaviotaMatesInDTM plays 50 random KQK and KRK positions and 20 of
// KPK (a fixed seed) out with the engine on both sides at depth 1, where
// its search alone would rarely find the fastest mate: the game must end
// in checkmate after exactly |DTM| plies of the start, the DTM falling by
// one ply a move and changing sign, as the tables say; with Syzygy's
// tables as well, the same.
func TestGaviotaMatesInDTM(t *testing.T) {
	tb := openGaviota(t)
	syz, err := syzygy.Open(syzygyTestdata)
	if err != nil {
		t.Fatal(err)
	}
	defer syz.Close()
	// With Syzygy's tables too, Gaviota's ranking decides the root.
	for _, opts := range []Options{{HashMB: 4, Gaviota: tb}, {HashMB: 4, Gaviota: tb, Tablebase: syz}} {
		playsShortestMates(t, New(opts), tb)
	}
}

// playsShortestMates is TestGaviotaMatesInDTM for one engine.
func playsShortestMates(t *testing.T, e *Engine, tb *gaviota.Tablebase) {
	t.Helper()
	rng := rand.New(rand.NewPCG(48, 50))
	for i := range 70 {
		// 50 KQK and KRK positions, then 20 of KPK, whose mates run
		// through a promotion into KQK.
		piece := byte("QR"[i%2])
		if i >= 50 {
			piece = 'P'
		}
		pos, dtm := randomMatePosition(t, rng, tb, piece)
		start := pos.FEN()
		e.NewGame()
		plies := 0
		for {
			var ml game.MoveList
			pos.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			res := e.Search(context.Background(), pos, nil, Limits{Depth: 1}, nil)
			// The score reported is the tables' mate, in moves.
			if wantMate := dtm / 2; dtm > 0 && res.Score.Mate != (dtm+1)/2 || dtm < 0 && res.Score.Mate != wantMate {
				t.Fatalf("%s, ply %d: score %+v for DTM %d", start, plies, res.Score, dtm)
			}
			pos.MakeMove(res.Move)
			plies++
			got, err := tb.ProbeDTM(pos)
			want := -dtm
			if want > 0 {
				want--
			} else {
				want++
			}
			if err != nil || got != want {
				t.Fatalf("%s, ply %d (%s): DTM %d (%v) after %s, want %d", start, plies, pos.FEN(), got, err, res.Move, want)
			}
			dtm = got
			if plies > 64 {
				t.Fatalf("%s: no mate after %d plies", start, plies)
			}
		}
		initial, _ := game.ParseFEN(start)
		want, _ := tb.ProbeDTM(initial)
		if !pos.InCheck() || plies != max(want, -want) {
			t.Errorf("%s: the game ended after %d plies (checkmate: %v), want mate in %d plies", start, plies, pos.InCheck(), max(want, -want))
		}
	}
}

// TestGaviotaRootMovesDraw checks that a drawn root keeps only the moves
// that keep the draw (the king that must stay in front of the pawn), with
// a draw's score, and
// that a root the tables do not hold leaves the search alone.
func TestGaviotaRootMovesDraw(t *testing.T) {
	tb := openGaviota(t)
	for _, c := range []struct {
		fen  string
		held bool
	}{
		{"8/8/8/8/4k3/8/4P3/4K3 b - - 0 1", true},
		{"8/8/8/8/4k3/8/2R1P3/4K3 b - - 0 1", false},
	} {
		pos := mustFEN(t, c.fen)
		kept, score, ok := gaviotaRootMoves(tb, pos, pos.LegalMoves())
		if ok != c.held || score != 0 {
			t.Fatalf("%s: held %v, score %d; want held %v, a draw's 0", c.fen, ok, score, c.held)
		}
		for _, m := range kept {
			child := *pos
			child.MakeMove(m)
			if wdl, _, err := tb.Probe(&child); err != nil || wdl != gaviota.Draw {
				t.Errorf("%s: kept %s, which reaches %v (%v)", c.fen, m, wdl, err)
			}
		}
		if c.held && len(kept) == 0 {
			t.Errorf("%s: no move kept", c.fen)
		}
	}
}

// TestGaviotaUCIOption: GaviotaTbPath reports the tables found and the
// engine then plays the shortest mate; a bad path is refused with an
// info string, keeping the tables it had.
func TestGaviotaUCIOption(t *testing.T) {
	openGaviota(t) // fails without the tables
	empty := t.TempDir()
	u, lines := runSession(t, "setoption name GaviotaTbPath value "+gaviota.DebianPath+"\n")
	found := linesWith(lines, "info string Gaviota: found ")
	if len(found) != 1 || !strings.Contains(found[0], "found 5 tables of up to 3 pieces") {
		t.Fatalf("no or wrong report of the tables found: %q", lines)
	}
	if u.gaviotaPath != "" {
		t.Errorf("tables still open after the session ended: %q", u.gaviotaPath)
	}
	for _, bad := range []string{empty + "/missing", empty} {
		_, lines := runSession(t, "setoption name GaviotaTbPath value "+gaviota.DebianPath+"\nsetoption name GaviotaTbPath value "+bad+"\n")
		errs := linesWith(lines, "info string error: setoption gaviotatbpath:")
		if len(errs) != 1 || !strings.Contains(errs[0], bad) || !strings.Contains(errs[0], "keeping "+gaviota.DebianPath) {
			t.Errorf("bad path %s: %q", bad, lines)
		}
	}
}
