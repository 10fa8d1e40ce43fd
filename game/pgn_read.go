package game

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// PGNErrorKind classifies a PGNError.
type PGNErrorKind uint8

// The kinds of PGN error.
const (
	// PGNSyntaxError is malformed text: a tag, comment, NAG, annotation or
	// variation that does not parse, or a character PGN does not use.
	PGNSyntaxError PGNErrorKind = iota
	// PGNNotAMove is a movetext token that is not a move in any notation
	// the reader knows (SAN, its common variants, or UCI).
	PGNNotAMove
	// PGNIllegalMove is a move, written correctly, that is not legal in
	// its position.
	PGNIllegalMove
	// PGNAmbiguousMove is a SAN move that more than one legal move fits.
	PGNAmbiguousMove
	// PGNBadFEN is a FEN tag that does not parse.
	PGNBadFEN
	// PGNUnsupportedVariant is a Variant tag naming a game this library
	// does not play (only standard chess and Chess960 are played).
	PGNUnsupportedVariant
)

// String returns a short name of the kind: "syntax error", "not a move",
// "illegal move", "ambiguous move", "bad FEN" or "unsupported variant".
func (k PGNErrorKind) String() string {
	switch k {
	case PGNSyntaxError:
		return "syntax error"
	case PGNNotAMove:
		return "not a move"
	case PGNIllegalMove:
		return "illegal move"
	case PGNAmbiguousMove:
		return "ambiguous move"
	case PGNBadFEN:
		return "bad FEN"
	case PGNUnsupportedVariant:
		return "unsupported variant"
	}
	return "PGNErrorKind(" + strconv.Itoa(int(k)) + ")"
}

// PGNError is a syntax or legality error in PGN input, located by line and
// column (both from 1; the column counts bytes).
type PGNError struct {
	Line, Col int
	Msg       string
	// Kind says what sort of error it is.
	Kind PGNErrorKind
	// Token is the text at fault when there is one: the move for the move
	// kinds, the Variant or FEN tag's value for those.
	Token string
	// Err is the underlying error, if any: for a move, the move parser's
	// error (which wraps ErrInvalidMove, ErrIllegalMove or
	// ErrAmbiguousMove); for a FEN tag, the *FENError.
	Err error
}

// Error returns "pgn:LINE:COL: message".
func (e *PGNError) Error() string { return fmt.Sprintf("pgn:%d:%d: %s", e.Line, e.Col, e.Msg) }

// Unwrap returns Err, so that errors.Is(err, ErrIllegalMove) works.
func (e *PGNError) Unwrap() error { return e.Err }

// ReadPGN reads every game from r. It accepts tag pairs with escapes,
// comments in braces and after ';', NAGs and "!"/"?" suffixes, nested
// variations, move numbers, the four results, '%' escape lines, a FEN tag
// (with or without SetUp), the Variant tag "Chess960" (also spelled
// "chess 960" or "Fischerandom"), moves in SAN (with the usual variants,
// such as a separate "e.p.") or in UCI notation ("g1f3", as CCRL writes).
// On error it returns the games read before the faulty one and the faulty
// game's first error, a *PGNError naming the line and column.
//
// Comment whitespace is collapsed to single spaces and '}' is dropped from
// ';' comments, so that every comment can be written back in braces.
//
// ReadPGN holds the whole file's games in memory and stops at the first
// bad game; NewPGNReader reads game by game and goes on past bad games, and
// ReadAllPGN returns every game with its errors.
func ReadPGN(r io.Reader) ([]*PGNGame, error) {
	pr := NewPGNReader(r)
	var games []*PGNGame
	for {
		g, err := pr.Next()
		if err == io.EOF {
			return games, nil
		}
		if err != nil {
			return games, err
		}
		if len(g.Errors) > 0 {
			return games, g.Errors[0]
		}
		games = append(games, g)
	}
}

// ReadAllPGN reads every game from r, in order, including games with
// errors (see PGNGame.Errors). The error is only one from r itself.
func ReadAllPGN(r io.Reader) ([]*PGNGame, error) {
	pr := NewPGNReader(r)
	var games []*PGNGame
	for {
		g, err := pr.Next()
		if err == io.EOF {
			return games, nil
		}
		if err != nil {
			return games, err
		}
		games = append(games, g)
	}
}

