package recon

import (
	"fmt"

	"knightwatch/game"
)

// boardCache keeps what the arbiter works out of a board for as long as
// the board stays the same: the mover's move actions (asked for by the
// driver to hand them to the player, then again to check the request)
// and the board's FEN (the record's FEN after a move is the next move's
// FEN before). Each is kept with the whole position it was worked out
// of and used only for a position equal to it in every field, so nothing
// the arbiter answers changes: a board changed in any way (a move, a
// game restored) is worked out again. Kept values are never changed in
// place, so a copied Game may share them.
type boardCache struct {
	actionsOf game.Position
	actions   []game.Move // nil: none kept
	fenOf     Board       // the FEN's en passant field is the Board's own
	fenText   string      // "": none kept
}

// moveActions returns MoveActions(p), kept: the caller must not change
// it.
func (c *boardCache) moveActions(p *game.Position) []game.Move {
	if c.actions == nil || c.actionsOf != *p {
		c.actions, c.actionsOf = MoveActions(p), *p
	}
	return c.actions
}

// checkMoveAction is CheckMoveAction(p, m), its move actions kept.
func (c *boardCache) checkMoveAction(p *game.Position, m game.Move) (game.Move, error) {
	if m == game.NoMove {
		return game.NoMove, nil
	}
	if !isPlain(m) {
		return game.NoMove, fmt.Errorf("%w: %s is not a plain move", ErrNotMoveAction, m)
	}
	move := WithDefaultPromotion(p, m)
	for _, a := range c.moveActions(p) {
		if a == move {
			return move, nil
		}
	}
	return game.NoMove, fmt.Errorf("%w: %s", ErrNotMoveAction, UCI(m))
}

// fen returns b.FEN(), kept.
func (c *boardCache) fen(b *Board) string {
	if c.fenText == "" || c.fenOf != *b {
		c.fenText, c.fenOf = b.FEN(), *b
	}
	return c.fenText
}
