package play

import (
	"errors"
	"time"

	"knightwatch/live"
)

// Games a visitor started and never played are dropped (issue 41 item 3).
// A client may start games without keeping a cookie, each time as a new
// owner; the per-address limit (web's creation_limits.go) bounds how
// fast, and this bounds how long such games stay: a game against the engine or in
// Reconnaissance Chess in which its player never acted (no move, no sense;
// the engine's or the bot's first turn does not count, store/untouched.go)
// is deleted, row and all, UntouchedAfter after it was created. A person
// who starts a game and plays a move keeps it as long as they like; one
// who never does loses nothing that a new game would not give back.
const (
	// DefaultUntouchedAfter is Config.UntouchedAfter's default.
	DefaultUntouchedAfter = 24 * time.Hour
	// untouchedSweepEvery is how often the sweep runs (and once at start).
	untouchedSweepEvery = time.Hour
	// untouchedBatch is how many games one statement deletes.
	untouchedBatch = 100
)

// runUntouchedSweeper drops untouched games at start and every
// untouchedSweepEvery until the server closes.
func (gs *Games) runUntouchedSweeper() {
	tick := time.NewTicker(untouchedSweepEvery)
	defer tick.Stop()
	after := gs.cfg.UntouchedAfter
	for {
		now := time.Now()
		n, err := gs.DropUntouched(now.Add(-after))
		if err != nil {
			gs.logf("untouched games: %v", err)
		} else if n > 0 {
			gs.logf("dropped %d games their players never played, started more than %v ago", n, after)
		}
		if gs.cfg.Hooks.Swept != nil {
			gs.cfg.Hooks.Swept(n)
		}
		select {
		case <-gs.ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// DropUntouched deletes the untouched games created before before and
// returns how many: what the sweep does every hour. A game a tab has
// open, or is opening or closing (its gate taken), is left for the next
// sweep; the others' gates are held while they are deleted, so that no
// tab opens one meanwhile.
func (gs *Games) DropUntouched(before time.Time) (int64, error) {
	var dropped int64
	for after := ""; gs.ctx.Err() == nil; {
		ids, err := gs.cfg.Store.Games().UntouchedGames(before, after, untouchedBatch)
		if err != nil || len(ids) == 0 {
			return dropped, err
		}
		after = ids[len(ids)-1]
		err = gs.reg.TryGates(ids, func(free []string) error {
			n, err := gs.cfg.Store.Games().DropUntouchedGames(free, before)
			dropped += n
			return err
		})
		if errors.Is(err, live.ErrStopped) {
			break
		}
		if err != nil {
			return dropped, err
		}
	}
	return dropped, nil
}
