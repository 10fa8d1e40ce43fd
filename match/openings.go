package match

import (
	_ "embed"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"knightwatch/game"
)

// Opening is where a match game starts: a position and moves played from it
// before the engines take over.
type Opening struct {
	Name  string
	Start game.Position
	Moves []game.Move
}

// NewGame returns a game from the opening's start with its moves played.
func (o *Opening) NewGame() (*game.Game, error) {
	g := game.NewGameFrom(&o.Start)
	for _, m := range o.Moves {
		if err := g.Play(m); err != nil {
			return nil, fmt.Errorf("opening %q: %w", o.Name, err)
		}
	}
	return g, nil
}

//go:embed openings/default.pgn
var defaultOpeningsPGN string

// DefaultOpenings returns the built-in set: 42 common, roughly balanced
// openings of 6 to 10 plies, so that engines that play the same move every
// time still produce varied games.
func DefaultOpenings() []Opening {
	ops, err := ParsePGNOpenings(defaultOpeningsPGN)
	if err != nil {
		panic("match: built-in openings do not parse: " + err.Error())
	}
	return ops
}

// maxOpenings bounds a file's openings so a huge file cannot exhaust memory.
const maxOpenings = 1_000_000

// ParseOpenings reads an opening set in EPD or PGN. The format comes from the
// file name's extension (.epd, .pgn) or, failing that, from the content: a
// PGN file starts with a tag "[" or a move number.
func ParseOpenings(name, data string) ([]Opening, error) {
	var ops []Opening
	var err error
	switch strings.ToLower(filepath.Ext(name)) {
	case ".pgn":
		ops, err = ParsePGNOpenings(data)
	case ".epd", ".fen":
		ops, err = ParseEPDOpenings(data)
	default:
		t := strings.TrimSpace(data)
		if strings.HasPrefix(t, "[") || (len(t) > 0 && t[0] >= '1' && t[0] <= '9' && strings.Contains(strings.Fields(t)[0], ".")) {
			ops, err = ParsePGNOpenings(data)
		} else {
			ops, err = ParseEPDOpenings(data)
		}
	}
	if err != nil {
		return nil, err
	}
	if len(ops) == 0 {
		return nil, errors.New("no openings found")
	}
	return ops, nil
}

// ParseEPDOpenings reads one position per line as EPD (four FEN fields and
// optional operations such as `id "name";`) or as a full six-field FEN.
// Blank lines and lines starting with '#' are skipped.
func ParseEPDOpenings(data string) ([]Opening, error) {
	var ops []Opening
	for i, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if len(ops) >= maxOpenings {
			return nil, fmt.Errorf("more than %d openings", maxOpenings)
		}
		f := strings.Fields(line)
		if len(f) < 4 {
			return nil, fmt.Errorf("line %d: want at least 4 FEN fields, got %q", i+1, line)
		}
		fen := strings.Join(f[:4], " ")
		ops4 := strings.Join(f[4:], " ")
		// A full FEN has two move counters after the four EPD fields.
		if len(f) >= 6 && isDigits(f[4]) && isDigits(f[5]) {
			fen = strings.Join(f[:6], " ")
			ops4 = strings.Join(f[6:], " ")
		}
		p, err := game.ParseFEN(fen)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		if o := game.NewGameFrom(p).OutcomeWithClaims(); o.Over() {
			return nil, fmt.Errorf("line %d: the game is already over (%s) in %s", i+1, o.Termination, fen)
		}
		name := epdOperation(ops4, "id")
		if name == "" {
			name = fmt.Sprintf("EPD line %d", i+1)
		}
		ops = append(ops, Opening{Name: name, Start: *p})
	}
	return ops, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// epdOperation returns the operand of an EPD operation such as `id "x";`,
// unquoted, or "" when absent.
func epdOperation(ops, opcode string) string {
	for _, op := range strings.Split(ops, ";") {
		op = strings.TrimSpace(op)
		code, operand, ok := strings.Cut(op, " ")
		if ok && code == opcode {
			return strings.Trim(strings.TrimSpace(operand), `"`)
		}
	}
	return ""
}

// ParsePGNOpenings reads the games of a PGN file (with the rules library's
// reader) as openings: each game's start (its FEN tag, or the standard
// position) and its main-line moves. The name comes from the Opening, ECO or
// Event tag.
func ParsePGNOpenings(data string) ([]Opening, error) {
	return parsePGN(data, false)
}

// parsePGN reads PGN games; finished games are refused unless allowOver
// (the tests read the runner's own PGN back with it).
func parsePGN(data string, allowOver bool) ([]Opening, error) {
	games, err := game.ReadPGN(strings.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("PGN game %d: %w", len(games)+1, err)
	}
	if len(games) > maxOpenings {
		return nil, fmt.Errorf("more than %d openings", maxOpenings)
	}
	ops := make([]Opening, 0, len(games))
	for i, pg := range games {
		op := Opening{Start: *pg.StartPosition()}
		for _, key := range []string{"Opening", "ECO", "Event"} {
			if v := pg.Tag(key); v != "" && v != "?" {
				op.Name = v
				break
			}
		}
		if op.Name == "" {
			op.Name = fmt.Sprintf("PGN game %d", i+1)
		}
		// Replay the moves rather than trusting the game's Result: an
		// opening file may well carry a result marker for a game that is
		// not over on the board.
		g := game.NewGameFrom(&op.Start)
		for _, m := range pg.MainlineMoves() {
			if m == game.NullMove {
				return nil, fmt.Errorf("PGN game %d (%s): null move", i+1, op.Name)
			}
			if err := g.Play(m); err != nil {
				return nil, fmt.Errorf("PGN game %d (%s): move %d: %w", i+1, op.Name, g.Len()+1, err)
			}
			op.Moves = append(op.Moves, m)
		}
		if !allowOver && g.OutcomeWithClaims().Over() {
			return nil, fmt.Errorf("PGN game %d (%s): the game is already over", i+1, op.Name)
		}
		ops = append(ops, op)
	}
	return ops, nil
}
