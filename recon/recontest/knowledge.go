// Package recontest checks what servers tell Reconnaissance Chess players.
// It replays a game's history action by action and follows, event by event,
// what each player has been told at every moment: an oracle written apart
// from recon.Game.ViewOf, so that tests can hold a server's messages (and
// ViewOf itself) against it.
package recontest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"knightwatch/game"
	"knightwatch/recon"
)

// Knowledge is what one player has been told by some moment.
type Knowledge struct {
	// Own holds the player's pieces as it knows them: after its own last
	// move and after the opponent's last completed turn (its capture told).
	Own [64]game.Piece
	// OwnFEN is the true board's FEN at the moment Own was last brought up
	// to date: the castling rights in it are the player's as it knows them.
	OwnFEN string
	// OpponentCapture is the square told at the start of the player's
	// latest turn (game.NoSquare: none, or no turn yet).
	OpponentCapture game.Square
	// Told holds every square whose content the player has been told at
	// some moment: its own pieces' squares, the nine squares of each of its
	// senses, the squares of its own requests and moves, and the capture
	// squares told to it.
	Told [64]bool
}

// Point is one moment of a game: the true state after Seq actions (senses
// and moves of both sides), with what each player knows then. A move and
// the end of its turn make two points with the same Seq: the window
// between them exists for HTTP API clients, which end turns by a call.
type Point struct {
	Seq   int
	Turn  game.Color
	Phase recon.Phase
	Board recon.Board
	Know  [2]Knowledge
}

// Over reports whether the game had ended at p.
func (p *Point) Over() bool { return p.Phase == recon.PhaseOver }

// SeqFor is the number of actions c knows of at p: all of them, but the
// opponent's in a turn it has not ended.
func (p *Point) SeqFor(c game.Color) int {
	if p.Over() || p.Turn != c.Other() {
		return p.Seq
	}
	switch p.Phase {
	case recon.PhaseMove:
		return p.Seq - 1
	case recon.PhaseEndTurn:
		return p.Seq - 2
	}
	return p.Seq
}

// Points replays h from the start under cfg's limits (its clock is left
// out: the record says where a clock ended the game) and returns every
// moment of it, in order: the start, then after each sense, each move and
// each end of turn.
func Points(cfg recon.Config, h *recon.History) ([]Point, error) {
	if err := h.Validate(); err != nil {
		return nil, err
	}
	cfg.Clock, cfg.Increment, cfg.Now = 0, 0, nil
	g := recon.NewGame(cfg, h.Names[game.White], h.Names[game.Black])
	g.Start()
	var know [2]Knowledge
	b := g.Board()
	for c := game.White; c <= game.Black; c++ {
		know[c].OpponentCapture = game.NoSquare
		know[c].refreshOwn(&b, c)
	}
	seq := 0
	points := []Point{}
	mark := func() {
		p := Point{Seq: seq, Turn: g.Turn(), Phase: g.Phase(), Board: g.Board(), Know: know}
		points = append(points, p)
	}
	mark()
	for _, t := range h.Turns() {
		if g.IsOver() {
			return nil, fmt.Errorf("%s: the game was over already", t)
		}
		c := t.Color
		s := h.Senses[c][t.Number]
		if _, err := g.Sense(s); err != nil {
			return nil, fmt.Errorf("%s: sense: %w", t, err)
		}
		seq++
		if s != game.NoSquare {
			for _, sq := range window(s) {
				know[c].Told[sq] = true
			}
		}
		mark()
		if !h.HasMove(t) {
			break // the clock ended the turn
		}
		req := h.RequestedMoves[c][t.Number]
		res, err := g.Move(req)
		if err != nil {
			return nil, fmt.Errorf("%s: move: %w", t, err)
		}
		seq++
		b := g.Board()
		know[c].refreshOwn(&b, c)
		for _, m := range []game.Move{req, res.Taken} {
			if m != game.NoMove {
				know[c].Told[m.From()], know[c].Told[m.To()] = true, true
			}
		}
		if res.Capture != game.NoSquare {
			know[c].Told[res.Capture] = true
		}
		mark()
		if g.IsOver() {
			break
		}
		if err := g.EndTurn(); err != nil {
			return nil, fmt.Errorf("%s: end turn: %w", t, err)
		}
		// The opponent's turn begins: it is told where c captured, and
		// knows its pieces as they stand now.
		o := c.Other()
		know[o].OpponentCapture = res.Capture
		if res.Capture != game.NoSquare {
			know[o].Told[res.Capture] = true
		}
		know[o].refreshOwn(&b, o)
		mark()
	}
	if h.Outcome.Over() && !g.IsOver() {
		// A resignation or a clock ended the game between two actions.
		end := points[len(points)-1]
		end.Phase = recon.PhaseOver
		points = append(points, end)
	}
	return points, nil
}

