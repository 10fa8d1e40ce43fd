package recon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"unicode/utf8"

	"knightwatch/game"
)

// The reference saves a GameHistory with Python's json.dump and its own
// encoder: typed objects {"type": "Move", "value": "e2e4"}, per-colour
// lists keyed "true" (White) and "false" (Black), Python's separators
// (", " and ": ") and ASCII-only strings. MarshalHistory writes exactly
// those bytes, so a file the reference wrote re-saves identically and a file
// Knightwatch writes loads in the reference.

// MarshalHistory returns h as the reference's GameHistory.save writes it.
func MarshalHistory(h *History) []byte {
	var b bytes.Buffer
	b.Grow(64 * 1024)
	b.WriteString(`{"type": "GameHistory", "white_name": `)
	writeName(&b, h.Names[game.White])
	b.WriteString(`, "black_name": `)
	writeName(&b, h.Names[game.Black])

	b.WriteString(`, "senses": `)
	writeByColor(&b, func(c game.Color, i int) {
		writeSquare(&b, h.Senses[c][i])
	}, len(h.Senses[0]), len(h.Senses[1]))

	b.WriteString(`, "sense_results": `)
	writeByColor(&b, func(c game.Color, i int) {
		b.WriteByte('[')
		for j, sp := range h.SenseResults[c][i] {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(int(sp.Square)))
			b.WriteString(", ")
			if sp.Piece == game.NoPiece {
				b.WriteString("null")
			} else {
				b.WriteString(`{"type": "Piece", "value": "`)
				b.WriteByte(sp.Piece.Letter())
				b.WriteString(`"}`)
			}
			b.WriteByte(']')
		}
		b.WriteByte(']')
	}, len(h.SenseResults[0]), len(h.SenseResults[1]))

	for _, f := range []struct {
		key   string
		moves *[2][]game.Move
	}{{"requested_moves", &h.RequestedMoves}, {"taken_moves", &h.TakenMoves}} {
		b.WriteString(`, "` + f.key + `": `)
		moves := f.moves
		writeByColor(&b, func(c game.Color, i int) {
			if m := moves[c][i]; m == game.NoMove {
				b.WriteString("null")
			} else {
				b.WriteString(`{"type": "Move", "value": "` + UCI(m) + `"}`)
			}
		}, len(moves[0]), len(moves[1]))
	}

	b.WriteString(`, "capture_squares": `)
	writeByColor(&b, func(c game.Color, i int) {
		writeSquare(&b, h.CaptureSquares[c][i])
	}, len(h.CaptureSquares[0]), len(h.CaptureSquares[1]))

	for _, f := range []struct {
		key  string
		fens *[2][]string
	}{{"fens_before_move", &h.FENsBefore}, {"fens_after_move", &h.FENsAfter}} {
		b.WriteString(`, "` + f.key + `": `)
		fens := f.fens
		writeByColor(&b, func(c game.Color, i int) {
			writePythonString(&b, fens[c][i])
		}, len(fens[0]), len(fens[1]))
	}

	b.WriteString(`, "winner_color": `)
	switch {
	case !h.Outcome.Decisive:
		b.WriteString("null")
	case h.Outcome.Winner == game.White:
		b.WriteString("true")
	default:
		b.WriteString("false")
	}
	b.WriteString(`, "win_reason": `)
	if h.Outcome.Reason == NoReason {
		b.WriteString("null")
	} else {
		b.WriteString(`{"type": "WinReason", "value": "` + h.Outcome.Reason.String() + `"}`)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// writeByColor writes {"true": [...], "false": [...]}, calling item for
// each element of White's list and then of Black's.
func writeByColor(b *bytes.Buffer, item func(c game.Color, i int), nWhite, nBlack int) {
	for _, c := range []game.Color{game.White, game.Black} {
		if c == game.White {
			b.WriteString(`{"true": [`)
		} else {
			b.WriteString(`], "false": [`)
		}
		n := nWhite
		if c == game.Black {
			n = nBlack
		}
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			item(c, i)
		}
	}
	b.WriteString("]}")
}

func writeSquare(b *bytes.Buffer, s game.Square) {
	if s == game.NoSquare {
		b.WriteString("null")
		return
	}
	b.WriteString(strconv.Itoa(int(s)))
}

func writeName(b *bytes.Buffer, name string) {
	if name == "" {
		b.WriteString("null")
		return
	}
	writePythonString(b, name)
}

