package play

import (
	"time"

	"knightwatch/enginepool"
	"knightwatch/experience"
	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/store"
)

// engineSeat is the engine as a live.Automaton: each of its turns is one
// search in the engine pool, as the game owner's work, then the move.
type engineSeat struct {
	games *Games
	g     *chessGame // read and changed only under the host's lock
}

func (e *engineSeat) Close() {}

// Play searches the engine's move, waits for the natural pause (a reply
// found at once still waits a moment, so the person sees their own move
// land first; never longer than the level's time), and plays it if the
// turn is still on.
func (e *engineSeat) Play(t *live.Turn) {
	var (
		pos     game.Position
		hist    []uint64
		req     enginepool.SearchRequest
		owner   string
		id      string
		ply     int
		started time.Time
	)
	if !t.Read(func(_ live.Game, m live.Moment) {
		g := e.g
		pos, hist, ply, owner, id, started = *g.pos(), g.g.HashHistory(), g.g.Len(), g.rec.Owner, g.rec.ID, t.Since()
		req = enginepool.SearchRequest{Level: g.rec.Level, MoveTime: e.games.Level(g.rec.Level).MoveTime, Turn: g.turnKey("reply")}
		if g.rec.Timed() {
			req.WTime, req.BTime = g.clock.Remaining(game.White, m.Now), g.clock.Remaining(game.Black, m.Now)
			req.WInc = g.clock.Increment()
			req.BInc = req.WInc
		}
	}) {
		return
	}
	ctx := t.Context()
	req.Experience = e.games.experienceFor(&pos) // before the request: a search never waits for the database
	res, ok := e.games.cfg.Pool.Search(ctx, owner, id, &pos, hist, req)
	if !ok || ctx.Err() != nil {
		return
	}
	pause := e.games.cfg.ReplyPause
	if req.MoveTime > 0 && pause > req.MoveTime {
		pause = req.MoveTime
	}
	if wait := time.Until(started.Add(pause)); wait > 0 {
		timer := time.NewTimer(wait)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return
		}
	}
	m := res.Move
	if !pos.IsLegal(m) {
		// The engine promises a legal move; if it ever breaks that
		// promise the game must still go on.
		e.games.logf("game %s: engine returned illegal move %v in %s", id, m, pos.FEN())
		var ml game.MoveList
		pos.GenerateLegal(&ml)
		if ml.N == 0 {
			return
		}
		m = ml.Moves[0]
	}
	var notes []store.ExperienceNote
	if m == res.Move {
		notes = experience.Notes(ply, &pos, res.Experience)
	}
	t.Step(func(now time.Time) error {
		if err := e.g.play(m, notes, now); err != nil {
			return err
		}
		if m == res.Move {
			e.g.recordEval(res)
		}
		return nil
	})
}
