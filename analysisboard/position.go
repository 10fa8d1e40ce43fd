package analysisboard

import (
	"errors"
	"fmt"
	"sort"

	"knightwatch/game"
	"knightwatch/gaviota"
	"knightwatch/openings"
	"knightwatch/syzygy"
)

// MaxPathMoves is the most moves a position's path from the start may
// have (a long game is some 300 plies): 500 in UCI fit in a message of
// MaxMessageBytes with the start's FEN.
const MaxPathMoves = 500

// Legal is one legal move as the board offers it (as play's LegalView):
// from and to squares, the move in UCI, the promotion piece's letter.
// In Chess960 castling is offered both as the king's move to its castled
// square and as king takes rook.
type Legal struct {
	From      string `json:"from"`
	To        string `json:"to"`
	UCI       string `json:"uci"`
	Promotion string `json:"promotion,omitempty"`
}

// Opening names a position's opening.
type Opening struct {
	ECO  string `json:"eco"`
	Name string `json:"name"`
}

// Tablebase is the Syzygy tables' verdict on a position, from the side
// to move's point of view (WDL -2 loss … 2 win, as syzygy.WDL; DTZ in
// plies, signed like WDL), and on each legal move, from the mover's
// point of view (the negated verdict on the position after it), best
// first. Gaviota's distance to mate goes beside it (Position.Mate).
type Tablebase struct {
	WDL   int      `json:"wdl"`
	DTZ   int      `json:"dtz"`
	Moves []TBMove `json:"moves"`
}

// TBMove is one legal move's tablebase value for the side that plays it.
type TBMove struct {
	UCI string `json:"uci"`
	SAN string `json:"san"`
	WDL int    `json:"wdl"`
	DTZ int    `json:"dtz"`
}

// Position is what the board needs of the position at the end of a path:
// its FEN, the last move (in SAN and UCI, none at the start), the legal
// moves, the king in check, how the game stands ("checkmate",
// "stalemate", "" when it goes on), the opening's name, the tables'
// verdict (nil where they do not cover it or the server has none).
type Position struct {
	FEN       string     `json:"fen"`
	Turn      string     `json:"turn"`
	SAN       string     `json:"san,omitempty"`
	UCI       string     `json:"uci,omitempty"`
	Legal     []Legal    `json:"legal"`
	Check     string     `json:"check,omitempty"`
	Over      string     `json:"over,omitempty"`
	Opening   *Opening   `json:"opening,omitempty"`
	Tablebase *Tablebase `json:"tablebase,omitempty"`
	Mate      *Mate      `json:"mate,omitempty"`
}

// Mate is Gaviota's verdict on a position: WDL (-1, 0, 1) and the
// distance to mate in plies from the side to move's point of view
// (python-chess's convention: positive when it mates, negative when it
// is mated, 0 drawn), and the same in words ("White mates in 15").
type Mate struct {
	WDL   int    `json:"wdl"`
	DTM   int    `json:"dtm"`
	Words string `json:"words"`
}

// Tables are the endgame tables a position is probed in; either may be
// nil (none).
type Tables struct {
	Syzygy  *syzygy.Tablebase
	Gaviota *gaviota.Tablebase
}

// Path is a position as a start FEN and the moves from it (UCI, SAN or
// any form game.Position.ParseMove reads).
type Path struct {
	FEN      string   `json:"fen"`
	Chess960 bool     `json:"chess960,omitempty"`
	Moves    []string `json:"moves"`
}

// Play replays p: the game to its end (whose Position is the position,
// HashHistory the engine's history) and the last move (NoMove at the
// start). A bad FEN, an illegal move or more than MaxPathMoves is an
// error.
func (p Path) Play() (*game.Game, game.Move, error) {
	if len(p.Moves) > MaxPathMoves {
		return nil, game.NoMove, fmt.Errorf("a path of %d moves; at most %d", len(p.Moves), MaxPathMoves)
	}
	fen := p.FEN
	if fen == "" {
		fen = game.StartFEN
	}
	pos, err := game.ParseFEN(fen)
	if err != nil {
		return nil, game.NoMove, fmt.Errorf("start position: %w", err)
	}
	if p.Chess960 {
		pos.SetChess960(true)
	}
	g := game.NewGameFrom(pos)
	last := game.NoMove
	for _, s := range p.Moves {
		m, err := parseMove(g.Position(), s)
		if err != nil {
			return nil, game.NoMove, err
		}
		if err := g.Play(m); err != nil {
			return nil, game.NoMove, err
		}
		last = m
	}
	return g, last, nil
}

