package engine

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"knightwatch/engine/nnue/nnuetest"
	"knightwatch/game"
)

// Tests of what chess GUIs (and broken ones) send (issue 36): refused moves
// in "position", unusable book and network files, malformed commands.

// runSession runs script through a session whose Hash stays small and
// returns the session, to look at its state, and its output lines.
func runSession(t *testing.T, script string) (*uciSession, []string) {
	t.Helper()
	var out syncBuffer
	u := newUCISession(&out)
	u.maxHashMB = 4
	done := make(chan error, 1)
	go func() { done <- u.run(strings.NewReader(script)) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("UCI: %v", err)
		}
	case <-time.After(60 * time.Second): // hang guard only
		t.Fatalf("session hangs on %q; output so far:\n%s", script, out.String())
	}
	s := strings.TrimSpace(out.String())
	if s == "" {
		return u, nil
	}
	return u, strings.Split(s, "\n")
}

// checkBestMoves checks that there are as many bestmove lines as fens and
// that each move is legal in its position (read with the session's
// UCI_Chess960 setting), or 0000 when there is no legal move.
func checkBestMoves(t *testing.T, lines []string, chess960 bool, fens ...string) {
	t.Helper()
	best := linesWith(lines, "bestmove ")
	if len(best) != len(fens) {
		t.Fatalf("%d bestmove lines, want %d: %q", len(best), len(fens), lines)
	}
	for i, fen := range fens {
		p := mustFEN(t, fen)
		if chess960 {
			p.SetChess960(true)
		}
		checkBestMove(t, p, best[i])
	}
}

// checkBestMove checks one bestmove line against the position searched.
func checkBestMove(t *testing.T, p *game.Position, line string) {
	t.Helper()
	f := strings.Fields(line)
	if len(f) != 2 && !(len(f) == 4 && f[2] == "ponder") {
		t.Fatalf("malformed %q", line)
	}
	if !p.HasLegalMoves() {
		if f[1] != "0000" {
			t.Errorf("%q in %s, which has no legal move", line, p.FEN())
		}
		return
	}
	m, err := p.ParseUCI(f[1])
	if err != nil || m == game.NullMove || p.UCI(m) != f[1] {
		t.Errorf("%q is not a legal move in %s (%v)", line, p.FEN(), err)
		return
	}
	if len(f) == 4 {
		after := *p
		after.MakeMove(m)
		if pm, err := after.ParseUCI(f[3]); err != nil || pm == game.NullMove {
			t.Errorf("%q: ponder move illegal in %s (%v)", line, after.FEN(), err)
		}
	}
}

const afterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"

