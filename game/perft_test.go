package game

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

type perftCase struct {
	fen    string
	depth  int
	nodes  uint64
	source string
}

// loadEPD reads "FEN ;D1 n ;D2 n ..." lines.
func loadEPD(t testing.TB, path string) []perftCase {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []perftCase
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		parts := strings.Split(text, ";")
		fen := strings.TrimSpace(parts[0])
		for _, part := range parts[1:] {
			var d int
			var n uint64
			fields := strings.Fields(part)
			if len(fields) != 2 || !strings.HasPrefix(fields[0], "D") {
				t.Fatalf("%s:%d: bad field %q", path, line, part)
			}
			d, err1 := strconv.Atoi(fields[0][1:])
			n, err2 := strconv.ParseUint(fields[1], 10, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s:%d: bad field %q", path, line, part)
			}
			out = append(out, perftCase{fen, d, n, path + ":" + strconv.Itoa(line)})
		}
	}
	return out
}

// perftTestLimit keeps the unit tests quick; deeper counts run with
// PERFT_DEEP=1, in bench/perft_vs_stockfish.sh and in `go run . perft`.
const perftTestLimit = 5_000_000

// perftDeepLimit bounds the counts run with PERFT_DEEP=1: every count in
// testdata/perft.epd and the Chess960 ones up to depth 5 or so, about 30
// seconds of CPU in all.
const perftDeepLimit = 200_000_000

// perftLimit returns the largest node count the perft tests run now.
func perftLimit() uint64 {
	if os.Getenv("PERFT_DEEP") != "" {
		return perftDeepLimit
	}
	return perftTestLimit
}

func TestPerftStandardEPD(t *testing.T) {
	for _, c := range loadEPD(t, "testdata/perft.epd") {
		if c.nodes > perftLimit() {
			continue
		}
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatalf("%s: %v", c.source, err)
		}
		if got := Perft(p, c.depth); got != c.nodes {
			t.Errorf("%s: perft(%d) of %s = %d, want %d", c.source, c.depth, c.fen, got, c.nodes)
		}
	}
}

func TestDivide(t *testing.T) {
	tests := []struct {
		fen   string
		depth int
		total uint64
		some  map[string]uint64 // published per-move counts
	}{
		{StartFEN, 3, 8902, map[string]uint64{"e2e4": 600, "d2d4": 560, "g1f3": 440, "a2a3": 380}},
		{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2, 2039, map[string]uint64{"e1g1": 43, "e1c1": 43}},
		{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 3, 12189, nil},
	}
	for _, tt := range tests {
		p, err := ParseFEN(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		entries := Divide(p, tt.depth)
		var ml MoveList
		p.GenerateLegal(&ml)
		if len(entries) != ml.N {
			t.Errorf("%s: %d entries for %d moves", tt.fen, len(entries), ml.N)
		}
		var sum uint64
		for i, e := range entries {
			sum += e.Nodes
			if i > 0 && entries[i-1].Move >= e.Move {
				t.Errorf("%s: entries not sorted at %s", tt.fen, e.Move)
			}
			m, err := p.ParseUCI(e.Move)
			if err != nil {
				t.Fatalf("%s: divide move %q: %v", tt.fen, e.Move, err)
			}
			q := *p
			q.MakeMove(m)
			if n := Perft(&q, tt.depth-1); n != e.Nodes {
				t.Errorf("%s: %s has %d, perft below it %d", tt.fen, e.Move, e.Nodes, n)
			}
			if want, ok := tt.some[e.Move]; ok && want != e.Nodes {
				t.Errorf("%s: %s: %d, want %d", tt.fen, e.Move, e.Nodes, want)
			}
			delete(tt.some, e.Move)
		}
		if sum != tt.total {
			t.Errorf("%s: divide total %d, want %d", tt.fen, sum, tt.total)
		}
		if len(tt.some) != 0 {
			t.Errorf("%s: moves missing from divide: %v", tt.fen, tt.some)
		}
	}
}

func benchPerft(b *testing.B, fen string, depth int, want uint64) {
	p, err := ParseFEN(fen)
	if err != nil {
		b.Fatal(err)
	}
	var nodes uint64
	for b.Loop() {
		if nodes = Perft(p, depth); nodes != want {
			b.Fatalf("perft(%d) = %d, want %d", depth, nodes, want)
		}
	}
	b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkPerft is the move generator's speed figure: the start position at
// depth 5 and Kiwipete at depth 4, with bulk counting at the last ply.
func BenchmarkPerft(b *testing.B) {
	b.Run("startpos-d5", func(b *testing.B) { benchPerft(b, StartFEN, 5, 4865609) })
	b.Run("kiwipete-d4", func(b *testing.B) {
		benchPerft(b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 4085603)
	})
}
