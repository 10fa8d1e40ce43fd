package web

import (
	"testing"
)

// TestParseLearnBody: the learn page's posts are read strictly; anything
// else is a sentence, never a panic.
func TestParseLearnBody(t *testing.T) {
	cases := []struct {
		body string
		ok   bool
	}{
		{`{"index":0,"move":"d1e2"}`, true},
		{`{"index":2,"move":"e7e8q"}`, true},
		{`{"index":0,"action":"solution"}`, true},
		{`{"index":0,"action":"skip"}`, true},
		{`{"index":0,"action":"restart"}`, true},
		{`{"index":0,"action":"solution","move":"d1e2"}`, false},
		{`{"index":0,"action":"win"}`, false},
		{`{"index":-1,"move":"d1e2"}`, false},
		{`{"index":0,"move":"Qe2"}`, false},
		{`{"index":0,"move":"e7e8k"}`, false},
		{`{"index":0,"move":"d1e2","x":1}`, false},
		{`{"index":0,"move":"d1e2"} {}`, false},
		{``, false},
		{`[]`, false},
	}
	for _, c := range cases {
		if _, err := parseLearnBody([]byte(c.body)); (err == nil) != c.ok {
			t.Errorf("%s: %v", c.body, err)
		}
	}
}

// TestParsePuzzleBody: the puzzle page's posts likewise.
func TestParsePuzzleBody(t *testing.T) {
	cases := []struct {
		body string
		ok   bool
	}{
		{`{"moves":["a2a4"]}`, true},
		{`{"moves":["a2a4","e1d2","a4a1"]}`, true},
		{`{"moves":[],"giveUp":true}`, true},
		{`{"giveUp":true}`, true},
		{`{"moves":[]}`, false},
		{`{"moves":["a2a9"]}`, false},
		{`{"moves":"a2a4"}`, false},
		{`{"moves":["a2a4"],"rating":3000}`, false},
		{`{"moves":["a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2","a1a2"]}`, false},
	}
	for _, c := range cases {
		if _, err := parsePuzzleBody([]byte(c.body)); (err == nil) != c.ok {
			t.Errorf("%s: %v", c.body, err)
		}
	}
}

// FuzzParseLearnBody: any body is read or refused, and what is read is
// a move of the right form or a known action.
func FuzzParseLearnBody(f *testing.F) {
	f.Add([]byte(`{"index":0,"move":"d1e2"}`))
	f.Add([]byte(`{"index":0,"action":"skip"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := parseLearnBody(b)
		if err != nil {
			return
		}
		if v.Action == "" && !validUCI(v.Move) || v.Index < 0 {
			t.Fatalf("accepted %q as %+v", b, v)
		}
	})
}

// FuzzParsePuzzleBody: any body is read or refused, and what is read is
// a short line of moves of the right form.
func FuzzParsePuzzleBody(f *testing.F) {
	f.Add([]byte(`{"moves":["a2a4","e1d2","a4a1"]}`))
	f.Add([]byte(`{"giveUp":true}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := parsePuzzleBody(b)
		if err != nil {
			return
		}
		if len(v.Moves) > maxPuzzleMoves {
			t.Fatalf("accepted %d moves", len(v.Moves))
		}
		for _, m := range v.Moves {
			if !validUCI(m) {
				t.Fatalf("accepted %q", m)
			}
		}
	})
}
