package gaviota

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"knightwatch/game"
)

// openDebian opens Debian's 3-piece tables, which scripts/deps.sh
// installs (package gaviotatb): their absence fails the test.
func openDebian(t testing.TB, cacheBytes int) *Tablebase {
	t.Helper()
	if _, err := os.Stat(DebianPath); err != nil {
		t.Fatalf("no Gaviota tables in %s (install Debian's gaviotatb, as scripts/deps.sh does): %v", DebianPath, err)
	}
	tb, err := OpenCache(DebianPath, cacheBytes)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	if got := strings.Join(tb.Tables(), " "); got != "kbk knk kpk kqk krk" {
		t.Fatalf("tables found: %q, want the five 3-piece tables", got)
	}
	return tb
}

// solveAll solves the five endings, the pawn's last.
func solveAll() map[game.PieceType]*solved {
	out := map[game.PieceType]*solved{}
	for _, pt := range []game.PieceType{game.Queen, game.Rook, game.Bishop, game.Knight} {
		out[pt] = solve(pt, nil)
	}
	out[game.Pawn] = solve(game.Pawn, out)
	return out
}

// stateFEN writes a state as FEN, White the stronger side, or with the
// colours swapped and the board mirrored when black is true.
func stateFEN(pt game.PieceType, s int, black bool) string {
	stm, wk, bk, x := stateSquares(s)
	var board [64]byte
	board[wk], board[bk], board[x] = 'K', 'k', pt.Letter()-'a'+'A'
	side := "wb"[stm]
	if black {
		var m [64]byte
		for sq, c := range board {
			if c != 0 {
				m[sq^56] = c ^ 0x20 // swap the letter's case
			}
		}
		board, side = m, "wb"[stm^1]
	}
	var b strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := range 8 {
			c := board[8*rank+file]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	return fmt.Sprintf("%s %c - - 0 1", b.String(), side)
}

// TestTablesAgreeWithRetrograde compares every legal position of KQK, KRK,
// KBK, KNK and KPK, both sides to move, with either colour the stronger
// side, with the values of the retrograde solver: the DTM exactly, and for
// every 61st position (and every mate) also through ProbeDTM and ProbeWDL
// on the position parsed from FEN.
func TestTablesAgreeWithRetrograde(t *testing.T) {
	tb := openDebian(t, DefaultCacheBytes)
	all := solveAll()
	for _, pt := range []game.PieceType{game.Queen, game.Rook, game.Bishop, game.Knight, game.Pawn} {
		r := all[pt]
		t.Run(strings.ToUpper("k"+pt.String()+"k"), func(t *testing.T) {
			letters := "k" + pt.String()
			var legal, wins, losses, bad int
			longest := 0
			for s := range numStates {
				if !r.legal[s] {
					continue
				}
				legal++
				want := int(r.dtm[s])
				switch {
				case want > 0:
					wins++
				case want < 0 || r.known[s]:
					losses++
				}
				longest = max(longest, abs(want))
				stm, wk, bk, x := stateSquares(s)
				ws, bs := []game.Square{game.Square(wk), game.Square(x)}, []game.Square{game.Square(bk)}
				got, err := tb.probeSquares(ws, letters, bs, "k", stm)
				gotMirror, errMirror := tb.probeSquares(mirror(bs), "k", mirror(ws), letters, stm^1)
				if err != nil || errMirror != nil || got != want || gotMirror != want {
					if bad++; bad <= 5 {
						t.Errorf("%s: DTM %d (%v), colours swapped %d (%v); retrograde %d", stateFEN(pt, s, false), got, err, gotMirror, errMirror, want)
					}
					continue
				}
				if s%61 != 0 && !(r.known[s] && want == 0) {
					continue
				}
				for _, black := range []bool{false, true} {
					fen := stateFEN(pt, s, black)
					p, err := game.ParseFEN(fen)
					if err != nil {
						t.Fatalf("%s: %v", fen, err)
					}
					wdl, dtm, err := tb.Probe(p)
					wantWDL := Draw
					if want > 0 {
						wantWDL = Win
					} else if r.known[s] {
						wantWDL = Loss
					}
					if err != nil || dtm != want || wdl != wantWDL {
						t.Errorf("%s: Probe %v %d (%v), want %v %d", fen, wdl, dtm, err, wantWDL, want)
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d positions disagree", bad, legal)
			}
			t.Logf("%d legal positions: %d won, %d lost for the side to move; longest mate %d plies", legal, wins, losses, longest)
			if legal == 0 || (pt != game.Bishop && pt != game.Knight && wins == 0) {
				t.Errorf("the solver found nothing to compare")
			}
		})
	}
}
