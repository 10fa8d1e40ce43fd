package openings

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"knightwatch/game"
)

var ecoCode = regexp.MustCompile(`^[A-E][0-9][0-9]$`)

// checkRows replays every row's moves from the standard start and checks
// that each is legal and that the line arrives at the row's position; that
// the code has the ECO form; and that no position is named twice. It
// returns one error per bad row.
func checkRows(rows []row) []error {
	var errs []error
	seen := map[uint64]int{}
	for _, r := range rows {
		fail := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("eco.tsv line %d (%s %s): %s", r.line, r.eco, r.name, fmt.Sprintf(format, args...)))
		}
		if !ecoCode.MatchString(r.eco) {
			fail("ECO code %q is not a letter A-E and two digits", r.eco)
		}
		want, err := game.ParseFEN(r.epd + " 0 1")
		if err != nil {
			fail("EPD: %v", err)
			continue
		}
		p := game.NewPosition()
		ok := true
		for i, san := range r.moves {
			m, err := p.ParseSAN(san)
			if err != nil {
				fail("move %d %q: %v", i+1, san, err)
				ok = false
				break
			}
			p.MakeMove(m)
		}
		if !ok {
			continue
		}
		if p.RepetitionKey() != want.RepetitionKey() {
			fail("the moves arrive at %s, not at the row's %s", p.EPD(), r.epd)
			continue
		}
		if prev, dup := seen[want.RepetitionKey()]; dup {
			fail("the position of line %d again", prev)
		}
		seen[want.RepetitionKey()] = r.line
	}
	return errs
}

// TestTable checks the embedded file whole: every line's moves are legal
// and reach its position.
func TestTable(t *testing.T) {
	rows, err := parseRows(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 3000 {
		t.Fatalf("eco.tsv has %d rows; the source has over 3,000", len(rows))
	}
	for _, err := range checkRows(rows) {
		t.Error(err)
	}
	if _, err := load(); err != nil {
		t.Fatal(err)
	}
}

// TestCorruptRowsFail: checkRows catches each kind of damage to a line.
func TestCorruptRowsFail(t *testing.T) {
	const good = "B20\tSicilian Defense\trnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\te4 c5\n"
	cases := []struct {
		name, text, want string
	}{
		{"illegal move", strings.Replace(good, "e4 c5", "e4 c4", 1), "move 2"},
		{"not a move", strings.Replace(good, "e4 c5", "e4 Kx9", 1), "move 2"},
		{"moves reach another position", strings.Replace(good, "e4 c5", "e4 e5", 1), "arrive"},
		{"bad EPD", strings.Replace(good, "2p5", "2p6", 1), "EPD"},
		{"bad ECO code", strings.Replace(good, "B20", "B2", 1), "ECO code"},
		{"a position twice", good + strings.Replace(good, "Sicilian Defense", "Other", 1), "again"},
	}
	if rows, err := parseRows(good); err != nil || len(checkRows(rows)) != 0 {
		t.Fatalf("the good row: %v %v", err, checkRows(rows))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rows, err := parseRows(c.text)
			if err != nil {
				t.Fatal(err)
			}
			errs := checkRows(rows)
			if len(errs) == 0 || !strings.Contains(errs[0].Error(), c.want) {
				t.Errorf("errors %v, want one mentioning %q", errs, c.want)
			}
		})
	}
}

// TestParseRowsRefusesShortRows: a row without its four fields is an error
// naming its line, not a row with empty fields.
func TestParseRowsRefusesShortRows(t *testing.T) {
	for _, text := range []string{
		"# header\nB20\tSicilian Defense\te4 c5\n",
		"B20\t\trnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\te4 c5\n",
	} {
		if _, err := parseRows(text); err == nil || !strings.Contains(err.Error(), "line") {
			t.Errorf("parseRows(%q): %v, want an error naming the line", text, err)
		}
	}
}

// play makes a game from the standard start, or from fen, with SAN moves.
func play(t *testing.T, fen string, moves string) *game.Game {
	t.Helper()
	g := game.NewGame()
	if fen != "" {
		var err error
		if g, err = game.NewGameFromFEN(fen); err != nil {
			t.Fatal(err)
		}
	}
	for _, san := range strings.Fields(moves) {
		if _, err := g.PlayMove(san); err != nil {
			t.Fatalf("%s: %v", san, err)
		}
	}
	return g
}

