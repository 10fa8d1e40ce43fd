package game

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func readPGNString(t *testing.T, s string) []*PGNGame {
	t.Helper()
	games, err := ReadPGN(strings.NewReader(s))
	if err != nil {
		t.Fatalf("ReadPGN: %v\n%s", err, s)
	}
	return games
}

func writePGNString(t *testing.T, games []*PGNGame) string {
	t.Helper()
	var buf bytes.Buffer
	for _, g := range games {
		if err := g.Write(&buf); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	return buf.String()
}

// tagMap returns the tags as a map with the Seven Tag Roster defaults
// filled in, the form in which a written game must equal the one read.
func tagMap(pg *PGNGame) map[string]string {
	m := map[string]string{}
	for _, t := range sevenTagRoster {
		m[t.Name] = t.Value
	}
	m["Result"] = string(pg.Result) // the writer's default for a missing Result tag
	seen := map[string]bool{}
	for _, t := range pg.Tags {
		if !seen[t.Name] {
			m[t.Name] = t.Value
			seen[t.Name] = true
		}
	}
	return m
}

// pgnGamesDiffer describes the first difference between two games, or "".
func pgnGamesDiffer(a, b *PGNGame) string {
	if !reflect.DeepEqual(tagMap(a), tagMap(b)) {
		return fmt.Sprintf("tags %v != %v", tagMap(a), tagMap(b))
	}
	if a.Result != b.Result {
		return fmt.Sprintf("result %q != %q", a.Result, b.Result)
	}
	if fa, fb := a.StartPosition().FEN(), b.StartPosition().FEN(); fa != fb {
		return fmt.Sprintf("start %q != %q", fa, fb)
	}
	if a.StartPosition().Chess960() != b.StartPosition().Chess960() {
		return "chess960 flag differs"
	}
	return pgnNodesDiffer(&a.Root, &b.Root, "root")
}

func pgnNodesDiffer(a, b *PGNNode, path string) string {
	switch {
	case a.Move != b.Move:
		return fmt.Sprintf("%s: move %v != %v", path, a.Move, b.Move)
	case fmt.Sprint(a.NAGs) != fmt.Sprint(b.NAGs):
		return fmt.Sprintf("%s: NAGs %v != %v", path, a.NAGs, b.NAGs)
	case a.Comment != b.Comment:
		return fmt.Sprintf("%s: comment %q != %q", path, a.Comment, b.Comment)
	case a.StartingComment != b.StartingComment:
		return fmt.Sprintf("%s: starting comment %q != %q", path, a.StartingComment, b.StartingComment)
	case len(a.Variations) != len(b.Variations):
		return fmt.Sprintf("%s: %d variations != %d", path, len(a.Variations), len(b.Variations))
	}
	for i := range a.Variations {
		if d := pgnNodesDiffer(a.Variations[i], b.Variations[i], fmt.Sprintf("%s/%d:%v", path, i, a.Variations[i].Move)); d != "" {
			return d
		}
	}
	return ""
}

// sanLine returns the SAN of the main line.
func sanLine(t *testing.T, pg *PGNGame) string {
	t.Helper()
	g, err := pg.Mainline()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(g.SANMoves(), " ")
}

const featurePGN = `% an escape line, ignored
; a comment before any game, ignored
[Event "Test \"quoted\" \\ back"]
[Site "Somewhere"]
[Result "1-0"]
[Annotator "me"]

{game comment} 1. e4! e5 2. Nf3 $1 {good} (2. f4?! exf4 (2... d5 {counter})
3. Nf3) 2... Nc6 ; rest of line
3.Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0

[Event "Chess960"]
[Variant "chess 960"]
[SetUp "1"]
[FEN "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"]

9. Nc3 d5 *

1. d4 d5 1/2-1/2
`

func TestReadPGNFeatures(t *testing.T) {
	games := readPGNString(t, featurePGN)
	if len(games) != 3 {
		t.Fatalf("read %d games, want 3", len(games))
	}
	g := games[0]
	if got := g.Tag("Event"); got != `Test "quoted" \ back` {
		t.Errorf("Event = %q", got)
	}
	if g.Tag("Annotator") != "me" || g.Tag("Missing") != "" {
		t.Errorf("Annotator = %q, Missing = %q", g.Tag("Annotator"), g.Tag("Missing"))
	}
	if g.Result != WhiteWins {
		t.Errorf("result %q", g.Result)
	}
	if got := sanLine(t, g); got != "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7" {
		t.Errorf("main line %q", got)
	}
	if g.Root.Comment != "game comment" {
		t.Errorf("game comment %q", g.Root.Comment)
	}
	e4 := g.Root.Variations[0]
	if !reflect.DeepEqual(e4.NAGs, []int{1}) {
		t.Errorf("e4 NAGs %v, want [1]", e4.NAGs)
	}
	nf3 := e4.Variations[0].Variations
	if len(nf3) != 2 {
		t.Fatalf("after 1...e5: %d continuations, want 2", len(nf3))
	}
	if nf3[0].Comment != "good" || !reflect.DeepEqual(nf3[0].NAGs, []int{1}) {
		t.Errorf("Nf3: comment %q NAGs %v", nf3[0].Comment, nf3[0].NAGs)
	}
	f4 := nf3[1]
	if !reflect.DeepEqual(f4.NAGs, []int{6}) || len(f4.Variations) != 2 {
		t.Fatalf("f4: NAGs %v, %d continuations", f4.NAGs, len(f4.Variations))
	}
	if d5 := f4.Variations[1]; d5.Comment != "counter" || d5.Parent() != f4 {
		t.Errorf("2...d5 comment %q", d5.Comment)
	}
	if nc6 := nf3[0].Variations[0]; nc6.Comment != "rest of line" {
		t.Errorf("2...Nc6 comment %q", nc6.Comment)
	}

	c960 := games[1]
	if !c960.StartPosition().Chess960() {
		t.Error("Variant chess 960 did not switch on Chess960")
	}
	if got := sanLine(t, c960); got != "Nc3 d5" {
		t.Errorf("960 main line %q", got)
	}
	if games[2].Result != Draw || len(games[2].Tags) != 0 || sanLine(t, games[2]) != "d4 d5" {
		t.Errorf("third game: result %q tags %v", games[2].Result, games[2].Tags)
	}
}

func TestReadPGNTolerance(t *testing.T) {
	tests := []struct {
		name, pgn, line string
		result          Result
	}{
		{"no result at end uses Result tag", `[Result "0-1"]` + "\n1. f3 e5 2. g4 Qh4#", "f3 e5 g4 Qh4#", BlackWins},
		{"no result, no tag", "1. e4", "e4", NoResult},
		{"move numbers glued and spaced", "1.e4 e5 2 . Nf3 2... Nc6 *", "e4 e5 Nf3 Nc6", NoResult},
		{"castling with zeros, en passant suffix", `[FEN "4k3/8/8/3Pp3/8/8/8/R3K2R w KQ e6 0 1"]` + "\n1. dxe6e.p. Kf8 2. 0-0-0 *", "dxe6 Kf8 O-O-O", NoResult},
		{"promotion without =", `[FEN "8/P6k/8/8/8/8/8/K7 w - - 0 1"]` + "\n1. a8Q *", "a8=Q", NoResult},
		{"null move", "1. e4 -- 2. d4 *", "e4 -- d4", NoResult},
		{"CRLF and tabs", "[Event \"x\"]\r\n\r\n1.\te4\r\ne5 *\r\n", "e4 e5", NoResult},
		{"UTF-8 BOM", "\xef\xbb\xbf1. e4 *", "e4", NoResult},
		{"comment before move number of black", "1. e4 {c} 1... e5 *", "e4 e5", NoResult},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games := readPGNString(t, tt.pgn)
			if len(games) != 1 {
				t.Fatalf("%d games", len(games))
			}
			if got := sanLine(t, games[0]); got != tt.line {
				t.Errorf("line %q, want %q", got, tt.line)
			}
			if games[0].Result != tt.result {
				t.Errorf("result %q, want %q", games[0].Result, tt.result)
			}
		})
	}
}