// TestUCIPositionRefusedMove: "position ... moves" with a malformed or
// illegal move sets up the position before that move, says which move was
// refused and why, and the next go searches that position (before, the
// previous position was kept and searched). A position that cannot be set
// up at all (bad FEN, nothing after "position") keeps the previous one.
func TestUCIPositionRefusedMove(t *testing.T) {
	const (
		prev      = "position startpos moves e2e4 e7e5\n" // White to move: its moves are illegal in afterE4
		prevFEN   = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
		castleFEN = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
		knFEN     = "8/8/8/8/8/2k5/8/3K3N w - - 0 1"
		unchanged = "; position unchanged"
	)
	cases := []struct {
		name     string
		script   string
		chess960 bool
		infos    []string // the info strings, exactly ("...suffix" for a suffix)
		fen      string   // the position set up
	}{
		{"illegal second move", prev + "position startpos moves e2e4 e1e3 e7e5\n", false,
			[]string{`info string error: position: move 2 "e1e3" is illegal in ` + afterE4 + `; position set up to move 1`}, afterE4},
		{"malformed fourth move", prev + "position startpos moves e2e4 e7e5 g1f3 zz9 b8c6\n", false,
			[]string{`info string error: position: move 4 "zz9" is not a UCI move; position set up to move 3`},
			"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"},
		{"bad promotion letter", "position fen 8/P6k/8/8/8/8/8/K7 w - - 0 1 moves a7a8k\n", false,
			[]string{`info string error: position: move 1 "a7a8k" is not a UCI move; position set up with no moves played`}, "8/P6k/8/8/8/8/8/K7 w - - 0 1"},
		{"illegal first move", prev + "position startpos moves e2e5\n", false,
			[]string{`info string error: position: move 1 "e2e5" is illegal in ` + game.StartFEN + `; position set up with no moves played`}, game.StartFEN},
		{"null move", prev + "position startpos moves e2e4 0000 e7e5\n", false,
			[]string{`info string error: position: move 2 "0000" is a null move, which cannot be played; position set up to move 1`}, afterE4},
		{"move after mate", "position startpos moves f2f3 e7e5 g2g4 d8h4 a2a3\n", false,
			[]string{`info string error: position: move 5 "a2a3" is illegal in rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3; position set up to move 4`},
			"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"},
		{"no moves keyword", prev + "position startpos e2e4\n", false,
			[]string{`info string error: position: expected "moves", got "e2e4"; position set up without moves`}, game.StartFEN},
		{"moves keyword alone", prev + "position startpos moves\n", false, nil, game.StartFEN},
		// Moves in a dead position or past the 75-move rule are still moves
		// (the GUI decides when the game ends); they were refused as
		// "game is over".
		{"dead position", prev + "position fen " + knFEN + " moves h1g3 c3d4\n", false, nil, "8/8/8/8/3k4/6N1/8/3K4 w - - 2 2"},
		{"after the 75-move rule", "position fen 8/8/8/8/8/2k5/8/3K3N w - - 150 90 moves d1e1\n", false, nil, "8/8/8/8/8/2k5/8/4K2N b - - 151 90"},

		{"malformed FEN", prev + "position fen 8/8/8 w\n", false,
			[]string{`info string error: position fen: invalid FEN "8/8/8 w": position: want 6 space-separated fields (4 at least), got 2` + unchanged}, prevFEN},
		{"FEN with a bad side to move", prev + "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1 moves e2e4\n", false,
			[]string{`...: side to move: want 'w' or 'b', got "x"` + unchanged}, prevFEN},
		{"FEN of an impossible position", prev + "position fen 4k3/8/8/8/8/8/8/4K2r b - - 0 1\n", false,
			[]string{"..." + unchanged}, prevFEN},
		{"FEN with too many fields", prev + "position fen " + game.StartFEN + " 7 moves e2e4\n", false,
			[]string{"...got 7" + unchanged}, prevFEN},
		{"fen without FEN", prev + "position fen\nposition fen moves e2e4\n", false,
			[]string{`info string error: position fen: no FEN given` + unchanged, `info string error: position fen: no FEN given` + unchanged}, prevFEN},
		{"nothing after position", prev + "position\n", false,
			[]string{`info string error: position: missing "startpos" or "fen"` + unchanged}, prevFEN},
		{"neither startpos nor fen", prev + "position e2e4\nposition startposition\n", false,
			[]string{`info string error: position: expected "startpos" or "fen", got "e2e4"` + unchanged,
				`info string error: position: expected "startpos" or "fen", got "startposition"` + unchanged}, prevFEN},

		{"standard castling", "position fen " + castleFEN + " moves e1g1 e8c8\n", false, nil, "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"},
		{"standard castling as king takes rook", "position fen " + castleFEN + " moves e1h1 e8a8\n", false, nil, "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"},
		{"Chess960 castling", "setoption name UCI_Chess960 value true\nposition fen " + castleFEN + " moves e1h1 e8a8\n", true, nil, "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"},
		{"Chess960 castling hint", "setoption name UCI_Chess960 value true\nposition fen " + castleFEN + " moves e1g1\n", true,
			[]string{`info string error: position: move 1 "e1g1" is illegal in ` + castleFEN + ` (in Chess960 castling is written king takes rook: e1h1, e1a1); position set up with no moves played`}, castleFEN},
		{"Shredder-FEN", "setoption name UCI_Chess960 value true\nposition fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 moves g2g3\n", true,
			nil, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P2P1/NPP1P2P/BQ1BNRKR b KQkq - 0 9"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			script := "setoption name OwnBook value false\n" + c.script
			u, lines := runSession(t, script)
			checkInfos(t, linesWith(lines, "info string"), c.infos)
			if got := u.root.pos.FEN(); got != c.fen {
				t.Errorf("position %s, want %s", got, c.fen)
			}
			// The next go searches that position.
			_, lines = runSession(t, script+"go depth 2\n")
			checkBestMoves(t, lines, c.chess960, c.fen)
		})
	}
}

