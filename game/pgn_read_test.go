package game

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll reads every game with ReadAllPGN, failing on a reader error.
func readAll(t *testing.T, s string) []*PGNGame {
	t.Helper()
	games, err := ReadAllPGN(strings.NewReader(s))
	if err != nil {
		t.Fatalf("ReadAllPGN: %v", err)
	}
	return games
}

// mainlineSAN returns the game's main line in SAN, space separated.
func mainlineSAN(t *testing.T, pg *PGNGame) string {
	t.Helper()
	g, err := pg.Mainline()
	if err != nil {
		t.Fatalf("Mainline: %v", err)
	}
	return strings.Join(g.SANMoves(), " ")
}

// wantErr describes one expected PGNError.
type wantErr struct {
	kind      PGNErrorKind
	line, col int
	token     string
}

func checkErrors(t *testing.T, what string, got []*PGNError, want []wantErr) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d errors %v, want %d", what, len(got), got, len(want))
		return
	}
	for i, w := range want {
		e := got[i]
		if e.Kind != w.kind || e.Line != w.line || e.Col != w.col || w.token != "" && e.Token != w.token {
			t.Errorf("%s: error %d = %v (kind %v, token %q), want %v at %d:%d token %q", what, i, e, e.Kind, e.Token, w.kind, w.line, w.col, w.token)
		}
	}
}

// badDatabase has a bad game between good ones, in every way the reader
// recovers from.
const badDatabase = `[Event "1 good"]

1. e4 e5 2. Nf3 Nc6 1-0

[Event "2 illegal move in the main line"]

1. e4 e5 2. Ke3 Nf6 (2... d5) 3. d4 {lost} 0-1

[Event "3 good"]

1. d4 d5 1/2-1/2

[Event "4 not a move in a variation"]

1. e4 (1. d4 Zz9 2. c4) (1. c4 e5) 1... c5 2. Nf3 *

[Event "5 crazyhouse"]
[Variant "Crazyhouse"]

1. e4 e5 2. Nf3 N@f6 *

[Event "6 bad FEN"]
[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]

1. e4 *

[Event "7 syntax errors kept going"]

1. e4 & e5 2. Nf3 $300 Nc6 ) 3. Bb5 *

[Event "8 good after all"]

1. c4 *
`

func TestPGNReaderRecoversFromBadGames(t *testing.T) {
	tests := []struct {
		event, line string
		errs        []wantErr
	}{
		{"1 good", "e4 e5 Nf3 Nc6", nil},
		{"2 illegal move in the main line", "e4 e5", []wantErr{{PGNIllegalMove, 7, 13, "Ke3"}}},
		{"3 good", "d4 d5", nil},
		{"4 not a move in a variation", "e4 c5 Nf3", []wantErr{{PGNNotAMove, 15, 14, "Zz9"}}},
		{"5 crazyhouse", "", []wantErr{{PGNUnsupportedVariant, 18, 1, "Crazyhouse"}}},
		{"6 bad FEN", "", []wantErr{{PGNBadFEN, 23, 1, "8/8/8/8/8/8/8/8 w - - 0 1"}}},
		{"7 syntax errors kept going", "e4 e5 Nf3 Nc6 Bb5", []wantErr{{PGNSyntaxError, 29, 7, ""}, {PGNSyntaxError, 29, 19, ""}, {PGNSyntaxError, 29, 28, ""}}},
		{"8 good after all", "c4", nil},
	}
	games := readAll(t, badDatabase)
	if len(games) != len(tests) {
		t.Fatalf("%d games, want %d", len(games), len(tests))
	}
	for i, tt := range tests {
		g := games[i]
		if g.Tag("Event") != tt.event {
			t.Errorf("game %d: Event %q, want %q", i+1, g.Tag("Event"), tt.event)
			continue
		}
		if got := mainlineSAN(t, g); got != tt.line {
			t.Errorf("%s: main line %q, want %q", tt.event, got, tt.line)
		}
		checkErrors(t, tt.event, g.Errors, tt.errs)
	}
	// The variation of game 4 stops at the bad move; the next one is whole.
	if v := games[3].Root.Variations; len(v) != 3 || len(v[1].Variations) != 0 || v[2].Variations[0].Move != NewMove(E7, E5) {
		t.Errorf("game 4 variations wrong: %d", len(v))
	}
	// The results are kept for games cut short.
	if games[1].Result != BlackWins || games[4].Result != NoResult {
		t.Errorf("results %q %q", games[1].Result, games[4].Result)
	}
	// ReadPGN keeps its contract: the games before the first bad one and
	// that game's first error.
	old, err := ReadPGN(strings.NewReader(badDatabase))
	var pe *PGNError
	if len(old) != 1 || !errors.As(err, &pe) || pe.Line != 7 || !errors.Is(err, ErrIllegalMove) {
		t.Errorf("ReadPGN: %d games, %v", len(old), err)
	}
}