func TestReadPGNManyGamesWithoutResults(t *testing.T) {
	pgn := "[Event \"a\"]\n1. e4\n[Event \"b\"]\n1. d4\n\n[Event \"c\"]\n"
	games := readPGNString(t, pgn)
	if len(games) != 3 {
		t.Fatalf("%d games, want 3", len(games))
	}
	for i, want := range []string{"a", "b", "c"} {
		if games[i].Tag("Event") != want {
			t.Errorf("game %d Event %q, want %q", i, games[i].Tag("Event"), want)
		}
	}
	if n := len(games[2].MainlineMoves()); n != 0 {
		t.Errorf("game c has %d moves", n)
	}
	if games, err := ReadPGN(strings.NewReader("  \n% only an escape\n")); err != nil || len(games) != 0 {
		t.Errorf("blank input: %d games, %v", len(games), err)
	}
}

func TestReadPGNErrors(t *testing.T) {
	tests := []struct {
		name, pgn string
		line, col int
		msg       string
		games     int // games read before the error
	}{
		{"illegal move", "1. e4 e5 2. Ke3 *", 1, 13, "illegal", 0},
		{"ambiguous move", `[FEN "4k3/8/8/8/8/8/8/1N3N1K w - - 0 1"]` + "\n1. Nd2 *", 2, 4, "ambiguous", 0},
		{"bad SAN on line 3", "[Event \"x\"]\n\n1. e4 Zz9 *", 3, 7, "Zz9", 0},
		{"unterminated comment", "1. e4 {never closed", 1, 7, "never closed", 0},
		{"unterminated tag value", "[Event \"x]\n1. e4 *", 1, 8, "not closed", 0},
		{"tag without value", "[Event]\n1. e4 *", 1, 7, "quoted value", 0},
		{"tag without name", "[\"x\"]\n1. e4 *", 1, 2, "tag name", 0},
		{"unclosed variation", "1. e4 (1. d4 *", 1, 7, "never closed", 0},
		{"stray close", "1. e4 ) *", 1, 7, "')'", 0},
		{"variation before a move", "( 1. e4 ) *", 1, 1, "follow a move", 0},
		{"empty variation", "1. e4 () *", 1, 8, "empty", 0},
		{"NAG before move", "$1 1. e4 *", 1, 1, "before any move", 0},
		{"NAG too large", "1. e4 $300 *", 1, 7, "NAG", 0},
		{"bad annotation", "1. e4 ?!? *", 1, 7, "annotation", 0},
		{"bad FEN tag", "[Event \"x\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *", 2, 1, "FEN", 0},
		{"unsupported variant", "[Variant \"Crazyhouse\"]\n1. e4 *", 1, 1, "variant", 0},
		{"second game bad", "1. e4 *\n\n1. e5 *", 3, 4, "illegal", 1},
		{"stray character", "1. e4 & *", 1, 7, "unexpected character", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games, err := ReadPGN(strings.NewReader(tt.pgn))
			var pe *PGNError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *PGNError", err)
			}
			if pe.Line != tt.line || pe.Col != tt.col {
				t.Errorf("at %d:%d, want %d:%d (%v)", pe.Line, pe.Col, tt.line, tt.col, err)
			}
			if !strings.Contains(err.Error(), tt.msg) || !strings.HasPrefix(err.Error(), fmt.Sprintf("pgn:%d:%d: ", pe.Line, pe.Col)) {
				t.Errorf("error %q does not mention %q with its position", err, tt.msg)
			}
			if len(games) != tt.games {
				t.Errorf("%d games returned, want %d", len(games), tt.games)
			}
		})
	}
}

