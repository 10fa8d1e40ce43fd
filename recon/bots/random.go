package bots

import (
	"context"
	"math/rand/v2"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
)

// Random is the reference's RandomBot: it senses a uniformly random square
// and plays a uniformly random move action, passing with the same chance
// as any one move.
type Random struct {
	rng *rand.Rand
}

// NewRandom returns a Random bot whose choices follow seed.
func NewRandom(seed uint64) *Random {
	return &Random{rng: rand.New(rand.NewPCG(seed, 0x72616e646f6d))}
}

// Start does nothing: the bot remembers nothing.
func (*Random) Start(game.Color, recon.Board, string) {}

// OpponentMoveResult does nothing.
func (*Random) OpponentMoveResult(game.Square) {}

// ChooseSense returns a random square.
func (b *Random) ChooseSense(_ context.Context, senseActions []game.Square, _ []game.Move, _ time.Duration) game.Square {
	if len(senseActions) == 0 {
		return game.NoSquare
	}
	return senseActions[b.rng.IntN(len(senseActions))]
}

// SenseResult does nothing.
func (*Random) SenseResult(recon.SenseResult) {}

// ChooseMove returns a random move action, or a pass with the same chance.
func (b *Random) ChooseMove(_ context.Context, moveActions []game.Move, _ time.Duration) game.Move {
	i := b.rng.IntN(len(moveActions) + 1)
	if i == len(moveActions) {
		return game.NoMove
	}
	return moveActions[i]
}

// MoveResult does nothing.
func (*Random) MoveResult(recon.MoveResult) {}

// End does nothing.
func (*Random) End(recon.Outcome, *recon.History) {}
