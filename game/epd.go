package game

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// EPDKind says which field of an EPDOp holds its operand.
type EPDKind uint8

// The kinds of EPD operand.
const (
	// EPDNone is an opcode without operand ("noop;").
	EPDNone EPDKind = iota
	// EPDString is a quoted string operand (Str): id "BK.01"; c0 "...".
	EPDString
	// EPDInt is an integer operand (Int): hmvc 0; fmvn 12; acd 20.
	EPDInt
	// EPDFloat is a number with a point or exponent (Float): ce 0.5.
	EPDFloat
	// EPDMoves is a move operand (Moves), written in SAN: for bm and am a
	// set of moves in the position, for pv a variation (each move played
	// after the one before), for any other opcode one move.
	EPDMoves
)

// EPDOp is one operation of an EPD record: an opcode and its operand,
// whose kind Kind says which of the other fields holds it.
type EPDOp struct {
	Opcode string  // "bm", "id", "c0", "hmvc", ...: a letter, then letters, digits or '_'
	Kind   EPDKind // which field below is the operand
	Str    string  // the EPDString operand
	Int    int64   // the EPDInt operand
	Float  float64 // the EPDFloat operand
	Moves  []Move  // the EPDMoves operand, legal in the position (pv: in turn)
}

// EPDError is an EPD record that does not parse, or operations that cannot
// be written.
type EPDError struct {
	EPD    string // the record (empty when writing)
	Opcode string // the operation at fault, if any
	Msg    string
	Err    error // the underlying error (a *FENError, a move parser's), if any
}

// Error returns the message with the record and the opcode.
func (e *EPDError) Error() string {
	s := "invalid EPD"
	if e.EPD != "" {
		s += fmt.Sprintf(" %q", e.EPD)
	}
	if e.Opcode != "" {
		s += ": " + e.Opcode
	}
	return s + ": " + e.Msg
}

// Unwrap returns Err.
func (e *EPDError) Unwrap() error { return e.Err }

// ParseEPD reads an EPD record, python-chess's Board.from_epd: the four
// position fields of FEN, then operations, each an opcode and an operand
// ending with ';' (the last may omit it). An operand is a quoted string
// (with \" \\ \n \r \t escapes), a number (an integer, or a float with a
// point or exponent), moves (SAN, or UCI; see EPDMoves; "0-0" is a move, not
// a number), or nothing. The
// operations are returned in the order given; an opcode given twice keeps
// its first place and its last operand. hmvc and fmvn, when given, set the
// halfmove clock and fullmove number (else 0 and 1). A record with only the
// four fields may also carry the two counters, as in FEN.
//
// Errors (an *EPDError): a bad position, an opcode that does not start with
// a letter or has characters other than letters, digits and '_', a string
// never closed, a number that does not parse or is not finite, a move that
// is not legal, hmvc or fmvn that are not integers in range.
func ParseEPD(epd string) (*Position, []EPDOp, error) {
	fail := func(opcode, format string, err error, args ...any) error {
		return &EPDError{EPD: epd, Opcode: opcode, Msg: fmt.Sprintf(format, args...), Err: err}
	}
	trimmed := strings.TrimRight(strings.TrimSpace(epd), ";")
	parts := strings.FieldsFunc(trimmed, isASCIISpace)
	if len(parts) < 4 {
		return nil, nil, fail("", "want the 4 position fields, got %d", nil, len(parts))
	}
	if len(parts) == 4 || len(parts) == 6 && isCounters(parts[4:]) {
		p, err := ParseFEN(strings.Join(parts, " "))
		if err != nil {
			return nil, nil, fail("", "%v", err, err)
		}
		return p, nil, nil
	}
	// The operations, cut from the text itself so that strings keep
	// their spaces.
	rest := trimmed
	for i := 0; i < 4; i++ {
		rest = strings.TrimLeftFunc(rest, isASCIISpace)
		rest = rest[strings.IndexFunc(rest, isASCIISpace):]
	}
	board, err := ParseFEN(strings.Join(parts[:4], " "))
	if err != nil {
		return nil, nil, fail("", "%v", err, err)
	}
	ops, err := parseEPDOps(board, rest)
	if err != nil {
		err.(*EPDError).EPD = epd
		return nil, nil, err
	}
	counters := []string{"0", "1"}
	for i, name := range []string{"hmvc", "fmvn"} {
		for _, op := range ops {
			if op.Opcode != name {
				continue
			}
			if op.Kind != EPDInt || op.Int < int64(i) || op.Int > math.MaxInt32 {
				return nil, nil, fail(name, "want an integer of at least %d", nil, i)
			}
			counters[i] = strconv.FormatInt(op.Int, 10)
		}
	}
	p, err := ParseFEN(strings.Join(parts[:4], " ") + " " + strings.Join(counters, " "))
	if err != nil {
		return nil, nil, fail("", "%v", err, err)
	}
	return p, ops, nil
}

func isASCIISpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\r' || r == '\n' || r == '\f' || r == '\v'
}

// isCounters reports whether the fields are FEN's two move counters.
func isCounters(f []string) bool {
	for _, s := range f {
		if _, err := strconv.Atoi(s); err != nil {
			return false
		}
	}
	return true
}

func validOpcode(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// parseEPDOps reads the operations after the position fields, following
// python-chess's reader.
func parseEPDOps(board *Position, s string) ([]EPDOp, error) {
	var ops []EPDOp
	fail := func(opcode, format string, err error, args ...any) error {
		return &EPDError{Opcode: opcode, Msg: fmt.Sprintf(format, args...), Err: err}
	}
	add := func(op EPDOp) error {
		if !validOpcode(op.Opcode) {
			return fail(op.Opcode, "opcode must be a letter followed by letters, digits or '_'", nil)
		}
		for i := range ops {
			if ops[i].Opcode == op.Opcode {
				ops[i] = op
				return nil
			}
		}
		ops = append(ops, op)
		return nil
	}
	isSpace := func(c byte) bool { return isASCIISpace(rune(c)) }
	i := 0
	for {
		// Opcode.
		for i < len(s) && (isSpace(s[i]) || s[i] == ';') {
			i++
		}
		if i >= len(s) {
			return ops, nil
		}
		start := i
		for i < len(s) && !isSpace(s[i]) && s[i] != ';' {
			i++
		}
		opcode := s[start:i]
		if opcode == "-" {
			continue
		}
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		op := EPDOp{Opcode: opcode}
		switch {
		case i >= len(s) || s[i] == ';':
			// No operand.
			if opcode == "bm" || opcode == "am" || opcode == "pv" {
				op.Kind = EPDMoves
			}
		case s[i] == '"':
			i++
			var sb strings.Builder
			closed := false
			for i < len(s) && !closed {
				c := s[i]
				i++
				switch {
				case c == '"':
					closed = true
				case c == '\\' && i < len(s):
					e := s[i]
					i++
					switch e {
					case 'n':
						e = '\n'
					case 'r':
						e = '\r'
					case 't':
						e = '\t'
					}
					sb.WriteByte(e)
				default:
					sb.WriteByte(c)
				}
			}
			if !closed {
				return nil, fail(opcode, "string never closed", nil)
			}
			op.Kind, op.Str = EPDString, sb.String()
		default:
			start := i
			for i < len(s) && s[i] != ';' {
				i++
			}
			operand := strings.TrimSpace(s[start:i])
			// A number; but "0-0" and "0-0-0" are moves, and so is "--",
			// the null move as SAN writes it.
			if strings.IndexByte("+-.0123456789", operand[0]) >= 0 && !strings.HasPrefix(operand, "0-0") && !strings.HasPrefix(operand, "--") {
				if strings.ContainsAny(operand, ".eE") {
					f, err := strconv.ParseFloat(operand, 64)
					if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
						return nil, fail(opcode, "%q is not a finite number", err, operand)
					}
					op.Kind, op.Float = EPDFloat, f
				} else {
					n, err := strconv.ParseInt(operand, 10, 64)
					if err != nil {
						return nil, fail(opcode, "%q is not an integer", err, operand)
					}
					op.Kind, op.Int = EPDInt, n
				}
				break
			}
			op.Kind = EPDMoves
			pos := *board
			fields := strings.Fields(operand)
			if opcode != "bm" && opcode != "am" && opcode != "pv" && len(fields) != 1 {
				return nil, fail(opcode, "%q: one move expected (quote a string operand)", nil, operand)
			}
			for _, f := range fields {
				m, err := parseEPDMove(&pos, f)
				if err != nil {
					return nil, fail(opcode, "%v", err, err)
				}
				op.Moves = append(op.Moves, m)
				if opcode == "pv" {
					playAny(&pos, m)
				}
			}
		}
		if err := add(op); err != nil {
			return nil, err
		}
	}
}