// Describe returns what the board needs of the position at the end of
// path, with the verdicts of the tables tb holds.
func Describe(path Path, tb Tables) (*Position, error) {
	g, last, err := path.Play()
	if err != nil {
		return nil, err
	}
	pos := g.Position()
	out := &Position{FEN: pos.FEN(), Turn: "w", Legal: legalMoves(pos)}
	if pos.Side() == game.Black {
		out.Turn = "b"
	}
	if last != game.NoMove {
		from := g.PositionAt(g.Len() - 1)
		out.SAN, out.UCI = from.SAN(last), from.UCI(last)
	}
	if pos.InCheck() {
		out.Check = pos.KingSquare(pos.Side()).String()
	}
	switch {
	case pos.IsCheckmate():
		out.Over = "checkmate"
	case pos.IsStalemate():
		out.Over = "stalemate"
	}
	if o, ok := openings.Lookup(pos); ok {
		out.Opening = &Opening{ECO: o.ECO, Name: o.Name}
	}
	out.Tablebase = probe(tb.Syzygy, pos)
	out.Mate = probeMate(tb.Gaviota, pos)
	return out, nil
}

// probeMate is Gaviota's verdict on pos; nil when tb is nil or does not
// hold pos (castling rights, too many pieces, a table missing) or fails.
func probeMate(tb *gaviota.Tablebase, pos *game.Position) *Mate {
	if tb == nil || pos.HasCastlingRights() || pos.Occupied().Count() > tb.MaxPieces() {
		return nil
	}
	wdl, dtm, err := tb.Probe(pos)
	if err != nil {
		return nil
	}
	return &Mate{WDL: int(wdl), DTM: dtm, Words: gaviota.MateWords(pos.Side(), wdl, dtm)}
}

// legalMoves lists pos's legal moves as the board offers them.
func legalMoves(pos *game.Position) []Legal {
	var ml game.MoveList
	pos.GenerateLegal(&ml)
	out := make([]Legal, 0, ml.N+2)
	for _, m := range ml.Slice() {
		uci := pos.UCI(m)
		l := Legal{From: m.From().String(), To: uci[2:4], UCI: uci}
		if m.IsPromotion() {
			l.Promotion = m.Promotion().String()
		}
		if m.IsCastling() && pos.Chess960() {
			// King takes rook, and the king's own destination when it
			// is another square: either gesture castles.
			kingFile := 6
			if m.To() < m.From() {
				kingFile = 2
			}
			dest := game.NewSquare(kingFile, m.From().Rank())
			l.To = m.To().String()
			out = append(out, l)
			if dest != m.To() && dest != m.From() {
				l.To = dest.String()
				out = append(out, l)
			}
			continue
		}
		out = append(out, l)
	}
	return out
}

// probe is tb's verdict on pos and on each of its legal moves; nil when
// tb is nil or does not cover pos (too many pieces, castling rights, a
// table missing).
func probe(tb *syzygy.Tablebase, pos *game.Position) *Tablebase {
	if tb == nil || pos.HasCastlingRights() || pos.Occupied().Count() > tb.MaxPieces() {
		return nil
	}
	wdl, err := tb.ProbeWDL(pos)
	if err != nil {
		return nil
	}
	dtz, err := tb.ProbeDTZ(pos)
	if err != nil {
		return nil
	}
	out := &Tablebase{WDL: int(wdl), DTZ: dtz, Moves: []TBMove{}}
	var ml game.MoveList
	pos.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		next := *pos
		next.MakeMove(m)
		mv := TBMove{UCI: pos.UCI(m), SAN: pos.SAN(m)}
		if next.IsCheckmate() {
			mv.WDL, mv.DTZ = 2, 1
		} else {
			w, err := tb.ProbeWDL(&next)
			if err != nil {
				return nil
			}
			d, err := tb.ProbeDTZ(&next)
			if err != nil && !errors.Is(err, syzygy.ErrMissingTable) {
				return nil
			}
			// The mover's view: the opponent's verdict negated, one ply
			// further from zeroing (a capture or pawn move zeroes).
			mv.WDL, mv.DTZ = -int(w), -d
			if mv.DTZ > 0 {
				mv.DTZ++
			} else if mv.DTZ < 0 {
				mv.DTZ--
			}
		}
		out.Moves = append(out.Moves, mv)
	}
	sortTBMoves(out.Moves)
	return out
}

// sortTBMoves puts the best moves first: wins (the shortest first), then
// draws, then losses (the longest first).
func sortTBMoves(ms []TBMove) {
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].WDL != ms[j].WDL {
			return ms[i].WDL > ms[j].WDL
		}
		return ms[i].DTZ < ms[j].DTZ
	})
}