func TestPGNMoveErrorKinds(t *testing.T) {
	tests := []struct {
		name, pgn string
		kind      PGNErrorKind
		token     string
	}{
		{"garbage", "1. e4 Zz9 *", PGNNotAMove, "Zz9"},
		{"square off the board", "1. e4 Nf9 *", PGNNotAMove, "Nf9"},
		{"word", "1. e4 hello *", PGNNotAMove, "hello"},
		{"piece letter without square", "1. e4 N *", PGNNotAMove, "N"},
		{"illegal SAN", "1. e4 Ke6 *", PGNIllegalMove, "Ke6"},
		{"illegal UCI", "1. e2e4 e7e4 *", PGNIllegalMove, "e7e4"},
		{"illegal UCI of a piece", "1. g1g3 *", PGNIllegalMove, "g1g3"},
		{"illegal castling", "1. O-O *", PGNIllegalMove, "O-O"},
		{"missing promotion piece", `[FEN "8/P6k/8/8/8/8/8/K7 w - - 0 1"]` + "\n1. a8 *", PGNIllegalMove, "a8"},
		{"ambiguous", `[FEN "4k3/8/8/8/8/8/8/1N3N1K w - - 0 1"]` + "\n1. Nd2 *", PGNAmbiguousMove, "Nd2"},
		{"e.p. before any move", "e.p. 1. e4 *", PGNNotAMove, "e.p."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games := readAll(t, tt.pgn)
			if len(games) != 1 || len(games[0].Errors) != 1 {
				t.Fatalf("%d games, errors %v", len(games), games[0].Errors)
			}
			e := games[0].Errors[0]
			if e.Kind != tt.kind || e.Token != tt.token {
				t.Errorf("error %v: kind %v token %q, want %v %q", e, e.Kind, e.Token, tt.kind, tt.token)
			}
			if tt.kind == PGNNotAMove && !strings.Contains(e.Error(), "not a move") {
				t.Errorf("error %q does not say it is not a move", e)
			}
			if tt.kind == PGNIllegalMove && !strings.Contains(e.Error(), "illegal") {
				t.Errorf("error %q does not say the move is illegal", e)
			}
		})
	}
}

func TestPGNMovetextNotations(t *testing.T) {
	tests := []struct{ name, pgn, line string }{
		// As in python-chess's test file uci-moves.pgn and CCRL's exports.
		{"UCI moves", "[Event \"CCRL\"]\n\n1. g1f3 c7c5 2. e2e4 b8c6 3. f1b5 g8f6 4. e1g1 e7e6 1-0", "Nf3 c5 e4 Nc6 Bb5 Nf6 O-O e6"},
		{"UCI promotion", `[FEN "8/P6k/8/8/8/8/7p/K7 w - - 0 1"]` + "\n1. a7a8q h2h1n *", "a8=Q h1=N"},
		{"UCI Chess960 castling", "[Variant \"Chess960\"]\n[FEN \"1r3kr1/8/8/8/8/8/8/1R3KR1 w GBgb - 0 1\"]\n\n1. f1b1 f8e7 *", "O-O-O Ke7"},
		{"UCI and SAN mixed", "1. e2e4 e5 2. g1f3 Nc6 *", "e4 e5 Nf3 Nc6"},
		{"UCI with check mark", "1. e2e4 f7f6 2. d2d4 g7g5 3. d1h5# 1-0", "e4 f6 d4 g5 Qh5#"},
		{"separate e.p.", `[FEN "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1"]` + "\n1. dxe6 e.p. Kf8 *", "dxe6 Kf8"},
		{"separate e.p. with check", `[FEN "8/5k2/8/3Pp3/8/8/8/4K3 w - e6 0 1"]` + "\n1. dxe6+ e.p. Kxe6 *", "dxe6+ Kxe6"},
		{"glued e.p.", `[FEN "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1"]` + "\n1. dxe6e.p. Kf8 *", "dxe6 Kf8"},
		{"separate e.p. in a variation", `[FEN "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1"]` + "\n1. Kd1 (1. dxe6 e.p. Kf8) 1... Kf8 *", "Kd1 Kf8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games := readAll(t, tt.pgn)
			if len(games) != 1 {
				t.Fatalf("%d games", len(games))
			}
			if len(games[0].Errors) > 0 {
				t.Fatalf("errors %v", games[0].Errors)
			}
			if got := mainlineSAN(t, games[0]); got != tt.line {
				t.Errorf("main line %q, want %q", got, tt.line)
			}
		})
	}
}

