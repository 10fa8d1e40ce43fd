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
	// Errors lists what was wrong with the game's text when it was read,
	// in the order met, like python-chess's game.errors. A move that is
	// not a move or not legal ends its line: the moves before it are kept
	// and the rest of its variation (of the game, on the main line) is
	// skipped. A game in a variant this library does not play, or with a
	// FEN tag that does not parse, keeps its tags and no moves. Write
	// ignores Errors.
	Errors []*PGNError

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
	pg, err := PGNGameOf(g, tags)
	if err != nil {
		return err
	}
	return pg.Write(w)
}

// PGNGameOf returns g as a PGN game tree with the header WritePGN gives
// it, for a caller to annotate (NAGs, comments) before writing it.
func PGNGameOf(g *Game, tags []PGNTag) (*PGNGame, error) {
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
			return nil, fmt.Errorf("pgn: Result tag %q is not 1-0, 0-1, 1/2-1/2 or *", v)
		}
	}
	node := &pg.Root
	for _, m := range g.moves {
		node = node.AddVariation(m)
	}
	return pg, nil
}
