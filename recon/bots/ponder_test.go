package bots

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
)

// countdownCtx is a context that ends once Err has been asked n times:
// a pondering cut short at a chosen point, without the clock.
type countdownCtx struct {
	context.Context
	left atomic.Int64
}

func newCountdown(n int64) *countdownCtx {
	c := &countdownCtx{Context: context.Background()}
	c.left.Store(n)
	return c
}

func (c *countdownCtx) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// feedTurn tells k what color's turn i of h showed it, pondering first
// with ctx when ctx is set: the capture of the opponent's move before it,
// the sense's result, its own move's result.
func feedTurn(k *Knightwatch, h *recon.History, c game.Color, i int, ponder context.Context) {
	capture := game.NoSquare
	them := c.Other()
	j := i
	if c == game.White {
		j = i - 1
	}
	if j >= 0 && j < len(h.CaptureSquares[them]) {
		capture = h.CaptureSquares[them][j]
	}
	if ponder != nil {
		k.Ponder(ponder)
	}
	k.OpponentMoveResult(capture)
	k.SenseResult(h.SenseResults[c][i])
	k.MoveResult(recon.MoveResult{Requested: h.RequestedMoves[c][i], Taken: h.TakenMoves[c][i], Capture: h.CaptureSquares[c][i]})
}

// sameBelief reports whether a and b hold the same boards in the same
// order with the same weights, bit for bit.
func sameBelief(a, b *belief) bool {
	if a.size() != b.size() || a.exact != b.exact {
		return false
	}
	for i := range a.boards {
		if a.boards[i].Hash() != b.boards[i].Hash() || a.weights[i] != b.weights[i] {
			return false
		}
	}
	return true
}

// TestPonderChangesNothing: a bot that thinks on its opponent's turn
// (Ponder) holds, turn after turn of real games, exactly the boards with
// exactly the weights of one that does not, whether its pondering ran to
// the end or was cut short at any point, with the belief exact or
// resampled; and it did the expansion ahead (the pondered set was used).
func TestPonderChangesNothing(t *testing.T) {
	games, bounds, turns := 4, []int{400_000, 3_000}, 30
	if testing.Short() {
		// The race detector's run: smaller sets, shorter games.
		games, bounds, turns = 2, []int{20_000, 3_000}, 16
	}
	used := 0
	for n := range games {
		for _, maxBoards := range bounds {
			cfg := KnightwatchConfig{MaxBoards: maxBoards, Sample: 8, Threat: 4, Caution: 1, TurnTime: 10 * time.Millisecond, Workers: 2}
			player := NewKnightwatch(cfg, uint64(n))
			var opp recon.Player = NewRandom(uint64(n))
			if n%2 == 1 {
				opp = NewAttacker(uint64(n))
			}
			white, black, color := recon.Player(player), opp, game.White
			if n%2 == 1 {
				white, black, color = opp, player, game.Black
			}
			g := recon.NewGame(recon.Config{MoveLimit: 100, TurnLimit: turns}, "w", "b")
			if _, err := recon.Play(context.Background(), g, white, black); err != nil {
				t.Fatal(err)
			}
			h := g.History()
			plain := NewKnightwatch(cfg, 7)
			full := NewKnightwatch(cfg, 7)
			cut := NewKnightwatch(cfg, 7)
			for _, k := range []*Knightwatch{plain, full, cut} {
				k.Start(color, recon.NewBoard(), "")
			}
			for i := range len(h.RequestedMoves[color]) {
				feedTurn(plain, h, color, i, nil)
				full.Ponder(context.Background())
				if full.pondered != nil {
					used++
				}
				feedTurn(full, h, color, i, nil)
				feedTurn(cut, h, color, i, newCountdown(int64(i%5)))
				if !sameBelief(plain.belief, full.belief) || !sameBelief(plain.belief, cut.belief) {
					t.Fatalf("game %d (bound %d), %s turn %d: %d boards without pondering, %d pondering, %d cut short: not the same",
						n, maxBoards, color, i, plain.BeliefSize(), full.BeliefSize(), cut.BeliefSize())
				}
			}
		}
	}
	if used < 2*games {
		t.Errorf("a pondered expansion was ready only %d times", used)
	}
}
