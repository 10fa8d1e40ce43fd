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
}

// loadReconHost reads Reconnaissance Chess game id and builds its host:
// the arbiter from the history, the bot by feeding it its side of the
// history (no lock held).
func (gs *Games) loadReconHost(id string) (*live.Host, error) {
	gs.hookLoad(id)
	rec, err := gs.cfg.Store.GetReconGame(id)
	if err != nil {
		return nil, err
	}
	if rec.Status == store.StatusDeleted {
		return nil, ErrDeleted
	}
	g, bot, err := gs.newReconGame(rec)
	if err != nil {
		return nil, err
	}
	var autos [2]live.Automaton
	autos[g.human.Other()] = bot
	return live.NewHost(gs.HostConfig(rec.ID, false), g, autos), nil
}

// newReconGame rebuilds rec's game and its bot.
func (gs *Games) newReconGame(rec *store.ReconGame) (*reconGame, *ReconBot, error) {
	human := rec.Human.Color
	player, err := gs.cfg.NewBot(rec.Opponent, rec.Seed)
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
	arb, err := gs.RestoreArbiter(reconConfig(rec), h, rec.WhiteMS, rec.BlackMS, rec.ClockSince, player, human.Other())
	if err != nil {
		CloseBot(player)
		return nil, nil, fmt.Errorf("game %s: %w", rec.ID, err)
	}
	g := &reconGame{ReconRules: ReconRules{Arbiter: arb}, games: gs, rec: *rec, human: human, markers: map[string]string{}}
	if err := json.Unmarshal([]byte(rec.Markers), &g.markers); err != nil {
		g.markers = map[string]string{}
	}
	bot := gs.newReconBot(rec.ID, player, human.Other(), &g.ReconRules, rec.Owner)
	bot.pause = true
	return g, bot, nil
}

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
	if err := g.games.cfg.Store.SaveReconGame(&rec); err != nil {
		return err
	}
	g.rec = rec
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
		return EncodeNotice(ReconBotUnsavedNotice)
	case live.EndUnsaved:
		return EncodeNotice(FlagUnsavedNotice)
	}
	return EncodeNotice(SavedAgainNotice)
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

// errStale refuses a sense or a move meant for an earlier moment.
type errStale struct{ sent, at int }

func (e errStale) Error() string {
	return fmt.Sprintf("message for action %d, but the game is at action %d", e.sent, e.at)
}

// reconMessage applies one message of the person's tab at seat s to game
// g.
func (gs *Games) reconMessage(s *Seat, g *reconGame, m ReconMessage) {
	h := s.host
	switch m.Type {
	case ReconMsgSync:
		h.SendState(s.tab)
		return
	case ReconMsgRematch:
		var owner string
		var rec store.ReconGame
		h.Read(func(live.Game, live.Moment) { owner, rec = g.rec.Owner, g.rec })
		gs.reconRematch(s, owner, &rec)
		return
	}
	unsaved := map[string]string{ReconMsgSense: SenseUnsavedText, ReconMsgMove: MoveUnsavedText,
		ReconMsgResign: ResignUnsavedText, ReconMsgMarker: MarkerUnsavedText}[m.Type]
	err := h.Act(func(time.Time) error {
		if ReconNeedsSeq(m.Type) {
			if at := SeqFor(g.Arbiter, g.human); m.Seq != at {
				return errStale{m.Seq, at}
			}
		}
		switch m.Type {
		case ReconMsgSense:
			if err := g.humanTurn(); err != nil {
				return err
			}
			_, err := g.Arbiter.Sense(m.Square)
			return err
		case ReconMsgMove:
			if err := g.humanTurn(); err != nil {
				return err
			}
			if _, err := g.Arbiter.Move(m.Move); err != nil {
				return err
			}
			if g.Arbiter.Phase() == recon.PhaseEndTurn {
				return g.Arbiter.EndTurn()
			}
			return nil
		case ReconMsgResign:
			if g.over() || g.Arbiter.IsOver() {
				return Errorf(CodeGameOver, "the game is over")
			}
			return g.Arbiter.Resign(g.human)
		case ReconMsgMarker:
			return g.setMarker(m.Square, m.Piece)
		}
		return Errorf(CodeUnknownType, "unknown message type %q", m.Type)
	})
	if err == nil {
		if m.Type == ReconMsgMarker {
			// A note that changes nothing (the same again) is answered too.
			h.SendState(s.tab)
		}
		return
	}
	perr := reconRefusal(err, unsaved)
	if perr == nil {
		return // the game closed as the message came: the tab is going
	}
	s.tab.Send(EncodeError(perr))
	var stale errStale
	if errors.As(err, &stale) || perr.Code == CodeGameOver {
		h.SendState(s.tab)
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
		return Errorf(CodeServer, "%s", unsaved)
	case errors.Is(err, live.ErrEndUnsaved):
		return Errorf(CodeServer, "%s", FlagUnsavedNotice)
	case errors.Is(err, live.ErrTimeUp):
		return Errorf(CodeGameOver, "the game is over")
	case errors.As(err, &stale):
		return Errorf(CodeStale, "%s", stale.Error())
	case errors.As(err, &perr):
		return perr
	}
	return ArbiterRefusal(err)
}

// humanTurn refuses the person's sense or move when it is not theirs to
// make.
func (g *reconGame) humanTurn() error {
	if g.over() || g.Arbiter.IsOver() {
		return Errorf(CodeGameOver, "the game is over")
	}
	if g.Arbiter.Turn() != g.human {
		return Errorf(CodeNotYourTurn, "it is the opponent's turn")
	}
	return nil
}

// maxMarkers bounds the person's notes (one per square at most anyway).
const maxMarkers = 64

// setMarker sets or clears the person's note on s.
func (g *reconGame) setMarker(s game.Square, p game.Piece) error {
	if perr := MarkerRefusal(p, g.human); perr != nil {
		return perr
	}
	name := s.String()
	if p == game.NoPiece {
		delete(g.markers, name)
	} else {
		g.markers[name] = PieceCode(p)
	}
	if len(g.markers) > maxMarkers {
		delete(g.markers, name)
	}
	return nil
}

// reconRematch creates the rematch of rec (colours swapped) for owner,
// when the seat's tab may create a game, and sends the tab there.
func (gs *Games) reconRematch(s *Seat, owner string, rec *store.ReconGame) {
	if !s.tab.MayCreate(owner) {
		return
	}
	next := &store.ReconGame{
		Owner: owner, Human: store.ColorOf(rec.Human.Other()), Opponent: rec.Opponent, Seed: NewSeed(),
		ClockInitialMS: rec.ClockInitialMS, ClockIncrementMS: rec.ClockIncrementMS,
		WhiteMS: rec.ClockInitialMS, BlackMS: rec.ClockInitialMS,
	}
	if err := gs.cfg.Store.CreateReconGame(next); err != nil {
		gs.logf("rematch of %s: %v", rec.ID, err)
		s.tab.Send(EncodeError(Errorf(CodeServer, "%s", RematchUnsavedText)))
		return
	}
	s.tab.Send(EncodeRedirect("/game/" + next.ID))
}
