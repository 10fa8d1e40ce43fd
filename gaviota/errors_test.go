package gaviota

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"knightwatch/game"
)

// TestConventions checks python-chess's conventions on positions whose
// values follow from the rules alone (each also among the positions the
// retrograde comparison checks): the side to move that mates has a
// positive DTM, the side mated a negative one, a checkmated side 0 and a
// loss, a draw 0.
func TestConventions(t *testing.T) {
	tb := openDebian(t, DefaultCacheBytes)
	for _, c := range []struct {
		name, fen string
		wdl       WDL
		sign      int
	}{
		{"White to move mates in one", "7k/Q7/6K1/8/8/8/8/8 w - - 0 1", Win, 1},
		{"Black to move mates (colours swapped)", "8/8/8/8/8/6k1/q7/7K b - - 0 1", Win, 1},
		{"Black to move is mated later", "8/8/8/8/8/8/8/K2kr3 w - - 0 1", Loss, -1},
		{"checkmated", "7k/7Q/6K1/8/8/8/8/8 b - - 0 1", Loss, 0},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Draw, 0},
		{"bishop cannot mate", "8/4k3/8/B7/8/8/8/4K3 w - - 0 1", Draw, 0},
		{"two kings", "8/4k3/8/8/8/8/8/4K3 b - - 0 1", Draw, 0},
		{"rook pawn held", "k7/8/K7/P7/8/8/8/8 w - - 0 1", Draw, 0},
	} {
		p, err := game.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		wdl, dtm, err := tb.Probe(p)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		sign := 0
		if dtm > 0 {
			sign = 1
		} else if dtm < 0 {
			sign = -1
		}
		if wdl != c.wdl || sign != c.sign {
			t.Errorf("%s (%s): %v %d, want %v with DTM of sign %d", c.name, c.fen, wdl, dtm, c.wdl, c.sign)
		}
		if c.name == "White to move mates in one" && dtm != 1 {
			t.Errorf("mate in one: DTM %d, want 1", dtm)
		}
	}
}

// TestNotCovered checks the typed errors for what the tables do not hold
// and for positions that cannot arise.
func TestNotCovered(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(DebianPath, "kqk.gtb.cp4"))
	if err != nil {
		t.Fatalf("%v (scripts/deps.sh installs Debian's gaviotatb)", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kqk.gtb.cp4"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	tb, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	for _, c := range []struct {
		fen      string
		board    bool // parsed without the game's plausibility checks
		want     error
		notCover bool
	}{
		{"r3k3/8/8/8/8/8/8/4K3 b q - 0 1", false, ErrCastling, true},
		{"4k3/8/8/8/8/8/8/RR2K3 w - - 0 1", false, ErrTooManyPieces, true},
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false, ErrMissingTable, true},
		{"4k3/8/8/8/8/8/r7/4K3 b - - 0 1", false, ErrMissingTable, true},
		{"8/8/8/8/8/8/8/Q3K3 w - - 0 1", true, ErrIllegal, false},
		{"4k3/8/8/8/8/8/8/4QK2 w - - 0 1", true, ErrIllegal, false},
		{"P3k3/8/8/8/8/8/8/4K3 w - - 0 1", true, ErrIllegal, false},
	} {
		var p *game.Position
		if c.board {
			p, err = game.ParseBoardFEN(c.fen)
		} else {
			p, err = game.ParseFEN(c.fen)
		}
		if err != nil {
			t.Fatal(err)
		}
		_, err := tb.ProbeDTM(p)
		if !errors.Is(err, c.want) || errors.Is(err, ErrNotCovered) != c.notCover {
			t.Errorf("%s: %v, want %v (not covered: %v)", c.fen, err, c.want, c.notCover)
		}
		var missing *MissingTableError
		if c.want == ErrMissingTable && (!errors.As(err, &missing) || missing.Table != "krk") {
			t.Errorf("%s: %v, want the missing table krk named", c.fen, err)
		}
	}
	if _, err := Open(filepath.Join(dir, "nonexistent")); err == nil {
		t.Error("Open of a missing directory: no error")
	}
	tb.Close()
	if _, err := tb.ProbeDTM(game.NewPosition()); !errors.Is(err, ErrClosed) {
		t.Errorf("probe after Close: %v, want ErrClosed", err)
	}
}