// PGNReader reads PGN games one at a time from a stream, in memory
// independent of the stream's length: it buffers 64 KiB of input and holds
// one game. A game with errors does not stop it; see PGNGame.Errors.
type PGNReader struct {
	ps pgnParser
}

// NewPGNReader returns a reader of the PGN games in r. A UTF-8 byte order
// mark at the start is skipped.
func NewPGNReader(r io.Reader) *PGNReader {
	pr := &PGNReader{}
	pr.ps.s = pgnScanner{r: r, buf: make([]byte, 64<<10), line: 1, col: 1}
	pr.ps.s.skipBOM()
	return pr
}

// Next returns the next game, with the problems met reading it in its
// Errors field, or io.EOF after the last game. Any other error comes from
// the underlying reader and ends reading.
func (pr *PGNReader) Next() (*PGNGame, error) {
	pr.ps.headersOnly = false
	g, err := pr.ps.nextGame()
	if err != nil {
		return nil, err
	}
	return g, nil
}

// PGNHeaders is one game's header as NextHeaders finds it.
type PGNHeaders struct {
	// Offset is the byte offset in the stream of the game's first token
	// (usually the '[' of its first tag): reading from there with a new
	// PGNReader gives the game.
	Offset int64
	// Line is the line of that token, from 1.
	Line int
	// Tags are the game's tag pairs in order.
	Tags []PGNTag
}

// Tag returns the value of the first tag called name, or "" when absent.
func (h *PGNHeaders) Tag(name string) string {
	for _, t := range h.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// NextHeaders returns the tags of the next game and where it starts,
// skipping its movetext without parsing moves (python-chess's
// scan_headers). It finds the same games as Next, and the two may be mixed
// on one reader. It returns io.EOF after the last game; syntax errors in
// the header are passed over.
func (pr *PGNReader) NextHeaders() (*PGNHeaders, error) {
	pr.ps.headersOnly = true
	g, err := pr.ps.nextGame()
	pr.ps.headersOnly = false
	if err != nil {
		return nil, err
	}
	return &PGNHeaders{Offset: pr.ps.gameOff, Line: pr.ps.gameLine, Tags: g.Tags}, nil
}

// pgnToken kinds.
const (
	tokEOF = iota
	tokTagOpen
	tokTagClose
	tokString
	tokSymbol
	tokNAG
	tokComment
	tokVarOpen
	tokVarClose
	tokResult
	tokError // err holds the scanner's error
)

type pgnToken struct {
	kind      int
	text      string
	nag       int
	line, col int
	off       int64
	err       *PGNError
}

// pgnScanner splits PGN text read from r into tokens, tracking line,
// column and byte offset.
type pgnScanner struct {
	r        io.Reader
	buf      []byte
	pos, end int
	eof      bool
	err      error // from r, other than io.EOF
	line     int
	col      int
	off      int64 // offset of buf[pos] in the stream
	text     []byte
}

// fill reads more input; it reports whether a byte is available.
func (s *pgnScanner) fill() bool {
	for s.pos >= s.end {
		if s.eof {
			return false
		}
		n, err := s.r.Read(s.buf)
		s.pos, s.end = 0, n
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.err = err
			}
		}
	}
	return true
}

func (s *pgnScanner) skipBOM() {
	for i := 0; i < 3; i++ {
		if s.pos+3 <= s.end || s.eof {
			break
		}
		// Gather three bytes at the start of buf.
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.err = err
			}
		}
	}
	if s.end-s.pos >= 3 && string(s.buf[s.pos:s.pos+3]) == "\xef\xbb\xbf" {
		s.pos += 3
		s.off += 3
	}
}

// peek returns the next byte without consuming it; ok is false at the end.
func (s *pgnScanner) peek() (c byte, ok bool) {
	if s.pos < s.end || s.fill() {
		return s.buf[s.pos], true
	}
	return 0, false
}

// advance consumes the byte peek returned.
func (s *pgnScanner) advance() byte {
	c := s.buf[s.pos]
	s.pos++
	s.off++
	if c == '\n' {
		s.line++
		s.col = 1
	} else {
		s.col++
	}
	return c
}