func TestPGNVariants(t *testing.T) {
	tests := []struct {
		variant string
		played  bool
	}{
		{"Crazyhouse", false},
		{"Antichess", false},
		{"Atomic", false},
		{"King of the Hill", false},
		{"Three-check", false},
		{"Horde", false},
		{"Racing Kings", false},
		{"Suicide", false},
		{"Chess960", true},
		{"Chess 960", true},
		{"Fischerandom", true},
		{"Standard", true},
		{"", true},
	}
	for _, tt := range tests {
		t.Run(tt.variant, func(t *testing.T) {
			pgn := "[Event \"before\"]\n\n1. e4 *\n\n[Event \"v\"]\n[Variant \"" + tt.variant + "\"]\n\n1. e4 e5 *\n\n[Event \"after\"]\n\n1. d4 *\n"
			games := readAll(t, pgn)
			if len(games) != 3 {
				t.Fatalf("%d games", len(games))
			}
			if mainlineSAN(t, games[0]) != "e4" || mainlineSAN(t, games[2]) != "d4" || len(games[0].Errors)+len(games[2].Errors) > 0 {
				t.Errorf("games around it: %q %v, %q %v", mainlineSAN(t, games[0]), games[0].Errors, mainlineSAN(t, games[2]), games[2].Errors)
			}
			g := games[1]
			if tt.played {
				if len(g.Errors) > 0 || mainlineSAN(t, g) != "e4 e5" {
					t.Errorf("not played: %v %q", g.Errors, mainlineSAN(t, g))
				}
				return
			}
			checkErrors(t, tt.variant, g.Errors, []wantErr{{PGNUnsupportedVariant, 6, 1, tt.variant}})
			if len(g.Root.Variations) != 0 || g.Tag("Variant") != tt.variant {
				t.Errorf("skipped game has moves %d, Variant %q", len(g.Root.Variations), g.Tag("Variant"))
			}
		})
	}
}

// trickyPGN has what makes finding the end of a game without parsing it
// hard: brackets and results inside comments and strings, escape lines,
// NAGs that look like results, games without results or headers.
const trickyPGN = "% escape [Event \"no\"]\n" +
	"[Event \"a\"]\n[White \"x [y] \\\"z\\\"\"]\n\n1. e4 {1-0 [Event \"no\"]\n[Site \"no\"]} e5 ; 0-1 [x]\n" +
	"2. Nf3 $1 (2. Nc3 {*}) 1/2-1/2\n\n" +
	"[Event \"b\"]\n1. d4\n[Event \"c\"]\n\n1. c4 c5 2. Nc3 1-0 " +
	"1. e4 *\n" +
	"[Event \"e\"]\n[Result \"0-1\"]\n\n{only a comment} 0-1\n" +
	"[Event \"f\"]\n[Site \"g\"]\n"

