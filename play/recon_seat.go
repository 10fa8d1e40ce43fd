package play

import (
	"errors"
	"fmt"
	"time"

	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/recon"
	"knightwatch/store"
)

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
	if perr, ok := hostRefusal(err, unsaved, "the game is over"); ok {
		return perr
	}
	var perr *ProtoError
	var stale errStale
	switch {
	case errors.As(err, &stale):
		return Errorf(CodeStale, "%s", stale.Error())
	case errors.As(err, &perr):
		return perr
	}
	return arbiterRefusal(err)
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
	if now, err := gs.cfg.Store.Games().GetReconGame(rec.ID); err == nil {
		owner = now.Owner // signing in moves a game to the account while its host holds the old owner
	}
	if !s.tab.MayCreate(owner) {
		return
	}
	next := &store.ReconGame{
		Owner: owner, Human: store.ColorOf(rec.Human.Other()), Opponent: rec.Opponent, Seed: NewSeed(),
		ClockInitialMS: rec.ClockInitialMS, ClockIncrementMS: rec.ClockIncrementMS,
		WhiteMS: rec.ClockInitialMS, BlackMS: rec.ClockInitialMS,
	}
	if err := gs.cfg.Store.Games().CreateReconGame(next); err != nil {
		gs.logf("rematch of %s: %v", rec.ID, err)
		s.tab.Send(EncodeError(Errorf(CodeServer, "%s", RematchUnsavedText)))
		return
	}
	s.tab.Send(encodeRedirect("/game/" + next.ID))
}
