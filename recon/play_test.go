package recon

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"knightwatch/game"
)

// testPlayer is a scriptable player: random choices unless a hook is set.
type testPlayer struct {
	rng      *rand.Rand
	chooseMv func(ctx context.Context, actions []game.Move) game.Move
	ended    bool
	outcome  Outcome
}

func newTestPlayer(seed uint64) *testPlayer {
	return &testPlayer{rng: rand.New(rand.NewPCG(seed, 1))}
}

func (p *testPlayer) Start(game.Color, Board, string) {}
func (p *testPlayer) OpponentMoveResult(game.Square)  {}
func (p *testPlayer) SenseResult(SenseResult)         {}
func (p *testPlayer) MoveResult(MoveResult)           {}
func (p *testPlayer) End(o Outcome, _ *History)       { p.ended, p.outcome = true, o }
func (p *testPlayer) ChooseSense(_ context.Context, s []game.Square, _ []game.Move, _ time.Duration) game.Square {
	if p.rng.IntN(20) == 0 {
		return game.NoSquare
	}
	return s[p.rng.IntN(len(s))]
}
func (p *testPlayer) ChooseMove(ctx context.Context, actions []game.Move, _ time.Duration) game.Move {
	if p.chooseMv != nil {
		return p.chooseMv(ctx, actions)
	}
	if i := p.rng.IntN(len(actions) + 1); i < len(actions) {
		return actions[i]
	}
	return game.NoMove
}

// TestRandomGamesReplay plays thousands of random games under assorted
// limits: none may panic or run past its limits, every history must
// re-play to the same result, and every history must survive a JSON round
// trip byte for byte.
func TestRandomGamesReplay(t *testing.T) {
	games := 2000
	if testing.Short() {
		games = 200
	}
	rng := rand.New(rand.NewPCG(7, 7))
	reasons := map[WinReason]int{}
	for i := 0; i < games; i++ {
		cfg := Config{MoveLimit: 100}
		switch i % 4 {
		case 1:
			cfg.TurnLimit = 1 + rng.IntN(40)
		case 2:
			cfg.MoveLimit = 1 + rng.IntN(30)
		case 3:
			cfg.MoveLimit = 0 // none: only a king capture ends it
		}
		g := NewGame(cfg, "random", "random")
		outcome, err := Play(context.Background(), g, newTestPlayer(uint64(2*i)), newTestPlayer(uint64(2*i+1)))
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		reasons[outcome.Reason]++
		h := g.History()
		if cfg.TurnLimit > 0 && h.NumTurns() > 2*cfg.TurnLimit {
			t.Fatalf("game %d: %d turns with a turn limit of %d", i, h.NumTurns(), cfg.TurnLimit)
		}
		if outcome.Reason == MoveLimit && g.board.HalfmoveClock() != cfg.MoveLimit {
			t.Fatalf("game %d: move limit with the clock at %d", i, g.board.HalfmoveClock())
		}
		data := MarshalHistory(h)
		h2, err := UnmarshalHistory(data)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if !bytes.Equal(MarshalHistory(h2), data) {
			t.Fatalf("game %d: JSON round trip differs", i)
		}
		if _, err := Playback(h2, PlaybackOptions{TurnLimit: cfg.TurnLimit, MoveLimit: cfg.MoveLimit}); err != nil {
			t.Fatalf("game %d: playback with the known limits: %v", i, err)
		}
		if _, err := Playback(h2, PlaybackOptions{}); err != nil {
			t.Fatalf("game %d: playback with inferred limits: %v", i, err)
		}
	}
	for _, r := range []WinReason{KingCapture, TurnLimit, MoveLimit} {
		if reasons[r] == 0 {
			t.Errorf("no game ended by %s: %v", r, reasons)
		}
	}
}

// TestPlayTimeout checks that a player who does not move in time loses on
// time while the call is still running, and that both players hear the end.
func TestPlayTimeout(t *testing.T) {
	white, black := newTestPlayer(1), newTestPlayer(2)
	black.chooseMv = func(ctx context.Context, _ []game.Move) game.Move {
		<-ctx.Done() // thinks until told its time is up
		return game.NoMove
	}
	g := NewGame(Config{Clock: 200 * time.Millisecond, Increment: 0, MoveLimit: 100}, "w", "b")
	start := time.Now()
	outcome, err := Play(context.Background(), g, white, black)
	if err != nil {
		t.Fatal(err)
	}
	if outcome != Win(game.White, Timeout) {
		t.Errorf("outcome %s", outcome)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("took %s to notice a 200ms clock", el)
	}
	if !white.ended || !black.ended || black.outcome != outcome {
		t.Errorf("End not called on both players")
	}
}

// TestPlayFailures checks that a player's panic or an illegal choice stops
// the game with ErrPlayerFailed, without a result and without a panic.
func TestPlayFailures(t *testing.T) {
	tests := []struct {
		name string
		move func(context.Context, []game.Move) game.Move
	}{
		{"panic", func(context.Context, []game.Move) game.Move { panic("bot bug") }},
		{"not a move action", func(context.Context, []game.Move) game.Move { return game.NewMove(game.E2, game.E5) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			white := newTestPlayer(1)
			white.chooseMv = tc.move
			g := NewGame(DefaultConfig(), "w", "b")
			outcome, err := Play(context.Background(), g, white, newTestPlayer(2))
			if !errors.Is(err, ErrPlayerFailed) || outcome.Over() {
				t.Errorf("got %s, %v; want no result and ErrPlayerFailed", outcome, err)
			}
			if g.History().NumTurns() != 1 {
				t.Errorf("history holds %d turns, want white's sense", g.History().NumTurns())
			}
		})
	}
}

// BenchmarkRandomGame plays whole random-vs-random games with the default
// limits and no clock; turns/s is the arbiter's speed with the two
// cheapest players (bench/rbc-speed.sh reports it).
func BenchmarkRandomGame(b *testing.B) {
	turns := 0
	for i := 0; b.Loop(); i++ {
		g := NewGame(Config{MoveLimit: 100}, "random", "random")
		if _, err := Play(context.Background(), g, newTestPlayer(uint64(2*i)), newTestPlayer(uint64(2*i+1))); err != nil {
			b.Fatal(err)
		}
		turns += g.History().NumTurns()
	}
	b.ReportMetric(float64(turns)/b.Elapsed().Seconds(), "turns/s")
}
