package main

import (
	"strings"
	"testing"

	"knightwatch/game"
)

const tableHead = "\"use strict\";\nexports.eco = {\n"

func TestParseTable(t *testing.T) {
	good := tableHead + `    'rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -': {
        eco: 'B20',
        name: 'Sicilian Defense',
        moves: [
            'g1f3',
        ],
    },
    'rnbqkbnr/pppp1ppp/8/4p3/4PP2/8/PPPP2PP/RNBQKBNR b KQkq -': {
        eco: 'C30',
        name: "King's Gambit",
        moves: [],
    },
};
`
	got, err := parseTable(good)
	if err != nil {
		t.Fatal(err)
	}
	want := []sourceEntry{
		{"rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -", "B20", "Sicilian Defense"},
		{"rnbqkbnr/pppp1ppp/8/4p3/4PP2/8/PPPP2PP/RNBQKBNR b KQkq -", "C30", "King's Gambit"},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("parseTable: %+v, want %+v", got, want)
	}
	for _, bad := range []string{
		strings.Replace(good, "'Sicilian Defense'", `'Sicilian\'s Defense'`, 1), // an escape: refused, not misread
		strings.Replace(good, "        eco: 'B20',\n", "", 1),                   // an entry without its code
		strings.Replace(good, "eco: 'B20'", "eco: 'Z20'", 1),                    // not an ECO code
		strings.Replace(good, "    'rnbqkbnr/pp1", "    \"rnbqkbnr/pp1", 1),     // a key in quotes this reader does not know
		tableHead + "};\n", // nothing
	} {
		if _, err := parseTable(bad); err == nil {
			t.Errorf("parseTable accepted:\n%s", bad)
		}
	}
}

// TestUnmoves: at every ply of a few games the board before the last move
// is among the unmoves, with the move played. (Unmoves that are not real
// are harmless: a line is kept only once it replays.)
func TestUnmoves(t *testing.T) {
	for _, line := range []string{
		"e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O",
		"d4 d5 c4 dxc4 e4 e5 Nf3 exd4 Bxc4 Bb4+ Nbd2 Nc6 O-O Qd7",
		"e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5 Nb3 Be6 f3 Be7 Qd2 O-O O-O-O",
	} {
		p := game.NewPosition()
		for _, san := range strings.Fields(line) {
			m, err := p.ParseSAN(san)
			if err != nil {
				t.Fatal(err)
			}
			before := boardOf(p)
			p.MakeMove(m)
			after := boardOf(p)
			found := false
			for _, u := range unmoves(after) {
				if u.prev == before && u.move == m {
					found = true
				}
			}
			if !found {
				t.Errorf("%s in %q: the board before it is not among the unmoves", san, line)
			}
		}
	}
}

// TestFindLines: lines are found to positions a few plies apart, through
// named positions and past a gap the backward search bridges, and each
// replays to its target.
func TestFindLines(t *testing.T) {
	// The last is five plies past the one before it: three forward, two
	// unmoves back.
	lines := []string{"e4", "e4 c5", "e4 c5 Nf3 d6 d4 cxd4 Nxd4", "d4 Nf6 c4 e6 Nc3 Bb4", "d4 Nf6 c4 e6 Nc3 Bb4 Qc2 O-O a3 Bxc3+ Qxc3"}
	var targets []*game.Position
	for _, l := range lines {
		p := game.NewPosition()
		for _, san := range strings.Fields(l) {
			m, err := p.ParseSAN(san)
			if err != nil {
				t.Fatal(err)
			}
			p.MakeMove(m)
		}
		targets = append(targets, p)
	}
	back := backward(targets, backDepth, func(int) bool { return true })
	found := findLines(targets, back, nil)
	bridgeRest(targets, found, back, maxSlack, budget)
	for i, l := range found {
		if l == nil {
			t.Errorf("no line to %q", lines[i])
			continue
		}
		end, ok := replayLegal(l)
		if !ok || end.RepetitionKey() != targets[i].RepetitionKey() {
			t.Errorf("the line to %q does not replay to it", lines[i])
		}
		if len(l) > len(strings.Fields(lines[i])) {
			t.Errorf("the line to %q has %d plies, more than the %d it takes", lines[i], len(l), len(strings.Fields(lines[i])))
		}
	}
}
