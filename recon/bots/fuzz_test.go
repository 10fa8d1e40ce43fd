package bots

import (
	"context"
	"slices"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
)

// checked wraps a player and fails the test when it chooses a sense or a
// move outside the actions it was offered.
type checked struct {
	recon.Player
	t *testing.T
}

func (c checked) ChooseSense(ctx context.Context, s []game.Square, m []game.Move, left time.Duration) game.Square {
	sq := c.Player.ChooseSense(ctx, s, m, left)
	if sq != game.NoSquare && !slices.Contains(s, sq) {
		c.t.Fatalf("sensed %d, not a sense action", sq)
	}
	return sq
}

func (c checked) ChooseMove(ctx context.Context, m []game.Move, left time.Duration) game.Move {
	mv := c.Player.ChooseMove(ctx, m, left)
	if mv != game.NoMove && !slices.Contains(m, mv) {
		c.t.Fatalf("chose %s, not a move action", recon.UCI(mv))
	}
	return mv
}

// FuzzKnightwatchPlayback replays fuzzed histories through rbc-playback's
// machinery with the knightwatch bot fed each side in turn: whatever the
// record (consistent or not with what the bot believes), the bot must not
// panic and must only choose among its actions.
func FuzzKnightwatchPlayback(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := recon.UnmarshalHistory(data)
		if err != nil {
			return
		}
		for _, c := range []game.Color{game.White, game.Black} {
			cfg := KnightwatchConfig{MaxBoards: 20_000, Sample: 8, Threat: 4, Caution: 30, TurnTime: 2 * time.Millisecond, Workers: 1}
			bot := checked{NewKnightwatch(cfg, 1), t}
			_, _ = recon.Playback(h, recon.PlaybackOptions{Bot: bot, BotColor: c})
		}
	})
}
