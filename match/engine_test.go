package match

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr string
	}{
		{"/usr/games/stockfish", []string{"/usr/games/stockfish"}, ""},
		{"  knightwatch   uci ", []string{"knightwatch", "uci"}, ""},
		{`"/opt/my engine/bin" --flag 'a b' c\ d`, []string{"/opt/my engine/bin", "--flag", "a b", "c d"}, ""},
		{`say "it \"works\"" ''`, []string{"say", `it "works"`, ""}, ""},
		{`a'b'"c"`, []string{"abc"}, ""},
		{"", nil, "empty"},
		{"   ", nil, "empty"},
		{`"open`, nil, "unclosed quote"},
		{`trailing\`, nil, "backslash"},
	}
	for _, tc := range tests {
		got, err := SplitCommand(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("SplitCommand(%q) error %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestParseOption(t *testing.T) {
	tests := []struct {
		in   string
		want Option
		ok   bool
	}{
		{"UCI_Elo=2000", Option{"UCI_Elo", "2000"}, true},
		{"Skill Level = 3", Option{"Skill Level", "3"}, true},
		{"BookFile=/a=b.bin", Option{"BookFile", "/a=b.bin"}, true},
		{"Clear Hash=", Option{"Clear Hash", ""}, true},
		{"=3", Option{}, false},
		{"Hash", Option{}, false},
	}
	for _, tc := range tests {
		got, err := ParseOption(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseOption(%q) = %+v, %v; want %+v ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// FuzzSplitCommand: engine command lines come from users; splitting must
// never panic, and joining plain words back must give the same words.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"/usr/games/stockfish", `"a b" 'c' d\ e`, `x "y`, `\`, "a\tb\nc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := SplitCommand(s)
		if err != nil {
			return
		}
		if len(words) == 0 {
			t.Fatalf("%q: no words and no error", s)
		}
		// Quoting every word with single quotes (none inside) round-trips.
		var b strings.Builder
		for _, w := range words {
			if strings.ContainsRune(w, '\'') {
				return
			}
			b.WriteString("'" + w + "' ")
		}
		again, err := SplitCommand(b.String())
		if err != nil || !reflect.DeepEqual(again, words) {
			t.Fatalf("%q -> %q -> %q, %v", s, words, again, err)
		}
	})
}
