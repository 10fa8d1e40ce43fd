package play

import (
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
)

// On a site (Config.BotJobs) the built-in seat of an API game asks for
// its steps clocked, spending its clock on the bot cores of whichever
// process takes them, as it does on one server; a browser game's bot asks
// for regular steps. Either way the step carries the bot's clock.
func TestBotJobStepClocked(t *testing.T) {
	gs := &Games{}
	cfg := recon.Config{Clock: 900 * time.Second, Increment: 5 * time.Second, TurnLimit: 50, MoveLimit: 100}
	for _, tc := range []struct {
		name    string
		bot     func(rules *ReconRules) *ReconBot
		clocked bool
	}{
		{"API game", func(r *ReconRules) *ReconBot {
			return gs.NewReconBot("api game 1", "knightwatch", 3, nil, game.White, r, "owner")
		}, true},
		{"browser game", func(r *ReconRules) *ReconBot {
			return gs.newReconBot("g1", "knightwatch", 3, nil, game.White, r, "owner")
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := recon.NewGame(cfg, "bot", "remote")
			g.Start()
			b := tc.bot(&ReconRules{Arbiter: g})
			s := b.jobStep(g)
			if s.Clocked != tc.clocked {
				t.Fatalf("step clocked %v; want %v", s.Clocked, tc.clocked)
			}
			if s.Left <= 0 || s.Left > cfg.Clock || s.Clock != cfg.Clock || s.Color != game.White || s.Spec != "knightwatch" {
				t.Fatalf("step %+v; want the bot's, with its clock", s)
			}
		})
	}
}