// checkInfos compares info string lines with the wanted ones: exactly, or
// by suffix for a want starting with "...".
func checkInfos(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("info strings %q, want %q", got, want)
	}
	for i, w := range want {
		if s, ok := strings.CutPrefix(w, "..."); ok {
			if !strings.HasSuffix(got[i], s) || !strings.HasPrefix(got[i], "info string error: ") {
				t.Errorf("info string %q, want ...%q", got[i], s)
			}
		} else if got[i] != w {
			t.Errorf("info string\n%q, want\n%q", got[i], w)
		}
	}
}

// TestUCIPositionRepetitionHistory: the moves of "position" reach the
// search as history, so a repetition is seen; a capture or pawn move
// clears it.
func TestUCIPositionRepetitionHistory(t *testing.T) {
	u, _ := runSession(t, "position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1\n")
	if len(u.root.keys) != 7 || u.root.keys[0] != game.NewPosition().Hash() || u.root.keys[4] != u.root.keys[0] {
		t.Errorf("keys %x", u.root.keys)
	}
	u, _ = runSession(t, "position startpos moves g1f3 g8f6 e2e4 f6e4 f3g1\n")
	if len(u.root.keys) != 1 {
		t.Errorf("keys after a capture: %x", u.root.keys)
	}
}

// writeFile writes data to name in dir and returns its path.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestUCIBookFileProblems: a BookFile that is missing or not a Polyglot
// book is reported at once, naming the file and the reason, and the engine
// plays on without a book: it searches (info depth lines) where a book
// answers at once. Before, nothing was said and the book was silently
// missing.
func TestUCIBookFileProblems(t *testing.T) {
	dir := t.TempDir()
	book := makeBook(t, []struct {
		fen, move string
		weight    uint16
	}{{game.StartFEN, "a2a3", 1}, {afterE4, "a7a6", 1}})
	good := writeFile(t, dir, "good.bin", book)
	rng := rand.New(rand.NewPCG(36, 1))
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	// Sorted keys, impossible moves (from = to).
	sameSquare := make([]byte, 32)
	binary.BigEndian.PutUint64(sameSquare[16:], 1)
	cases := []struct {
		name, path string
		why        string // the reason after the file's name; "" = a good book
	}{
		{"missing", filepath.Join(dir, "nonexistent.bin"), "stat " + filepath.Join(dir, "nonexistent.bin") + ": no such file or directory"},
		{"nonexistent", "/nonexistent", "stat /nonexistent: no such file or directory"},
		{"random bytes", writeFile(t, dir, "random.bin", random), ": not a Polyglot book"},
		{"truncated", writeFile(t, dir, "truncated.bin", book[:len(book)-5]), "polyglot book: size 27 is not a multiple of 16 (truncated?)"},
		{"empty", writeFile(t, dir, "empty.bin", nil), "polyglot book: empty"},
		{"bad moves", writeFile(t, dir, "moves.bin", sameSquare), "polyglot book: entry 0 has an invalid move 0x0000: not a Polyglot book"},
		{"text", writeFile(t, dir, "text.bin", []byte(strings.Repeat("text", 8))), "polyglot book: entry 0 has an invalid move 0x7465: not a Polyglot book"},
		{"directory", dir, "polyglot book " + dir + ": not a regular file"},
		{"device", "/dev/zero", "polyglot book /dev/zero: not a regular file"}, // was read for ever
		{"good", good, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := os.Stat(c.path); c.name == "device" && err != nil {
				t.Skip(err)
			}
			script := "setoption name BookFile value " + c.path + "\nposition startpos moves e2e4\ngo depth 1\ngo wtime 2000 btime 2000\nisready\n"
			u, lines := runSession(t, script)
			infos := linesWith(lines, "info string")
			if c.why == "" {
				if len(infos) != 0 {
					t.Errorf("good book: %q", infos)
				}
			} else if len(infos) != 1 || !strings.HasPrefix(infos[0], `info string error: setoption bookfile: cannot use "`+c.path+`": `) ||
				!strings.Contains(infos[0], c.why) || !strings.HasSuffix(infos[0], "; playing without a book") {
				t.Errorf("info strings %q, want one naming %s and %q", infos, c.path, c.why)
			}
			if got := findUCIOption("BookFile").value(u); got != c.path {
				t.Errorf("BookFile is %q, want %q", got, c.path)
			}
			checkBestMoves(t, lines, false, afterE4, afterE4)
			// Did the second go search, or answer from the book?
			var second []string
			for i, l := range lines {
				if strings.HasPrefix(l, "bestmove ") {
					second = lines[i+1:]
					break
				}
			}
			searched := len(linesWith(second, "info depth ")) > 0
			best := linesWith(second, "bestmove ")
			if c.why == "" && (best[0] != "bestmove a7a6" || searched) {
				t.Errorf("good book: %q", lines)
			}
			if c.why != "" && !searched {
				t.Errorf("no search without a book: %q", lines)
			}
			if n := len(linesWith(lines, "readyok")); n != 1 {
				t.Errorf("%d readyok", n)
			}
		})
	}
	// A book file that goes bad is read again when set again.
	path := writeFile(t, dir, "changing.bin", book)
	_, lines := runSession(t, "setoption name BookFile value "+path+"\n")
	if len(linesWith(lines, "info string")) != 0 {
		t.Fatalf("%q", lines)
	}
	writeFile(t, dir, "changing.bin", random)
	_, lines = runSession(t, "setoption name BookFile value "+path+"\nposition startpos\ngo wtime 2000 btime 2000\n")
	if len(linesWith(lines, "info string error: setoption bookfile")) != 1 || len(linesWith(lines, "info depth ")) == 0 {
		t.Errorf("rewritten book: %q", lines)
	}
}

