package rbcapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/play"
	"knightwatch/recon"
	"knightwatch/store"
)

// apiGame is a game of the HTTP API as its live.Host drives it: on the
// server's clock, which runs whether or not anyone calls (a bot that stops
// calling loses on time), between two users, one of which may be one of
// Knightwatch's own bots (an automaton of the host). The host calls it
// under its lock only.
type apiGame struct {
	play.ReconRules
	a   *API
	rec store.APIGame // the committed record
	// ids and names are the players' by colour; they never change.
	ids   [2]int64
	names [2]string
	// bot plays the built-in seat (botColor), or is nil; its player is
	// started with the game.
	bot      *play.ReconBot
	botColor game.Color
	botSpec  string // the built-in bot's, for a new player when the game is read again
}

// apiKey is the registry's key of API game id.
func apiKey(id int64) string { return store.APIGameKey(id) }

// apiConfig returns the arbiter configuration of a stored API game.
func apiConfig(rec *store.APIGame) recon.Config {
	return recon.Config{
		Clock:     time.Duration(rec.ClockInitialMS) * time.Millisecond,
		Increment: time.Duration(rec.ClockIncrementMS) * time.Millisecond,
		MoveLimit: 100,
	}
}

// apiHistory is the record of rec so far: its history, or an empty one
// with the players' names before the first move.
func apiHistory(rec *store.APIGame) (*recon.History, error) {
	if rec.History == "" {
		return &recon.History{Names: [2]string{rec.WhiteName, rec.BlackName}}, nil
	}
	h, err := recon.UnmarshalHistory([]byte(rec.History))
	if err != nil {
		return nil, fmt.Errorf("api game %d: %w", rec.ID, err)
	}
	return h, nil
}

// loadKey builds the host of the API game whose registry key is key (the
// registry's loader of the API's games).
func (a *API) loadKey(key string) (*live.Host, error) {
	id, err := strconv.ParseInt(strings.TrimPrefix(key, store.APIIDPrefix), 10, 64)
	if err != nil {
		return nil, store.ErrNotFound
	}
	return a.loadHost(id)
}

// loadHost reads API game id and builds its host (no lock held): the
// arbiter from the record, the built-in seat's bot, if any, fed its side
// of it.
func (a *API) loadHost(id int64) (*live.Host, error) {
	rec, err := a.cfg.Store.API().GetAPIGame(id)
	if err != nil {
		return nil, err
	}
	games := a.cfg.Games
	g := &apiGame{a: a, rec: *rec, ids: [2]int64{rec.WhiteID, rec.BlackID}, names: [2]string{rec.WhiteName, rec.BlackName}}
	var autos [2]live.Automaton
	var player recon.Player
	if !g.over() {
		for c, uid := range g.ids {
			u, err := a.cfg.Store.API().UserByID(uid)
			if err != nil {
				return nil, fmt.Errorf("api game %d: %w", id, err)
			}
			if u.Builtin == "" {
				continue
			}
			if player, err = games.NewPlayer(u.Builtin, rec.Seed); err != nil {
				return nil, fmt.Errorf("api game %d: bot: %w", id, err)
			}
			g.botColor, g.botSpec = game.Color(c), u.Builtin
			g.bot = games.NewReconBot(fmt.Sprintf("api game %d", id), u.Builtin, rec.Seed, player, g.botColor, &g.ReconRules,
				fmt.Sprintf("api-user:%d", g.ids[g.botColor.Other()]))
			autos[c] = g.bot
		}
	}
	if rec.Status == store.StatusWaiting || rec.Status == store.StatusAborted {
		g.Arbiter = recon.NewGame(apiConfig(rec), rec.WhiteName, rec.BlackName)
	} else {
		h, err := apiHistory(rec)
		if err == nil {
			g.Arbiter, err = games.RestoreArbiter(apiConfig(rec), h, rec.TurnOpen, rec.WhiteMS, rec.BlackMS, rec.ClockSince, player, g.botColor)
		}
		if err != nil {
			if player != nil {
				play.CloseBot(player)
			}
			return nil, fmt.Errorf("api game %d: %w", id, err)
		}
	}
	cfg := games.HostConfig(apiKey(id), true)
	cfg.Ended = g.ended
	return live.NewHost(cfg, g, autos), nil
}

// started reports whether both players were ready and the game began.
func (g *apiGame) started() bool {
	return g.rec.Status == store.StatusPlaying || g.rec.Status == store.StatusOver
}

// aborted reports whether the game was called off before it started.
func (g *apiGame) aborted() bool { return g.rec.Status == store.StatusAborted }

// over reports whether the game's end (or its call-off) is committed.
func (g *apiGame) over() bool {
	return g.rec.Status == store.StatusOver || g.rec.Status == store.StatusAborted
}

// Over: the arbiter ended the game, or it was called off.
func (g *apiGame) Over() bool { return g.aborted() || g.Arbiter.IsOver() }

// Mark puts the arbiter and the record back.
func (g *apiGame) Mark() func() {
	arb, rec := g.MarkArbiter(), g.rec
	return func() { arb(); g.rec = rec }
}

// Commit saves the game as the arbiter has it now.
func (g *apiGame) Commit(now time.Time) error {
	rec := g.rec
	if g.started() {
		rec.History = string(recon.MarshalHistory(g.Arbiter.History()))
		rec.WhiteMS, rec.BlackMS, rec.ClockSince = play.ClockRecord(g.Arbiter.Clock())
		rec.TurnOpen = g.Arbiter.Phase() == recon.PhaseEndTurn
	}
	if o := g.Arbiter.Outcome(); o.Over() && rec.Status != store.StatusOver {
		rec.Status, rec.Result, rec.Reason, rec.FinishedAt = play.FinishedFields(o, now)
	}
	if err := g.a.cfg.Store.API().SaveAPIGame(&rec); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return fmt.Errorf("%w: %w", live.ErrConflict, err)
		}
		return err
	}
	g.rec = rec
	return nil
}

