package recon

import (
	"os"
	"strings"
	"testing"
)

// TestUnmarshalHistoryErrors checks that malformed files are refused with
// a message naming what is wrong.
func TestUnmarshalHistoryErrors(t *testing.T) {
	data, err := os.ReadFile("testdata/reference/edge/king-capture-normal.json")
	if err != nil {
		t.Fatal(err)
	}
	good := string(data)
	edit := func(old, new string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("fixture lacks %q", old)
		}
		return strings.Replace(good, old, new, 1)
	}
	tests := []struct {
		name, data, want string
	}{
		{"empty", "", "not a JSON object"},
		{"truncated", good[:len(good)/2], "not a JSON object"},
		{"not UTF-8", "\xff\xfe", "UTF-8"},
		{"a list", "[]", "not a JSON object"},
		{"wrong type", edit(`"GameHistory"`, `"Board"`), "type"},
		{"no senses", edit(`"senses"`, `"sensed"`), "senses: missing"},
		{"square off the board", edit(`"senses": {"true": [`, `"senses": {"true": [64, `), "senses.true[0]: square 64"},
		{"fractional square", edit(`"senses": {"true": [`, `"senses": {"true": [1.5, `), "senses.true[0]"},
		{"a move that is not UCI", edit(`{"type": "Move", "value": "`, `{"type": "Move", "value": "z`), "requested_moves.true[0]"},
		{"a piece that is not a piece", edit(`{"type": "Piece", "value": "`, `{"type": "Piece", "value": "X`), "sense_results"},
		{"lists of different lengths", edit(`"capture_squares": {"true": [`, `"capture_squares": {"true": [null, `), "capture squares"},
		{"a bad FEN", edit(`"fens_before_move": {"true": ["`, `"fens_before_move": {"true": ["x`), "fens_before_move.true[0]"},
		{"unknown win reason", edit(`"KING_CAPTURE"`, `"CHECKMATE"`), "win_reason"},
		{"winner not a colour", edit(`"winner_color": true`, `"winner_color": "white"`), "winner_color"},
		{"colours as keys missing", edit(`"senses": {"true"`, `"senses": {"white"`), "senses.true: want a list"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := UnmarshalHistory([]byte(tc.data))
			if err == nil || h != nil {
				t.Fatalf("accepted")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
	if _, err := UnmarshalHistory(data); err != nil {
		t.Fatalf("the unedited file: %v", err)
	}
}

// TestMarshalHistoryNames checks Python's string escaping and that an
// empty name is written as null.
func TestMarshalHistoryNames(t *testing.T) {
	h := &History{Names: [2]string{"Zoë \"q\" \\ \t\x01\x7f 😀 /<&>", ""}}
	got := string(MarshalHistory(h))
	want := `{"type": "GameHistory", "white_name": "Zo\u00eb \"q\" \\ \t\u0001\u007f \ud83d\ude00 /<&>", "black_name": null, `
	if !strings.HasPrefix(got, want) {
		t.Errorf("got  %s\nwant %s...", got, want)
	}
	h2, err := UnmarshalHistory([]byte(got))
	if err != nil || h2.Names != h.Names {
		t.Errorf("names after a round trip: %q, %v", h2.Names, err)
	}
}
