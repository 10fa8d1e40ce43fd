package bots

import (
	"context"
	"math/rand/v2"
	"slices"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
)

// quickAttacks are the reference AttackerBot's move sequences, from White's
// side: two knight raids from b1, one from g1, and the four-move attack on
// f7 that ends by taking the king on e8 with the bishop or the queen.
var quickAttacks = [][]string{
	{"b1c3", "c3b5", "b5d6", "d6e8"},
	{"b1c3", "c3e4", "e4f6", "f6e8"},
	{"g1h3", "h3f4", "f4h5", "h5f6", "f6e8"},
	{"e2e4", "f1c4", "d1h5", "c4f7", "f7e8", "h5e8"},
}

// Attacker is the reference's AttackerBot: it picks one quick attack at the
// start and plays its moves in order, skipping any that is not a move
// action at its turn, and passes once the sequence is used up. It senses
// at random.
type Attacker struct {
	rng      *rand.Rand
	sequence []game.Move
}

// NewAttacker returns an Attacker whose choice of attack and senses follow
// seed.
func NewAttacker(seed uint64) *Attacker {
	b := &Attacker{rng: rand.New(rand.NewPCG(seed, 0x61747461636b))}
	for _, s := range quickAttacks[b.rng.IntN(len(quickAttacks))] {
		m, err := recon.ParseMove(s)
		if err != nil {
			panic("bots: bad quick attack move " + s)
		}
		b.sequence = append(b.sequence, m)
	}
	return b
}

// Start mirrors the attack for Black.
func (b *Attacker) Start(color game.Color, _ recon.Board, _ string) {
	if color == game.Black {
		for i, m := range b.sequence {
			b.sequence[i] = game.NewMove(m.From()^56, m.To()^56)
		}
	}
}

// OpponentMoveResult does nothing.
func (*Attacker) OpponentMoveResult(game.Square) {}

// ChooseSense returns a random square.
func (b *Attacker) ChooseSense(_ context.Context, senseActions []game.Square, _ []game.Move, _ time.Duration) game.Square {
	if len(senseActions) == 0 {
		return game.NoSquare
	}
	return senseActions[b.rng.IntN(len(senseActions))]
}

// SenseResult does nothing.
func (*Attacker) SenseResult(recon.SenseResult) {}

// ChooseMove plays the next move of the attack that is a move action.
func (b *Attacker) ChooseMove(_ context.Context, moveActions []game.Move, _ time.Duration) game.Move {
	for len(b.sequence) > 0 && !slices.Contains(moveActions, b.sequence[0]) {
		b.sequence = b.sequence[1:]
	}
	if len(b.sequence) == 0 {
		return game.NoMove
	}
	m := b.sequence[0]
	b.sequence = b.sequence[1:]
	return m
}

// MoveResult does nothing.
func (*Attacker) MoveResult(recon.MoveResult) {}

// End does nothing.
func (*Attacker) End(recon.Outcome, *recon.History) {}
