package match

import (
	"strings"
	"testing"

	"knightwatch/game"
)

func TestDefaultOpenings(t *testing.T) {
	ops := DefaultOpenings()
	if len(ops) < 40 {
		t.Fatalf("%d default openings, want about 40", len(ops))
	}
	seen := map[uint64]string{}
	names := map[string]bool{}
	for _, op := range ops {
		if n := len(op.Moves); n < 4 || n > 10 {
			t.Errorf("%s: %d plies, want 4 to 10", op.Name, n)
		}
		g, err := op.NewGame()
		if err != nil {
			t.Fatalf("%s: %v", op.Name, err)
		}
		// Each opening must lead somewhere new, or the set is less varied
		// than its size says.
		key := g.Position().Hash()
		if other, dup := seen[key]; dup {
			t.Errorf("%s reaches the same position as %s", op.Name, other)
		}
		seen[key] = op.Name
		if names[op.Name] {
			t.Errorf("duplicate name %q", op.Name)
		}
		names[op.Name] = true
		if g.Outcome().Over() {
			t.Errorf("%s: game over after the opening", op.Name)
		}
	}
}

func TestParsePGNOpenings(t *testing.T) {
	tests := []struct {
		name    string
		pgn     string
		names   []string
		moves   []string // UCI moves of each opening, space separated
		wantErr string
	}{
		{"tags comments variations NAGs",
			"[Event \"x\"]\n[Opening \"Ruy \\\"Lopez\\\"\"]\n\n1. e4 {best by test} e5 $1 2. Nf3 (2. f4 exf4 (2... d5)) 2... Nc6! ; comment\n3. Bb5 a6?! *\n\n" +
				"[Event \"Second\"]\n1.d4 d5 2.c4 1/2-1/2\n",
			[]string{`Ruy "Lopez"`, "Second"},
			[]string{"e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "d2d4 d7d5 c2c4"}, ""},
		{"FEN tag and black to move",
			"[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n[SetUp \"1\"]\n1... c5 2. Nf3 *",
			[]string{"PGN game 1"}, []string{"c7c5 g1f3"}, ""},
		{"movetext only, no result", "1. e4 e5 2. Nf3", []string{"PGN game 1"}, []string{"e2e4 e7e5 g1f3"}, ""},
		{"castling and checks", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. Bxf7+ Kxf7 *",
			[]string{"PGN game 1"}, []string{"e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1 g8f6 c4f7 e8f7"}, ""},
		{"illegal move", "1. e4 e5 2. Ke3 *", nil, nil, "pgn:1:13: move Ke3"},
		{"bad FEN", "[FEN \"nonsense\"]\n1. e4 *", nil, nil, "FEN tag"},
		{"unclosed comment", "1. e4 {oops", nil, nil, "comment opened here is never closed"},
		{"unclosed variation", "1. e4 (1. d4 d5", nil, nil, "variation opened here is never closed"},
		{"stray paren", "1. e4 ) e5", nil, nil, "')' without a variation"},
		{"quoted value expected", "[Event x]\n1. e4 *", nil, nil, "quoted value expected"},
		{"game already over", "1. f3 e5 2. g4 Qh4# 0-1", nil, nil, "already over"},
	}
	for _, tc := range tests {
		ops, err := ParsePGNOpenings(tc.pgn)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if len(ops) != len(tc.names) {
			t.Errorf("%s: %d openings, want %d", tc.name, len(ops), len(tc.names))
			continue
		}
		for i, op := range ops {
			g, err := op.NewGame()
			if err != nil {
				t.Fatal(err)
			}
			if op.Name != tc.names[i] || strings.Join(g.UCIMoves(), " ") != tc.moves[i] {
				t.Errorf("%s: opening %d = %q %v, want %q %v", tc.name, i, op.Name, g.UCIMoves(), tc.names[i], tc.moves[i])
			}
		}
	}
}

func TestParseEPDOpenings(t *testing.T) {
	tests := []struct {
		name    string
		epd     string
		names   []string
		fens    []string
		wantErr string
	}{
		{"EPD with id and FEN lines",
			"# comment\nrnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 id \"Sicilian\"; c0 \"x\";\n\n" +
				"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n",
			[]string{"Sicilian", "EPD line 4"},
			[]string{"rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1", "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"}, ""},
		{"too few fields", "rnbqkbnr/pppppppp/8/8 w", nil, nil, "line 1: want at least 4"},
		{"bad board", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq -", nil, nil, "line 1"},
		{"checkmated", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", nil, nil, "already over"},
		{"bare kings", "8/8/4k3/8/8/3K4/8/8 w - -", nil, nil, "insufficient material"},
	}
	for _, tc := range tests {
		ops, err := ParseEPDOpenings(tc.epd)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || len(ops) != len(tc.names) {
			t.Errorf("%s: %d openings, %v; want %d", tc.name, len(ops), err, len(tc.names))
			continue
		}
		for i, op := range ops {
			if op.Name != tc.names[i] || op.Start.FEN() != tc.fens[i] || len(op.Moves) != 0 {
				t.Errorf("%s: opening %d = %q %s, want %q %s", tc.name, i, op.Name, op.Start.FEN(), tc.names[i], tc.fens[i])
			}
		}
	}
}

func TestParseOpeningsDetectsFormat(t *testing.T) {
	const epd = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"
	tests := []struct {
		file, data string
		moves      int
		start      string
		wantErr    bool
	}{
		{"book.pgn", "1. d4 d5", 2, game.StartFEN, false},
		{"book.epd", epd, 0, epd + " 0 1", false},
		{"book.txt", "[Event \"a\"]\n1. c4 *", 1, game.StartFEN, false},
		{"book", "1. e4 c5 *", 2, game.StartFEN, false},
		{"book", epd, 0, epd + " 0 1", false},
		{"empty.epd", "\n# nothing\n", 0, "", true},
		{"empty.pgn", "", 0, "", true},
	}
	for _, tc := range tests {
		ops, err := ParseOpenings(tc.file, tc.data)
		if tc.wantErr {
			if err == nil {
				t.Errorf("%s: no error", tc.file)
			}
			continue
		}
		if err != nil || len(ops) != 1 || len(ops[0].Moves) != tc.moves || ops[0].Start.FEN() != tc.start {
			t.Errorf("%s %q: %v, %v", tc.file, tc.data, ops, err)
		}
	}
}

// FuzzParseOpenings checks that opening files, which come from outside, never
// crash the parser and that every opening it accepts can be played.
func FuzzParseOpenings(f *testing.F) {
	f.Add("x.pgn", "[Opening \"a\"]\n1. e4 {c} e5 (1... c5) $2 2. Nf3 *\n")
	f.Add("x.epd", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n")
	f.Add("x", "[FEN \"8/8/4k3/8/8/3K4/8/4R3 w - - 0 1\"]\n1. Re2 *")
	f.Add("x", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1/2-1/2\n[Event \"?\"]\n1. d4 (1. c4 {x}) *")
	f.Add("x.pgn", "%escape\n1.e4;rest\ne5 0-1")
	f.Fuzz(func(t *testing.T, name, data string) {
		ops, err := ParseOpenings(name, data)
		if err != nil {
			return
		}
		for _, op := range ops {
			g, err := op.NewGame()
			if err != nil {
				t.Fatalf("accepted opening %q does not play: %v", op.Name, err)
			}
			if g.OutcomeWithClaims().Over() {
				t.Fatalf("accepted opening %q is already over", op.Name)
			}
		}
	})
}