// canonicalPGN is already in the writer's form, so writing what is read
// must give it back byte for byte.
const canonicalPGN = `[Event "F/S Return Match"]
[Site "Belgrade, Serbia JUG"]
[Date "1992.11.04"]
[Round "29"]
[White "Fischer, Robert J."]
[Black "Spassky, Boris V."]
[Result "1/2-1/2"]
[Annotator "A \"quoted\" name \\ slash"]

{Ruy Lopez} 1. e4 e5 2. Nf3 Nc6 3. Bb5 {This opening is called the Ruy Lopez.}
3... a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4
Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17.
dxe5 Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6
23. Ne5 Rae8 24. Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5
hxg5 29. b3 Ke6 30. a3 Kd6 31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5 35.
Ra7 g6 36. Ra6+ Kc5 37. Ke1 Nf4 38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6 Nf2
42. g4 Bd3 43. Re6 1/2-1/2

[Event "Variations"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]

1. e4 $1 e5 (1... c5 $2 {Sicilian} 2. Nf3 (2. c3 d5 (2... Nf6)) 2... d6) (1...
e6) 2. Nf3 {main} 2... Nc6 (2... d6 3. d4) ({A starting comment} 2... Nf6 $5)
3. -- *

[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1-0"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30"]

30... Kd7 31. e4 Ke6 1-0

[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]
[Variant "Chess960"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/RK5R w KQ - 0 1"]

1. O-O-O Ke7 2. Rd7+ *

`