// TestUCIEvalFileKeepsThePreviousNetwork: a network file that does not
// load (missing, malformed, a directory, a device) is reported with the
// file and the reason and keeps the network loaded before, not just the
// built-in one.
func TestUCIEvalFileKeepsThePreviousNetwork(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "good.nnue"))
	if err != nil {
		t.Fatal(err)
	}
	if err := nnuetest.Random(5).Write(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	good := f.Name()
	score := func(lines []string) string {
		t.Helper()
		infos := linesWith(lines, "info depth 1 ")
		if len(infos) != 1 {
			t.Fatalf("no info line: %q", lines)
		}
		return strings.Fields(infos[0][strings.Index(infos[0], "score "):])[2]
	}
	const search = "position startpos moves e2e4\ngo depth 1\n"
	base := "setoption name OwnBook value false\nsetoption name EvalFile value " + good + "\n"
	_, lines := runSession(t, base+search)
	want := score(lines)
	_, lines = runSession(t, "setoption name OwnBook value false\n"+search)
	if builtin := score(lines); builtin == want {
		t.Fatalf("the test network scores like the built-in one (%s)", want)
	}
	for _, c := range []struct{ path, why string }{
		{filepath.Join(dir, "missing.nnue"), "no such file or directory"},
		{writeFile(t, dir, "bad.nnue", []byte("not a network")), ""},
		{writeFile(t, dir, "short.nnue", []byte{}), ""},
		{dir, "not a regular file"},
		{"/dev/zero", "not a regular file"},
	} {
		u, lines := runSession(t, base+"setoption name EvalFile value "+c.path+"\n"+search)
		infos := linesWith(lines, "info string")
		if len(infos) != 1 || !strings.HasPrefix(infos[0], `info string error: setoption evalfile: cannot use "`+c.path+`": `) ||
			!strings.Contains(infos[0], c.why) || !strings.HasSuffix(infos[0], "; keeping "+good) {
			t.Errorf("%s: info strings %q", c.path, infos)
		}
		if got := score(lines); got != want || u.evalFile != good {
			t.Errorf("%s: score %s with EvalFile %s, want %s with %s", c.path, got, u.evalFile, want, good)
		}
	}
}