// writePythonString writes s as Python's json.dumps does with its default
// ensure_ascii: printable ASCII as is except '"' and '\\', the usual short
// escapes, and every other character as \uXXXX in lower-case hex (a
// surrogate pair beyond the Basic Multilingual Plane).
func writePythonString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	u4 := func(r rune) {
		b.WriteString(`\u`)
		for shift := 12; shift >= 0; shift -= 4 {
			b.WriteByte(hex[r>>shift&0xf])
		}
	}
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r >= 0x20 && r <= 0x7e:
			b.WriteByte(byte(r))
		case r > 0xffff:
			r -= 0x10000
			u4(0xd800 | r>>10&0x3ff)
			u4(0xdc00 | r&0x3ff)
		default:
			u4(r)
		}
	}
	b.WriteByte('"')
}

// SaveHistory writes h to path in the reference's format.
func SaveHistory(path string, h *History) error {
	return os.WriteFile(path, MarshalHistory(h), 0o644)
}

// LoadHistory reads a history file written by the reference (or by
// SaveHistory).
func LoadHistory(path string) (*History, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	h, err := UnmarshalHistory(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}

// HistoryError says what is wrong with a history file and where.
type HistoryError struct {
	Field string // e.g. "senses.true[3]"; empty for the file as a whole
	Msg   string
}

// Error returns "history: FIELD: MSG".
func (e *HistoryError) Error() string {
	if e.Field == "" {
		return "history: " + e.Msg
	}
	return "history: " + e.Field + ": " + e.Msg
}

// UnmarshalHistory reads a history in the reference's JSON format. Keys
// are matched exactly, as Python matches them; unknown keys are ignored, as
// the reference ignores them. Anything the reference could not have written
// (a square off the board, a move that is not UCI, a FEN that does not
// parse, lists of different lengths) is an error naming the field; nothing
// in data can make it panic.
func UnmarshalHistory(data []byte) (*History, error) {
	fail := func(field, format string, args ...any) error {
		return &HistoryError{Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if !utf8.Valid(data) {
		return nil, fail("", "not UTF-8 text")
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fail("", "not a JSON object: %v", err)
	}
	var typ string
	if err := json.Unmarshal(top["type"], &typ); err != nil || typ != "GameHistory" {
		return nil, fail("type", `want "GameHistory"`)
	}
	h := &History{}
	for i, key := range []string{"white_name", "black_name"} {
		raw, ok := top[key]
		if !ok {
			return nil, fail(key, "missing")
		}
		var name *string
		if err := json.Unmarshal(raw, &name); err != nil {
			return nil, fail(key, "want a string or null")
		}
		if name != nil {
			h.Names[i] = *name
		}
	}

	// Each per-colour field is {"true": [...], "false": [...]}; decode
	// reads one element.
	byColor := func(key string, decode func(c game.Color, field string, raw json.RawMessage) error) error {
		raw, ok := top[key]
		if !ok {
			return fail(key, "missing")
		}
		var pair map[string]json.RawMessage
		if err := json.Unmarshal(raw, &pair); err != nil || pair == nil {
			return fail(key, `want {"true": [...], "false": [...]}`)
		}
		for _, c := range []game.Color{game.White, game.Black} {
			name := map[game.Color]string{game.White: "true", game.Black: "false"}[c]
			field := key + "." + name
			var items []json.RawMessage
			if err := json.Unmarshal(pair[name], &items); err != nil || pair[name] == nil || items == nil {
				return fail(field, "want a list")
			}
			for i, item := range items {
				if err := decode(c, fmt.Sprintf("%s[%d]", field, i), item); err != nil {
					return err
				}
			}
		}
		return nil
	}
	square := func(field string, raw json.RawMessage) (game.Square, error) {
		var s *int
		if err := json.Unmarshal(raw, &s); err != nil {
			return game.NoSquare, fail(field, "want a square number 0..63 or null, got %s", short(raw))
		}
		if s == nil {
			return game.NoSquare, nil
		}
		if *s < 0 || *s > 63 {
			return game.NoSquare, fail(field, "square %d is off the board", *s)
		}
		return game.Square(*s), nil
	}
	typed := func(field, want string, raw json.RawMessage) (string, bool, error) {
		if string(bytes.TrimSpace(raw)) == "null" {
			return "", false, nil
		}
		var obj map[string]json.RawMessage
		var t, v string
		if json.Unmarshal(raw, &obj) != nil || json.Unmarshal(obj["type"], &t) != nil || t != want ||
			json.Unmarshal(obj["value"], &v) != nil {
			return "", false, fail(field, `want {"type": %q, "value": ...} or null, got %s`, want, short(raw))
		}
		return v, true, nil
	}

	err := byColor("senses", func(c game.Color, field string, raw json.RawMessage) error {
		s, err := square(field, raw)
		h.Senses[c] = append(h.Senses[c], s)
		return err
	})
	if err == nil {
		err = byColor("sense_results", func(c game.Color, field string, raw json.RawMessage) error {
			var pairs [][]json.RawMessage
			if json.Unmarshal(raw, &pairs) != nil || pairs == nil {
				return fail(field, "want a list of [square, piece] pairs, got %s", short(raw))
			}
			r := make(SenseResult, 0, len(pairs))
			for j, pair := range pairs {
				f := fmt.Sprintf("%s[%d]", field, j)
				if len(pair) != 2 {
					return fail(f, "want [square, piece or null]")
				}
				s, err := square(f, pair[0])
				if err != nil {
					return err
				}
				if s == game.NoSquare {
					return fail(f, "the square is null")
				}
				letter, ok, err := typed(f, "Piece", pair[1])
				if err != nil {
					return err
				}
				pc := game.NoPiece
				if ok {
					if len(letter) != 1 {
						return fail(f, "piece %q is not one of PNBRQKpnbrqk", letter)
					}
					if pc, ok = game.PieceFromLetter(letter[0]); !ok {
						return fail(f, "piece %q is not one of PNBRQKpnbrqk", letter)
					}
				}
				r = append(r, SquarePiece{Square: s, Piece: pc})
			}
			h.SenseResults[c] = append(h.SenseResults[c], r)
			return nil
		})
	}
	for _, f := range []struct {
		key   string
		moves *[2][]game.Move
	}{{"requested_moves", &h.RequestedMoves}, {"taken_moves", &h.TakenMoves}} {
		if err != nil {
			break
		}
		moves := f.moves
		err = byColor(f.key, func(c game.Color, field string, raw json.RawMessage) error {
			uci, ok, err := typed(field, "Move", raw)
			if err != nil {
				return err
			}
			m := game.NoMove
			if ok {
				if m, err = ParseMove(uci); err != nil {
					return fail(field, "%v", err)
				}
			}
			moves[c] = append(moves[c], m)
			return nil
		})
	}
	if err == nil {
		err = byColor("capture_squares", func(c game.Color, field string, raw json.RawMessage) error {
			s, err := square(field, raw)
			h.CaptureSquares[c] = append(h.CaptureSquares[c], s)
			return err
		})
	}
	for _, f := range []struct {
		key  string
		fens *[2][]string
	}{{"fens_before_move", &h.FENsBefore}, {"fens_after_move", &h.FENsAfter}} {
		if err != nil {
			break
		}
		fens := f.fens
		err = byColor(f.key, func(c game.Color, field string, raw json.RawMessage) error {
			var fen string
			if json.Unmarshal(raw, &fen) != nil {
				return fail(field, "want a FEN string, got %s", short(raw))
			}
			if _, err := ParseBoard(fen); err != nil {
				return fail(field, "%v", err)
			}
			fens[c] = append(fens[c], fen)
			return nil
		})
	}
	if err != nil {
		return nil, err
	}

	raw, ok := top["winner_color"]
	if !ok {
		return nil, fail("winner_color", "missing")
	}
	var winner *bool
	if json.Unmarshal(raw, &winner) != nil {
		return nil, fail("winner_color", "want true (white), false (black) or null, got %s", short(raw))
	}
	if winner != nil {
		h.Outcome.Decisive = true
		if !*winner {
			h.Outcome.Winner = game.Black
		}
	}
	raw, ok = top["win_reason"]
	if !ok {
		return nil, fail("win_reason", "missing")
	}
	name, ok, err := typed("win_reason", "WinReason", raw)
	if err != nil {
		return nil, err
	}
	if ok {
		if h.Outcome.Reason, err = ParseWinReason(name); err != nil {
			return nil, fail("win_reason", "%v", err)
		}
	}
	if err := h.Validate(); err != nil {
		return nil, &HistoryError{Msg: err.Error()}
	}
	return h, nil
}

// short quotes at most 40 bytes of raw JSON for an error message.
func short(raw json.RawMessage) string {
	s := string(bytes.TrimSpace(raw))
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	if s == "" {
		return "nothing"
	}
	return s
}