// skipUntil consumes bytes up to and not including the first c, appending
// them to s.text when keep; it reports whether c was found before the end
// of input. It works a buffer at a time.
func (s *pgnScanner) skipUntil(c byte, keep bool) bool {
	for {
		if s.pos >= s.end && !s.fill() {
			return false
		}
		chunk := s.buf[s.pos:s.end]
		i := bytes.IndexByte(chunk, c)
		if i >= 0 {
			chunk = chunk[:i]
		}
		if keep {
			s.text = append(s.text, chunk...)
		}
		n := len(chunk)
		if nl := bytes.Count(chunk, newline); nl > 0 {
			s.line += nl
			s.col = n - bytes.LastIndexByte(chunk, '\n')
		} else {
			s.col += n
		}
		s.pos += n
		s.off += int64(n)
		if i >= 0 {
			return true
		}
	}
}

var newline = []byte{'\n'}

func (s *pgnScanner) errorf(line, col int, format string, args ...any) *PGNError {
	return &PGNError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// symbolBytes marks the bytes of PGN symbol tokens (moves, tag names).
var symbolBytes = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.IndexByte("_+#=:-/", byte(c)) >= 0
	}
	return t
}()

func isSymbolByte(c byte) bool { return symbolBytes[c] }

// suffixNAGs maps move suffix annotations to their NAGs.
var suffixNAGs = map[string]int{"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}

// next returns the next token. Move numbers ("12.", "12...") and stray
// periods are skipped here since the move's position already fixes them.
// A malformed token is returned as a tokError after its text is consumed.
func (s *pgnScanner) next() pgnToken {
	for {
		c, ok := s.peek()
		if !ok {
			break
		}
		line, col, off := s.line, s.col, s.off
		tok := func(kind int, text string) pgnToken {
			return pgnToken{kind: kind, text: text, line: line, col: col, off: off}
		}
		bad := func(format string, args ...any) pgnToken {
			return pgnToken{kind: tokError, line: line, col: col, off: off, err: s.errorf(line, col, format, args...)}
		}
		switch {
		case c == '%' && col == 1:
			s.skipUntil('\n', false)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '.':
			s.advance()
		case c == '[':
			s.advance()
			return tok(tokTagOpen, "")
		case c == ']':
			s.advance()
			return tok(tokTagClose, "")
		case c == '(':
			s.advance()
			return tok(tokVarOpen, "")
		case c == ')':
			s.advance()
			return tok(tokVarClose, "")
		case c == '*':
			s.advance()
			return tok(tokResult, "*")
		case c == '"':
			return s.scanString()
		case c == '{':
			s.advance()
			s.text = s.text[:0]
			if !s.skipUntil('}', true) {
				return bad("comment opened here is never closed")
			}
			s.advance()
			return tok(tokComment, normalizeComment(string(s.text)))
		case c == ';':
			s.advance()
			s.text = s.text[:0]
			for {
				b, ok := s.peek()
				if !ok || b == '\n' {
					break
				}
				s.advance()
				if b != '}' {
					s.text = append(s.text, b)
				}
			}
			return tok(tokComment, normalizeComment(string(s.text)))
		case c == '$':
			s.advance()
			s.text = s.text[:0]
			for {
				b, ok := s.peek()
				if !ok || b < '0' || b > '9' {
					break
				}
				s.text = append(s.text, s.advance())
			}
			n, err := strconv.Atoi(string(s.text))
			if err != nil || n > 255 {
				return bad("bad NAG %q: want $0 to $255", "$"+string(s.text))
			}
			t := tok(tokNAG, "")
			t.nag = n
			return t
		case c == '!' || c == '?':
			s.text = s.text[:0]
			for {
				b, ok := s.peek()
				if !ok || b != '!' && b != '?' {
					break
				}
				s.text = append(s.text, s.advance())
			}
			n, ok := suffixNAGs[string(s.text)]
			if !ok {
				return bad("unknown move annotation %q", string(s.text))
			}
			t := tok(tokNAG, "")
			t.nag = n
			return t
		case isSymbolByte(c):
			s.text = s.text[:0]
			digits := true
			for {
				b, ok := s.peek()
				if !ok {
					break
				}
				// A period ends a move number ("12.") but belongs to a
				// move such as "exd6e.p.".
				if isSymbolByte(b) || b == '.' && !digits {
					s.text = append(s.text, s.advance())
					digits = digits && b >= '0' && b <= '9'
					continue
				}
				break
			}
			if digits {
				continue // move number
			}
			text := string(s.text)
			switch text {
			case "1-0", "0-1", "1/2-1/2":
				return tok(tokResult, text)
			}
			return tok(tokSymbol, text)
		default:
			s.advance()
			return bad("unexpected character %q", c)
		}
	}
	return pgnToken{kind: tokEOF, line: s.line, col: s.col, off: s.off}
}

// scanString reads a tag value in double quotes, undoing \" and \\ escapes.
func (s *pgnScanner) scanString() pgnToken {
	line, col, off := s.line, s.col, s.off
	s.advance()
	s.text = s.text[:0]
	for {
		c, ok := s.peek()
		if !ok {
			break
		}
		s.advance()
		switch c {
		case '"':
			return pgnToken{kind: tokString, text: string(s.text), line: line, col: col, off: off}
		case '\\':
			if b, ok := s.peek(); ok && (b == '"' || b == '\\') {
				c = s.advance()
			}
		case '\n', '\r':
			return pgnToken{kind: tokError, line: line, col: col, off: off, err: s.errorf(line, col, "tag value is not closed on its line")}
		}
		s.text = append(s.text, c)
	}
	return pgnToken{kind: tokError, line: line, col: col, off: off, err: s.errorf(line, col, "tag value is never closed")}
}

// skipMovetext consumes movetext without parsing it, up to the end of the
// game as the parser would find it: a result token (consumed), a '['
// (left for the next game) or the end of input. It is the fast path of
// NextHeaders.
func (s *pgnScanner) skipMovetext() {
	for {
		c, ok := s.peek()
		if !ok {
			return
		}
		switch {
		case c == '%' && s.col == 1, c == ';':
			s.skipUntil('\n', false)
		case c == '[':
			return
		case c == '*':
			s.advance()
			return
		case c == '{':
			s.advance()
			if s.skipUntil('}', false) {
				s.advance()
			}
		case c == '"': // as scanString: to the closing quote or line end
			s.advance()
			for {
				b, ok := s.peek()
				if !ok {
					break
				}
				s.advance()
				if b == '"' || b == '\n' || b == '\r' {
					break
				}
				if b == '\\' {
					if b, ok := s.peek(); ok && (b == '"' || b == '\\') {
						s.advance()
					}
				}
			}
		case c == '$':
			s.advance()
			for b, ok := s.peek(); ok && b >= '0' && b <= '9'; b, ok = s.peek() {
				s.advance()
			}
		case isSymbolByte(c):
			// Only results matter: remember up to 8 bytes.
			var word [8]byte
			n := 0
			digits := true
			for {
				b, ok := s.peek()
				if !ok || !(isSymbolByte(b) || b == '.' && !digits) {
					break
				}
				s.advance()
				if n < len(word) {
					word[n] = b
				}
				n++
				digits = digits && b >= '0' && b <= '9'
			}
			if n <= len(word) {
				switch string(word[:n]) {
				case "1-0", "0-1", "1/2-1/2":
					return
				}
			}
		default:
			s.advance()
		}
	}
}

func normalizeComment(s string) string { return strings.Join(strings.Fields(s), " ") }

// pgnParser builds games from tokens.
type pgnParser struct {
	s           pgnScanner
	pending     *pgnToken // a token read ahead and given back
	headersOnly bool      // skip movetext (NextHeaders)

	g       *PGNGame // the game being read, or nil between games
	inMoves bool     // the movetext of g has started
	// Where g starts in the stream.
	gameOff  int64
	gameLine int
	// Where g's FEN and Variant tags were, for errors found when the
	// movetext starts.
	fenTok, variantTok pgnToken
	// skipGame ignores the rest of g's movetext (it cannot be played).
	skipGame bool
	// skip > 0 ignores tokens after a bad move up to the end of its
	// variation: it counts the variations open since, plus one.
	skip int
	// The movetext cursor: node is the last move read, pos the position
	// after it and prev the position before it (for a variation, which
	// replaces node's move).
	node      *PGNNode
	pos, prev Position
	fresh     bool   // no move read yet in the current (variation) line
	starting  string // comment waiting for the first move of a variation
	stack     []pgnFrame
}

type pgnFrame struct {
	node      *PGNNode
	pos, prev Position
	fresh     bool
	tok       pgnToken
}

func (ps *pgnParser) token() pgnToken {
	if ps.pending != nil {
		t := *ps.pending
		ps.pending = nil
		return t
	}
	return ps.s.next()
}

func (ps *pgnParser) unread(t pgnToken) { ps.pending = &t }

// begin starts a game at tok if none is being read.
func (ps *pgnParser) begin(tok pgnToken) {
	if ps.g != nil {
		return
	}
	ps.g = &PGNGame{Result: NoResult}
	ps.inMoves = false
	ps.skipGame = false
	ps.skip = 0
	ps.gameOff, ps.gameLine = tok.off, tok.line
	ps.fenTok, ps.variantTok = pgnToken{}, pgnToken{}
}

func (ps *pgnParser) fail(e *PGNError) {
	if !ps.headersOnly {
		ps.g.Errors = append(ps.g.Errors, e)
	}
}

// nextGame reads up to the end of the next game and returns it, or io.EOF
// when there is none, or an error from the underlying reader.
func (ps *pgnParser) nextGame() (*PGNGame, error) {
	for {
		tok := ps.token()
		switch tok.kind {
		case tokEOF:
			if ps.s.err != nil {
				return nil, ps.s.err
			}
			if ps.g != nil {
				return ps.finish(""), nil
			}
			return nil, io.EOF
		case tokTagOpen:
			if ps.g != nil && ps.inMoves {
				// A new header without a result ends the previous game.
				ps.unread(tok)
				return ps.finish(""), nil
			}
			ps.begin(tok)
			ps.readTag(tok)
		case tokError:
			ps.begin(tok)
			if !ps.skipGame && ps.skip == 0 {
				ps.fail(tok.err)
			}
		case tokComment:
			if ps.g == nil {
				continue // text before the first header belongs to no game
			}
			switch {
			case ps.skipGame || ps.skip > 0:
			case !ps.inMoves:
				ps.g.Root.Comment = joinComment(ps.g.Root.Comment, tok.text)
			case ps.fresh:
				ps.starting = joinComment(ps.starting, tok.text)
			default:
				ps.node.Comment = joinComment(ps.node.Comment, tok.text)
			}
		default:
			ps.begin(tok)
			if !ps.inMoves {
				if ps.headersOnly {
					if tok.kind != tokResult {
						ps.s.skipMovetext()
					}
					g := ps.g
					ps.g = nil
					return g, nil
				}
				ps.startMoves()
			}
			if g := ps.movetext(tok); g != nil {
				return g, nil
			}
		}
	}
}

func joinComment(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

// readTag reads a tag pair after its '['. A malformed tag is reported and
// dropped: the rest of its line is skipped, unless the token at fault
// starts a new tag or sits on a later line.
func (ps *pgnParser) readTag(open pgnToken) {
	var name, value pgnToken
	badTag := func(t pgnToken, format string, args ...any) {
		e := t.err
		if t.kind != tokError {
			e = ps.s.errorf(t.line, t.col, format, args...)
		}
		ps.fail(e)
		switch {
		case t.kind == tokTagClose || t.kind == tokError:
		case t.kind == tokTagOpen || t.kind == tokEOF || t.line != open.line:
			ps.unread(t)
		default:
			ps.s.skipUntil('\n', false)
		}
	}
	if name = ps.token(); name.kind != tokSymbol || strings.Contains(name.text, ".") {
		badTag(name, "tag name expected after '['")
		return
	}
	if value = ps.token(); value.kind != tokString {
		badTag(value, "tag %s: quoted value expected", name.text)
		return
	}
	if closing := ps.token(); closing.kind != tokTagClose {
		badTag(closing, "tag %s: ']' expected", name.text)
		return
	}
	ps.g.Tags = append(ps.g.Tags, PGNTag{name.text, value.text})
	switch name.text {
	case "FEN":
		ps.fenTok = open
	case "Variant":
		ps.variantTok = open
	}
}

// isChess960Variant reports whether a Variant tag names Chess960.
func isChess960Variant(v string) bool {
	v = strings.ToLower(strings.NewReplacer(" ", "", "-", "").Replace(v))
	return v == "chess960" || v == "960" || v == "fischerandom" || v == "fischerrandom"
}

func isStandardVariant(v string) bool {
	switch strings.ToLower(v) {
	case "", "standard", "chess", "normal", "from position", "fromposition":
		return true
	}
	return false
}

// startMoves sets up the board from the tags when the movetext begins. A
// game that cannot be played gets an error and its movetext is skipped.
func (ps *pgnParser) startMoves() {
	ps.inMoves = true
	ps.node = &ps.g.Root
	ps.fresh = true
	ps.starting = ""
	ps.stack = ps.stack[:0]
	ps.skip = 0
	variant := ps.g.Tag("Variant")
	chess960 := isChess960Variant(variant)
	if !chess960 && !isStandardVariant(variant) {
		e := ps.s.errorf(ps.variantTok.line, ps.variantTok.col, "unsupported variant %q", variant)
		e.Kind, e.Token = PGNUnsupportedVariant, variant
		ps.fail(e)
		ps.skipGame = true
		return
	}
	var start *Position
	if fen := ps.g.Tag("FEN"); fen != "" {
		p, err := ParseFEN(fen)
		if err != nil {
			e := ps.s.errorf(ps.fenTok.line, ps.fenTok.col, "FEN tag: %v", err)
			e.Kind, e.Token, e.Err = PGNBadFEN, fen, err
			ps.fail(e)
			ps.skipGame = true
			return
		}
		start = p
	} else {
		start = NewPosition()
	}
	if chess960 {
		start.SetChess960(true)
	} else if start.Chess960() && variant == "" {
		// A FEN with Chess960 castling letters and no Variant tag: record
		// the variant the board implies, as the writer would, so a game
		// reads the same before and after a round trip.
		ps.g.Tags = append(ps.g.Tags, PGNTag{"Variant", "Chess960"})
		chess960 = true
	}
	if fen := ps.g.Tag("FEN"); fen != "" || chess960 {
		ps.g.start = start
	}
	ps.pos = *start
}

// movetext handles one movetext token; it returns the game when the token
// ends it.
func (ps *pgnParser) movetext(tok pgnToken) *PGNGame {
	if tok.kind == tokResult {
		return ps.finish(Result(tok.text))
	}
	if ps.skipGame {
		return nil
	}
	if ps.skip > 0 {
		switch tok.kind {
		case tokVarOpen:
			ps.skip++
		case tokVarClose:
			ps.skip--
			if ps.skip == 0 {
				if len(ps.stack) == 0 {
					ps.skip = 1 // the main line stays skipped to the end
					return nil
				}
				ps.closeVariation()
			}
		}
		return nil
	}
	switch tok.kind {
	case tokTagClose, tokString:
		ps.fail(ps.s.errorf(tok.line, tok.col, "unexpected %s in movetext", describe(tok)))
	case tokNAG:
		if ps.fresh {
			ps.fail(ps.s.errorf(tok.line, tok.col, "annotation before any move"))
			return nil
		}
		ps.node.NAGs = append(ps.node.NAGs, tok.nag)
	case tokVarOpen:
		ps.stack = append(ps.stack, pgnFrame{ps.node, ps.pos, ps.prev, ps.fresh, tok})
		if ps.fresh {
			ps.fail(ps.s.errorf(tok.line, tok.col, "variation must follow a move"))
			ps.skip = 1
			return nil
		}
		ps.pos = ps.prev
		ps.node = ps.node.parent
		ps.fresh = true
		ps.starting = ""
	case tokVarClose:
		if len(ps.stack) == 0 {
			ps.fail(ps.s.errorf(tok.line, tok.col, "')' without a variation to close"))
			return nil
		}
		if ps.fresh {
			ps.fail(ps.s.errorf(tok.line, tok.col, "empty variation"))
		}
		ps.closeVariation()
	case tokSymbol:
		if tok.text == "e.p." && !ps.fresh {
			return nil // a separate en passant mark after the move: "exd6 e.p."
		}
		m, err := parsePGNMove(&ps.pos, tok)
		if err != nil {
			ps.fail(err)
			ps.skip = 1
			return nil
		}
		child := ps.node.AddVariation(m)
		if ps.starting != "" {
			if len(ps.stack) == 0 {
				// Before the game's first move a comment is the game comment.
				ps.g.Root.Comment = joinComment(ps.g.Root.Comment, ps.starting)
			} else {
				child.StartingComment = ps.starting
			}
			ps.starting = ""
		}
		ps.prev = ps.pos
		playAny(&ps.pos, m)
		ps.node = child
		ps.fresh = false
	default:
		ps.fail(ps.s.errorf(tok.line, tok.col, "unexpected %s", describe(tok)))
	}
	return nil
}

func (ps *pgnParser) closeVariation() {
	f := ps.stack[len(ps.stack)-1]
	ps.stack = ps.stack[:len(ps.stack)-1]
	ps.node, ps.pos, ps.prev, ps.fresh = f.node, f.pos, f.prev, f.fresh
	ps.starting = ""
}

// sanSyntax matches what is written like a move in SAN (with the variants
// ParseSAN accepts) or UCI, after check marks and an en passant suffix are
// removed: a token that does not match is "not a move".
var sanSyntax = regexp.MustCompile(`^(?:[NBRQK]?[a-h]?[1-8]?[-x:]?[a-h][1-8](?:=?[nbrqNBRQ])?|[OoO0](?:-[OoO0]){1,2}|--|Z0|0000)$`)

// parsePGNMove reads a movetext move: SAN first (ParseSAN's tolerant
// reading), then UCI ("g1f3", "e7e8q"), as python-chess does.
func parsePGNMove(p *Position, tok pgnToken) (Move, *PGNError) {
	m, err := p.ParseSAN(tok.text)
	if err == nil {
		return m, nil
	}
	bare := strings.TrimRight(tok.text, "+#")
	if len(bare) == 4 || len(bare) == 5 {
		if _, e1 := ParseSquare(bare[:2]); e1 == nil {
			if _, e2 := ParseSquare(bare[2:4]); e2 == nil {
				m2, err2 := p.ParseUCI(bare)
				if err2 == nil {
					return m2, nil
				}
				if errors.Is(err, ErrInvalidMove) {
					err = err2
				}
			}
		}
	}
	e := &PGNError{Line: tok.line, Col: tok.col, Token: tok.text, Err: err}
	bare = strings.TrimSuffix(strings.TrimSuffix(bare, "e.p."), "ep")
	switch {
	case !sanSyntax.MatchString(bare):
		e.Kind = PGNNotAMove
		e.Msg = fmt.Sprintf("%s is not a move", tok.text)
	case errors.Is(err, ErrAmbiguousMove):
		e.Kind = PGNAmbiguousMove
		e.Msg = fmt.Sprintf("move %s: %v", tok.text, err)
	default:
		e.Kind = PGNIllegalMove
		e.Msg = fmt.Sprintf("move %s: %v", tok.text, err)
		if !errors.Is(err, ErrIllegalMove) {
			e.Msg = fmt.Sprintf("move %s: illegal: %v", tok.text, err)
		}
	}
	return NoMove, e
}

func describe(tok pgnToken) string {
	switch tok.kind {
	case tokTagClose:
		return "']'"
	case tokString:
		return "string"
	case tokEOF:
		return "end of input"
	}
	return fmt.Sprintf("token %q", tok.text)
}

// finish closes the current game with the given termination marker (empty
// when the input had none: the Result tag then decides) and returns it.
func (ps *pgnParser) finish(res Result) *PGNGame {
	if !ps.inMoves && !ps.headersOnly {
		ps.startMoves()
	}
	if len(ps.stack) > 0 && !ps.skipGame {
		f := ps.stack[len(ps.stack)-1]
		ps.fail(ps.s.errorf(f.tok.line, f.tok.col, "variation opened here is never closed"))
	}
	g := ps.g
	if res == resultNone {
		res = NoResult
		switch r := Result(g.Tag("Result")); r {
		case WhiteWins, BlackWins, Draw:
			res = r
		}
	}
	g.Result = res
	ps.g = nil
	ps.inMoves = false
	ps.skipGame = false
	ps.skip = 0
	ps.stack = ps.stack[:0]
	return g
}
