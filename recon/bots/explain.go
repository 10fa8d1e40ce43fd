package bots

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
)

// Studying a lost game (issue 46): replaying a record with the bot fed
// one side (rbc-playback --bot), what did it believe before each choice,
// and why did it choose as it did? Explain wraps a bot to say so.

// Watch is a piece on a square whose likelihood in the bot's belief
// Explain reports.
type Watch struct {
	Square game.Square
	Piece  game.Piece
}

func (w Watch) String() string { return fmt.Sprintf("%s=%s", w.Square, w.Piece) }

// ParseWatches reads a comma-separated list such as "c1=r,d7=q": a
// square, '=', a piece letter (upper case White's, lower case Black's).
func ParseWatches(s string) ([]Watch, error) {
	var out []Watch
	for _, item := range strings.Split(s, ",") {
		sq, letter, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok || len(letter) != 1 {
			return nil, fmt.Errorf("watch %q: want SQUARE=PIECE, such as c1=r (a black rook on c1)", item)
		}
		q, err := game.ParseSquare(sq)
		if err != nil {
			return nil, fmt.Errorf("watch %q: %w", item, err)
		}
		p, ok := game.PieceFromLetter(letter[0])
		if !ok {
			return nil, fmt.Errorf("watch %q: %q is not a piece letter (PNBRQK, pnbrqk)", item, letter)
		}
		out = append(out, Watch{q, p})
	}
	return out, nil
}

// Share returns the weight the bot's belief gives boards with p on s (the
// weights sum to 1).
func (k *Knightwatch) Share(s game.Square, p game.Piece) float64 {
	var share float64
	for i := range k.belief.boards {
		if k.belief.boards[i].PieceAt(s) == p {
			share += k.belief.weights[i]
		}
	}
	return share
}

// Explain returns p, which reports to w as it plays: a knightwatch bot its
// reasons (a line per sense and move: the chosen value against the best
// and against sensing nothing, the boards held and scored) and, before
// each choice, how many boards it holds and the share of its belief each
// of watches has. Other bots play as they are.
func Explain(p recon.Player, w io.Writer, watches []Watch) recon.Player {
	k, ok := p.(*Knightwatch)
	if !ok {
		return p
	}
	k.cfg.Log = w
	return &explainer{Knightwatch: k, w: w, watches: watches}
}

type explainer struct {
	*Knightwatch
	w       io.Writer
	watches []Watch
}

func (e *explainer) report(when string) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d: %s, %d boards", e.color, e.turn, when, e.belief.size())
	for _, w := range e.watches {
		fmt.Fprintf(&b, " %s %.3f", w, e.Share(w.Square, w.Piece))
	}
	fmt.Fprintln(e.w, b.String())
}

func (e *explainer) ChooseSense(ctx context.Context, senseActions []game.Square, moveActions []game.Move, timeLeft time.Duration) game.Square {
	e.report("before the sense")
	return e.Knightwatch.ChooseSense(ctx, senseActions, moveActions, timeLeft)
}

func (e *explainer) ChooseMove(ctx context.Context, moveActions []game.Move, timeLeft time.Duration) game.Move {
	e.report("before the move")
	return e.Knightwatch.ChooseMove(ctx, moveActions, timeLeft)
}
