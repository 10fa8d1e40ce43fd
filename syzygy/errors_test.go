package syzygy

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"knightwatch/game"
)

// copyTables copies the named files from testdata into a new temporary
// directory, applying edit (if not nil) to each file's bytes.
func copyTables(t *testing.T, edit func(name string, b []byte) []byte, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			b = edit(name, b)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func mustFEN(t *testing.T, fen string) *game.Position {
	t.Helper()
	p, err := game.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	krvkFEN  = "8/8/8/2R5/1K6/8/5k2/8 w - - 0 1"   // KRvK, dtz 21
	kqvkrFEN = "R7/3k4/8/8/8/1K6/8/q7 b - - 0 1"   // KQvKR (Black has the queen)
	fiveFEN  = "8/8/8/2R5/1K6/8/4pk2/N7 w - - 0 1" // 5 pieces
)

func TestOpenErrors(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "nope")); err == nil {
		t.Error("Open of a missing directory: no error")
	}
	tb, err := Open("")
	if err != nil || tb.MaxPieces() != 0 {
		t.Fatalf("Open(\"\") = %v, %v", tb, err)
	}
	if _, err := tb.ProbeWDL(mustFEN(t, krvkFEN)); !errors.Is(err, ErrTooManyPieces) {
		t.Errorf("empty tablebase: %v, want ErrTooManyPieces", err)
	}
	// Two directories: tables from both, the first wins.
	a := copyTables(t, nil, "KRvK.rtbw")
	b := copyTables(t, nil, "KRvK.rtbz", "KQvK.rtbw")
	tb, err = Open(a + string(os.PathListSeparator) + b)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if w, d := tb.NumTables(); w != 2 || d != 1 || tb.MaxPieces() != 3 {
		t.Errorf("NumTables = %d, %d, MaxPieces %d; want 2, 1, 3", w, d, tb.MaxPieces())
	}
	if d, err := tb.ProbeDTZ(mustFEN(t, krvkFEN)); err != nil || d != 21 {
		t.Errorf("ProbeDTZ over two directories = %d, %v; want 21", d, err)
	}
}

func TestProbeErrors(t *testing.T) {
	tb := openTestdata(t)
	if tb.MaxPieces() != 4 {
		t.Errorf("MaxPieces = %d, want 4", tb.MaxPieces())
	}
	if _, err := tb.ProbeWDL(mustFEN(t, fiveFEN)); !errors.Is(err, ErrTooManyPieces) {
		t.Errorf("5 pieces: %v, want ErrTooManyPieces", err)
	}
	castling := mustFEN(t, "4k2r/8/8/8/8/8/8/4K3 b k - 0 1")
	if _, err := tb.ProbeWDL(castling); !errors.Is(err, ErrCastling) {
		t.Errorf("castling rights: %v, want ErrCastling", err)
	}
	if _, err := tb.ProbeDTZ(castling); !errors.Is(err, ErrCastling) {
		t.Errorf("castling rights: %v, want ErrCastling", err)
	}

	// Only KQvKR: its captures reach KQvK and KRvK, which are missing.
	dir := copyTables(t, nil, "KQvKR.rtbw", "KQvKR.rtbz")
	small, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	var missing *MissingTableError
	_, err = small.ProbeWDL(mustFEN(t, krvkFEN))
	if !errors.Is(err, ErrMissingTable) || !errors.As(err, &missing) || missing.Material != "KRvK" || missing.Suffix != WDLSuffix {
		t.Errorf("KRvK without its table: %v", err)
	}
	_, err = small.ProbeWDL(mustFEN(t, kqvkrFEN)) // Qxa8 is legal: KQvK needed
	if !errors.As(err, &missing) || missing.Material != "KQvK" {
		t.Fatalf("KQvKR with a capture into KQvK: %v", err)
	}
	if !strings.Contains(err.Error(), "KQvK.rtbw") {
		t.Errorf("error %q does not name the file", err)
	}

	// WDL present, DTZ missing.
	dir = copyTables(t, nil, "KRvK.rtbw")
	wdlOnly, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer wdlOnly.Close()
	if _, err := wdlOnly.ProbeDTZ(mustFEN(t, krvkFEN)); !errors.As(err, &missing) || missing.Suffix != DTZSuffix {
		t.Errorf("DTZ without .rtbz: %v", err)
	}

	// Closed.
	tb2, err := Open("testdata")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb2.ProbeWDL(mustFEN(t, krvkFEN)); err != nil {
		t.Fatal(err)
	}
	if err := tb2.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := tb2.ProbeWDL(mustFEN(t, krvkFEN)); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v, want ErrClosed", err)
	}
}

