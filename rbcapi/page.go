package rbcapi

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/play"
	"knightwatch/store"
)

// A person with an account of the API can sign in on the Bots page, invite
// a connected bot or accept a bot's invitation, and play that game on the
// Reconnaissance Chess board: the page's WebSocket is one more way to act
// for the person's seat of the API game, beside the HTTP calls a bot
// makes. The game is an API game like any other: on the server's clock,
// which runs whether or not the tab is open. The page and its socket's
// transport are web's; what the socket's messages do is here (Seat).

// ErrNoSeat: the game does not exist, or the person does not play in it.
var ErrNoSeat = errors.New("rbcapi: no such game of yours")

// InviteInPerson invites opponent for u, who plays White when white is
// set, and says u is ready at once (the person is at the board); it
// returns the game's ID.
func (a *API) InviteInPerson(u *store.User, opponent string, white bool) (int64, *Error) {
	id, e := a.invite(u, opponent, white)
	if e == nil {
		e = a.readyInPerson(id, u)
	}
	return id, e
}

// AcceptInPerson accepts invitation (its ID as the page's path has it),
// sent to u, and says u is ready at once; it returns the game's ID.
func (a *API) AcceptInPerson(u *store.User, invitation string) (int64, *Error) {
	inv, e := a.myInvitation(invitation, u)
	if e == nil && inv.Accepted {
		e = errorf(http.StatusBadRequest, "that invitation was accepted already")
	}
	if e == nil {
		inv.Accepted = true
		if err := a.cfg.Store.API().SetInvitation(inv); err != nil {
			e = errorf(http.StatusInternalServerError, "could not accept; try again")
		}
	}
	if e != nil {
		return 0, e
	}
	return inv.GameID, a.readyInPerson(inv.GameID, u)
}

// readyInPerson says the person is ready in game id.
func (a *API) readyInPerson(id int64, u *store.User) *Error {
	t, err := a.tableFor(id)
	if err != nil {
		return errorf(http.StatusInternalServerError, "could not load the game")
	}
	c, ok := t.colorOf(u.ID)
	if !ok {
		return errorf(http.StatusUnauthorized, "you are not a player in game %d", id)
	}
	return t.ready(c, time.Now())
}

// Seat is a signed-in person's seat at an API game, for the board page and
// its socket: Join subscribes the page's socket, Message takes its
// messages, as the API's calls for the person's seat would.
type Seat struct {
	t    *table
	user *store.User
	c    game.Color
	// tab and host are the socket and the game's host, once joined.
	tab  live.Sub
	host *live.Host
}

// SeatOf returns u's seat at game id (as the page's path has it):
// ErrNoSeat when there is no such game or u does not play in it.
func (a *API) SeatOf(id string, u *store.User) (*Seat, error) {
	n, ok := parseID(id)
	if u == nil || !ok {
		return nil, ErrNoSeat
	}
	t, err := a.tableFor(n)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoSeat
	}
	if err != nil {
		return nil, err
	}
	c, ok := t.colorOf(u.ID)
	if !ok {
		return nil, ErrNoSeat
	}
	return &Seat{t: t, user: u, c: c}, nil
}

// Game returns the game's ID.
func (s *Seat) Game() int64 { return s.t.id }

// Color returns the person's colour.
func (s *Seat) Color() game.Color { return s.c }

// Opponent returns the opponent's username.
func (s *Seat) Opponent() string { return s.t.names[s.c.Other()] }

// Join subscribes tab, the page's socket (its Viewer the person's colour),
// to the game's host, which sends it the state; the person counts as
// connected. The caller leaves through the registry (live.Registry's
// Leave) with the seat's host.
func (s *Seat) Join(tab live.Sub) (*live.Host, error) {
	h, err := s.t.a.reg.Join(apiKey(s.t.id), tab)
	if err != nil {
		return nil, err
	}
	s.tab, s.host = tab, h
	s.t.a.touch(s.user, time.Now())
	return h, nil
}

// Host returns the game's host (nil before Join).
func (s *Seat) Host() *live.Host { return s.host }

// sendState sends the page its state as it is: from the game's host, or,
// once the game has ended and its host closed, from the record.
func (s *Seat) sendState() {
	if !s.host.Closed() {
		s.host.SendState(s.tab)
		return
	}
	_ = s.t.read(func(g *apiGame, m live.Moment) { s.tab.Send(g.View(s.tab.Viewer(), m)) })
}

// Message applies one message of the page's socket (a text frame of
// web/PROTOCOL.md's Reconnaissance Chess messages), as the API's calls for
// the person's seat would; a refusal is answered with an error and the
// state.
func (s *Seat) Message(data []byte) {
	m, perr := play.DecodeReconMessage(data)
	if perr != nil {
		s.tab.Send(play.EncodeError(perr))
		return
	}
	s.t.a.touch(s.user, time.Now())
	if m.Type == play.ReconMsgSync {
		s.sendState()
		return
	}
	e := s.t.act(func(g *apiGame, _ time.Time) error {
		if play.ReconNeedsSeq(m.Type) {
			if at := play.SeqFor(g.Arbiter, s.c); m.Seq != at {
				return &Error{Status: http.StatusBadRequest, code: play.CodeStale, Message: fmt.Sprintf("message for action %d, but the game is at action %d", m.Seq, at)}
			}
		}
		switch m.Type {
		case play.ReconMsgSense:
			_, err := g.sense(s.c, m.Square)
			return err
		case play.ReconMsgMove:
			_, err := g.move(s.c, m.Move, true)
			return err
		case play.ReconMsgResign:
			return g.resign(s.c)
		case play.ReconMsgMarker:
			if perr := play.MarkerRefusal(m.Piece, s.c); perr != nil {
				return &Error{Status: http.StatusBadRequest, Message: perr.Message, code: perr.Code}
			}
			g.setMarker(s.c, m.Square, m.Piece)
			return nil
		case play.ReconMsgRematch:
			return errorf(http.StatusBadRequest, "games of the API have no rematch; invite again from the Bots page")
		}
		return errorf(http.StatusBadRequest, "unknown message type %q", m.Type)
	})
	if e != nil {
		if e.Status >= 500 && m.Type == play.ReconMsgMarker {
			e = errorf(http.StatusInternalServerError, "could not save the note")
		}
		s.tab.Send(play.EncodeError(browserErr(e)))
	}
	if e != nil || m.Type == play.ReconMsgMarker {
		// A refusal, or a note that changes nothing, is answered with the
		// state as it is.
		s.sendState()
	}
}

// browserErr turns an API refusal into the page's protocol error.
func browserErr(e *Error) *play.ProtoError {
	switch {
	case e.code != "":
		return play.Errorf(e.code, "%s", e.Message)
	case strings.Contains(e.Message, "not your turn"):
		return play.Errorf(play.CodeNotYourTurn, "%s", e.Message)
	case strings.Contains(e.Message, "over"), strings.Contains(e.Message, "called off"):
		return play.Errorf(play.CodeGameOver, "%s", e.Message)
	case strings.Contains(e.Message, "move action"):
		return play.Errorf(play.CodeIllegalMove, "%s", e.Message)
	case e.Status >= 500:
		return play.Errorf(play.CodeServer, "%s", e.Message)
	}
	return play.Errorf(play.CodeWrongPhase, "%s", e.Message)
}
