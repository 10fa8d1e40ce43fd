package engine

import (
	"bufio"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"knightwatch/game"
)

// syncBuffer is an io.Writer safe for the session's two writers.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func runTranscript(t *testing.T, script string) []string {
	t.Helper()
	var out syncBuffer
	if err := UCI(strings.NewReader(script), &out); err != nil {
		t.Fatalf("UCI: %v", err)
	}
	return strings.Split(strings.TrimSpace(out.String()), "\n")
}

func linesWith(lines []string, prefix string) []string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

func TestUCITranscripts(t *testing.T) {
	cases := []struct {
		name   string
		script string
		check  func(t *testing.T, lines []string)
	}{
		{"handshake", "uci\nisready\nquit\n", func(t *testing.T, lines []string) {
			if len(linesWith(lines, "id name ")) != 1 || len(linesWith(lines, "option name ")) < 6 {
				t.Errorf("missing id/options: %q", lines)
			}
			if len(linesWith(lines, "option name MultiPV type spin default 1 min 1 max 256")) != 1 {
				t.Errorf("MultiPV option not announced: %q", lines)
			}
			if lines[len(lines)-2] != "uciok" || lines[len(lines)-1] != "readyok" {
				t.Errorf("want uciok then readyok, got %q", lines)
			}
		}},
		{"go depth from startpos with moves", "position startpos moves e2e4 e7e5 g1f3\ngo depth 4\nisready\n", func(t *testing.T, lines []string) {
			best := linesWith(lines, "bestmove ")
			if len(best) != 1 {
				t.Fatalf("want one bestmove, got %q", lines)
			}
			g := game.NewGame()
			for _, m := range []string{"e2e4", "e7e5", "g1f3"} {
				g.PlayMove(m)
			}
			f := strings.Fields(best[0])
			if _, err := g.Position().ParseUCI(f[1]); err != nil {
				t.Errorf("bestmove %q illegal: %v", f[1], err)
			}
			infos := linesWith(lines, "info depth ")
			if len(infos) != 4 {
				t.Errorf("want 4 info lines, got %q", infos)
			}
			for _, want := range []string{" seldepth ", " score cp ", " nodes ", " nps ", " time ", " hashfull ", " pv "} {
				if !strings.Contains(infos[len(infos)-1], want) {
					t.Errorf("info line lacks %q: %s", want, infos[len(infos)-1])
				}
			}
		}},
		{"mate score", "position fen r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 3\ngo depth 3\n", func(t *testing.T, lines []string) {
			if b := linesWith(lines, "bestmove"); len(b) != 1 || b[0] != "bestmove h5f7" {
				t.Errorf("got %q", b)
			}
			if len(linesWith(lines, "info depth 3 ")) != 1 || !strings.Contains(linesWith(lines, "info depth 3 ")[0], "score mate 1") {
				t.Errorf("no mate score: %q", lines)
			}
		}},
		{"castling written as king move", "setoption name OwnBook value false\nposition fen r3k2r/8/8/8/8/8/8/4K2R w Kkq - 0 1\ngo depth 1\nposition startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1\ngo depth 1\n", func(t *testing.T, lines []string) {
			if len(linesWith(lines, "info string error")) != 0 {
				t.Errorf("castling e1g1 rejected: %q", lines)
			}
		}},
		{"chess960 castling", "setoption name UCI_Chess960 value true\nposition fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 moves g2g3\ngo depth 2\nposition fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1 e8a8\nposition fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1\n", func(t *testing.T, lines []string) {
			errs := linesWith(lines, "info string error")
			if len(errs) != 1 || !strings.Contains(errs[0], "e1g1") || len(linesWith(lines, "bestmove ")) != 1 {
				t.Errorf("960: %q", lines)
			}
		}},
		{"bad input keeps state", "position startpos moves e2e4\nposition fen nonsense\nposition\ngo depth x\nsetoption name Hash value -3\nsetoption name Nope value 1\nfrobnicate\ngo depth 1\n", func(t *testing.T, lines []string) {
			if n := len(linesWith(lines, "info string error")); n != 6 {
				t.Errorf("want 6 errors, got %d: %q", n, lines)
			}
			// The position is still the one after e2e4: Black moves.
			b := linesWith(lines, "bestmove ")
			if len(b) != 1 {
				t.Fatalf("got %q", lines)
			}
			p := game.NewPosition()
			m, _ := p.ParseUCI("e2e4")
			p.MakeMove(m)
			if _, err := p.ParseUCI(strings.Fields(b[0])[1]); err != nil {
				t.Errorf("bestmove %s is not a Black move after e2e4", b[0])
			}
		}},
		{"illegal move sets up the moves before it", "position startpos moves e2e4\nposition startpos moves d2d4 e2e5\ngo depth 1\n", func(t *testing.T, lines []string) {
			// After d2d4 (e2e5 refused), not after e2e4 (the previous
			// command): d7d5, say, not e7e5 or e5... .
			if n := len(linesWith(lines, "info string error: position: move 2 \"e2e5\" is illegal")); n != 1 {
				t.Errorf("got %q", lines)
			}
			b := linesWith(lines, "bestmove ")
			p := game.NewPosition()
			m, _ := p.ParseUCI("d2d4")
			p.MakeMove(m)
			if len(b) != 1 {
				t.Fatalf("got %q", lines)
			}
			if _, err := p.ParseUCI(strings.Fields(b[0])[1]); err != nil {
				t.Errorf("bestmove %s is not a Black move after d2d4", b[0])
			}
		}},
		{"options", "setoption name Hash value 8\nsetoption name Threads value 2\nsetoption name Level value 3\nsetoption name Clear Hash\nucinewgame\nposition startpos\ngo nodes 5000\n", func(t *testing.T, lines []string) {
			if len(linesWith(lines, "info string error")) != 0 || len(linesWith(lines, "bestmove ")) != 1 {
				t.Errorf("got %q", lines)
			}
		}},
		{"searchmoves", "setoption name OwnBook value false\nposition startpos\ngo searchmoves a2a3 depth 4\nposition fen r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 3\ngo depth 3 searchmoves c4b5 h5h4\n", func(t *testing.T, lines []string) {
			b := linesWith(lines, "bestmove ")
			if len(b) != 2 || strings.Fields(b[0])[1] != "a2a3" {
				t.Fatalf("got %q", lines)
			}
			if m := strings.Fields(b[1])[1]; m != "c4b5" && m != "h5h4" {
				t.Errorf("mate position: bestmove %s outside searchmoves", m)
			}
			for _, l := range linesWith(lines, "info depth ") {
				if !strings.Contains(l, " pv a2a3") && !strings.Contains(l, " pv c4b5") && !strings.Contains(l, " pv h5h4") {
					t.Errorf("info line outside searchmoves: %s", l)
				}
			}
		}},
		{"searchmoves castling", "setoption name OwnBook value false\nposition fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\ngo searchmoves e1g1 depth 2\nsetoption name UCI_Chess960 value true\nposition fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\ngo searchmoves e1a1 depth 2\n", func(t *testing.T, lines []string) {
			b := linesWith(lines, "bestmove ")
			// The second command stops the first search early: only the
			// moves matter here.
			if len(b) != 2 || strings.Fields(b[0])[1] != "e1g1" || strings.Fields(b[1])[1] != "e1a1" {
				t.Errorf("got %q", lines)
			}
		}},
		{"bad searchmoves refused", "position startpos\ngo searchmoves e2e5 depth 2\ngo searchmoves\ngo searchmoves depth 2\ngo depth 2 searchmoves a2a3 zz\ngo searchmoves 0000\ngo searchmoves e7e5\nsetoption name MultiPV value 0\nsetoption name MultiPV value 257\nsetoption name MultiPV value x\n", func(t *testing.T, lines []string) {
			if n := len(linesWith(lines, "info string error")); n != 9 {
				t.Errorf("want 9 errors, got %d: %q", n, lines)
			}
			if len(linesWith(lines, "bestmove ")) != 0 {
				t.Errorf("a refused go searched: %q", lines)
			}
		}},
		{"multipv", "setoption name OwnBook value false\nsetoption name MultiPV value 3\nposition startpos\ngo depth 4\n", func(t *testing.T, lines []string) {
			if len(linesWith(lines, "info string error")) != 0 {
				t.Fatalf("got %q", lines)
			}
			for d := 1; d <= 4; d++ {
				infos := linesWith(lines, fmt.Sprintf("info depth %d ", d))
				if len(infos) != 3 {
					t.Fatalf("depth %d: want 3 lines, got %q", d, infos)
				}
				firsts := map[string]bool{}
				for k, l := range infos {
					if !strings.Contains(l, fmt.Sprintf(" multipv %d ", k+1)) {
						t.Errorf("line %d lacks multipv %d: %s", k, k+1, l)
					}
					f := strings.Fields(l[strings.Index(l, " pv ")+4:])
					firsts[f[0]] = true
				}
				if len(firsts) != 3 {
					t.Errorf("depth %d: first moves not distinct: %q", d, infos)
				}
			}
			b := linesWith(lines, "bestmove ")
			last := linesWith(lines, "info depth 4 ")[0]
			if len(b) != 1 || !strings.Contains(last, " pv "+strings.Fields(b[0])[1]) {
				t.Errorf("bestmove %q is not multipv 1's move (%s)", b, last)
			}
		}},
		{"multipv back to 1", "setoption name OwnBook value false\nsetoption name MultiPV value 3\nsetoption name MultiPV value 1\nposition startpos\ngo depth 3\n", func(t *testing.T, lines []string) {
			infos := linesWith(lines, "info depth ")
			if len(infos) != 3 {
				t.Fatalf("want one line per depth, got %q", infos)
			}
			for _, l := range infos {
				if !strings.Contains(l, " multipv 1 ") {
					t.Errorf("after MultiPV 1: %s", l)
				}
			}
		}},
		{"checkmated side", "position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\ngo depth 3\n", func(t *testing.T, lines []string) {
			if b := linesWith(lines, "bestmove"); len(b) != 1 || b[0] != "bestmove 0000" {
				t.Errorf("got %q", b)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.check(t, runTranscript(t, c.script))
		})
	}
}

// TestUCIStopAndPonder drives an interactive session through a pipe:
// infinite search ended by stop, and pondering converted by ponderhit.
func TestUCIStopAndPonder(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- UCI(inR, outW); outW.Close() }()
	lines := make(chan string, 1000)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(s string) { io.WriteString(inW, s+"\n") }
	waitFor := func(prefix string) string {
		t.Helper()
		timeout := time.After(20 * time.Second) // hang guard only
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("output closed waiting for %q", prefix)
				}
				if strings.HasPrefix(l, prefix) {
					return l
				}
			case <-timeout:
				t.Fatalf("no %q line", prefix)
			}
		}
	}
	send("setoption name OwnBook value false")
	send("position startpos")
	send("go infinite")
	waitFor("info depth 3 ")
	send("isready")
	waitFor("readyok")
	send("stop")
	waitFor("bestmove ")

	send("position startpos moves e2e4")
	send("go ponder wtime 1000 btime 1000")
	waitFor("info depth 2 ")
	send("ponderhit")
	waitFor("bestmove ")

	// go ponder then stop (the opponent played something else).
	send("go ponder wtime 100000 btime 100000")
	waitFor("info depth 1 ")
	send("stop")
	waitFor("bestmove ")
	send("quit")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestParseGo(t *testing.T) {
	cases := []struct {
		in   string
		want Limits
		bad  bool
	}{
		{"depth 7", Limits{Depth: 7}, false},
		{"wtime 1000 btime 2000 winc 10 binc 20 movestogo 5", Limits{WTime: time.Second, BTime: 2 * time.Second, WInc: 10 * time.Millisecond, BInc: 20 * time.Millisecond, MovesToGo: 5}, false},
		{"movetime 0", Limits{MoveTime: time.Millisecond}, false},
		{"wtime -50 btime 10", Limits{WTime: time.Millisecond, BTime: 10 * time.Millisecond}, false},
		{"infinite", Limits{Infinite: true}, false},
		{"nodes 12345", Limits{Nodes: 12345}, false},
		{"depth", Limits{}, true},
		{"depth seven", Limits{}, true},
		{"searchmoves e2e4 d2d4", Limits{SearchMoves: []game.Move{game.NewMove(game.E2, game.E4), game.NewMove(game.D2, game.D4)}}, false},
		{"depth 3 searchmoves g1f3 infinite", Limits{Depth: 3, Infinite: true, SearchMoves: []game.Move{game.NewMove(game.G1, game.F3)}}, false},
		{"searchmoves a2a3 movetime 10 searchmoves h2h3", Limits{MoveTime: 10 * time.Millisecond, SearchMoves: []game.Move{game.NewMove(game.A2, game.A3), game.NewMove(game.H2, game.H3)}}, false},
		{"searchmoves", Limits{}, true},
		{"searchmoves depth 3", Limits{}, true},
		{"searchmoves e2e5", Limits{}, true},
		{"searchmoves e2e4 e7e5", Limits{}, true},
		{"mate 4611686018427387904", Limits{Depth: maxPly}, false}, // 2x+1 overflowed to a negative depth
		{"nodes 99999999999999999999", Limits{Nodes: 1 << 40}, false},
		{"depth -1", Limits{}, true},
		{"movetime -1", Limits{}, true},
		{"winc -10 binc 10", Limits{BInc: 10 * time.Millisecond}, false},
		{"searchmoves 0000", Limits{}, true},
		{"warp 9", Limits{}, true},
	}
	for _, c := range cases {
		got, _, err := parseGo(strings.Fields(c.in), game.NewPosition())
		if (err != nil) != c.bad || (!c.bad && !reflect.DeepEqual(got, c.want)) {
			t.Errorf("parseGo(%q) = %+v, %v; want %+v (error %v)", c.in, got, err, c.want, c.bad)
		}
	}
}
