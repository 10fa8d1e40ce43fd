package openings

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"knightwatch/game"
)

var ecoCode = regexp.MustCompile(`^[A-E][0-9][0-9]$`)

// checkRows checks each row of eco.tsv: the code has the ECO form; the
// EPD is a legal standard-chess position (the game package's FEN parser:
// two kings, the side not to move not in check, castling rights with king
// and rook at home, an en passant square behind a pawn just pushed) written
// as the game package writes it; no position is named twice; and, where
// the row has moves, they are legal from the standard start and arrive at
// the position. It returns one error per bad row.
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
		if want.Chess960() {
			fail("EPD %q has Chess960 castling rights, and Chess960 positions have no name", r.epd)
			continue
		}
		if want.EPD() != r.epd {
			fail("EPD %q is %q as the game package writes it", r.epd, want.EPD())
			continue
		}
		if prev, dup := seen[want.RepetitionKey()]; dup {
			fail("the position of line %d again", prev)
			continue
		}
		seen[want.RepetitionKey()] = r.line
		p := game.NewPosition()
		for i, san := range r.moves {
			m, err := p.ParseSAN(san)
			if err == nil && m == game.NullMove {
				err = fmt.Errorf("a null move")
			}
			if err != nil {
				fail("move %d %q: %v", i+1, san, err)
				break
			}
			p.MakeMove(m)
			if i == len(r.moves)-1 && p.RepetitionKey() != want.RepetitionKey() {
				fail("the moves arrive at %s, not at the row's %s", p.EPD(), r.epd)
			}
		}
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

// TestHeaderCounts: the header's counts are the rows': every position of
// the package is there, and as many have no line as it says.
func TestHeaderCounts(t *testing.T) {
	rows, err := parseRows(data)
	if err != nil {
		t.Fatal(err)
	}
	all := regexp.MustCompile(`(?m)^#.*Every one of the package's (\d+) positions is here;`).FindStringSubmatch(data)
	empty := regexp.MustCompile(`(?m)^#\s+(\d+) have an empty moves column`).FindStringSubmatch(data)
	if all == nil || empty == nil {
		t.Fatalf("eco.tsv's header does not say how many positions there are and how many have no line")
	}
	noLine := 0
	for _, r := range rows {
		if len(r.moves) == 0 {
			noLine++
		}
	}
	if got := strconv.Itoa(len(rows)); got != all[1] {
		t.Errorf("%s rows, the header says %s", got, all[1])
	}
	if got := strconv.Itoa(noLine); got != empty[1] {
		t.Errorf("%s rows without a line, the header says %s", got, empty[1])
	}
}

// TestRowsWithoutLineAreNamed: positions gen found no line to are in the
// table, with an empty moves column, and a game that reaches one by a real
// move order gets its name, as the position and as the game's opening.
func TestRowsWithoutLineAreNamed(t *testing.T) {
	rows, err := parseRows(data)
	if err != nil {
		t.Fatal(err)
	}
	byEPD := map[string]row{}
	for _, r := range rows {
		byEPD[r.epd] = r
	}
	cases := []struct {
		moves, eco, name string
	}{
		{"d4 d5 c4 c6 Nf3 Nf6 Nc3 e6 Bg5 dxc4 e4 b5 e5 h6 Bh4 g5 exf6 gxh4 Ne5",
			"D44", "Semi-Slav Defense: Botvinnik Variation, Ekstrom Variation"},
		{"e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O d4 Bg4 Nbd2 Na5 Bc2 c5 Nf1 Qc7 Ne3 Bxf3 Qxf3",
			"C88", "Ruy Lopez: Closed, Alekhine Gambit"},
		{"e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Bg5 Nbd7 Bc4 Qa5 Qd2 e6 O-O-O b5 Bb3 Bb7 Rhe1 Nc5 e5",
			"B94", "Sicilian Defense: Najdorf Variation, Ivkov Variation"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := play(t, "", c.moves)
			r, ok := byEPD[g.Position().EPD()]
			if !ok {
				t.Fatalf("eco.tsv has no row for %s", g.Position().EPD())
			}
			if len(r.moves) != 0 {
				t.Fatalf("line %d has a line now (%s): pick a position without one", r.line, strings.Join(r.moves, " "))
			}
			want := Opening{ECO: c.eco, Name: c.name}
			if got := (Opening{ECO: r.eco, Name: r.name}); got != want {
				t.Fatalf("line %d is %+v, want %+v", r.line, got, want)
			}
			if got, ok := Lookup(g.Position()); !ok || got != want {
				t.Errorf("Lookup: %+v %v, want %+v", got, ok, want)
			}
			if got, ok := At(Trail(g), g.Len()); !ok || got != want {
				t.Errorf("the game's opening: %+v %v, want %+v", got, ok, want)
			}
		})
	}
}