func TestPGNCanonicalRoundTrip(t *testing.T) {
	games := readPGNString(t, canonicalPGN)
	if len(games) != 4 {
		t.Fatalf("%d games", len(games))
	}
	got := writePGNString(t, games)
	if got != canonicalPGN {
		t.Errorf("write(read(canonical)) differs:\n--- got\n%s\n--- want\n%s", got, canonicalPGN)
	}
	for i, line := range strings.Split(got, "\n") {
		if len(line) >= 80 {
			t.Errorf("line %d has %d columns: %q", i+1, len(line), line)
		}
	}
	// The Chess960 game castles king takes rook: g1 king, h1 rook.
	if m := games[3].MainlineMoves()[0]; !m.IsCastling() || m.String() != "b1a1" {
		t.Errorf("960 O-O read as %v", m)
	}
}

// TestPGNRoundTrip reads untidy PGN, writes it and reads it again: the games
// must be the same, and writing again must change nothing.
func TestPGNRoundTrip(t *testing.T) {
	inputs := []string{
		featurePGN,
		canonicalPGN,
		"[White \"x\"] [Black \"y\"] 1.e4 {a\n  multi-line   comment} e5 {one} {two} 2.Nf3!! Nc6?? ( 2...d6 $14 ; eol } comment\n) 3. Bc4 *",
		"1. d4 ( 1. e4 ( 1. c4 ) e5 ( 1... c5 ) ) 1... d5 2. c4 *",
		"{only a comment} *",
		"[Event \"e\"] [Termination \"time forfeit\"] [Result \"0-1\"] 1. e4 0-1",
	}
	for i, in := range inputs {
		first := readPGNString(t, in)
		out := writePGNString(t, first)
		second := readPGNString(t, out)
		if len(first) != len(second) {
			t.Fatalf("input %d: %d games, then %d", i, len(first), len(second))
		}
		for j := range first {
			if d := pgnGamesDiffer(first[j], second[j]); d != "" {
				t.Errorf("input %d game %d: %s\n%s", i, j, d, out)
			}
		}
		if again := writePGNString(t, second); again != out {
			t.Errorf("input %d: second write differs:\n%s\n---\n%s", i, out, again)
		}
		for _, line := range strings.Split(out, "\n") {
			if len(line) >= 80 {
				t.Errorf("input %d: line of %d columns: %q", i, len(line), line)
			}
		}
	}
}

