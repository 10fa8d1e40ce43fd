package arena

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
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

// TestRunFirstGame checks that a match begun at game 2 plays games 2 and 3
// exactly as a match from game 1 plays them: same colours, same seeds, the
// same histories under the same names, so a stopped match can go on.
func TestRunFirstGame(t *testing.T) {
	whole, rest := t.TempDir(), t.TempDir()
	base := Config{First: "attacker", Second: "random", Seed: 9, Concurrency: 2,
		Game: recon.Config{MoveLimit: 100, TurnLimit: 30}}
	all, from2 := base, base
	all.Games, all.OutDir = 3, whole
	from2.Games, from2.FirstGame, from2.OutDir = 2, 2, rest
	if _, err := Run(context.Background(), all, nil); err != nil {
		t.Fatal(err)
	}
	var numbers []int
	if _, err := Run(context.Background(), from2, func(r GameResult) { numbers = append(numbers, r.Number) }); err != nil {
		t.Fatal(err)
	}
	if len(numbers) != 2 || numbers[0]+numbers[1] != 5 {
		t.Fatalf("a match from game 2 of 2 games played games %v, want 2 and 3", numbers)
	}
	for _, name := range []string{"game0002-random-vs-attacker.json", "game0003-attacker-vs-random.json"} {
		want, err := os.ReadFile(filepath.Join(whole, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(rest, name))
		if err != nil {
			t.Fatalf("the match from game 2 did not save %s: %v", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs between the whole match and the one from game 2", name)
		}
	}
	if _, err := os.Stat(filepath.Join(rest, "game0001-attacker-vs-random.json")); err == nil {
		t.Error("the match from game 2 played game 1")
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
	if _, err := Run(context.Background(), Config{First: "random", Second: "random", Games: 1, FirstGame: -1}, nil); err == nil {
		t.Error("a negative first game accepted")
	}
}
