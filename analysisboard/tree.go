package analysisboard

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"knightwatch/game"
)

// Limits on what one import or export may hold, so that one request
// cannot cost the server much: a long game with its variations fits.
const (
	// MaxPGNBytes is the longest PGN text Import reads.
	MaxPGNBytes = 256 << 10
	// MaxNodes is the most moves a tree holds, variations included.
	MaxNodes = 5000
)

// Study is a tree of moves from a start position, as the page holds it
// and as JSON carries it: the start position's FEN, the comment before
// the first move, the PGN's tags, and the moves that may follow the
// start, the main line first.
type Study struct {
	FEN      string      `json:"fen"`
	Chess960 bool        `json:"chess960,omitempty"`
	Comment  string      `json:"comment,omitempty"`
	Tags     [][2]string `json:"tags,omitempty"`
	Moves    []*Node     `json:"moves"`
	// Games is, after Import of a PGN of several games, how many it
	// holds (the first is the study; the page says so); 0 otherwise.
	Games int `json:"games,omitempty"`
}

// Node is one move of the tree: the move in UCI (what the server reads)
// and SAN (what the page shows), the position after it, its comment
// (StartComment before it, where a variation starts with one), its
// NAGs, and the moves that may follow, the first continuing its line.
type Node struct {
	UCI          string  `json:"uci"`
	SAN          string  `json:"san"`
	FEN          string  `json:"fen"`
	Comment      string  `json:"comment,omitempty"`
	StartComment string  `json:"startComment,omitempty"`
	NAGs         []int   `json:"nags,omitempty"`
	Children     []*Node `json:"children,omitempty"`
}

// ErrTooLarge is the error of a text or tree beyond MaxPGNBytes or
// MaxNodes.
var ErrTooLarge = fmt.Errorf("too large: at most %d KiB of PGN and %d moves", MaxPGNBytes>>10, MaxNodes)

// Import reads text as a FEN (X-FEN or Shredder-FEN for Chess960) or as
// PGN (its first game, variations, comments and NAGs kept; "Chess960"
// games too). A PGN with a fault returns the library's *game.PGNError,
// which names its line and column, and no study.
func Import(text string) (*Study, error) {
	if len(text) > MaxPGNBytes {
		return nil, ErrTooLarge
	}
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return nil, errors.New("nothing to import: paste a FEN or a PGN")
	}
	if looksLikeFEN(trimmed) {
		p, err := game.ParseFEN(trimmed)
		if err != nil {
			return nil, err
		}
		return &Study{FEN: p.FEN(), Chess960: p.Chess960(), Moves: []*Node{}}, nil
	}
	games, err := game.ReadPGN(strings.NewReader(text))
	if err != nil {
		return nil, err
	}
	if len(games) == 0 {
		return nil, errors.New("no game found in the PGN")
	}
	pg := games[0]
	start := pg.StartPosition()
	s := &Study{FEN: start.FEN(), Chess960: start.Chess960(), Comment: pg.Root.Comment, Moves: []*Node{}}
	if len(games) > 1 {
		s.Games = len(games)
	}
	for _, t := range pg.Tags {
		s.Tags = append(s.Tags, [2]string{t.Name, t.Value})
	}
	count := 0
	moves, err := importNodes(&pg.Root, *start, &count)
	if err != nil {
		return nil, err
	}
	s.Moves = moves
	return s, nil
}

// looksLikeFEN tells a FEN from PGN: one line whose first field is a
// piece placement of eight ranks.
func looksLikeFEN(s string) bool {
	if strings.ContainsAny(s, "\n[{") {
		return false
	}
	first, _, _ := strings.Cut(s, " ")
	return strings.Count(first, "/") == 7
}

// importNodes converts n's variations, played from pos.
func importNodes(n *game.PGNNode, pos game.Position, count *int) ([]*Node, error) {
	out := make([]*Node, 0, len(n.Variations))
	for _, v := range n.Variations {
		*count++
		if *count > MaxNodes {
			return nil, ErrTooLarge
		}
		if !pos.IsLegal(v.Move) {
			return nil, fmt.Errorf("move %s is not legal in %s", pos.UCI(v.Move), pos.FEN())
		}
		next := pos
		san := next.SAN(v.Move)
		uci := next.UCI(v.Move)
		next.MakeMove(v.Move)
		children, err := importNodes(v, next, count)
		if err != nil {
			return nil, err
		}
		out = append(out, &Node{UCI: uci, SAN: san, FEN: next.FEN(), Comment: v.Comment, StartComment: v.StartingComment, NAGs: meaningfulNAGs(v.NAGs), Children: children})
	}
	return out, nil
}

// Export writes s as PGN: its tags, comments, NAGs and every variation.
// Each move is checked against its position; a tree with a move that is
// not legal, a bad FEN or more than MaxNodes moves is an error and
// nothing is written.
func Export(s *Study) (string, error) {
	if s == nil {
		return "", errors.New("no tree to export")
	}
	start, err := game.ParseFEN(s.FEN)
	if err != nil {
		return "", fmt.Errorf("start position: %w", err)
	}
	if s.Chess960 {
		start.SetChess960(true)
	}
	pg := game.NewPGNGame(start)
	for _, t := range s.Tags {
		switch t[0] {
		case "FEN", "SetUp", "Variant":
			// Written from the start position.
			continue
		case "Result":
			switch r := game.Result(t[1]); r {
			case game.WhiteWins, game.BlackWins, game.Draw:
				pg.Result = r
			}
			continue
		}
		pg.Tags = append(pg.Tags, game.PGNTag{Name: t[0], Value: t[1]})
	}
	pg.Root.Comment = s.Comment
	count := 0
	if err := exportNodes(&pg.Root, s.Moves, *start, &count); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := pg.Write(&buf); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// exportNodes adds nodes under n, played from pos.
func exportNodes(n *game.PGNNode, nodes []*Node, pos game.Position, count *int) error {
	for _, c := range nodes {
		if c == nil {
			return errors.New("an empty move in the tree")
		}
		*count++
		if *count > MaxNodes {
			return ErrTooLarge
		}
		m, err := parseMove(&pos, c.UCI)
		if err != nil {
			return err
		}
		v := n.AddVariation(m)
		v.Comment = cleanComment(c.Comment)
		v.StartingComment = cleanComment(c.StartComment)
		v.NAGs = meaningfulNAGs(c.NAGs)
		next := pos
		next.MakeMove(m)
		if err := exportNodes(v, c.Children, next, count); err != nil {
			return err
		}
	}
	return nil
}

// cleanComment makes a comment writable in braces: '}' would end it
// early, and whitespace is collapsed as the reader does.
func cleanComment(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "}", ")")), " ")
}

// parseMove reads one move of pos in UCI, SAN or any form ParseMove
// knows; the null move is not a move of the board.
func parseMove(pos *game.Position, s string) (game.Move, error) {
	m, err := pos.ParseMove(s)
	if err == nil && (m == game.NullMove || m == game.NoMove) {
		err = errors.New("a null move is not a move on the board")
	}
	if err != nil {
		return game.NoMove, fmt.Errorf("move %q in %s: %w", s, pos.FEN(), err)
	}
	return m, nil
}

// meaningfulNAGs returns the NAGs PGN gives a meaning, $1 to $255: $0 is
// the null annotation, and anything else no PGN reader knows. Import and
// export keep the same ones, so that a tree comes back from its PGN as it
// went (FuzzImport).
func meaningfulNAGs(nags []int) []int {
	var out []int
	for _, nag := range nags {
		if nag > 0 && nag < 256 {
			out = append(out, nag)
		}
	}
	return out
}