func TestKnownNames(t *testing.T) {
	cases := []struct {
		moves, eco, name string
	}{
		{"e4", "B00", "King's Pawn Game"},
		{"e4 c5", "B20", "Sicilian Defense"},
		{"e4 e5 Nf3 Nc6 Bb5", "C60", "Ruy Lopez"},
		{"d4 d5 c4", "D06", "Queen's Gambit"},
		{"e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6", "B90", "Sicilian Defense: Najdorf Variation"},
		{"e4 e6", "C00", "French Defense"},
		// Out of the book the name stays: the Sicilian's, after a queen
		// sortie no list names.
		{"e4 c5 Qh5 Qa5 Qxh7", "B20", "Sicilian Defense"},
	}
	for _, c := range cases {
		t.Run(c.moves, func(t *testing.T) {
			g := play(t, "", c.moves)
			got, ok := At(Trail(g), g.Len())
			if !ok || got.ECO != c.eco || got.Name != c.name {
				t.Errorf("after %s: %+v %v, want %s %s", c.moves, got, ok, c.eco, c.name)
			}
		})
	}
}

// TestOutOfBookKeepsLastName: after a move no list names, the game is in
// the opening of the last named position, and the trail ends there.
func TestOutOfBookKeepsLastName(t *testing.T) {
	g := play(t, "", "e4 c5 Qh5 Qa5 Qxh7")
	trail := Trail(g)
	last := trail[len(trail)-1]
	if last.Ply >= g.Len() {
		t.Fatalf("the position after Qxh7 has a name (%+v); pick a move out of the book", last)
	}
	for ply := last.Ply; ply <= g.Len(); ply++ {
		if got, _ := At(trail, ply); got != last.Opening {
			t.Errorf("ply %d: %+v, want the last name %+v", ply, got, last.Opening)
		}
	}
	if _, ok := At(trail, 0); ok {
		t.Errorf("the start position has a name")
	}
}

// TestTranspositions: the same position by another move order has the
// same name, because the lookup is by position.
func TestTranspositions(t *testing.T) {
	pairs := [][2]string{
		{"Nf3 d5 d4", "d4 d5 Nf3"},
		{"e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6", "Nf3 c5 e4 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"},
		{"d4 Nf6 c4 e6 Nc3 Bb4", "c4 e6 Nc3 Nf6 d4 Bb4"},
	}
	for _, p := range pairs {
		a, b := play(t, "", p[0]), play(t, "", p[1])
		oa, okA := Lookup(a.Position())
		ob, okB := Lookup(b.Position())
		if !okA || !okB || oa != ob {
			t.Errorf("%s: %+v %v; %s: %+v %v; want the same name", p[0], oa, okA, p[1], ob, okB)
		}
	}
}

// TestReviewedPly: At names each ply by the latest named position at or
// before it, as the game page's review does.
func TestReviewedPly(t *testing.T) {
	g := play(t, "", "e4 e5 Nf3 Nc6 Bb5")
	trail := Trail(g)
	for ply := 1; ply <= g.Len(); ply++ {
		want, ok := Lookup(g.PositionAt(ply))
		if !ok {
			t.Fatalf("ply %d of the Ruy Lopez has no name", ply)
		}
		if got, _ := At(trail, ply); got != want {
			t.Errorf("ply %d: %+v, want %+v", ply, got, want)
		}
	}
}

// TestFromFEN: a game from a FEN that is a named position is in that
// opening from its start.
func TestFromFEN(t *testing.T) {
	g := play(t, "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2", "")
	trail := Trail(g)
	if len(trail) != 1 || trail[0].Ply != 0 || trail[0].ECO != "B20" {
		t.Errorf("trail %+v, want the Sicilian at ply 0", trail)
	}
}

// TestChess960HasNoNames: Chess960 positions, even the standard one, get
// no name.
func TestChess960HasNoNames(t *testing.T) {
	p := game.NewPosition()
	p.SetChess960(true)
	g := game.NewGameFrom(p)
	for _, san := range []string{"e4", "c5"} {
		if _, err := g.PlayMove(san); err != nil {
			t.Fatal(err)
		}
	}
	if o, ok := Lookup(g.Position()); ok {
		t.Errorf("Lookup in Chess960: %+v", o)
	}
	if trail := Trail(g); trail != nil {
		t.Errorf("Trail of a Chess960 game: %+v", trail)
	}
}
