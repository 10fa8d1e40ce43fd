package play

import (
	"errors"
	"fmt"
	"time"

	"knightwatch/live"
	"knightwatch/store"
)

// errStalePly refuses a message meant for an earlier ply.
type errStalePly struct{ sent, at int }

func (e errStalePly) Error() string {
	return fmt.Sprintf("message for ply %d, but the game is at ply %d", e.sent, e.at)
}

// chessMessage applies one message of the person's tab at seat s to
// game g.
func (gs *Games) chessMessage(s *Seat, g *chessGame, m Message) {
	h := s.host
	switch m.Type {
	case MsgSync:
		h.SendState(s.tab)
		return
	case MsgRematch:
		var rec store.Game
		h.Read(func(live.Game, live.Moment) { rec = g.rec })
		gs.chessRematch(s, &rec)
		return
	case MsgDraw:
		gs.offerDraw(s, g, m.Ply)
		return
	}
	unsaved := map[string]string{MsgMove: MoveUnsavedText, MsgResign: ResignUnsavedText, MsgTakeback: TakebackUnsavedText}[m.Type]
	err := h.Act(func(now time.Time) error {
		if needsPly[m.Type] && m.Ply != g.g.Len() {
			return errStalePly{m.Ply, g.g.Len()}
		}
		switch m.Type {
		case MsgMove:
			return g.humanMove(m.Move, now)
		case MsgResign:
			return g.resign(now)
		case MsgTakeback:
			return g.takeback(now)
		}
		return Errorf(CodeUnknownType, "unknown message type %q", m.Type)
	})
	if err == nil {
		return
	}
	perr := chessRefusal(err, unsaved)
	if perr == nil {
		return // the game closed as the message came: the tab is going
	}
	s.tab.Send(EncodeError(perr))
	var stale errStalePly
	if errors.As(err, &stale) || perr.Code == CodeGameOver {
		h.SendState(s.tab)
	}
}

// chessRefusal words a refused action of the person; nil when the game
// has closed.
func chessRefusal(err error, unsaved string) *ProtoError {
	if perr, ok := hostRefusal(err, unsaved, "time is up"); ok {
		return perr
	}
	var perr *ProtoError
	var stale errStalePly
	switch {
	case errors.As(err, &stale):
		return Errorf(CodeStale, "%s", stale.Error())
	case errors.As(err, &perr):
		return perr
	}
	return Errorf(CodeServer, "%v", err)
}

// hostRefusal words the refusals of the game's host (live's errors), the
// same in chess and in Reconnaissance Chess but for timeUp, the words when
// the mover's time had run out; ok is false for any other error. A nil
// refusal with ok means the game has closed.
func hostRefusal(err error, unsaved, timeUp string) (perr *ProtoError, ok bool) {
	switch {
	case errors.Is(err, live.ErrClosed):
		return nil, true
	case errors.Is(err, live.ErrUnsaved):
		return Errorf(CodeServer, "%s", unsaved), true
	case errors.Is(err, live.ErrEndUnsaved):
		return Errorf(CodeServer, "%s", FlagUnsavedNotice), true
	case errors.Is(err, live.ErrTimeUp):
		return Errorf(CodeGameOver, "%s", timeUp), true
	case errors.Is(err, live.ErrConflict):
		return Errorf(CodeStale, "%s", ConflictWords), true
	}
	return nil, false
}

// chessRematch creates the rematch of rec (colours swapped), when the
// seat's tab may create a game, and sends the tab there.
func (gs *Games) chessRematch(s *Seat, rec *store.Game) {
	owner := rec.Owner
	if now, err := gs.cfg.Store.Games().GetGame(rec.ID); err == nil {
		owner = now.Owner // signing in moves a game to the account while its host holds the old owner
	}
	if !s.tab.MayCreate(owner) {
		return
	}
	next := &store.Game{
		Owner: owner, Variant: rec.Variant, StartFEN: rec.StartFEN, Human: store.ColorOf(rec.Human.Other()),
		Level: rec.Level, ClockInitialMS: rec.ClockInitialMS, ClockIncrementMS: rec.ClockIncrementMS,
		WhiteMS: rec.ClockInitialMS, BlackMS: rec.ClockInitialMS,
	}
	if err := gs.cfg.Store.Games().CreateGame(next); err != nil {
		gs.logf("rematch of %s: %v", rec.ID, err)
		s.tab.Send(EncodeError(Errorf(CodeServer, "%s", RematchUnsavedText)))
		return
	}
	s.tab.Send(encodeRedirect("/game/" + next.ID))
}
