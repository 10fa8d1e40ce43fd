package analysisboard

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"knightwatch/game"
)

// FuzzImport: any text imports as a study or fails with an error, never a
// panic; a study that imports exports as PGN, and that PGN imports as
// the same tree (tags aside).
func FuzzImport(f *testing.F) {
	for _, s := range []string{
		"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *",
		"[FEN \"8/8/8/8/8/5k2/8/4K2R w K - 0 1\"]\n\n1. O-O+ {check} *",
		"[Variant \"Chess960\"]\n[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1\"]\n\n1. g3 *",
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
		"1. e4 {open ( ; } e5 $1 2. Ke3 *",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		st, err := Import(text)
		if err != nil {
			if st != nil {
				t.Fatalf("a study with an error: %v", err)
			}
			return
		}
		pgn, err := Export(st)
		if err != nil {
			t.Fatalf("an imported tree does not export: %v\n%q", err, text)
		}
		again, err := Import(pgn)
		if err != nil {
			t.Fatalf("an exported PGN does not import: %v\n%s", err, pgn)
		}
		// The tags and the count of games belong to the text, not the tree.
		st.Tags, again.Tags = nil, nil
		st.Games = 0
		a, _ := json.Marshal(st)
		b, _ := json.Marshal(again)
		if string(a) != string(b) {
			t.Fatalf("the tree changed through PGN:\n%s\n%s\n%s", a, b, pgn)
		}
	})
}

// FuzzSessionMessage: any message to a session (without an engine) is
// answered with exactly one message, a position or an error in words, or
// nothing for stop and sync; never a panic.
func FuzzSessionMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"position","id":1,"moves":["e4","c7c5"],"engine":true,"multipv":3}`,
		`{"type":"position","id":2,"fen":"8/8/8/8/8/5k2/8/4K2R w K - 0 1","moves":["O-O"]}`,
		`{"type":"position","id":3,"moves":["0000"]}`,
		`{"type":"stop"}`,
		`{"type":"sync"}`,
		`{"type":"position","multipv":-1}`,
		`[]`,
		`nonsense`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var mu sync.Mutex
		var sent [][]byte
		s := NewSession(SessionConfig{Owner: "o", ID: "a", Limiter: NewLimiter(Caps{}), Send: func(b []byte) {
			mu.Lock()
			sent = append(sent, b)
			mu.Unlock()
		}})
		defer s.Close()
		s.Message(data)
		req, perr := ParseRequest(data)
		want := 1
		if perr == nil && req.Type != MsgPosition {
			want = 0
		}
		mu.Lock()
		defer mu.Unlock()
		// A position asking for the engine gets a second message: "off".
		if len(sent) < want || len(sent) > want+1 {
			t.Fatalf("%q: %d messages", data, len(sent))
		}
		for _, b := range sent {
			var m struct{ Type, Text string }
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatalf("not JSON: %s", b)
			}
			if m.Type == MsgError && m.Text == "" {
				t.Fatalf("an error without words: %s", b)
			}
		}
	})
}

// TestImportErrors: a bad PGN's error is the library's, with its line
// and column; other faults are said in words.
func TestImportErrors(t *testing.T) {
	cases := []struct {
		name, text string
		line, col  int
		want       string
	}{
		{"illegal move", "1. e4 e5 2. Ke3 *", 1, 13, "illegal"},
		{"unclosed comment", "[Event \"x\"]\n\n1. e4 {open *", 3, 7, ""},
		{"bad FEN", "8/8/8/8/8/8/8/8 w - - 0 1", 0, 0, "king"},
		{"empty", "  \n", 0, 0, "nothing to import"},
		{"too large", strings.Repeat(" ", MaxPGNBytes+1), 0, 0, "too large"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, err := Import(c.text)
			if err == nil || st != nil {
				t.Fatalf("imported: %+v", st)
			}
			var pe *game.PGNError
			if c.line > 0 {
				if !errors.As(err, &pe) || pe.Line != c.line || pe.Col != c.col {
					t.Fatalf("error %v, want one at %d:%d", err, c.line, c.col)
				}
			}
			if !strings.Contains(strings.ToLower(err.Error()), c.want) {
				t.Errorf("error %q lacks %q", err, c.want)
			}
		})
	}
}