// parseEPDMove reads a move in SAN, or UCI as python-chess's parse_san
// accepts it ("g1f3").
func parseEPDMove(p *Position, s string) (Move, error) {
	m, e := parsePGNMove(p, pgnToken{text: s})
	if e != nil {
		if e.Err != nil {
			return NoMove, e.Err
		}
		return NoMove, fmt.Errorf("%w: %q", ErrInvalidMove, s)
	}
	return m, nil
}

// EPDWithOps returns the position as an EPD record with the operations
// appended in the order given, as python-chess's board.epd(**operations)
// writes it: "opcode operand;" separated by spaces, strings quoted with \\,
// \", \n, \r and \t escaped, integers in decimal, floats as Python prints
// them (always with a point or an exponent), moves in SAN: the moves of bm
// and am (and any opcode but pv) sorted, those of pv as a variation. The
// counters are written only as hmvc and fmvn operations, if given. The
// position fields are those of EPD. An invalid opcode, a move that is not
// legal or a float that is not finite is an *EPDError.
func (p *Position) EPDWithOps(ops []EPDOp) (string, error) {
	var sb strings.Builder
	sb.WriteString(p.EPD())
	for _, op := range ops {
		fail := func(format string, args ...any) (string, error) {
			return "", &EPDError{Opcode: op.Opcode, Msg: fmt.Sprintf(format, args...)}
		}
		if !validOpcode(op.Opcode) {
			return fail("opcode must be a letter followed by letters, digits or '_'")
		}
		sb.WriteByte(' ')
		sb.WriteString(op.Opcode)
		switch op.Kind {
		case EPDNone:
		case EPDString:
			sb.WriteString(` "`)
			sb.WriteString(strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\r", `\r`, "\n", `\n`, `"`, `\"`).Replace(op.Str))
			sb.WriteByte('"')
		case EPDInt:
			sb.WriteByte(' ')
			sb.WriteString(strconv.FormatInt(op.Int, 10))
		case EPDFloat:
			if math.IsInf(op.Float, 0) || math.IsNaN(op.Float) {
				return fail("%v is not finite", op.Float)
			}
			sb.WriteByte(' ')
			sb.WriteString(pythonFloat(op.Float))
		case EPDMoves:
			pos := *p
			var sans []string
			for _, m := range op.Moves {
				if m != NullMove && !pos.IsLegal(m) {
					return fail("move %v is not legal in %s", m, pos.FEN())
				}
				sans = append(sans, pos.SAN(m))
				if op.Opcode == "pv" {
					playAny(&pos, m)
				}
			}
			if op.Opcode != "pv" {
				sort.Strings(sans)
			}
			for _, s := range sans {
				sb.WriteByte(' ')
				sb.WriteString(s)
			}
		default:
			return fail("unknown operand kind %d", op.Kind)
		}
		sb.WriteByte(';')
	}
	return sb.String(), nil
}

// pythonFloat formats f as Python's repr does: the shortest digits that
// read back, in fixed notation from 1e-4 up to 1e16 (with ".0" for a whole
// number), in exponent notation outside.
func pythonFloat(f float64) string {
	if a := math.Abs(f); a != 0 && (a < 1e-4 || a >= 1e16) {
		return strconv.FormatFloat(f, 'e', -1, 64)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}
