package engine

import (
	"strings"
	"testing"
	"time"

	"knightwatch/game"
)

// uciFuzzSeeds are command sequences from the tests of what GUIs send; the
// committed corpus in testdata/fuzz/FuzzUCI holds them too.
var uciFuzzSeeds = []string{
	"uci\nisready\nucinewgame\nposition startpos moves e2e4 e1e3 e7e5\ngo depth 2\nisready",
	"position startpos moves e2e4 e7e5 g1f3 zz9 b8c6\ngo wtime 1000 btime 1000 winc 10 binc 10",
	"position startpos moves e2e4 0000 e7e5\ngo nodes 300",
	"position fen 8/8/8/8/8/2k5/8/3K3N w - - 0 1 moves h1g3 c3d4\ngo depth 3",
	"position fen 8/8/8/8/8/2k5/8/3K3N w - - 150 90 moves d1e1\ngo depth 2",
	"position startpos moves e2e4\nposition fen 8/8/8 w\ngo depth 1\nposition fen 4k3/8/8/8/8/8/8/4K2r b - - 0 1\nposition\nposition fen moves e2e4\ngo depth 1",
	"setoption name UCI_Chess960 value true\nposition fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1\ngo depth 1\nposition fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1 e8a8\ngo searchmoves a1b1 depth 2",
	"setoption name UCI_Chess960 value true\nposition fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 moves g2g3\ngo depth 2\nsetoption name UCI_Chess960 value false\ngo depth 1",
	"position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1 e8c8\ngo depth 2\nposition fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1\ngo searchmoves e8g8 e8a8 depth 1",
	"setoption name BookFile value /nonexistent\nposition startpos moves e2e4\ngo depth 1\ngo wtime 2000 btime 2000\nisready",
	"setoption name BookFile value engine\nsetoption name EvalFile value uci_test.go\nsetoption name EvalFile value <built-in>\nposition startpos\ngo movetime 20",
	"go wtime -5 btime -5 winc -1 binc 10\ngo depth abc\ngo depth -3\ngo movetime 99999999999999999999\nstop\ngo nodes 99999999999999999999 mate 99999999999999999999 depth 2",
	"position\nsetoption\nsetoption value 3\nsetoption name\nsetoption name Hash value\nfrobnicate now\n\n\t\r\n\x00\xff\nisready",
	"setoption name Hash value 2\r\nposition startpos moves e2e4\r\ngo\tdepth\t2\r\nisready\r",
	"position startpos moves e2e4\ngo infinite\nisready\nisready\nstop\nisready",
	"position startpos moves e2e4\ngo ponder wtime 1000 btime 1000\nponderhit\nisready\ngo ponder wtime 100000 btime 100000\nstop",
	"position startpos moves f2f3 e7e5 g2g4 d8h4\ngo depth 2\ngo infinite\nstop",
	"position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1\ngo depth 3\ngo searchmoves e2e4 depth 1",
	"setoption name MultiPV value 3\nsetoption name Threads value 2\nposition startpos\ngo depth 2 searchmoves e2e4 d2d4\nsetoption name Level value 1\ngo movetime 10",
	"setoption name Use NNUE value false\nsetoption name Clear Hash\nucinewgame\nposition fen 8/P6k/8/8/8/8/8/K7 w - - 0 1 moves a7a8k\ngo depth 3",
	"quit\ngo depth 5\nisready",
}

