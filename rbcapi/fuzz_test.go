package rbcapi

import (
	"encoding/json"
	"net/http"
	"testing"

	"knightwatch/game"
	"knightwatch/recon"
)

// FuzzAPIRequestBody feeds arbitrary bodies to the API's request parsers:
// the body as an object, then as a sense, a move, an invitation and the
// settings calls. None may panic; a refusal is a 400 with a message; an
// accepted sense is a square or none; an accepted move reads back as the
// UCI it was given.
func FuzzAPIRequestBody(f *testing.F) {
	for _, seed := range []string{
		``, `{}`, `null`, `[]`, `{"square": 12}`, `{"square": null}`, `{"square": -1}`, `{"square": 1e3}`, `{"square": "a1"}`,
		`{"requested_move": {"type": "Move", "value": "e2e4"}}`, `{"requested_move": null}`,
		`{"requested_move": {"type": "Move", "value": "a7a8q"}}`, `{"requested_move": {"type": "Move", "value": "0000"}}`,
		`{"requested_move": {"type": "Move"}}`, `{"requested_move": {"type": "Piece", "value": "p"}}`,
		`{"opponent": "random", "color": true}`, `{"max_games": 4}`, `{"ranked": false}`, `{"a": 1}{"b": 2}`, `{"square": 1, "square": 2}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fields, e := decodeObject(body)
		if e != nil {
			if e.Status != http.StatusBadRequest || e.Message == "" {
				t.Fatalf("refusal %d %q", e.Status, e.Message)
			}
			return
		}
		refused := func(e *Error) bool {
			if e != nil && (e.Status != http.StatusBadRequest || e.Message == "") {
				t.Fatalf("refusal %d %q", e.Status, e.Message)
			}
			return e != nil
		}
		if s, e := parseSenseRequest(fields); !refused(e) && s != game.NoSquare && (s < 0 || s > 63) {
			t.Fatalf("accepted sense of square %d", s)
		}
		if m, e := parseMoveRequest(fields); !refused(e) && m != game.NoMove {
			var v struct {
				Value string `json:"value"`
			}
			if err := json.Unmarshal(fields["requested_move"], &v); err != nil {
				t.Fatalf("accepted a move that does not decode: %v", err)
			}
			back, err := recon.ParseMove(recon.UCI(m))
			if err != nil || back != m {
				t.Fatalf("move %q read as %s, which reads back as %v (%v)", v.Value, recon.UCI(m), back, err)
			}
		}
		var name string
		var white, ranked bool
		var n int
		refused(field(fields, "opponent", &name, "a username"))
		refused(field(fields, "color", &white, "a boolean"))
		refused(field(fields, "ranked", &ranked, "a boolean"))
		refused(field(fields, "max_games", &n, "an integer"))
	})
}
