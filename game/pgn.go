package game

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// PGNTag is one tag pair of a PGN game header, such as [Event "Casual game"].
type PGNTag struct{ Name, Value string }

// sevenTagRoster lists the tags every exported PGN game starts with, in the
// order the PGN standard prescribes, with the values used when unknown.
var sevenTagRoster = []PGNTag{
	{"Event", "?"},
	{"Site", "?"},
	{"Date", "????.??.??"},
	{"Round", "?"},
	{"White", "?"},
	{"Black", "?"},
	{"Result", "*"},
}

// PGNNode is one move of a PGN game tree together with its annotations.
// The tree keeps every variation so that a game read and written again
// loses nothing but formatting.
type PGNNode struct {
	// Move is the move leading to this node; NoMove for the root.
	Move Move
	// NAGs are the Numeric Annotation Glyphs after the move ($1 = "!", ...),
	// in the order they were read.
	NAGs []int
	// Comment is the text of the comments after the move (several comments
	// are joined by a space). On the root it is the comment before the
	// first move.
	Comment string
	// StartingComment is a comment written before the first move of a
	// variation; only variation starts carry one.
	StartingComment string
	// Variations are the moves that may follow this node. Variations[0]
	// continues the main line; the others are alternatives to it.
	Variations []*PGNNode

	parent *PGNNode
}

// Parent returns the node this one follows, or nil for the root.
func (n *PGNNode) Parent() *PGNNode { return n.parent }

// AddVariation appends m as a new continuation of n and returns its node.
// The first continuation added is the main line. Legality is checked when
// the game is written.
func (n *PGNNode) AddVariation(m Move) *PGNNode {
	child := &PGNNode{Move: m, parent: n}
	n.Variations = append(n.Variations, child)
	return child
}

// PGNGame is a game read from (or to be written as) PGN: its tags, its full
// move tree with comments, NAGs and variations, and its result marker.
type PGNGame struct {
	Tags []PGNTag
	// Root is the start of the move tree; Root.Variations[0] is the first move.
	Root PGNNode
	// Result is the game termination marker written after the moves.
	Result Result

	start *Position // nil means the standard starting position
}

// NewPGNGame returns an empty game tree starting from a copy of start (the
// standard position when start is nil), with result "*".
func NewPGNGame(start *Position) *PGNGame {
	pg := &PGNGame{Result: NoResult}
	if start != nil {
		s := *start
		pg.start = &s
	}
	return pg
}

// Tag returns the value of the first tag called name, or "" when absent.
func (pg *PGNGame) Tag(name string) string {
	v, _ := pg.lookupTag(name)
	return v
}

