package web

import (
	"bufio"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"knightwatch/game"
)

// startPosition is one row of testdata/start_positions.tsv.
type startPosition struct {
	verdict, fen, editorWords, serverWords string
}

// readStartPositions reads the table the server's and the editor's checks
// share (the e2e test reads it too).
func readStartPositions(t *testing.T) []startPosition {
	t.Helper()
	f, err := os.Open("testdata/start_positions.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []startPosition
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) != 4 {
			t.Fatalf("start_positions.tsv: %q has %d columns, want 4", line, len(c))
		}
		out = append(out, startPosition{c[0], c[1], c[2], c[3]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStartPositionWords: the new-game form accepts the table's good
// start positions and refuses the others in words that name what is
// wrong, without repeating the FEN (the form shows it in its box).
func TestStartPositionWords(t *testing.T) {
	rows := readStartPositions(t)
	if len(rows) < 10 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, c := range rows {
		f := form("white", "1", "standard", "none")
		f.Set("fen", c.fen)
		r := httptest.NewRequest("POST", "/games", strings.NewReader(f.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		_, err := parseNewGame(r, len(testLevels))
		switch {
		case c.verdict == "ok" && err != nil:
			t.Errorf("%s: refused (%v), want it accepted", c.fen, err)
		case c.verdict != "ok" && err == nil:
			t.Errorf("%s: accepted, want it refused (%s)", c.fen, c.serverWords)
		case err != nil:
			msg := err.Error()
			if !strings.HasPrefix(msg, "fen: ") || !strings.Contains(msg, c.serverWords) {
				t.Errorf("%s: %q, want \"fen: ...%s...\"", c.fen, msg, c.serverWords)
			}
			if strings.Contains(msg, c.fen) {
				t.Errorf("%s: %q repeats the FEN", c.fen, msg)
			}
		}
	}
}

// TestFENProblem: a FEN error gives its field and message (only the
// message for the position as a whole); any other error passes through.
func TestFENProblem(t *testing.T) {
	parse := func(fen string) error {
		_, err := game.ParseFEN(fen)
		return err
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{parse("4k3/8/8/8/8/8/8/8 w - - 0 1"), "no white king"},
		{parse("4k3/8/8/8/8/8/8/4K3 w - e3 0 1"), "en passant: e3 is impossible with white to move (want rank 6)"},
		{parse("4k3/8/8/8/8/8/8/4K3 w Z - 0 1"), "castling: bad castling letter 'Z'"},
		{fmt.Errorf("wrapped: %w", parse("4k3/8/8/8/8/8/8/4K3 v - - 0 1")), `side to move: want 'w' or 'b', got "v"`},
		{errors.New("too long"), "too long"},
	} {
		if got := fenProblem(c.err); got != c.want {
			t.Errorf("fenProblem(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}
