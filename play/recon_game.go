package play

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"time"

	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/recon"
	"knightwatch/store"
)

// reconGame is a Reconnaissance Chess game in the browser against a bot,
// as its live.Host drives it: the committed record, the arbiter rebuilt
// from it, and the person's notes. The host calls it under its lock only.
type reconGame struct {
	ReconRules
	games   *Games
	rec     store.ReconGame // the committed record
	human   game.Color
	markers map[string]string
	bot     *ReconBot // the opponent, whose player a reload replaces
}

// loadReconHost reads Reconnaissance Chess game id and builds its host:
// the arbiter from the history, the bot by feeding it its side of the
// history (no lock held).
func (gs *Games) loadReconHost(id string) (*live.Host, error) {
	gs.hookLoad(id)
	rec, err := gs.cfg.Store.Games().GetReconGame(id)
	if err != nil {
		return nil, err
	}
	if rec.Status == store.StatusDeleted {
		return nil, ErrDeleted
	}
	g, bot, err := gs.newReconGame(rec, !gs.runningElsewhere(id, rec.ClockSince))
	if err != nil {
		return nil, err
	}
	var autos [2]live.Automaton
	autos[g.human.Other()] = bot
	return live.NewHost(gs.HostConfig(rec.ID, false), g, autos), nil
}

// newReconGame rebuilds rec's game and its bot (crashed as restoreRecon
// has it).
func (gs *Games) newReconGame(rec *store.ReconGame, crashed bool) (*reconGame, *ReconBot, error) {
	arb, player, err := gs.restoreRecon(rec, crashed)
	if err != nil {
		return nil, nil, err
	}
	human := rec.Human.Color
	g := &reconGame{ReconRules: ReconRules{Arbiter: arb}, games: gs, rec: *rec, human: human, markers: readMarkers(rec.Markers)}
	g.bot = gs.newReconBot(rec.ID, rec.Opponent, rec.Seed, player, human.Other(), &g.ReconRules, rec.Owner)
	g.bot.pause = true
	return g, g.bot, nil
}

// restoreRecon rebuilds rec's arbiter and a new bot fed its side of it.
// After a crash (crashed) the mover is charged the thinking the crash cut
// short and the clock stands still until its host starts it; read again
// after another server's commit, the clock runs as the record says, from
// the moment it says.
func (gs *Games) restoreRecon(rec *store.ReconGame, crashed bool) (*recon.Game, recon.Player, error) {
	human := rec.Human.Color
	player, err := gs.NewPlayer(rec.Opponent, rec.Seed)
	if err != nil {
		return nil, nil, fmt.Errorf("game %s: bot: %w", rec.ID, err)
	}
	names := [2]string{"You", OpponentName(rec.Opponent)}
	if human == game.Black {
		names[0], names[1] = names[1], names[0]
	}
	h := &recon.History{Names: names}
	if rec.History != "" {
		if h, err = recon.UnmarshalHistory([]byte(rec.History)); err != nil {
			CloseBot(player)
			return nil, nil, fmt.Errorf("game %s: %w", rec.ID, err)
		}
	}
	since := rec.ClockSince
	if !crashed {
		since = nil // nothing to charge
	}
	arb, err := gs.RestoreArbiter(reconConfig(rec), h, false, rec.WhiteMS, rec.BlackMS, since, player, human.Other())
	if err != nil {
		CloseBot(player)
		return nil, nil, fmt.Errorf("game %s: %w", rec.ID, err)
	}
	if !crashed || rec.ClockSince == nil {
		// The record's times exactly (the replay's own moments charged
		// nothing), as every server that reads the record has them.
		SettleClock(arb.Clock(), rec.WhiteMS, rec.BlackMS, nil)
	}
	if !crashed && rec.ClockSince != nil {
		if mover, on := (&ReconRules{Arbiter: arb}).Turn(); on {
			arb.Clock().Start(mover, *rec.ClockSince)
		}
	}
	return arb, player, nil
}

// readMarkers decodes a record's markers; a record's that cannot be read
// are none.
func readMarkers(s string) map[string]string {
	m := map[string]string{}
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return map[string]string{}
	}
	return m
}