// uciState is what a malformed command must leave alone.
func uciState(u *uciSession) string {
	var b strings.Builder
	b.WriteString(u.root.pos.FEN())
	for _, o := range uciOptions {
		if o.value != nil {
			b.WriteString("|" + o.Name + "=" + o.value(u))
		}
	}
	return b.String()
}

// TestUCIMalformedCommands: a malformed command or value gets an info
// string and changes nothing; the session goes on (isready is answered).
// Values that GUIs do send (negative clock times, huge numbers) are taken
// with a warning and searched.
func TestUCIMalformedCommands(t *testing.T) {
	const setup = "setoption name OwnBook value false\nsetoption name Hash value 2\nposition startpos moves e2e4\n"
	long := strings.Repeat("x", 600_000)
	cases := []struct {
		name   string
		script string
		infos  []string // exact, or "..." + suffix
		best   int      // bestmove lines wanted (searched in afterE4)
	}{
		{"unknown command", "frobnicate now\n", []string{`info string error: unknown command "frobnicate"`}, 0},
		{"binary junk", "\x00\xff\xfe go\n", []string{`info string error: unknown command "\x00\xff\xfe"`}, 0},
		{"empty and blank lines", "\n\n   \n\t\r\n\r\n", nil, 0},
		{"CRLF line ends", "setoption name Hash value 2\r\nposition startpos moves e2e4\r\ngo depth 1\r\n", nil, 1},
		{"tabs", "go\tdepth\t1\t\r\n", nil, 1},
		{"go depth garbage", "go depth abc\ngo depth\ngo depth 1 foo\ngo 1\n", []string{
			`info string error: go: depth: "abc" is not a number`, `info string error: go: depth needs a value`,
			`info string error: go: unknown parameter "foo"`, `info string error: go: unknown parameter "1"`}, 0},
		{"go depth 1.5", "go depth 1.5\ngo nodes 0x10\n", []string{
			`info string error: go: depth: "1.5" is not a number`, `info string error: go: nodes: "0x10" is not a number`}, 0},
		{"go negative limits", "go depth -3\ngo nodes -1\ngo movetime -100\ngo mate -2\ngo movestogo -1 wtime 100\n", []string{
			"info string error: go: depth -3 is negative", "info string error: go: nodes -1 is negative",
			"info string error: go: movetime -100 is negative", "info string error: go: mate -2 is negative",
			"info string error: go: movestogo -1 is negative"}, 0},
		{"go negative clock", "go wtime -5 btime -5 winc -1 binc 10\n", []string{
			"info string warning: go: wtime -5 is negative, taken as 1 ms", "info string warning: go: btime -5 is negative, taken as 1 ms",
			"info string warning: go: winc -1 is negative, taken as 0"}, 1},
		{"go huge movetime", "go movetime 99999999999999999999\nstop\n", []string{
			"info string warning: go: movetime 99999999999999999999 is out of range, taken as 9223372036854775807"}, 1},
		{"go huge nodes and mate", "go nodes 99999999999999999999 mate 99999999999999999999 depth 2\n", []string{
			"info string warning: go: nodes 99999999999999999999 is out of range, taken as 9223372036854775807",
			"info string warning: go: mate 99999999999999999999 is out of range, taken as 9223372036854775807"}, 1},
		{"go huge negative clock", "go wtime -99999999999999999999 btime 1000\n", []string{
			"info string warning: go: wtime -99999999999999999999 is out of range, taken as -9223372036854775808",
			"info string warning: go: wtime -99999999999999999999 is negative, taken as 1 ms"}, 1},
		{"go searchmoves illegal", "go searchmoves e2e4 depth 1\n", []string{`info string error: go searchmoves: illegal move: e2e4 in ` + afterE4}, 0},
		{"position alone", "position\n", []string{"..." + `; position unchanged`}, 0},
		{"setoption without name", "setoption\nsetoption value 3\nsetoption Hash\nsetoption name\n", []string{
			`info string error: setoption: expected "name"`, `info string error: setoption: expected "name"`,
			`info string error: setoption: expected "name"`, `info string error: setoption: expected "name"`}, 0},
		{"setoption bad values", "setoption name Hash value\nsetoption name Hash value 99999999999999999999\nsetoption name Threads value -1\nsetoption name Nope value 3\n", []string{
			`info string error: setoption hash: value "" is not a number in 1..4096`,
			`info string error: setoption hash: value "99999999999999999999" is not a number in 1..4096`,
			`info string error: setoption threads: value "-1" is not a number in 1..64`,
			`info string error: setoption: unknown option "Nope"`}, 0},
		{"very long command", long + "\nisready\n", []string{"info string error: unknown command \"" + long[:maxInfoString-len(`unknown command "`)] + "..."}, 0},
		{"very long position", "position startpos moves e2e4 " + strings.Repeat("e7e5 ", 100_000) + "\n", []string{
			`info string error: position: move 3 "e7e5" is illegal in rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2; position set up to move 2`}, 0},
		{"line too long", "go depth 1 " + strings.Repeat("depth 1 ", 200_000) + "\nisready\n", []string{
			"info string error: a line of 1600011 bytes is longer than the 1048576 accepted; ignored"}, 0},
		{"line too long after isready", "isready\n" + strings.Repeat("y", 3<<20), []string{
			"info string error: a line of 3145728 bytes is longer than the 1048576 accepted; ignored"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, _ := runSession(t, setup)
			u, lines := runSession(t, setup+c.script+"\nisready\n")
			infos := linesWith(lines, "info string")
			checkInfos(t, infos, c.infos)
			for _, l := range infos {
				if len(l) > maxInfoString+100 {
					t.Errorf("info string of %d bytes", len(l))
				}
			}
			if c.name == "very long position" {
				if u.root.pos.FEN() != "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2" {
					t.Errorf("position %s", u.root.pos.FEN())
				}
			} else if got, want := uciState(u), uciState(before); got != want {
				t.Errorf("state changed:\n%s\nwas\n%s", got, want)
			}
			fens := make([]string, c.best)
			for i := range fens {
				fens[i] = afterE4
			}
			checkBestMoves(t, lines, false, fens...)
			if got, want := len(linesWith(lines, "readyok")), countIsReady(setup+c.script+"\nisready\n"); got != want {
				t.Errorf("%d readyok for %d isready", got, want)
			}
		})
	}
}

