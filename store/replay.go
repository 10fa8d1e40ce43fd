package store

import (
	"fmt"

	"knightwatch/game"
)

// The variants a Game's Variant holds.
const (
	VariantStandard = "standard"
	// VariantChess960 is Chess960: the start position's castling rights
	// name the rooks' files (X-FEN), and castling moves the king onto
	// its own rook.
	VariantChess960 = "chess960"
)

// Replay rebuilds g as the rules library's game: its start position, then
// its moves played one by one (each checked for legality), and, for a
// finished game, its stored outcome. The live game, its review and the
// engine's learning all read a record through it, so that they agree on
// what a record means. A record that cannot be replayed (a broken start
// position or move) is an error naming the game and the move.
func (g *Game) Replay() (*game.Game, error) {
	p, err := game.ParseFEN(g.StartFEN)
	if err != nil {
		return nil, fmt.Errorf("game %s: start position: %w", g.ID, err)
	}
	if g.Variant == VariantChess960 {
		p.SetChess960(true)
	}
	out := game.NewGameFrom(p)
	for i, u := range g.MoveList() {
		pos := out.PositionAt(out.Len())
		m, err := pos.ParseUCI(u)
		if err == nil {
			err = out.Play(m)
		}
		if err != nil {
			return nil, fmt.Errorf("game %s: move %d %q: %w", g.ID, i+1, u, err)
		}
	}
	if g.Status == StatusOver {
		t := g.Reason.Termination
		if t == game.NotOver {
			// Over without a stored reason (no code writes that): decided
			// outside the board, as before the reason was typed.
			t = game.Adjudication
		}
		out.SetOutcome(game.Outcome{Result: game.Result(g.Result), Termination: t})
	}
	return out, nil
}