func (pg *PGNGame) lookupTag(name string) (string, bool) {
	for _, t := range pg.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// StartPosition returns a copy of the position the game starts from.
func (pg *PGNGame) StartPosition() *Position {
	if pg.start == nil {
		return NewPosition()
	}
	p := *pg.start
	return &p
}

// MainlineMoves returns the moves of the main line.
func (pg *PGNGame) MainlineMoves() []Move {
	var out []Move
	for n := &pg.Root; len(n.Variations) > 0; n = n.Variations[0] {
		out = append(out, n.Variations[0].Move)
	}
	return out
}

// Mainline returns the main line as a Game. When the board does not end the
// game itself, a decisive or drawn Result is recorded as an outcome from
// outside the board: time forfeit or adjudication when the Termination tag
// says so, otherwise resignation (decisive) or agreement (draw).
func (pg *PGNGame) Mainline() (*Game, error) {
	g := NewGameFrom(pg.StartPosition())
	for i, m := range pg.MainlineMoves() {
		if m != NullMove && !g.current().IsLegal(m) {
			return nil, fmt.Errorf("%w: move %d (%v) in %s", ErrIllegalMove, i+1, m, g.current().FEN())
		}
		g.push(m)
	}
	if g.Outcome().Over() {
		return g, nil
	}
	res := pg.Result
	if res == NoResult || res == resultNone {
		res = Result(pg.Tag("Result"))
	}
	if res != WhiteWins && res != BlackWins && res != Draw {
		return g, nil
	}
	term := Resignation
	switch strings.ToLower(pg.Tag("Termination")) {
	case "time forfeit":
		term = TimeForfeit
	case "adjudication":
		term = Adjudication
	default:
		if res == Draw {
			term = DrawAgreed
		}
	}
	g.SetOutcome(Outcome{Result: res, Termination: term})
	return g, nil
}

// playAny plays m, which may be the null move, on p.
func playAny(p *Position, m Move) {
	if m == NullMove {
		p.MakeNullMove()
	} else {
		p.MakeMove(m)
	}
}

// PGNError is a syntax or legality error in PGN input, located by line and
// column (both from 1; the column counts bytes).
type PGNError struct {
	Line, Col int
	Msg       string
}

// Error returns "pgn:LINE:COL: message".
func (e *PGNError) Error() string { return fmt.Sprintf("pgn:%d:%d: %s", e.Line, e.Col, e.Msg) }

// ReadPGN reads every game from r. It accepts tag pairs with escapes,
// comments in braces and after ';', NAGs and "!"/"?" suffixes, nested
// variations, move numbers, the four results, '%' escape lines, a FEN tag
// (with or without SetUp) and the Variant tag "Chess960" (also spelled
// "chess 960" or "Fischerandom"). On error it returns the games read before
// the faulty one and a *PGNError naming the line and column.
//
// Comment whitespace is collapsed to single spaces and '}' is dropped from
// ';' comments, so that every comment can be written back in braces.
func ReadPGN(r io.Reader) ([]*PGNGame, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	ps := &pgnParser{s: pgnScanner{data: data, line: 1, col: 1}}
	err = ps.run()
	return ps.games, err
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
)

type pgnToken struct {
	kind      int
	text      string
	nag       int
	line, col int
}

// pgnScanner splits PGN text into tokens, tracking line and column.
type pgnScanner struct {
	data      []byte
	i         int
	line, col int
}

func (s *pgnScanner) errorf(line, col int, format string, args ...any) error {
	return &PGNError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (s *pgnScanner) peek() byte {
	if s.i < len(s.data) {
		return s.data[s.i]
	}
	return 0
}

func (s *pgnScanner) advance() byte {
	c := s.data[s.i]
	s.i++
	if c == '\n' {
		s.line++
		s.col = 1
	} else {
		s.col++
	}
	return c
}

func isSymbolByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		strings.IndexByte("_+#=:-/", c) >= 0
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// suffixNAGs maps move suffix annotations to their NAGs.
var suffixNAGs = map[string]int{"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}

// next returns the next token. Move numbers ("12.", "12...") and stray
// periods are skipped here since the move's position already fixes them.
func (s *pgnScanner) next() (pgnToken, error) {
	for s.i < len(s.data) {
		c := s.peek()
		line, col := s.line, s.col
		switch {
		case c == '%' && col == 1:
			for s.i < len(s.data) && s.peek() != '\n' {
				s.advance()
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '.':
			s.advance()
		case c == '[':
			s.advance()
			return pgnToken{kind: tokTagOpen, line: line, col: col}, nil
		case c == ']':
			s.advance()
			return pgnToken{kind: tokTagClose, line: line, col: col}, nil
		case c == '(':
			s.advance()
			return pgnToken{kind: tokVarOpen, line: line, col: col}, nil
		case c == ')':
			s.advance()
			return pgnToken{kind: tokVarClose, line: line, col: col}, nil
		case c == '*':
			s.advance()
			return pgnToken{kind: tokResult, text: "*", line: line, col: col}, nil
		case c == '"':
			return s.scanString()
		case c == '{':
			s.advance()
			start := s.i
			for s.i < len(s.data) && s.peek() != '}' {
				s.advance()
			}
			if s.i >= len(s.data) {
				return pgnToken{}, s.errorf(line, col, "comment opened here is never closed")
			}
			text := string(s.data[start:s.i])
			s.advance()
			return pgnToken{kind: tokComment, text: normalizeComment(text), line: line, col: col}, nil
		case c == ';':
			s.advance()
			start := s.i
			for s.i < len(s.data) && s.peek() != '\n' {
				s.advance()
			}
			text := strings.ReplaceAll(string(s.data[start:s.i]), "}", "")
			return pgnToken{kind: tokComment, text: normalizeComment(text), line: line, col: col}, nil
		case c == '$':
			s.advance()
			start := s.i
			for s.i < len(s.data) && s.peek() >= '0' && s.peek() <= '9' {
				s.advance()
			}
			n, err := strconv.Atoi(string(s.data[start:s.i]))
			if err != nil || n > 255 {
				return pgnToken{}, s.errorf(line, col, "bad NAG %q: want $0 to $255", "$"+string(s.data[start:s.i]))
			}
			return pgnToken{kind: tokNAG, nag: n, line: line, col: col}, nil
		case c == '!' || c == '?':
			start := s.i
			for s.i < len(s.data) && (s.peek() == '!' || s.peek() == '?') {
				s.advance()
			}
			text := string(s.data[start:s.i])
			n, ok := suffixNAGs[text]
			if !ok {
				return pgnToken{}, s.errorf(line, col, "unknown move annotation %q", text)
			}
			return pgnToken{kind: tokNAG, nag: n, line: line, col: col}, nil
		case isSymbolByte(c):
			start := s.i
			for s.i < len(s.data) {
				b := s.peek()
				if isSymbolByte(b) {
					s.advance()
					continue
				}
				// A period ends a move number ("12.") but belongs to a
				// move such as "exd6e.p.".
				if b == '.' && !allDigits(string(s.data[start:s.i])) {
					s.advance()
					continue
				}
				break
			}
			text := string(s.data[start:s.i])
			switch text {
			case "1-0", "0-1", "1/2-1/2":
				return pgnToken{kind: tokResult, text: text, line: line, col: col}, nil
			}
			if allDigits(text) {
				continue // move number
			}
			return pgnToken{kind: tokSymbol, text: text, line: line, col: col}, nil
		default:
			return pgnToken{}, s.errorf(line, col, "unexpected character %q", c)
		}
	}
	return pgnToken{kind: tokEOF, line: s.line, col: s.col}, nil
}

// scanString reads a tag value in double quotes, undoing \" and \\ escapes.
func (s *pgnScanner) scanString() (pgnToken, error) {
	line, col := s.line, s.col
	s.advance()
	var sb strings.Builder
	for s.i < len(s.data) {
		c := s.advance()
		switch c {
		case '"':
			return pgnToken{kind: tokString, text: sb.String(), line: line, col: col}, nil
		case '\\':
			if s.i < len(s.data) && (s.peek() == '"' || s.peek() == '\\') {
				c = s.advance()
			}
		case '\n', '\r':
			return pgnToken{}, s.errorf(line, col, "tag value is not closed on its line")
		}
		sb.WriteByte(c)
	}
	return pgnToken{}, s.errorf(line, col, "tag value is never closed")
}

func normalizeComment(s string) string { return strings.Join(strings.Fields(s), " ") }

// pgnParser builds games from tokens.
type pgnParser struct {
	s     pgnScanner
	games []*PGNGame

	g       *PGNGame // the game being read, or nil between games
	inMoves bool     // the movetext of g has started
	// Where g's FEN and Variant tags were, for errors found when the
	// movetext starts.
	fenTok, variantTok pgnToken
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
	tok       pgnToken
}

func (ps *pgnParser) run() error {
	for {
		tok, err := ps.s.next()
		if err != nil {
			return err
		}
		switch tok.kind {
		case tokEOF:
			if ps.g != nil {
				return ps.finish("")
			}
			return nil
		case tokTagOpen:
			if ps.g != nil && ps.inMoves {
				// A new header without a result ends the previous game.
				if err := ps.finish(""); err != nil {
					return err
				}
			}
			if err := ps.readTag(tok); err != nil {
				return err
			}
		case tokComment:
			if ps.g == nil {
				continue // text before the first header belongs to no game
			}
			if !ps.inMoves {
				ps.g.Root.Comment = joinComment(ps.g.Root.Comment, tok.text)
				continue
			}
			if ps.fresh {
				ps.starting = joinComment(ps.starting, tok.text)
			} else {
				ps.node.Comment = joinComment(ps.node.Comment, tok.text)
			}
		default:
			if err := ps.movetext(tok); err != nil {
				return err
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

func (ps *pgnParser) readTag(open pgnToken) error {
	if ps.g == nil {
		ps.g = &PGNGame{Result: NoResult}
	}
	name, err := ps.s.next()
	if err != nil {
		return err
	}
	if name.kind != tokSymbol || strings.Contains(name.text, ".") {
		return ps.s.errorf(name.line, name.col, "tag name expected after '['")
	}
	value, err := ps.s.next()
	if err != nil {
		return err
	}
	if value.kind != tokString {
		return ps.s.errorf(value.line, value.col, "tag %s: quoted value expected", name.text)
	}
	closing, err := ps.s.next()
	if err != nil {
		return err
	}
	if closing.kind != tokTagClose {
		return ps.s.errorf(closing.line, closing.col, "tag %s: ']' expected", name.text)
	}
	ps.g.Tags = append(ps.g.Tags, PGNTag{name.text, value.text})
	switch name.text {
	case "FEN":
		ps.fenTok = open
	case "Variant":
		ps.variantTok = open
	}
	return nil
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

// startMoves sets up the board from the tags when the movetext begins.
func (ps *pgnParser) startMoves() error {
	if ps.g == nil {
		ps.g = &PGNGame{Result: NoResult}
	}
	variant := ps.g.Tag("Variant")
	chess960 := isChess960Variant(variant)
	if !chess960 && !isStandardVariant(variant) {
		return ps.s.errorf(ps.variantTok.line, ps.variantTok.col, "unsupported variant %q", variant)
	}
	var start *Position
	if fen := ps.g.Tag("FEN"); fen != "" {
		p, err := ParseFEN(fen)
		if err != nil {
			return ps.s.errorf(ps.fenTok.line, ps.fenTok.col, "FEN tag: %v", err)
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
	ps.inMoves = true
	ps.node = &ps.g.Root
	ps.pos = *start
	ps.fresh = true
	ps.starting = ""
	ps.stack = ps.stack[:0]
	return nil
}

func (ps *pgnParser) movetext(tok pgnToken) error {
	if ps.g == nil || !ps.inMoves {
		if err := ps.startMoves(); err != nil {
			return err
		}
	}
	switch tok.kind {
	case tokResult:
		return ps.finish(Result(tok.text))
	case tokTagClose, tokString:
		return ps.s.errorf(tok.line, tok.col, "unexpected %s in movetext", describe(tok))
	case tokNAG:
		if ps.fresh {
			return ps.s.errorf(tok.line, tok.col, "annotation before any move")
		}
		ps.node.NAGs = append(ps.node.NAGs, tok.nag)
	case tokVarOpen:
		if ps.fresh {
			return ps.s.errorf(tok.line, tok.col, "variation must follow a move")
		}
		ps.stack = append(ps.stack, pgnFrame{ps.node, ps.pos, ps.prev, tok})
		ps.pos = ps.prev
		ps.node = ps.node.parent
		ps.fresh = true
		ps.starting = ""
	case tokVarClose:
		if len(ps.stack) == 0 {
			return ps.s.errorf(tok.line, tok.col, "')' without a variation to close")
		}
		if ps.fresh {
			return ps.s.errorf(tok.line, tok.col, "empty variation")
		}
		f := ps.stack[len(ps.stack)-1]
		ps.stack = ps.stack[:len(ps.stack)-1]
		ps.node, ps.pos, ps.prev = f.node, f.pos, f.prev
		ps.fresh = false
	case tokSymbol:
		m, err := ps.pos.ParseSAN(tok.text)
		if err != nil {
			return ps.s.errorf(tok.line, tok.col, "move %s: %v", tok.text, err)
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
		return ps.s.errorf(tok.line, tok.col, "unexpected %s", describe(tok))
	}
	return nil
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
// when the input had none: the Result tag then decides).
func (ps *pgnParser) finish(res Result) error {
	if len(ps.stack) > 0 {
		f := ps.stack[len(ps.stack)-1]
		return ps.s.errorf(f.tok.line, f.tok.col, "variation opened here is never closed")
	}
	g := ps.g
	if !ps.inMoves {
		if err := ps.startMoves(); err != nil {
			return err
		}
	}
	if res == resultNone {
		res = NoResult
		switch r := Result(g.Tag("Result")); r {
		case WhiteWins, BlackWins, Draw:
			res = r
		}
	}
	g.Result = res
	ps.games = append(ps.games, g)
	ps.g = nil
	ps.inMoves = false
	return nil
}

// Write writes the game in PGN export form: the Seven Tag Roster first (with
// "?" defaults), the other tags in their order, then the movetext with move
// numbers, comments, NAGs and variations, wrapped below 80 columns, ending
// with the result and a blank line.
func (pg *PGNGame) Write(w io.Writer) error {
	res := pg.Result
	switch res {
	case WhiteWins, BlackWins, Draw, NoResult:
	case resultNone:
		res = NoResult
	default:
		return fmt.Errorf("pgn: invalid result %q", res)
	}
	start := pg.StartPosition()
	var buf bytes.Buffer
	for _, t := range sevenTagRoster {
		v, ok := pg.lookupTag(t.Name)
		switch {
		case ok:
		case t.Name == "Result":
			v = string(res)
		default:
			v = t.Value
		}
		if err := writeTag(&buf, t.Name, v); err != nil {
			return err
		}
	}
	tags := pg.Tags
	// A start the tags do not describe gets the tags that do, so that the
	// moves can be read back.
	if _, ok := pg.lookupTag("Variant"); !ok && start.Chess960() {
		tags = append(tags[:len(tags):len(tags)], PGNTag{"Variant", "Chess960"})
	}
	if _, ok := pg.lookupTag("FEN"); !ok {
		if fen := start.FEN(); fen != StartFEN {
			tags = append(tags[:len(tags):len(tags)], PGNTag{"SetUp", "1"}, PGNTag{"FEN", fen})
		}
	}
	for _, t := range tags {
		if isRosterTag(t.Name) {
			continue
		}
		if err := writeTag(&buf, t.Name, t.Value); err != nil {
			return err
		}
	}
	buf.WriteByte('\n')

	var words []string
	if pg.Root.Comment != "" {
		words = appendComment(words, pg.Root.Comment)
	}
	words, err := appendLine(words, &pg.Root, *start, true)
	if err != nil {
		return err
	}
	words = append(words, string(res))
	wrapWords(&buf, words, 79)
	buf.WriteString("\n\n")
	_, err = w.Write(buf.Bytes())
	return err
}

func isRosterTag(name string) bool {
	for _, t := range sevenTagRoster {
		if t.Name == name {
			return true
		}
	}
	return false
}

func writeTag(buf *bytes.Buffer, name, value string) error {
	if name == "" {
		return fmt.Errorf("pgn: empty tag name")
	}
	for i := 0; i < len(name); i++ {
		if !isSymbolByte(name[i]) {
			return fmt.Errorf("pgn: tag name %q has character %q", name, name[i])
		}
	}
	if strings.ContainsAny(value, "\n\r") {
		return fmt.Errorf("pgn: tag %s: value contains a line break", name)
	}
	value = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(value)
	fmt.Fprintf(buf, "[%s \"%s\"]\n", name, value)
	return nil
}

// appendComment adds a brace comment as words, so that wrapping may break
// it between words but never inside one.
func appendComment(words []string, text string) []string {
	f := strings.Fields(strings.ReplaceAll(text, "}", ""))
	if len(f) == 0 {
		return words
	}
	f[0] = "{" + f[0]
	f[len(f)-1] += "}"
	return append(words, f...)
}

// appendLine writes the continuation of node: its main move, the
// alternatives to it as variations, then the main line onwards. pos is the
// position at node; force asks for a move number before a Black move.
func appendLine(words []string, node *PGNNode, pos Position, force bool) ([]string, error) {
	for len(node.Variations) > 0 {
		main := node.Variations[0]
		var err error
		if words, err = appendMove(words, main, &pos, force); err != nil {
			return nil, err
		}
		force = main.Comment != ""
		for _, alt := range node.Variations[1:] {
			n := len(words)
			if words, err = appendMove(words, alt, &pos, true); err != nil {
				return nil, err
			}
			words[n] = "(" + words[n]
			next := pos
			playAny(&next, alt.Move)
			if words, err = appendLine(words, alt, next, alt.Comment != ""); err != nil {
				return nil, err
			}
			words[len(words)-1] += ")"
			force = true
		}
		playAny(&pos, main.Move)
		node = main
	}
	return words, nil
}

// appendMove writes one move with its number, NAGs and comments.
func appendMove(words []string, n *PGNNode, pos *Position, force bool) ([]string, error) {
	if n.Move != NullMove && !pos.IsLegal(n.Move) {
		return nil, fmt.Errorf("pgn: move %v is illegal in %s", n.Move, pos.FEN())
	}
	if n.StartingComment != "" {
		words = appendComment(words, n.StartingComment)
		force = true
	}
	san := pos.SAN(n.Move)
	switch {
	case pos.Side() == White:
		words = append(words, strconv.Itoa(pos.FullmoveNumber())+".", san)
	case force:
		words = append(words, strconv.Itoa(pos.FullmoveNumber())+"...", san)
	default:
		words = append(words, san)
	}
	for _, nag := range n.NAGs {
		if nag < 0 || nag > 255 {
			return nil, fmt.Errorf("pgn: NAG %d out of range", nag)
		}
		words = append(words, "$"+strconv.Itoa(nag))
	}
	return appendComment(words, n.Comment), nil
}

// wrapWords writes words separated by spaces, starting a new line before a
// word that would make the line longer than width.
func wrapWords(buf *bytes.Buffer, words []string, width int) {
	n := 0
	for _, w := range words {
		switch {
		case n == 0:
		case n+1+len(w) > width:
			buf.WriteByte('\n')
			n = 0
		default:
			buf.WriteByte(' ')
			n++
		}
		buf.WriteString(w)
		n += len(w)
	}
}

// WritePGN writes g as one PGN game. tags supplies the header: the Seven Tag
// Roster is written first (missing ones as "?"), then the rest in order.
// Result defaults to g.Outcome()'s result; FEN and SetUp are set from the
// start position when it is not the standard one (any given are replaced,
// since they must describe the game), and Variant "Chess960" is added for a
// Chess960 game that names no variant.
func WritePGN(w io.Writer, g *Game, tags []PGNTag) error {
	pg := NewPGNGame(g.StartPosition())
	for _, t := range tags {
		if t.Name != "FEN" && t.Name != "SetUp" {
			pg.Tags = append(pg.Tags, t)
		}
	}
	pg.Result = NoResult
	if o := g.Outcome(); o.Over() {
		pg.Result = o.Result
	}
	if v, ok := pg.lookupTag("Result"); ok {
		pg.Result = Result(v)
		switch pg.Result {
		case WhiteWins, BlackWins, Draw, NoResult:
		default:
			return fmt.Errorf("pgn: Result tag %q is not 1-0, 0-1, 1/2-1/2 or *", v)
		}
	}
	node := &pg.Root
	for _, m := range g.moves {
		node = node.AddVariation(m)
	}
	return pg.Write(w)
}