// TestBuildTableKeepsRowsWithoutLine: a row with an empty moves column is
// read and named like a row with a line.
func TestBuildTableKeepsRowsWithoutLine(t *testing.T) {
	const text = "# a header\n" +
		"B20\tSicilian Defense\trnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\te4 c5\n" +
		"C20\tKing's Pawn Game\trnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\t\n"
	rows, err := parseRows(text)
	if err != nil {
		t.Fatal(err)
	}
	if errs := checkRows(rows); len(errs) != 0 {
		t.Fatal(errs)
	}
	table, err := buildTable(text)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ moves, eco string }{{"e4 c5", "B20"}, {"e4 e5", "C20"}} {
		g := play(t, "", c.moves)
		if o, ok := table[g.Position().RepetitionKey()]; !ok || o.ECO != c.eco {
			t.Errorf("after %s: %+v %v, want %s", c.moves, o, ok, c.eco)
		}
	}
}

// TestCorruptRowsFail: checkRows catches each kind of damage to a line.
func TestCorruptRowsFail(t *testing.T) {
	const good = "B20\tSicilian Defense\trnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\te4 c5\n"
	// A row without a line: the position of 1.e4 e5, checked by itself.
	const noLine = "C20\tKing's Pawn Game\trnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\t\n"
	cases := []struct {
		name, text, want string
	}{
		{"illegal move", strings.Replace(good, "e4 c5", "e4 c4", 1), "move 2"},
		{"not a move", strings.Replace(good, "e4 c5", "e4 Kx9", 1), "move 2"},
		{"null moves", strings.Replace(good, "e4 c5", "e4 c5 -- --", 1), "null move"},
		{"moves reach another position", strings.Replace(good, "e4 c5", "e4 e5", 1), "arrive"},
		{"bad EPD", strings.Replace(good, "2p5", "2p6", 1), "EPD"},
		{"bad ECO code", strings.Replace(good, "B20", "B2", 1), "ECO code"},
		{"a position twice", good + strings.Replace(good, "Sicilian Defense", "Other", 1), "again"},
		{"no line: bad EPD", strings.Replace(noLine, "4p3/4P3", "4p3/4P4", 1), "EPD"},
		{"no line: the side not to move in check", strings.Replace(noLine,
			"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR b", 1), "in check"},
		{"no line: Chess960 castling", strings.Replace(noLine, "KQkq", "HAha", 1), "Chess960"},
		{"no line: an en passant square no pawn can take", strings.Replace(noLine, "w KQkq -", "w KQkq e6", 1), "as the game package writes it"},
		{"no line: castling rights out of order", strings.Replace(noLine, "KQkq", "kqKQ", 1), "as the game package writes it"},
		{"no line: the position of a row with a line", good + strings.Replace(noLine,
			"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR", "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR", 1), "again"},
		{"no line: bad ECO code", strings.Replace(noLine, "C20", "F20", 1), "ECO code"},
	}
	for _, ok := range []string{good, noLine, good + noLine} {
		if rows, err := parseRows(ok); err != nil || len(rows) == 0 || len(checkRows(rows)) != 0 {
			t.Fatalf("the good rows %q: %v %v", ok, err, checkRows(rows))
		}
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
// naming its line, not a row with empty fields. (The moves column may be
// empty, but it is there.)
func TestParseRowsRefusesShortRows(t *testing.T) {
	for _, text := range []string{
		"# header\nB20\tSicilian Defense\te4 c5\n",
		"B20\t\trnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\te4 c5\n",
		"B20\tSicilian Defense\trnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\n", // no moves column at all
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
