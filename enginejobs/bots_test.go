package enginejobs

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"knightwatch/pgtest"
	"knightwatch/recon"
)

// A whole Reconnaissance Chess game between two bots whose every step is
// a job: the record replays through the arbiter; each step is played by
// the worker's bot kept from its previous step, except the first of each
// bot on each worker (fed the record), and a worker that takes over half
// way plays on from the record.
func TestBotStepsAsJobs(t *testing.T) {
	dsn := pgtest.DB(t)
	var searches atomic.Int64
	asker := newJobs(t, dsn, false, 1, stubSearcher{searches: &searches})
	first := newJobs(t, dsn, true, 1, stubSearcher{searches: &searches})
	cfg := recon.Config{Clock: 60 * time.Second, Increment: time.Second, TurnLimit: 12, MoveLimit: 100}
	g := recon.NewGame(cfg, "knightwatch", "attacker")
	g.Start()
	specs := [2]string{"knightwatch:level=1", "attacker"}
	steps := 0
	var second *Jobs
	for !g.IsOver() {
		if steps == 10 { // the first worker stops; another takes over
			first.Close()
			second = newJobs(t, dsn, true, 1, stubSearcher{searches: &searches})
		}
		c, phase := g.Turn(), g.Phase()
		s := BotStep{
			Key: fmt.Sprintf("game bot %d", steps), Owner: "owner", Game: "game", Spec: specs[c], Seed: 7, Color: c,
			History: recon.MarshalHistory(g.History()), Clock: cfg.Clock, Increment: cfg.Increment, TurnLimit: cfg.TurnLimit, MoveLimit: cfg.MoveLimit,
			Clocks: g.Clocks(), Left: g.SecondsLeft(c),
		}
		act, ok := asker.BotStep(waitCtx(t), s)
		if !ok {
			t.Fatalf("step %d: no answer", steps)
		}
		steps++
		if phase == recon.PhaseSense {
			if _, err := g.Sense(act.Sense); err != nil {
				t.Fatalf("step %d: the bot sensed %s: %v", steps, recon.SquareName(act.Sense), err)
			}
			continue
		}
		if _, err := g.Move(act.Move); err != nil {
			t.Fatalf("step %d: the bot moved %s: %v", steps, recon.UCI(act.Move), err)
		}
		if !g.IsOver() {
			if err := g.EndTurn(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := recon.Playback(g.History(), recon.PlaybackOptions{TurnLimit: cfg.TurnLimit, MoveLimit: cfg.MoveLimit}); err != nil {
		t.Fatalf("the record does not replay: %v", err)
	}
	// Two bots, each fed the record on each worker once.
	restored := first.restored.Load() + second.restored.Load()
	continued := first.continued.Load() + second.continued.Load()
	if restored != 4 || restored+continued != int64(steps) {
		t.Fatalf("%d steps: %d with a bot fed the record, %d with the bot kept; want 4 and %d", steps, restored, continued, steps-4)
	}
}