// TestBrokenTables checks truncated, bad-magic and corrupt copies of real
// tables: each gives a *TableError naming the file, never a panic.
func TestBrokenTables(t *testing.T) {
	cases := []struct {
		name string
		file string
		edit func(b []byte) []byte
		want error
	}{
		{"empty", "KRvK.rtbw", func(b []byte) []byte { return nil }, ErrTruncated},
		{"cut anywhere", "KQvKR.rtbw", func(b []byte) []byte { return b[:len(b)/2+5] }, ErrTruncated},
		{"cut to 64k+16", "KQvKR.rtbw", func(b []byte) []byte { return b[:64*3+16] }, ErrTruncated},
		{"cut DTZ to 64k+16", "KRvKP.rtbz", func(b []byte) []byte { return b[:64*2+16] }, ErrTruncated},
		{"bad magic", "KRvK.rtbw", func(b []byte) []byte { b[0] ^= 0xff; return b }, ErrBadMagic},
		{"DTZ magic in WDL file", "KRvK.rtbw", func(b []byte) []byte { copy(b, dtzMagic[:]); return b }, ErrBadMagic},
		{"bad piece code", "KQvKR.rtbw", func(b []byte) []byte { b[6] = 0x77; return b }, ErrCorrupt},
		{"wrong material", "KQvKR.rtbw", func(b []byte) []byte { b[6] = b[6]&0xf0 | 2; return b }, ErrCorrupt},
		{"flags", "KQvKR.rtbw", func(b []byte) []byte { b[4] = 2; return b }, ErrCorrupt},
		{"code lengths", "KQvKR.rtbw", corruptPairs(func(h []byte) { h[9] = 0 }), ErrCorrupt},
		{"block size", "KQvKR.rtbw", corruptPairs(func(h []byte) { h[1] = 60 }), ErrCorrupt},
	}
	p := mustFEN(t, "1R6/3k4/8/8/8/1K6/8/2q5 b - - 0 1") // KQvKR, no capture
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			deps := []string{"KQvK.rtbw", "KRvK.rtbw", "KQvK.rtbz", "KRvK.rtbz", "KQvKR.rtbw", "KQvKR.rtbz", "KRvKP.rtbz", "KRvKP.rtbw"}
			dir := copyTables(t, func(name string, b []byte) []byte {
				if name == c.file {
					return c.edit(b)
				}
				return b
			}, deps...)
			tb, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Close()
			probe := p
			if strings.HasPrefix(c.file, "KRvK.") {
				probe = mustFEN(t, krvkFEN)
			}
			if strings.HasPrefix(c.file, "KRvKP") {
				probe = mustFEN(t, "8/8/8/8/4p3/1K6/R7/7k w - - 0 1")
			}
			var err1 error
			if strings.HasSuffix(c.file, DTZSuffix) {
				_, err1 = tb.ProbeDTZ(probe)
			} else {
				_, err1 = tb.ProbeWDL(probe)
			}
			var te *TableError
			if !errors.Is(err1, c.want) || !errors.As(err1, &te) || filepath.Base(te.Path) != c.file {
				t.Fatalf("got %v, want %v in a *TableError for %s", err1, c.want, c.file)
			}
			if !strings.Contains(err1.Error(), c.file) {
				t.Errorf("error %q does not name %s", err1, c.file)
			}
			// The error is kept: a second probe fails the same way.
			if _, err2 := tb.ProbeWDL(probe); strings.HasSuffix(c.file, WDLSuffix) && !errors.Is(err2, c.want) {
				t.Errorf("second probe: %v", err2)
			}
		})
	}
}

// corruptPairs applies edit to the first code description of a pawnless
// two-sided WDL table (the 12 bytes after the piece lists).
func corruptPairs(edit func(h []byte)) func(b []byte) []byte {
	return func(b []byte) []byte {
		num := 4 // KQvKR
		off := 5 + num + 1
		off += off & 1
		edit(b[off : off+12])
		return b
	}
}

// TestConcurrentProbes probes from several goroutines at once, the tables
// loading lazily under them (run with -race to check the locking).
func TestConcurrentProbes(t *testing.T) {
	tb := openTestdata(t)
	cases := loadEPD(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := range cases {
				c := cases[(i+25*g)%len(cases)]
				p, err := game.ParseFEN(c.fen)
				if err != nil {
					errs <- err
					return
				}
				w, err := tb.ProbeWDL(p)
				if err == nil && int(w) != c.wdl {
					err = errors.New(c.fen + ": wrong wdl")
				}
				d, err2 := tb.ProbeDTZ(p)
				if err == nil && err2 == nil && d != c.dtz {
					err = errors.New(c.fen + ": wrong dtz")
				}
				if err == nil {
					err = err2
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