// TestCorruptTables probes tables whose header, block index or data is
// damaged: each gives a *TableError that is ErrCorrupt (every time, not
// only the first), never a panic, and the other tables still answer.
func TestCorruptTables(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(DebianPath, "kqk.gtb.cp4"))
	if err != nil {
		t.Fatalf("%v (scripts/deps.sh installs Debian's gaviotatb)", err)
	}
	krk, err := os.ReadFile(filepath.Join(DebianPath, "krk.gtb.cp4"))
	if err != nil {
		t.Fatal(err)
	}
	damage := map[string]func(b []byte) []byte{
		"truncated header": func(b []byte) []byte { return b[:30] },
		"truncated data":   func(b []byte) []byte { return b[:len(b)-100] },
		"index end moved":  func(b []byte) []byte { b[32] += 4; return b },
		"offsets reversed": func(b []byte) []byte { copy(b[44:48], b[48:52]); b[44]++; return b },
		"huge offset":      func(b []byte) []byte { b[43] = 0x7f; return b },
		"garbage blocks": func(b []byte) []byte {
			for i := 60; i < len(b); i++ {
				b[i] = byte(i * 7)
			}
			return b
		},
		"lzma86 garbage": func(b []byte) []byte {
			for i := 60; i < len(b); i++ {
				b[i] = byte(i*13) | 1
			}
			return b
		},
	}
	p, _ := game.ParseFEN("7k/Q7/6K1/8/8/8/8/8 w - - 0 1")
	pb, _ := game.ParseFEN("7k/Q7/6K1/8/8/8/8/8 b - - 0 1")
	rook, _ := game.ParseFEN("7k/R7/6K1/8/8/8/8/8 w - - 0 1")
	for name, f := range damage {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "kqk.gtb.cp4"), f(append([]byte(nil), good...)), 0o644)
		os.WriteFile(filepath.Join(dir, "krk.gtb.cp4"), krk, 0o644)
		tb, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			_, err1 := tb.ProbeDTM(p)
			_, err2 := tb.ProbeDTM(pb)
			var te *TableError
			if !errors.Is(err1, ErrCorrupt) && !errors.Is(err2, ErrCorrupt) || err1 != nil && !errors.As(err1, &te) {
				t.Errorf("%s: %v / %v, want a *TableError that is ErrCorrupt", name, err1, err2)
			}
		}
		if dtm, err := tb.ProbeDTM(rook); err != nil || dtm <= 0 {
			t.Errorf("%s: the intact rook table answered %d, %v", name, dtm, err)
		}
		tb.Close()
	}
}

// TestCacheBounded probes positions spread over every block of the
// queen's, rook's and pawn's tables through a cache of two blocks: the
// cache never holds more, and the answers are those of a cache that holds
// every block.
func TestCacheBounded(t *testing.T) {
	small := openDebian(t, 2*blockEntries)
	big := openDebian(t, DefaultCacheBytes)
	n := 0
	for _, pt := range []game.PieceType{game.Queen, game.Rook, game.Pawn} {
		for s := 0; s < numStates; s += 997 {
			stm, wk, bk, x := stateSquares(s)
			if !legalState(pt, stm, wk, bk, x) {
				continue
			}
			fen := stateFEN(pt, s, s%2 == 0)
			p, err := game.ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			a, errA := small.ProbeDTM(p)
			b, errB := big.ProbeDTM(p)
			if errA != nil || errB != nil || a != b {
				t.Fatalf("%s: small cache %d (%v), big %d (%v)", fen, a, errA, b, errB)
			}
			if l := small.cache.order.Len(); l > 2 {
				t.Fatalf("cache of 2 blocks holds %d", l)
			}
			n++
		}
	}
	_, misses := small.CacheStats()
	_, bigMisses := big.CacheStats()
	if bigMisses > 28 || misses <= bigMisses {
		t.Errorf("%d probes: %d blocks decoded with 2 cached, %d with all cached (28 blocks in all)", n, misses, bigMisses)
	}
}

// TestConcurrentProbes probes from several goroutines at once through a
// small cache (run under -race by make race).
func TestConcurrentProbes(t *testing.T) {
	tb := openDebian(t, 3*blockEntries)
	fens := []string{"7k/Q7/6K1/8/8/8/8/8 w - - 0 1", "8/8/8/8/8/8/8/K2kr3 w - - 0 1", "k7/8/K7/P7/8/8/8/8 w - - 0 1", "8/8/3k4/8/8/3P4/8/3K4 b - - 0 1", "8/8/8/3k4/8/8/8/3KN3 w - - 0 1"}
	want := make([]int, len(fens))
	ps := make([]*game.Position, len(fens))
	for i, f := range fens {
		ps[i], _ = game.ParseFEN(f)
		var err error
		if want[i], err = tb.ProbeDTM(ps[i]); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				k := (g + i) % len(ps)
				if d, err := tb.ProbeDTM(ps[k]); err != nil || d != want[k] {
					errs <- errors.New(fens[k] + ": a different answer under concurrency")
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
