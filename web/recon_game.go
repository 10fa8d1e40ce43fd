package web

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
	reconRules
	srv     *Server
	rec     store.ReconGame // the committed record
	human   game.Color
	markers map[string]string
}

// loadReconHost reads Reconnaissance Chess game id and builds its host:
// the arbiter from the history, the bot by feeding it its side of the
// history (no lock held).
func (s *Server) loadReconHost(id string) (*live.Host, error) {
	rec, err := s.store.GetReconGame(id)
	if err != nil {
		return nil, err
	}
	if rec.Status == store.StatusDeleted {
		return nil, errGameDeleted
	}
	g, bot, err := s.newReconGame(rec)
	if err != nil {
		return nil, err
	}
	var autos [2]live.Automaton
	autos[g.human.Other()] = bot
	return live.NewHost(s.hostConfig(rec.ID, false), g, autos), nil
}

// newReconGame rebuilds rec's game and its bot.
func (s *Server) newReconGame(rec *store.ReconGame) (*reconGame, *reconBot, error) {
	human := rec.Human.Color
	player, err := s.cfg.newBot(rec.Opponent, rec.Seed)
	if err != nil {
		return nil, nil, fmt.Errorf("game %s: bot: %w", rec.ID, err)
	}
	names := [2]string{"You", opponentName(rec.Opponent)}
	if human == game.Black {
		names[0], names[1] = names[1], names[0]
	}
	h := &recon.History{Names: names}
	if rec.History != "" {
		if h, err = recon.UnmarshalHistory([]byte(rec.History)); err != nil {
			closeBot(player)
			return nil, nil, fmt.Errorf("game %s: %w", rec.ID, err)
		}
	}
	arb, err := s.restoreArbiter(reconConfig(rec), h, rec.WhiteMS, rec.BlackMS, rec.ClockSince, player, human.Other())
	if err != nil {
		closeBot(player)
		return nil, nil, fmt.Errorf("game %s: %w", rec.ID, err)
	}
	g := &reconGame{reconRules: reconRules{g: arb}, srv: s, rec: *rec, human: human, markers: map[string]string{}}
	if err := json.Unmarshal([]byte(rec.Markers), &g.markers); err != nil {
		g.markers = map[string]string{}
	}
	bot := &reconBot{srv: s, id: rec.ID, bot: player, color: human.Other(), rules: &g.reconRules, owner: rec.Owner, pause: true}
	return g, bot, nil
}

// hostConfig is the host configuration of game id; always for a game on
// the server's clock (the API's).
func (s *Server) hostConfig(id string, always bool) live.Config {
	return live.Config{
		ID: id, Always: always, Context: s.ctx,
		SaveRetryFirst: s.saveRetryFirst(), SaveRetryMax: s.saveRetryMax(),
		Logf: s.cfg.Logger.Printf,
	}
}

// Mark puts the arbiter, the notes and the record back.
func (g *reconGame) Mark() func() {
	arb := g.markArbiter()
	markers, rec := maps.Clone(g.markers), g.rec
	return func() { arb(); g.markers, g.rec = markers, rec }
}

// Commit saves the game as the arbiter has it now and makes it the
// record.
func (g *reconGame) Commit(now time.Time) error {
	rec := g.rec
	rec.History = string(recon.MarshalHistory(g.g.History()))
	rec.WhiteMS, rec.BlackMS, rec.ClockSince = clockRecord(g.g.Clock())
	markers, _ := json.Marshal(g.markers)
	rec.Markers = string(markers)
	if o := g.g.Outcome(); o.Over() && rec.Status != store.StatusOver {
		rec.Status, rec.Result, rec.Reason, rec.FinishedAt = finishedFields(o, now)
	}
	if err := g.srv.store.SaveReconGame(&rec); err != nil {
		return err
	}
	g.rec = rec
	return nil
}

// View is the person's state (spectators see nothing of a game here).
func (g *reconGame) View(v live.Viewer, m live.Moment) []byte {
	return mustJSON(buildReconState(g.g, reconSeat{
		id: g.rec.ID, human: g.human, opponent: g.rec.Opponent, opponentName: opponentName(g.rec.Opponent), saving: m.Saving,
		markers: g.markers, status: g.rec.Status.String(), result: g.rec.Result, reason: g.rec.Reason.String(),
		timed: g.rec.Timed(), clockMS: g.rec.ClockInitialMS, incrementMS: g.rec.ClockIncrementMS,
		historyURL: "/game/" + g.rec.ID + "/history.json", replayURL: "/game/" + g.rec.ID + "/replay",
	}))
}

// Notice words what the host tells every tab.
func (g *reconGame) Notice(n live.Notice) []byte {
	switch n {
	case live.StepUnsaved:
		return encodeNotice(reconBotUnsavedNotice)
	case live.EndUnsaved:
		return encodeNotice(flagUnsavedNotice)
	}
	return encodeNotice(savedAgainNotice)
}

// over reports whether the game's end is committed.
func (g *reconGame) over() bool { return g.rec.Status == store.StatusOver }

// resignPerson resigns for the person (the list of games).
func (g *reconGame) resignPerson() error {
	if g.over() || g.g.IsOver() {
		return errNotUnfinished
	}
	return g.g.Resign(g.human)
}

