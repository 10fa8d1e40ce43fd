package match

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseInfo(t *testing.T) {
	tests := []struct {
		line string
		want Info
		ok   bool
	}{
		{"info depth 12 seldepth 18 multipv 1 score cp 35 nodes 123456 nps 987654 hashfull 12 tbhits 0 time 125 pv e2e4 e7e5 g1f3",
			Info{Depth: 12, SelDepth: 18, HasScore: true, Score: 35, Nodes: 123456, NPS: 987654, TimeMS: 125, PV: []string{"e2e4", "e7e5", "g1f3"}}, true},
		{"info depth 20 score mate -3 pv h7h8q", Info{Depth: 20, HasScore: true, Mate: true, Score: -3, PV: []string{"h7h8q"}}, true},
		{"info depth 9 score cp -120 lowerbound nodes 5", Info{Depth: 9, HasScore: true, Score: -120, Bound: "lowerbound", Nodes: 5}, true},
		{"info depth 9 currmove e2e4 currmovenumber 1", Info{Depth: 9}, true},
		{"info depth 14 seldepth 20 multipv 1 score cp 18 wdl 120 800 80 nodes 9 pv d2d4", Info{Depth: 14, SelDepth: 20, HasScore: true, Score: 18, Nodes: 9, PV: []string{"d2d4"}}, true},
		{"info string NNUE evaluation using nn.nnue enabled", Info{}, true},
		{"info depth 3 somethingnew 7 score cp 1", Info{Depth: 3, HasScore: true, Score: 1}, true},
		{"info depth x", Info{}, false},
		{"info score cp", Info{}, false},
		{"info score", Info{}, false},
		{"info score cp 99999999999999", Info{}, false},
		{"bestmove e2e4", Info{}, false},
		{"", Info{}, false},
	}
	for _, tc := range tests {
		got, ok := ParseInfo(tc.line)
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseInfo(%q) = %+v, %v; want %+v, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

func TestParseBestMove(t *testing.T) {
	tests := []struct {
		line, move, ponder string
		ok                 bool
	}{
		{"bestmove e2e4", "e2e4", "", true},
		{"bestmove e7e8q ponder a2a1", "e7e8q", "a2a1", true},
		{"  bestmove   0000  ", "0000", "", true},
		{"bestmove e2e4 ponder", "e2e4", "", true},
		{"bestmove", "", "", false},
		{"bestmoves e2e4", "", "", false},
		{"info pv e2e4", "", "", false},
	}
	for _, tc := range tests {
		m, p, ok := ParseBestMove(tc.line)
		if m != tc.move || p != tc.ponder || ok != tc.ok {
			t.Errorf("ParseBestMove(%q) = %q, %q, %v; want %q, %q, %v", tc.line, m, p, ok, tc.move, tc.ponder, tc.ok)
		}
	}
}

func TestScoreString(t *testing.T) {
	tests := []struct {
		in   Info
		want string
	}{
		{Info{HasScore: true, Score: 35}, "+0.35"},
		{Info{HasScore: true, Score: -120}, "-1.20"},
		{Info{HasScore: true, Mate: true, Score: 4}, "+M4"},
		{Info{HasScore: true, Mate: true, Score: -2}, "-M2"},
		{Info{}, ""},
	}
	for _, tc := range tests {
		if got := tc.in.ScoreString(); got != tc.want {
			t.Errorf("%+v.ScoreString() = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzEngineLine feeds arbitrary engine output to the two line parsers: they
// must never panic, and what they accept must be consistent with the line.
func FuzzEngineLine(f *testing.F) {
	for _, s := range []string{
		"info depth 12 seldepth 18 score cp 35 nodes 1 nps 2 time 3 pv e2e4 e7e5",
		"info score mate -3 upperbound",
		"info currline 1 e2e4 e7e5 depth 3",
		"info refutation d1h5 g6h5",
		"info string hello",
		"bestmove e2e4 ponder e7e5",
		"bestmove (none)",
		"info score cp",
		"info depth -1 wdl 1 2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if in, ok := ParseInfo(line); ok {
			if !strings.HasPrefix(strings.TrimSpace(line), "info") {
				t.Errorf("accepted %q as info", line)
			}
			if in.HasScore != (in.ScoreString() != "") {
				t.Errorf("%q: HasScore %v but ScoreString %q", line, in.HasScore, in.ScoreString())
			}
			for _, mv := range in.PV {
				if !strings.Contains(line, mv) || mv == "" {
					t.Errorf("%q: pv move %q not from the line", line, mv)
				}
			}
		}
		if mv, _, ok := ParseBestMove(line); ok && (mv == "" || !strings.Contains(line, mv)) {
			t.Errorf("%q: bestmove %q", line, mv)
		}
	})
}