// countIsReady counts the isready commands in script that the session
// reads (lines not too long).
func countIsReady(script string) int {
	n := 0
	for _, l := range strings.Split(script, "\n") {
		if f := strings.Fields(l); len(l) <= maxUCILine && len(f) > 0 && f[0] == "isready" {
			n++
		}
	}
	return n
}

// TestUCIIsReadyDuringSearch: isready is answered at once while a search
// runs, and the search still ends with one bestmove.
func TestUCIIsReadyDuringSearch(t *testing.T) {
	_, lines := runSession(t, "setoption name OwnBook value false\nposition startpos moves e2e4\ngo infinite\nisready\nisready\nstop\nisready\n")
	var seq []string
	for _, l := range lines {
		if l == "readyok" || strings.HasPrefix(l, "bestmove ") {
			seq = append(seq, strings.Fields(l)[0])
		}
	}
	if strings.Join(seq, " ") != "readyok readyok bestmove readyok" {
		t.Errorf("got %q", seq)
	}
	checkBestMoves(t, lines, false, afterE4)
}

// TestReadUCILine: lines of any length and ending are read whole, or
// skipped with their length when too long; the last line may lack its
// newline.
func TestReadUCILine(t *testing.T) {
	x20, y21, z40 := strings.Repeat("x", 20), strings.Repeat("y", 21), strings.Repeat("z", 40)
	in := "a\r\n\nbc\n" + x20 + "\n" + y21 + "\n" + z40 + "\n" + x20 + "\r\nlast"
	// The smallest buffer: long lines come in several chunks.
	r := bufio.NewReaderSize(strings.NewReader(in), 16)
	var got []string
	for {
		line, n, err := readUCILine(r, 20)
		if n > 20 {
			line = fmt.Sprintf("<%d skipped>", n)
		}
		if n > 0 || err == nil {
			got = append(got, line)
		}
		if err != nil {
			break
		}
	}
	want := []string{"a\r", "", "bc", x20, "<21 skipped>", "<40 skipped>", "<21 skipped>", "last"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}