// FuzzUCI feeds arbitrary command sequences (one command a line) to the
// UCI loop, as a GUI would, searches running while later commands arrive.
// Searches are kept short (at most depth 3 and 20000 nodes, or 10 ms with
// a book) and an execution must end within 30 s. It checks: no panic;
// every go that is not refused with an info string gives exactly one
// bestmove, legal in the position searched (0000 when it has none), with a
// legal ponder move and legal info pv lines; every isready is answered
// with readyok.
func FuzzUCI(f *testing.F) {
	for _, s := range uciFuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		// Bound the work of one execution.
		lines := strings.Split(script, "\n")
		if len(lines) > 64 {
			lines = lines[:64]
			script = strings.Join(lines, "\n")
		}
		var out syncBuffer
		u := newUCISession(&out)
		u.eng = New(Options{HashMB: 1, OwnBook: true})
		u.maxHashMB, u.maxThreads = 2, 2
		var searched []game.Position // the root of each search started, in order
		u.limitGo = func(lim *Limits) {
			if lim.Depth == 0 && lim.Nodes == 0 {
				// May play from the book; otherwise a short timed search.
				if lim.MoveTime == 0 || lim.MoveTime > 10*time.Millisecond {
					lim.MoveTime = 10 * time.Millisecond
				}
			} else {
				if lim.Depth == 0 || lim.Depth > 3 {
					lim.Depth = 3
				}
				if lim.Nodes == 0 || lim.Nodes > 20000 {
					lim.Nodes = 20000
				}
			}
			searched = append(searched, u.rootPosition())
		}
		done := make(chan error, 1)
		go func() { done <- u.run(strings.NewReader(script)) }()
		// An execution takes milliseconds; the bound leaves room for a
		// loaded machine.
		hang := time.NewTimer(30 * time.Second)
		defer hang.Stop()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("UCI: %v", err)
			}
		case <-hang.C:
			t.Fatalf("hang; output so far:\n%s", out.String())
		}

		// What the session read, up to quit, and the searches a model
		// of the position commands expects.
		wantReady, gos := 0, 0
		model := uciModel{pos: *game.NewPosition()}
		var want []game.Position
		for _, l := range lines {
			f := strings.Fields(l)
			if len(l) > maxUCILine || len(f) == 0 {
				continue
			}
			if f[0] == "quit" {
				break
			}
			switch f[0] {
			case "isready":
				wantReady++
			case "go":
				gos++
				pos := model.pos
				if model.chess960 {
					pos.SetChess960(true)
				}
				if _, _, err := parseGo(f[1:], &pos); err == nil {
					want = append(want, pos)
				}
			default:
				model.handle(f)
			}
		}
		if len(want) != len(searched) {
			t.Fatalf("%d searches, the model expects %d", len(searched), len(want))
		}
		for i := range want {
			if a, b := searched[i].FEN(), want[i].FEN(); a != b || searched[i].Chess960() != want[i].Chess960() {
				t.Fatalf("search %d in %s (Chess960 %v), the model expects %s (%v)", i, a, searched[i].Chess960(), b, want[i].Chess960())
			}
		}
		ready, refused, k := 0, 0, 0
		for _, l := range strings.Split(out.String(), "\n") {
			switch {
			case l == "readyok":
				ready++
			case strings.HasPrefix(l, "info string error: go"):
				refused++
			case strings.HasPrefix(l, "info depth "):
				if k >= len(searched) {
					t.Fatalf("%q outside a search", l)
				}
				checkInfoPV(t, &searched[k], l)
			case strings.HasPrefix(l, "bestmove"):
				if k >= len(searched) {
					t.Fatalf("%q without a search", l)
				}
				checkBestMove(t, &searched[k], l)
				k++
			}
		}
		if k != len(searched) || gos-refused != len(searched) {
			t.Errorf("%d go commands, %d refused, %d searches, %d bestmoves", gos, refused, len(searched), k)
		}
		if ready != wantReady {
			t.Errorf("%d readyok for %d isready", ready, wantReady)
		}
	})
}

// uciModel follows the position commands of a UCI script independently of
// the session: the position they set up and UCI_Chess960.
type uciModel struct {
	pos      game.Position
	chess960 bool
}

// handle applies one command's fields.
func (m *uciModel) handle(f []string) {
	switch f[0] {
	case "ucinewgame":
		m.set(game.NewPosition())
	case "setoption":
		// setoption name UCI_Chess960 value true|false (spelt any case).
		if len(f) >= 5 && f[1] == "name" && strings.EqualFold(f[2], "UCI_Chess960") && f[3] == "value" && len(f) == 5 {
			switch strings.ToLower(f[4]) {
			case "true":
				m.chess960 = true
			case "false":
				m.chess960 = false
			}
		}
	case "position":
		if len(f) < 2 {
			return
		}
		rest := f[2:]
		switch f[1] {
		case "startpos":
			m.set(game.NewPosition())
		case "fen":
			n := 0
			for n < len(rest) && rest[n] != "moves" {
				n++
			}
			p, err := game.ParseFEN(strings.Join(rest[:n], " "))
			if n == 0 || err != nil {
				return
			}
			m.set(p)
			rest = rest[n:]
		default:
			return
		}
		if len(rest) == 0 || rest[0] != "moves" {
			return
		}
		for _, s := range rest[1:] {
			mv, err := m.pos.ParseUCI(s)
			if err != nil || mv == game.NullMove {
				return
			}
			m.pos.MakeMove(mv)
		}
	}
}

func (m *uciModel) set(p *game.Position) {
	m.pos = *p
	if m.chess960 {
		m.pos.SetChess960(true)
	}
}

// checkInfoPV checks that the pv of an info line is a sequence of legal
// moves from p, written as p's UCI_Chess960 setting says.
func checkInfoPV(t *testing.T, p *game.Position, line string) {
	t.Helper()
	i := strings.Index(line, " pv ")
	if i < 0 {
		return
	}
	q := *p
	for _, s := range strings.Fields(line[i+4:]) {
		m, err := q.ParseUCI(s)
		if err != nil || m == game.NullMove || q.UCI(m) != s {
			t.Fatalf("%q: %s is not a legal move in %s (%v)", line, s, q.FEN(), err)
		}
		q.MakeMove(m)
	}
}
