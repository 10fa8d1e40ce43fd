package recon

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"knightwatch/game"
)

// referenceCase is one line of testdata/reference/cases/rules.jsonl.gz: a
// position from a reference game, its move actions in the reference's
// order, what every move action (and every push to the last rank without
// a promotion letter) becomes, and three senses.
type referenceCase struct {
	FEN         string              `json:"fen"`
	MoveActions []string            `json:"move_actions"`
	Results     [][]json.RawMessage `json:"results"`
	Sense       [][]json.RawMessage `json:"sense"`
}

func loadReferenceCases(t *testing.T) []referenceCase {
	t.Helper()
	f, err := os.Open("testdata/reference/cases/rules.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var cases []referenceCase
	sc := bufio.NewScanner(z)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var c referenceCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 400 {
		t.Fatalf("%d cases, want 400", len(cases))
	}
	return cases
}

// TestReferenceRuleCases checks, on 400 positions from reference games, the
// move actions (in order), the taken move, capture square and FEN after for
// every move action, and the sense results, against what the reference
// computed.
func TestReferenceRuleCases(t *testing.T) {
	results := 0
	for _, c := range loadReferenceCases(t) {
		b, err := ParseBoard(c.FEN)
		if err != nil {
			t.Fatalf("%s: %v", c.FEN, err)
		}
		if fen := b.FEN(); fen != c.FEN {
			t.Errorf("FEN round trip: %s became %s", c.FEN, fen)
		}
		var got []string
		for _, m := range b.MoveActions() {
			got = append(got, UCI(m))
		}
		if strings.Join(got, " ") != strings.Join(c.MoveActions, " ") {
			t.Errorf("%s: move actions\n got  %v\n want %v", c.FEN, got, c.MoveActions)
		}
		for _, r := range c.Results {
			var req string
			var taken, fenAfter *string
			var capture *int
			if len(r) != 4 || json.Unmarshal(r[0], &req) != nil || json.Unmarshal(r[1], &taken) != nil ||
				json.Unmarshal(r[2], &capture) != nil || json.Unmarshal(r[3], &fenAfter) != nil {
				t.Fatalf("%s: bad result %s", c.FEN, r)
			}
			m, err := ParseMove(req)
			if err != nil {
				t.Fatal(err)
			}
			after := b
			gotTaken, gotCapture, err := after.Move(m)
			if err != nil {
				t.Errorf("%s: %s refused: %v", c.FEN, req, err)
				continue
			}
			wantTaken, wantCapture := "pass", "none"
			if taken != nil {
				wantTaken = *taken
			}
			if capture != nil {
				wantCapture = game.Square(*capture).String()
			}
			if UCI(gotTaken) != wantTaken || SquareName(gotCapture) != wantCapture || fenAfter == nil || after.FEN() != *fenAfter {
				t.Errorf("%s: %s: got taken %s capture %s FEN %s; want %s %s %v",
					c.FEN, req, UCI(gotTaken), SquareName(gotCapture), after.FEN(), wantTaken, wantCapture, *fenAfter)
			}
			results++
		}
		for _, s := range c.Sense {
			var sq int
			var want [][]any
			if len(s) != 2 || json.Unmarshal(s[0], &sq) != nil || json.Unmarshal(s[1], &want) != nil {
				t.Fatalf("%s: bad sense %s", c.FEN, s)
			}
			got := b.Sense(game.Square(sq))
			if len(got) != len(want) {
				t.Errorf("%s: sense %d: %d squares, want %d", c.FEN, sq, len(got), len(want))
				continue
			}
			for i, w := range want {
				letter := "-"
				if w[1] != nil {
					letter = w[1].(string)
				}
				gotLetter := "-"
				if got[i].Piece != game.NoPiece {
					gotLetter = got[i].Piece.String()
				}
				if int(got[i].Square) != int(w[0].(float64)) || gotLetter != letter {
					t.Errorf("%s: sense %d: item %d is %s=%s, want %v=%s", c.FEN, sq, i, got[i].Square, gotLetter, w[0], letter)
				}
			}
		}
	}
	if results < 10000 {
		t.Errorf("checked %d results, want the file's 17,000-odd", results)
	}
}