func TestPGNReaderMatchesReadPGN(t *testing.T) {
	for i, in := range []string{featurePGN, canonicalPGN, trickyPGN, badDatabase, "\xef\xbb\xbf1. e4 *"} {
		want, err := ReadAllPGN(strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		// The same games, however the input is split into reads.
		for _, r := range []io.Reader{iotest.OneByteReader(strings.NewReader(in)), iotest.HalfReader(strings.NewReader(in))} {
			got, err := ReadAllPGN(r)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("input %d: %d games read byte by byte, %d at once", i, len(got), len(want))
			}
			for j := range got {
				if d := pgnGamesDiffer(got[j], want[j]); d != "" || len(got[j].Errors) != len(want[j].Errors) {
					t.Errorf("input %d game %d: %s %v %v", i, j, d, got[j].Errors, want[j].Errors)
				}
			}
		}
		// The header scan finds the same games with the same tags, and
		// reading from each offset gives the game.
		pr := NewPGNReader(strings.NewReader(in))
		for j := 0; ; j++ {
			h, err := pr.NextHeaders()
			if err == io.EOF {
				if j != len(want) {
					t.Errorf("input %d: %d headers, %d games", i, j, len(want))
				}
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if j >= len(want) {
				t.Fatalf("input %d: more headers than games", i)
			}
			if !tagsEqual(h.Tags, want[j].Tags) {
				t.Errorf("input %d game %d: headers %v, game tags %v", i, j, h.Tags, want[j].Tags)
			}
			g, err := NewPGNReader(strings.NewReader(in[h.Offset:])).Next()
			if err != nil || !tagsEqual(g.Tags, want[j].Tags) || len(g.Root.Variations) != len(want[j].Root.Variations) {
				t.Errorf("input %d game %d: from offset %d (line %d): %v %v", i, j, h.Offset, h.Line, g, err)
			} else if h.Line != 1 && strings.Count(in[:h.Offset], "\n")+1 != h.Line {
				t.Errorf("input %d game %d: line %d for offset %d", i, j, h.Line, h.Offset)
			}
		}
	}
}

func tagsEqual(a, b []PGNTag) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestPGNTrickyBoundaries(t *testing.T) {
	games := readAll(t, trickyPGN)
	var events []string
	for _, g := range games {
		events = append(events, g.Tag("Event")+":"+mainlineSAN(t, g))
		if len(g.Errors) > 0 {
			t.Errorf("game %q: %v", g.Tag("Event"), g.Errors)
		}
	}
	want := "a:e4 e5 Nf3|b:d4|c:c4 c5 Nc3|:e4|e:|f:"
	if got := strings.Join(events, "|"); got != want {
		t.Errorf("games %s, want %s", got, want)
	}
	if games[0].Tag("White") != `x [y] "z"` {
		t.Errorf("White %q", games[0].Tag("White"))
	}
}

func TestPGNReaderError(t *testing.T) {
	boom := errors.New("boom")
	pr := NewPGNReader(io.MultiReader(strings.NewReader("1. e4 *\n1. d4 "), iotest.ErrReader(boom)))
	if g, err := pr.Next(); err != nil || mainlineSAN(t, g) != "e4" {
		t.Fatalf("first game: %v", err)
	}
	if _, err := pr.Next(); err != boom {
		t.Errorf("second game: %v, want the reader's error", err)
	}
	if _, err := ReadPGN(iotest.ErrReader(boom)); err != boom {
		t.Errorf("ReadPGN: %v", err)
	}
}

// TestPGNReaderStreams reads many games from a generated stream and checks
// that the reader does not hold on to what it has read.
func TestPGNReaderStreams(t *testing.T) {
	const n = 2000
	game := "[Event \"s\"]\n[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {Ruy Lopez} 4. Ba4 Nf6 5. O-O Be7 1/2-1/2\n\n"
	r := io.MultiReader(func() []io.Reader {
		rs := make([]io.Reader, n)
		for i := range rs {
			rs[i] = strings.NewReader(game)
		}
		return rs
	}()...)
	pr := NewPGNReader(r)
	count := 0
	var last int64
	for {
		g, err := pr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(g.MainlineMoves()) != 10 || len(g.Errors) > 0 {
			t.Fatalf("game %d: %d moves, %v", count, len(g.MainlineMoves()), g.Errors)
		}
		if pr.ps.gameOff != int64(count*len(game)) || pr.ps.gameOff < last {
			t.Fatalf("game %d at offset %d", count, pr.ps.gameOff)
		}
		last = pr.ps.gameOff
		count++
	}
	if count != n {
		t.Errorf("%d games, want %d", count, n)
	}
	if cap(pr.ps.s.buf) != 64<<10 || cap(pr.ps.s.text) > 1<<10 {
		t.Errorf("buffers grew: %d, %d", cap(pr.ps.s.buf), cap(pr.ps.s.text))
	}
}

func TestReadAllPGNWritesBack(t *testing.T) {
	// Games with errors keep what was read and write as valid PGN.
	games := readAll(t, badDatabase)
	var buf bytes.Buffer
	for _, g := range games {
		if err := g.Write(&buf); err != nil {
			t.Fatal(err)
		}
	}
	again := readAll(t, buf.String())
	if len(again) != len(games) {
		t.Fatalf("%d games became %d", len(games), len(again))
	}
	for i := range games {
		if d := pgnGamesDiffer(games[i], again[i]); d != "" {
			t.Errorf("game %d: %s", i, d)
		}
	}
}
