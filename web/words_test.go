package web

import (
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"knightwatch/recon"
	"knightwatch/store"
)

// codeWords finds what a person should not read: a field's code name
// before a colon ("fen: ..."), a reason's constant (KING_CAPTURE), or a
// parser's words.
var codeWords = regexp.MustCompile(`^\w+: |\b[A-Z]{3,}_[A-Z_]+\b|invalid character|literal null|unexpected end of JSON`)

// TestFormSentence: every refused new-game field is said as a sentence
// that starts with a capital, ends with a full stop, names no field code,
// and says what to do; text that is already a sentence passes through.
func TestFormSentence(t *testing.T) {
	for _, c := range []struct{ in, field, want string }{
		{"color: must be white, black or random", "color", "Choose your colour"},
		{"level: must be a number from 1 to 8", "level", "strength"},
		{"variant: must be standard, chess960 or recon", "variant", "Choose the game"},
		{"clock: must be one of none, 5+3", "clock", "Choose a clock"},
		{"opponent: must be one of the bots offered", "opponent", "Choose an opponent"},
		{"fen: no white king", "fen", "The game could not start from this position: no white king. Correct it below"},
		{"fen: too long", "fen", "too long to be a position"},
		{"fen: piece placement: bad piece letter 'X' on rank 1", "fen", "from this position: bad piece letter 'X' on rank 1 (in the FEN's piece placement)."},
		{"fen: the position is already over (checkmate)", "fen", "That position is already over (checkmate), so no game can start from it."},
		{"fen: a start position can only be given for standard chess", "fen", "choose Standard"},
		{saveFailedText, "", saveFailedText},
	} {
		field, got := formSentence(c.in)
		if field != c.field || !strings.Contains(got, c.want) {
			t.Errorf("formSentence(%q) = %q, %q; want field %q and %q", c.in, field, got, c.field, c.want)
		}
		if codeWords.MatchString(got) || !strings.HasSuffix(got, ".") || got[0] < 'A' || got[0] > 'Z' {
			t.Errorf("formSentence(%q) = %q: not a sentence in words", c.in, got)
		}
	}
}

// TestHistoryWords: a refused upload is said in words with the way on,
// never in the JSON parser's terms.
func TestHistoryWords(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{"", "This file is empty."},
		{"nope", "it is not JSON text (the first fault is at line 1, column 2)"},
		{"{\n  \"a\": tru\n}", "line 2, column 11"},
		{`{"a": 1`, "it is not JSON text"},
		{`[1, 2]`, "not one object"},
		{`{"type": "Other"}`, `its "type" is not "GameHistory"`},
		{`{"type": "GameHistory"}`, "its field “white_name” is missing"},
		{`{"type": "GameHistory", "white_name": 3, "black_name": null}`, "its field “white_name” should be a string or null"},
	} {
		_, err := recon.UnmarshalHistory([]byte(c.data))
		if err == nil && c.data != "" {
			t.Fatalf("%q: parsed", c.data)
		}
		got := historyWords([]byte(c.data), err)
		if !strings.Contains(got, c.want) || !strings.Contains(got, "Choose the .json file") || codeWords.MatchString(got) {
			t.Errorf("historyWords(%q) = %q, want %q and the way on", c.data, got, c.want)
		}
	}
}

// TestWinReasonWords: every reason the store keeps has words, none of
// them the reference's constant.
func TestWinReasonWords(t *testing.T) {
	for r := recon.KingCapture; r <= recon.MoveLimit; r++ {
		got := winReasonWords(store.WinReasonOf(r))
		if got == "" || codeWords.MatchString(got) || strings.ToUpper(got) == got {
			t.Errorf("winReasonWords(%v) = %q", r, got)
		}
	}
	if got := winReasonWords(store.WinReasonOf(recon.NoReason)); got != "" {
		t.Errorf("no reason: %q", got)
	}
}

// TestNoPageInWords: an address no route claims, and someone else's
// game's files, answer 404 in words: a page with a way home for a
// browser, the sentence for a program.
func TestNoPageInWords(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	owner, other := e.browser(), e.browser()
	id := e.newGame(owner, form("white", "1", "standard", "none"))
	for _, c := range []struct {
		client *http.Client
		path   string
		want   string
	}{
		{other, "/no/such/page", noPageText},
		{other, "/game/" + id + "/pgn", notYoursFiles},
		{other, "/game/r_nosuchgame/replay", notYoursFiles},
		{other, "/game/r_nosuchgame/history.json", notYoursFiles},
	} {
		for _, accept := range []string{"text/html,application/xhtml+xml", ""} {
			req, _ := http.NewRequest("GET", e.ts.URL+c.path, nil)
			if accept != "" {
				req.Header.Set("Accept", accept)
			}
			resp, err := c.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			page := string(b)
			if resp.StatusCode != http.StatusNotFound || !strings.Contains(page, c.want) || strings.Contains(page, "404 page not found") {
				t.Errorf("%s (Accept %q): %s %q", c.path, accept, resp.Status, page)
			}
			if html := strings.Contains(resp.Header.Get("Content-Type"), "text/html"); html != (accept != "") {
				t.Errorf("%s (Accept %q): Content-Type %q", c.path, accept, resp.Header.Get("Content-Type"))
			}
		}
	}
	if _, err := http.Get(e.ts.URL + "/healthz"); err != nil {
		t.Fatal(errors.New("healthz: " + err.Error()))
	}
}