// Revision is the committed record's (live.Shared: another server may
// hold the game too).
func (g *apiGame) Revision() int64 { return g.rec.Revision }

// Reload rebuilds the game from its record as another server committed
// it: the arbiter (copied into the one the bot holds), the clock running
// as the record says, and the built-in seat's bot, a new player fed the
// game as it stands (the one it replaces is closed once no turn uses it).
func (g *apiGame) Reload() error {
	rec, err := g.a.cfg.Store.API().GetAPIGame(g.rec.ID)
	if err != nil {
		return err
	}
	games := g.a.cfg.Games
	var player recon.Player
	if g.bot != nil {
		if player, err = games.NewPlayer(g.botSpec, rec.Seed); err != nil {
			return fmt.Errorf("api game %d: bot: %w", rec.ID, err)
		}
	}
	arb := recon.NewGame(apiConfig(rec), rec.WhiteName, rec.BlackName)
	if rec.Status != store.StatusWaiting && rec.Status != store.StatusAborted {
		h, err := apiHistory(rec)
		if err == nil {
			arb, err = games.RestoreArbiter(apiConfig(rec), h, rec.TurnOpen, rec.WhiteMS, rec.BlackMS, nil, player, g.botColor)
		}
		if err != nil {
			if player != nil {
				play.CloseBot(player)
			}
			return fmt.Errorf("api game %d: %w", rec.ID, err)
		}
		if rec.ClockSince != nil {
			if mover, on := (&play.ReconRules{Arbiter: arb}).Turn(); on {
				arb.Clock().Start(mover, *rec.ClockSince)
			}
		}
	}
	*g.Arbiter = *arb
	g.rec = *rec
	if player != nil {
		g.bot.Replace(player)
	}
	return nil
}

// Latest reads the revision the record is committed at now.
func (g *apiGame) Latest() (int64, error) { return g.a.cfg.Store.API().APIGameRevision(g.rec.ID) }

// An API game is shared with the other servers of a site.
var _ live.Shared = (*apiGame)(nil)

// ended runs after the commit that ended the game or called it off (under
// the host's lock): a ranked game is rated (failing that, the
// matchmaker's round rates it later), the invitations to a game called
// off go, and the built-in bot's invitation is marked finished.
func (g *apiGame) ended() {
	if g.rec.Ranked && g.rec.Status == store.StatusOver {
		if err := g.a.cfg.Store.API().RateGame(g.rec.ID); err != nil {
			g.a.logf("game %d: %v", g.rec.ID, err)
		}
	}
	if g.aborted() {
		if err := g.a.cfg.Store.API().CloseGameInvitations(g.rec.ID); err != nil {
			g.a.logf("game %d: %v", g.rec.ID, err)
		}
	}
	if g.bot != nil {
		if err := g.a.cfg.Store.API().FinishGameInvitations(g.rec.ID, g.ids[g.botColor]); err != nil {
			g.a.logf("game %d: %v", g.rec.ID, err)
		}
	}
}

// View is a person's state, for the tabs playing a seat in the browser.
func (g *apiGame) View(v live.Viewer, _ live.Moment) []byte {
	c, _ := v.Color()
	status := g.rec.Status
	switch status {
	case store.StatusWaiting:
		status = store.StatusPlaying
	case store.StatusAborted:
		status = store.StatusOver
	}
	st := play.BuildReconState(g.Arbiter, play.ReconSeat{
		ID: fmt.Sprintf("a%d", g.rec.ID), Human: c, Opponent: g.names[c.Other()], OpponentName: g.names[c.Other()],
		Markers: g.markers(c), Status: status.String(), Result: g.rec.Result, Reason: g.rec.Reason.String(),
		Timed: true, ClockMS: g.rec.ClockInitialMS, IncrementMS: g.rec.ClockIncrementMS,
		HistoryURL: fmt.Sprintf("/bots/games/%d/history.json", g.rec.ID), ReplayURL: fmt.Sprintf("/bots/games/%d/replay", g.rec.ID),
		NotStarted: !g.started(),
	})
	if g.aborted() {
		st.Phase, st.Reason = "over", "ABORTED"
	}
	b, err := json.Marshal(st)
	if err != nil {
		panic("rbcapi: marshal: " + err.Error()) // only play's plain struct gets here
	}
	return b
}

// Notice: the API's games tell nobody in words (their clocks run on).
func (g *apiGame) Notice(live.Notice) []byte { return nil }

// markers returns the person's notes in colour c.
func (g *apiGame) markers(c game.Color) map[string]string {
	all := map[string]map[string]string{}
	_ = json.Unmarshal([]byte(g.rec.Markers), &all)
	m := all[c.String()]
	if m == nil {
		m = map[string]string{}
	}
	return m
}

// setMarker changes the person's note in colour c on sq.
func (g *apiGame) setMarker(c game.Color, sq game.Square, p game.Piece) {
	all := map[string]map[string]string{}
	_ = json.Unmarshal([]byte(g.rec.Markers), &all)
	m := all[c.String()]
	if m == nil {
		m = map[string]string{}
	}
	if p == game.NoPiece {
		delete(m, sq.String())
	} else {
		m[sq.String()] = play.PieceCode(p)
	}
	all[c.String()] = m
	b, _ := json.Marshal(all)
	g.rec.Markers = string(b)
}