// Revision is the committed record's (live.Shared: another server may
// hold the game too).
func (g *reconGame) Revision() int64 { return g.rec.Revision }

// Reload rebuilds the game from its record as another server committed
// it: the arbiter (copied into the one the bot holds), the clock running
// as the record says, the notes, and the bot, a new player fed the game
// as it stands (the one it replaces is closed once no turn uses it). A
// deleted game is not read (ErrDeleted).
func (g *reconGame) Reload() error {
	rec, err := g.games.cfg.Store.Games().GetReconGame(g.rec.ID)
	if err != nil {
		return err
	}
	if rec.Status == store.StatusDeleted {
		return ErrDeleted
	}
	arb, player, err := g.games.restoreRecon(rec, false)
	if err != nil {
		return err
	}
	*g.Arbiter = *arb
	g.rec, g.markers = *rec, readMarkers(rec.Markers)
	g.bot.Replace(player)
	return nil
}

// Latest reads the revision the record is committed at now.
func (g *reconGame) Latest() (int64, error) {
	return g.games.cfg.Store.Games().ReconGameRevision(g.rec.ID)
}

// A Reconnaissance Chess game in the browser is shared with the other
// servers of a site.
var _ live.Shared = (*reconGame)(nil)

// Mark puts the arbiter, the notes and the record back.
func (g *reconGame) Mark() func() {
	arb := g.MarkArbiter()
	markers, rec := maps.Clone(g.markers), g.rec
	return func() { arb(); g.markers, g.rec = markers, rec }
}

// Commit saves the game as the arbiter has it now and makes it the
// record.
func (g *reconGame) Commit(now time.Time) error {
	rec := g.rec
	rec.History = string(recon.MarshalHistory(g.Arbiter.History()))
	rec.WhiteMS, rec.BlackMS, rec.ClockSince = ClockRecord(g.Arbiter.Clock())
	markers, _ := json.Marshal(g.markers)
	rec.Markers = string(markers)
	if o := g.Arbiter.Outcome(); o.Over() && rec.Status != store.StatusOver {
		rec.Status, rec.Result, rec.Reason, rec.FinishedAt = FinishedFields(o, now)
	}
	if err := g.games.cfg.Store.Games().SaveReconGame(&rec); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return fmt.Errorf("%w: %w", live.ErrConflict, err)
		}
		return err
	}
	g.rec = rec
	SettleClock(g.Arbiter.Clock(), rec.WhiteMS, rec.BlackMS, rec.ClockSince)
	return nil
}

// View is the person's state (spectators see nothing of a game here).
func (g *reconGame) View(v live.Viewer, m live.Moment) []byte {
	return mustJSON(BuildReconState(g.Arbiter, ReconSeat{
		ID: g.rec.ID, Human: g.human, Opponent: g.rec.Opponent, OpponentName: OpponentName(g.rec.Opponent), Saving: m.Saving,
		Markers: g.markers, Status: g.rec.Status.String(), Result: g.rec.Result, Reason: g.rec.Reason.String(),
		Timed: g.rec.Timed(), ClockMS: g.rec.ClockInitialMS, IncrementMS: g.rec.ClockIncrementMS,
		HistoryURL: "/game/" + g.rec.ID + "/history.json", ReplayURL: "/game/" + g.rec.ID + "/replay",
	}))
}

// Notice words what the host tells every tab.
func (g *reconGame) Notice(n live.Notice) []byte {
	switch n {
	case live.StepUnsaved:
		return encodeNotice(ReconBotUnsavedNotice)
	case live.EndUnsaved:
		return encodeNotice(FlagUnsavedNotice)
	}
	return encodeNotice(SavedAgainNotice)
}

// over reports whether the game's end is committed.
func (g *reconGame) over() bool { return g.rec.Status == store.StatusOver }

// resignPerson resigns for the person (the list of games).
func (g *reconGame) resignPerson() error {
	if g.over() || g.Arbiter.IsOver() {
		return ErrNotUnfinished
	}
	return g.Arbiter.Resign(g.human)
}