// refreshOwn brings the player's own pieces up to date with b.
func (k *Knowledge) refreshOwn(b *recon.Board, c game.Color) {
	k.OwnFEN = b.FEN()
	for s := game.A1; s <= game.H8; s++ {
		k.Own[s] = game.NoPiece
		if p := b.PieceAt(s); p != game.NoPiece && p.Color() == c {
			k.Own[s] = p
			k.Told[s] = true
		}
	}
}

// window returns the squares of the 3x3 sense window around s.
func window(s game.Square) []game.Square {
	var out []game.Square
	for df := -1; df <= 1; df++ {
		for dr := -1; dr <= 1; dr++ {
			f, r := s.File()+df, s.Rank()+dr
			if f >= 0 && f < 8 && r >= 0 && r < 8 {
				out = append(out, game.NewSquare(f, r))
			}
		}
	}
	return out
}

// AtSeq returns the points at which c knew of seq actions (SeqFor).
func AtSeq(points []Point, c game.Color, seq int) []Point {
	var out []Point
	for _, p := range points {
		if p.SeqFor(c) == seq {
			out = append(out, p)
		}
	}
	return out
}

// MoveActions returns c's move actions as c may be told them at p: computed
// on boards that keep c's pieces as c knows them and put the opponent's
// king, its only piece, on squares drawn by rng. Two boards with the
// opponent's king in different places must give the same actions (move
// actions ignore the opponent's pieces); an error says when they do not, or
// when no such board could be made. Sorted as UCI strings.
func MoveActions(p *Point, c game.Color, rng *rand.Rand) ([]string, error) {
	k := &p.Know[c]
	var got []string
	for try := 0; try < 2; try++ {
		acts, err := counterfactualActions(k, c, rng)
		if err != nil {
			return nil, err
		}
		if try == 1 && !slices.Equal(acts, got) {
			return nil, fmt.Errorf("move actions depend on where the opponent's king stands: %v and %v", got, acts)
		}
		got = acts
	}
	return got, nil
}

func counterfactualActions(k *Knowledge, c game.Color, rng *rand.Rand) ([]string, error) {
	fields := strings.Fields(k.OwnFEN)
	castling := ""
	for _, r := range fields[2] {
		if (c == game.White) == (r >= 'A' && r <= 'Z') {
			castling += string(r)
		}
	}
	if castling == "" {
		castling = "-"
	}
	side := "w"
	if c == game.Black {
		side = "b"
	}
	for attempt := 0; attempt < 200; attempt++ {
		king := game.Square(rng.IntN(64))
		if k.Own[king] != game.NoPiece {
			continue
		}
		var board [64]game.Piece
		copy(board[:], k.Own[:])
		board[king] = game.MakePiece(c.Other(), game.King)
		fen := game.PlacementFEN(&board) + " " + side + " " + castling + " - 0 1"
		b, err := recon.ParseBoard(fen)
		if err != nil {
			continue // e.g. the king where the rules allow none
		}
		var out []string
		for _, m := range b.MoveActions() {
			out = append(out, recon.UCI(m))
		}
		slices.Sort(out)
		return slices.Compact(out), nil
	}
	return nil, fmt.Errorf("no board with %s's pieces could be made from %s", c, k.OwnFEN)
}
