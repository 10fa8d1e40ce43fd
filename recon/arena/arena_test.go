package arena

import (
	"context"
	"testing"

	"knightwatch/game"
	"knightwatch/recon"
)

// TestRunTallies plays a short match and checks that colours alternate
// and that the totals count each game once, from the first bot's side.
func TestRunTallies(t *testing.T) {
	var results []GameResult
	cfg := Config{First: "attacker", Second: "random", Games: 8, Seed: 5, Concurrency: 2,
		Game: recon.Config{MoveLimit: 100, TurnLimit: 40}}
	sum, err := Run(context.Background(), cfg, func(r GameResult) { results = append(results, r) })
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 8 || sum.Tally.Games()+sum.Errors != 8 {
		t.Fatalf("%d results, tally %v, %d errors", len(results), sum.Tally, sum.Errors)
	}
	var wins, losses, draws int
	for _, r := range results {
		if r.Err != nil {
			t.Fatalf("game %d: %v", r.Number, r.Err)
		}
		first := r.White
		if FirstColor(r.Number) == game.Black {
			first = r.Black
		}
		if first != "attacker" {
			t.Errorf("game %d: attacker is not the first bot's colour", r.Number)
		}
		switch {
		case !r.Outcome.Decisive:
			draws++
		case r.Outcome.Winner == FirstColor(r.Number):
			wins++
		default:
			losses++
		}
	}
	if sum.Tally.Wins != wins || sum.Tally.Losses != losses || sum.Tally.Draws != draws {
		t.Errorf("tally %v, counted +%d =%d -%d", sum.Tally, wins, draws, losses)
	}
	n := 0
	for _, m := range []map[recon.WinReason]int{sum.Wins, sum.Losses, sum.Draws} {
		for _, c := range m {
			n += c
		}
	}
	if n != 8 {
		t.Errorf("reasons count %d games", n)
	}
}

// TestRunRefusesBadSpecs checks that a bad bot spec stops the match before
// any game.
func TestRunRefusesBadSpecs(t *testing.T) {
	if _, err := Run(context.Background(), Config{First: "random", Second: "trout:nodes=x", Games: 2}, nil); err == nil {
		t.Error("bad spec accepted")
	}
	if _, err := Run(context.Background(), Config{First: "random", Second: "random", Games: 0}, nil); err == nil {
		t.Error("zero games accepted")
	}
}
