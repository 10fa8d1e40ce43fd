package recon_test

import (
	"testing"

	"knightwatch/game"
	"knightwatch/recon"
)

// scripted plays moves in turn from White (no senses; "-" passes) under cfg
// and returns the game.
func scripted(t *testing.T, cfg recon.Config, moves ...string) *recon.Game {
	t.Helper()
	g := recon.NewGame(cfg, "w", "b")
	g.Start()
	for _, s := range moves {
		if g.IsOver() {
			t.Fatalf("over before %s", s)
		}
		m := game.NoMove
		if s != "-" {
			var err error
			if m, err = recon.ParseMove(s); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := g.Sense(game.NoSquare); err != nil {
			t.Fatal(err)
		}
		if _, err := g.Move(m); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if !g.IsOver() {
			if err := g.EndTurn(); err != nil {
				t.Fatal(err)
			}
		}
	}
	return g
}

func TestResultWords(t *testing.T) {
	queen := []string{"e2e3", "f7f6", "d1h5", "-", "h5e8"}
	pawn := []string{"e2e4", "d7d5", "e4d5", "e7e6", "d5d6", "e8e7", "d6e7"}
	knights := []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6"}
	tests := []struct {
		name  string
		cfg   recon.Config
		moves []string
		// outcome, when set, replaces the recorded one (a clock or a
		// resignation, which no board shows).
		outcome *recon.Outcome
		want    string
		san     string
	}{
		{name: "queen takes king", moves: queen, want: "White captured the king with Qxe8.", san: "Qxe8"},
		{name: "pawn takes king", moves: pawn, want: "White captured the king with dxe7.", san: "dxe7"},
		{name: "turn limit", cfg: recon.Config{TurnLimit: 3}, moves: knights, want: "Draw: 3 full turns."},
		{name: "move limit", cfg: recon.Config{MoveLimit: 4}, moves: knights[:4], want: "Draw: 2 moves each without a capture or a pawn move."},
		{name: "time", moves: knights[:3], outcome: &recon.Outcome{Reason: recon.Timeout, Winner: game.White, Decisive: true}, want: "Black's time ran out: White won."},
		{name: "resignation", moves: knights[:2], outcome: &recon.Outcome{Reason: recon.Resign, Winner: game.Black, Decisive: true}, want: "White resigned: Black won."},
		{name: "no result", moves: knights[:2], outcome: &recon.Outcome{}, want: "The record ends before the game did."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := *scripted(t, tt.cfg, tt.moves...).History()
			if tt.outcome != nil {
				h.Outcome = *tt.outcome
			}
			if got := recon.ResultWords(&h); got != tt.want {
				t.Errorf("ResultWords = %q, want %q (outcome %s)", got, tt.want, h.Outcome)
			}
			_, san, ok := h.KingCaptureMove()
			if san != tt.san || ok != (tt.san != "") {
				t.Errorf("KingCaptureMove = %q, %v, want %q", san, ok, tt.san)
			}
		})
	}
}