// errStale refuses a sense or a move meant for an earlier moment.
type errStale struct{ sent, at int }

func (e errStale) Error() string {
	return fmt.Sprintf("message for action %d, but the game is at action %d", e.sent, e.at)
}

// reconMessage applies one message of the person's tab c to game g.
func (s *Server) reconMessage(c *client, g *reconGame, m ReconMessage) {
	h := c.host
	switch m.Type {
	case ReconMsgSync:
		h.SendState(c)
		return
	case ReconMsgRematch:
		var owner string
		var rec store.ReconGame
		h.Read(func(live.Game, live.Moment) { owner, rec = g.rec.Owner, g.rec })
		s.reconRematch(c, owner, &rec)
		return
	}
	unsaved := map[string]string{ReconMsgSense: senseUnsavedText, ReconMsgMove: moveUnsavedText,
		ReconMsgResign: resignUnsavedText, ReconMsgMarker: markerUnsavedText}[m.Type]
	err := h.Act(func(time.Time) error {
		if reconNeedsSeq[m.Type] {
			if at := seqFor(g.g, g.human); m.Seq != at {
				return errStale{m.Seq, at}
			}
		}
		switch m.Type {
		case ReconMsgSense:
			if err := g.humanTurn(); err != nil {
				return err
			}
			_, err := g.g.Sense(m.Square)
			return err
		case ReconMsgMove:
			if err := g.humanTurn(); err != nil {
				return err
			}
			if _, err := g.g.Move(m.Move); err != nil {
				return err
			}
			if g.g.Phase() == recon.PhaseEndTurn {
				return g.g.EndTurn()
			}
			return nil
		case ReconMsgResign:
			if g.over() || g.g.IsOver() {
				return protoErr(CodeGameOver, "the game is over")
			}
			return g.g.Resign(g.human)
		case ReconMsgMarker:
			return g.setMarker(m.Square, m.Piece)
		}
		return protoErr(CodeUnknownType, "unknown message type %q", m.Type)
	})
	if err == nil {
		if m.Type == ReconMsgMarker {
			// A note that changes nothing (the same again) is answered too.
			h.SendState(c)
		}
		return
	}
	perr := reconRefusal(err, unsaved)
	if perr == nil {
		return // the game closed as the message came: the tab is going
	}
	c.trySend(encodeError(perr))
	var stale errStale
	if errors.As(err, &stale) || perr.Code == CodeGameOver {
		h.SendState(c)
	}
}

// reconRefusal words a refused action of the person: the host's own
// refusals, a stale message, the arbiter's; nil when the game has closed.
func reconRefusal(err error, unsaved string) *ProtoError {
	var perr *ProtoError
	var stale errStale
	switch {
	case errors.Is(err, live.ErrClosed):
		return nil
	case errors.Is(err, live.ErrUnsaved):
		return protoErr(CodeServer, "%s", unsaved)
	case errors.Is(err, live.ErrEndUnsaved):
		return protoErr(CodeServer, "%s", flagUnsavedNotice)
	case errors.Is(err, live.ErrTimeUp):
		return protoErr(CodeGameOver, "the game is over")
	case errors.As(err, &stale):
		return protoErr(CodeStale, "%s", stale.Error())
	case errors.As(err, &perr):
		return perr
	}
	return arbiterErr(err)
}

// humanTurn refuses the person's sense or move when it is not theirs to
// make.
func (g *reconGame) humanTurn() error {
	if g.over() || g.g.IsOver() {
		return protoErr(CodeGameOver, "the game is over")
	}
	if g.g.Turn() != g.human {
		return protoErr(CodeNotYourTurn, "it is the opponent's turn")
	}
	return nil
}

// maxMarkers bounds the person's notes (one per square at most anyway).
const maxMarkers = 64

// setMarker sets or clears the person's note on s.
func (g *reconGame) setMarker(s game.Square, p game.Piece) error {
	if perr := markerRefusal(p, g.human); perr != nil {
		return perr
	}
	name := s.String()
	if p == game.NoPiece {
		delete(g.markers, name)
	} else {
		g.markers[name] = pieceCode(p)
	}
	if len(g.markers) > maxMarkers {
		delete(g.markers, name)
	}
	return nil
}

// reconRematch creates the rematch of rec (colours swapped) for owner and
// sends the tab there.
func (s *Server) reconRematch(c *client, owner string, rec *store.ReconGame) {
	if !s.rematchAllowed(c, owner) {
		return
	}
	next := &store.ReconGame{
		Owner: owner, Human: store.ColorOf(rec.Human.Other()), Opponent: rec.Opponent, Seed: newSeed(),
		ClockInitialMS: rec.ClockInitialMS, ClockIncrementMS: rec.ClockIncrementMS,
		WhiteMS: rec.ClockInitialMS, BlackMS: rec.ClockInitialMS,
	}
	if err := s.store.CreateReconGame(next); err != nil {
		s.logf("rematch of %s: %v", rec.ID, err)
		c.trySend(encodeError(protoErr(CodeServer, "%s", rematchUnsavedText)))
		return
	}
	c.trySend(encodeRedirect("/game/" + next.ID))
}