func playSAN(t *testing.T, g *Game, moves string) {
	t.Helper()
	for _, s := range strings.Fields(moves) {
		if _, err := g.PlayMove(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func TestWritePGN(t *testing.T) {
	opera := NewGame()
	playSAN(t, opera, "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#")

	fromFEN, err := NewGameFromFEN("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30")
	if err != nil {
		t.Fatal(err)
	}
	playSAN(t, fromFEN, "Kd7 e4")

	c960p, err := ParseFEN("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
	if err != nil {
		t.Fatal(err)
	}
	c960 := NewGameFrom(c960p)
	playSAN(t, c960, "Nc3 Nb6")

	resigned := NewGame()
	playSAN(t, resigned, "d4")
	resigned.Resign(Black)

	tests := []struct {
		name string
		g    *Game
		tags []PGNTag
		want string
	}{
		{"checkmate sets the result; roster first", opera,
			[]PGNTag{{"Opening", "Philidor"}, {"White", "Morphy"}, {"Event", "Opera"}},
			`[Event "Opera"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "Morphy"]
[Black "?"]
[Result "1-0"]
[Opening "Philidor"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8.
Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14.
Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0

`},
		{"FEN and SetUp for a set-up start", fromFEN, nil,
			`[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30"]

30... Kd7 31. e4 *

`},
		{"Variant tag for Chess960", c960, []PGNTag{{"FEN", "ignored"}},
			`[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]
[Variant "Chess960"]
[SetUp "1"]
[FEN "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"]

9. Nc3 Nb6 *

`},
		{"resignation result", resigned, nil,
			`[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1-0"]

1. d4 1-0

`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WritePGN(&buf, tt.g, tt.tags); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", buf.String(), tt.want)
			}
			// Reading it back gives the same moves, start and result.
			games := readPGNString(t, buf.String())
			back, err := games[0].Mainline()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back.Moves(), tt.g.Moves()) || back.StartPosition().FEN() != tt.g.StartPosition().FEN() {
				t.Errorf("read back %v from %s", back.UCIMoves(), back.StartPosition().FEN())
			}
			if back.Outcome().Result != tt.g.Outcome().Result {
				t.Errorf("outcome %v, want %v", back.Outcome(), tt.g.Outcome())
			}
		})
	}
}

func TestWritePGNErrors(t *testing.T) {
	g := NewGame()
	bad := [][]PGNTag{
		{{"Bad Name", "x"}},
		{{"", "x"}},
		{{"Event", "two\nlines"}},
		{{"Result", "2-0"}},
	}
	for _, tags := range bad {
		var buf bytes.Buffer
		if err := WritePGN(&buf, g, tags); err == nil {
			t.Errorf("tags %v accepted", tags)
		} else if buf.Len() != 0 {
			t.Errorf("tags %v: %d bytes written despite error", tags, buf.Len())
		}
	}
	// An illegal move in a hand-built tree is refused, not written.
	pg := NewPGNGame(nil)
	pg.Root.AddVariation(NewMove(E2, E5))
	var buf bytes.Buffer
	if err := pg.Write(&buf); err == nil || buf.Len() != 0 {
		t.Errorf("illegal move written: %v %q", err, buf.String())
	}
	if _, err := pg.Mainline(); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("Mainline of illegal tree: %v", err)
	}
}

func TestPGNMainlineOutcome(t *testing.T) {
	tests := []struct {
		pgn  string
		want Outcome
	}{
		{"1. f3 e5 2. g4 Qh4# 0-1", Outcome{BlackWins, Checkmate}},
		{"1. e4 1-0", Outcome{WhiteWins, Resignation}},
		{"[Termination \"time forfeit\"]\n1. e4 0-1", Outcome{BlackWins, TimeForfeit}},
		{"[Termination \"adjudication\"]\n1. e4 1/2-1/2", Outcome{Draw, Adjudication}},
		{"1. e4 1/2-1/2", Outcome{Draw, DrawAgreed}},
		{"1. e4 *", Outcome{NoResult, NotOver}},
	}
	for _, tt := range tests {
		g, err := readPGNString(t, tt.pgn)[0].Mainline()
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Outcome(); got != tt.want {
			t.Errorf("%q: outcome %v, want %v", tt.pgn, got, tt.want)
		}
	}
}

func TestPGNGameBuiltByHand(t *testing.T) {
	pg := NewPGNGame(mustFEN(t, "4k3/8/8/8/8/8/8/RK5R w HA - 0 1"))
	pg.Result = WhiteWins
	main := pg.Root.AddVariation(NewCastling(B1, A1))
	main.NAGs = []int{1}
	main.Comment = "queenside"
	alt := pg.Root.AddVariation(NewCastling(B1, H1))
	alt.StartingComment = "or"
	main.AddVariation(NewMove(E8, E7))
	want := `[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1-0"]
[Variant "Chess960"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/RK5R w KQ - 0 1"]

1. O-O-O $1 {queenside} ({or} 1. O-O) 1... Ke7 1-0

`
	got := writePGNString(t, []*PGNGame{pg})
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	back := readPGNString(t, got)[0]
	if d := pgnNodesDiffer(&pg.Root, &back.Root, "root"); d != "" {
		t.Error(d)
	}
	if !back.StartPosition().Chess960() || back.StartPosition().Hash() != pg.StartPosition().Hash() {
		t.Errorf("start read back as %s", back.StartPosition().FEN())
	}
}
