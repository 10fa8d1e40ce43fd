package web

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"knightwatch/play"
	"knightwatch/recon"
	"knightwatch/store"
)

// TestAPIBotStepSaveRetried: the built-in bot's sense or move that the
// database refuses is saved later, once it can save again, without asking
// the bot again (which would also put the opponent's move on its boards a
// second time); the remote player then gets the turn as usual.
func TestAPIBotStepSaveRetried(t *testing.T) {
	for _, step := range []string{"sense", "move"} {
		t.Run(step, func(t *testing.T) {
			farm := &botFarm{think: time.Millisecond, block: true}
			refused := &atomic.Int32{}
			// The bot has chosen the step: let the database refuse it (the
			// sense before a move is saved).
			var fault *dbFault // set before the bot chooses anything
			var once sync.Once
			botAction := func(_ string, ph recon.Phase) {
				if ph.String() == step {
					once.Do(func() { fault.set(true) })
				}
			}
			e := newEnv(t, envOpts{newBot: farm.newBot, rbcClock: 120 * time.Second, hooks: play.Hooks{BotAction: botAction},
				saveRetryFirst: 20 * time.Millisecond, saveRetryMax: 100 * time.Millisecond, storeHooks: countRefused(refused)})
			fault = newDBFault(t, e)
			alice := e.apiClient("alice", "correct horse")
			alice.register()
			id := alice.invite("knightwatch", false) // the bot plays White
			g := fmt.Sprintf("/api/games/%d/", id)
			alice.must("POST", g+"ready", map[string]any{}, "", nil)

			farm.bot(t, 1).release()
			e.until("several tries refused", func() bool { return refused.Load() >= 3 })
			rec, err := e.store.API().GetAPIGame(id)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"bot1 sense", "bot1 move"}[:slices.Index([]string{"sense", "move"}, step)+1]
			if ev := farm.events(); !slices.Equal(ev, want) {
				t.Fatalf("while the server could not save, the bot was asked %d times (%v ...), want %v", len(ev), ev[:min(len(ev), 4)], want)
			}
			if rec.Status != store.StatusPlaying {
				t.Fatalf("status %s", rec.Status)
			}

			fault.set(false)
			e.until("alice's turn", func() bool { return alice.myTurn(g) })
			if ev := farm.events(); !slices.Equal(ev, []string{"bot1 sense", "bot1 move"}) {
				t.Errorf("the bot was asked %v over its turn", ev)
			}
			rec, err = e.store.API().GetAPIGame(id)
			if err != nil {
				t.Fatal(err)
			}
			if rec.History == "" || rec.Status != store.StatusPlaying {
				t.Errorf("after the server could save again: status %s, history %q", rec.Status, rec.History)
			}
		})
	}
}

// countRefused are store hooks counting the writes the database refused
// in n.
func countRefused(n *atomic.Int32) store.Hooks {
	return store.Hooks{Wrote: func(err error) {
		if err != nil {
			n.Add(1)
		}
	}}
}

// TestAPIFlagSaveRetried: a game the clock ends while the database
// refuses is recorded as over as soon as it can save again, with nobody
// calling the API meanwhile.
func TestAPIFlagSaveRetried(t *testing.T) {
	farm := &botFarm{think: time.Millisecond}
	refused := &atomic.Int32{}
	e := newEnv(t, envOpts{newBot: farm.newBot, rbcClock: 1500 * time.Millisecond, rbcIncrement: time.Millisecond,
		saveRetryFirst: 20 * time.Millisecond, saveRetryMax: 100 * time.Millisecond, storeHooks: countRefused(refused)})
	fault := newDBFault(t, e)
	alice := e.apiClient("alice", "correct horse")
	alice.register()
	id := alice.invite("knightwatch", false) // the bot plays White at once
	g := fmt.Sprintf("/api/games/%d/", id)
	alice.must("POST", g+"ready", map[string]any{}, "", nil)
	e.until("alice's turn", func() bool { return alice.myTurn(g) })
	// Alice never plays: her clock runs out with the database refusing
	// the end's saves.
	fault.set(true)
	e.until("the end on time refused several times", func() bool { return refused.Load() >= 3 })
	rec, err := e.store.API().GetAPIGame(id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status == store.StatusOver {
		t.Fatal("the end was saved while the database refused")
	}
	fault.set(false)
	e.until("the end on time saved", func() bool {
		rec, err := e.store.API().GetAPIGame(id)
		return err == nil && rec.Status == store.StatusOver
	})
	rec, _ = e.store.API().GetAPIGame(id)
	if rec.Reason.WinReason != recon.Timeout || rec.Result != "1-0" {
		t.Errorf("saved as %s %s (white %s, history %s), want 1-0 on TIMEOUT", rec.Result, rec.Reason, rec.WhiteName, rec.History)
	}
}
