package web

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/sessions"

	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/play"
	"knightwatch/store"
)

// A person with an account of the API can sign in on /bots, invite a
// connected bot or accept a bot's invitation, and play that game on the
// Reconnaissance Chess board: the page's WebSocket (/ws/api/ID) is one
// more way to act for the person's seat of the API game, beside the HTTP
// calls a bot makes. The game is an API game like any other: on the
// server's clock, which runs whether or not the tab is open.

// The session's values for a signed-in account: its ID and the session
// generation it was signed in under (store.User.SessionGen).
const (
	userKey = "user"
	genKey  = "gen"
)

// signedInUser returns the account the session is signed in to, or nil.
// The cookie is signed, but it is also checked against the account's
// session generation, which signing out moves on: a cookie from before
// the last sign-out is no session. The account is read on every request
// anyway, so the check costs nothing more.
func (s *Server) signedInUser(r *http.Request) *store.User {
	sess, err := s.cookies.Get(r, SessionCookie)
	if err != nil || sess.IsNew {
		return nil
	}
	id, ok := sess.Values[userKey].(int64)
	if !ok || id <= 0 {
		return nil
	}
	gen, _ := sess.Values[genKey].(int64) // absent in cookies older than generations: 0
	u, err := s.store.UserByID(id)
	if err != nil || u.Builtin != "" || u.SessionGen != gen {
		return nil
	}
	return u
}

// setSignedIn signs the session in to u (nil: out), keeping its owner key
// (a session without a valid one gets a fresh one, never the decoded,
// possibly forged, values). Signing out is setSignedOut.
func (s *Server) setSignedIn(w http.ResponseWriter, r *http.Request, u *store.User) error {
	owner := s.currentOwner(r)
	sess, err := s.cookies.Get(r, SessionCookie)
	if err != nil || sess.IsNew || owner == "" {
		sess = sessions.NewSession(s.cookies, SessionCookie)
		sess.IsNew = true
		owner = newOwnerKey()
	}
	sess.Values[ownerKey] = owner
	if u == nil {
		delete(sess.Values, userKey)
		delete(sess.Values, genKey)
	} else {
		sess.Values[userKey] = u.ID
		sess.Values[genKey] = u.SessionGen
	}
	return s.saveSession(w, r, sess)
}

// setSignedOut ends the session's account's sessions on the server, in
// every browser (a copy of the cookie taken before included), closes the
// account's open game sockets, and signs the session out.
func (s *Server) setSignedOut(w http.ResponseWriter, r *http.Request) error {
	if u := s.signedInUser(r); u != nil {
		if err := s.store.EndSessions(u.ID); err != nil {
			return err
		}
		s.closeUserSockets(u.ID)
	}
	return s.setSignedIn(w, r, nil)
}

// closeUserSockets hangs up the API games' sockets of the user's browser
// sessions; their readPumps take them out of their games.
func (s *Server) closeUserSockets(userID int64) {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	for c := range s.hub.api {
		if c.user != nil && c.user.ID == userID {
			c.conn.Close()
		}
	}
}

// handleBotsLogin signs a person in with the account's name and password,
// under the same limits on failures as the API.
func (s *Server) handleBotsLogin(w http.ResponseWriter, r *http.Request) {
	if !s.parseFormPost(w, r) {
		return
	}
	req := r.Clone(r.Context())
	req.Header = r.Header.Clone()
	req.SetBasicAuth(r.PostFormValue("username"), r.PostFormValue("password"))
	u, e := s.authenticate(req, time.Now())
	if e != nil {
		s.renderBots(w, r, e.status, "Could not sign in: "+e.msg)
		return
	}
	if err := s.setSignedIn(w, r, u); err != nil {
		s.serverError(w, err)
		return
	}
	http.Redirect(w, r, "/bots#play-card", http.StatusSeeOther)
}

func (s *Server) handleBotsLogout(w http.ResponseWriter, r *http.Request) {
	if !s.parseFormPost(w, r) {
		return
	}
	if err := s.setSignedOut(w, r); err != nil {
		s.serverError(w, err)
		return
	}
	http.Redirect(w, r, "/bots", http.StatusSeeOther)
}

// renderBots shows /bots with an error line.
func (s *Server) renderBots(w http.ResponseWriter, r *http.Request, status int, msg string) {
	d, err := s.botsData(r)
	if err != nil {
		s.serverError(w, err)
		return
	}
	d.Error = msg
	s.render(w, status, pageBots, d)
}

// signedInPost checks a form post of a signed-in person.
func (s *Server) signedInPost(w http.ResponseWriter, r *http.Request) (*store.User, bool) {
	if !s.parseFormPost(w, r) {
		return nil, false
	}
	u := s.signedInUser(r)
	if u == nil {
		s.renderBots(w, r, http.StatusUnauthorized, "Sign in first.")
		return nil, false
	}
	return u, true
}

// handleBotsInvite invites a bot for the signed-in person, who is ready at
// once, and opens the game.
func (s *Server) handleBotsInvite(w http.ResponseWriter, r *http.Request) {
	u, ok := s.signedInPost(w, r)
	if !ok {
		return
	}
	white := r.PostFormValue("color") != "black"
	if r.PostFormValue("color") == "random" {
		white = play.NewSeed()%2 == 0
	}
	id, e := s.invite(u, r.PostFormValue("opponent"), white)
	if e == nil {
		e = s.readyInPerson(id, u)
	}
	if e != nil {
		s.renderBots(w, r, e.status, "Could not invite: "+e.msg)
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/bots/games/%d/play", id), http.StatusSeeOther)
}

// handleBotsAccept accepts an invitation to the signed-in person and opens
// the game.
func (s *Server) handleBotsAccept(w http.ResponseWriter, r *http.Request) {
	u, ok := s.signedInPost(w, r)
	if !ok {
		return
	}
	inv, e := s.myInvitation(r, u)
	if e == nil && inv.Accepted {
		e = apiErr(http.StatusBadRequest, "that invitation was accepted already")
	}
	if e == nil {
		inv.Accepted = true
		if err := s.store.SetInvitation(inv); err != nil {
			e = apiErr(http.StatusInternalServerError, "could not accept; try again")
		}
	}
	if e == nil {
		e = s.readyInPerson(inv.GameID, u)
	}
	if e != nil {
		s.renderBots(w, r, e.status, "Could not accept: "+e.msg)
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/bots/games/%d/play", inv.GameID), http.StatusSeeOther)
}

// readyInPerson says the person is ready in game id.
func (s *Server) readyInPerson(id int64, u *store.User) *apiError {
	t, err := s.apiTableFor(id)
	if err != nil {
		return apiErr(http.StatusInternalServerError, "could not load the game")
	}
	c, ok := t.colorOf(u.ID)
	if !ok {
		return apiErr(http.StatusUnauthorized, "you are not a player in game %d", id)
	}
	return t.ready(c, time.Now())
}

// personalTable loads game id for the signed-in person playing in it.
func (s *Server) personalTable(w http.ResponseWriter, r *http.Request) (*apiTable, *store.User, game.Color, bool) {
	u := s.signedInUser(r)
	id, ok := pathID(r, "id")
	if u == nil || !ok {
		s.missing(w, r, notYoursTitle, noBotGameText)
		return nil, nil, 0, false
	}
	t, err := s.apiTableFor(id)
	if errors.Is(err, store.ErrNotFound) {
		s.missing(w, r, notYoursTitle, noBotGameText)
		return nil, nil, 0, false
	}
	if err != nil {
		s.serverError(w, err)
		return nil, nil, 0, false
	}
	c, ok := t.colorOf(u.ID)
	if !ok {
		s.missing(w, r, notYoursTitle, noBotGameText)
		return nil, nil, 0, false
	}
	return t, u, c, true
}

// handleBotsPlay is the board page of an API game for the person.
func (s *Server) handleBotsPlay(w http.ResponseWriter, r *http.Request) {
	t, _, c, ok := s.personalTable(w, r)
	if !ok {
		return
	}
	s.render(w, http.StatusOK, pageRecon, &ReconGameData{
		ID: fmt.Sprintf("a%d", t.id), WSURL: s.wsURL(r, fmt.Sprintf("/ws/api/%d", t.id)),
		OpponentName: t.names[c.Other()], Human: c.String(), APIGame: true,
	})
}

// handleAPIWS is the WebSocket of an API game played in the browser: a
// subscriber of the game's host, for the user's seat.
func (s *Server) handleAPIWS(w http.ResponseWriter, r *http.Request) {
	t, u, c, ok := s.personalTable(w, r)
	if !ok {
		return
	}
	release := s.acquireSocket(w, socketOwner(r, s, u), fmt.Sprintf("a%d", t.id))
	if release == nil {
		return
	}
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		release()
		return
	}
	cl := &client{srv: s, conn: conn, send: make(chan []byte, s.sendQueueLen()), done: make(chan struct{}), apiTable: t, seat: c, user: u,
		release: release, viewer: live.PlayerOf(c)}
	s.hub.mu.Lock()
	if s.closed {
		s.hub.mu.Unlock()
		release()
		conn.Close()
		return
	}
	s.conns.Add(1)
	s.hub.api[cl] = struct{}{}
	s.hub.mu.Unlock()
	h, err := s.reg.Join(apiKey(t.id), cl)
	if err != nil {
		s.hub.mu.Lock()
		delete(s.hub.api, cl)
		s.hub.mu.Unlock()
		s.conns.Done()
		release()
		conn.Close()
		return
	}
	cl.host = h
	s.api.touch(s, u, time.Now())
	go cl.writePump()
	go s.readPump(cl)
}

// apiSendState sends the person's tab its state as it is: from the game's
// host, or, once the game has ended and its host closed, from the record.
func (s *Server) apiSendState(c *client) {
	if !c.host.Closed() {
		c.host.SendState(c)
		return
	}
	_ = c.apiTable.read(func(g *apiGame, m live.Moment) { c.trySend(g.View(c.viewer, m)) })
}

// apiBrowserMessage applies one message of the person's tab of an API
// game, as the API's calls for the person's seat would.
func (s *Server) apiBrowserMessage(c *client, m play.ReconMessage) {
	s.api.touch(s, c.user, time.Now())
	if m.Type == play.ReconMsgSync {
		s.apiSendState(c)
		return
	}
	e := c.apiTable.act(func(g *apiGame, _ time.Time) error {
		if play.ReconNeedsSeq(m.Type) {
			if at := play.SeqFor(g.Arbiter, c.seat); m.Seq != at {
				return &apiError{status: http.StatusBadRequest, code: play.CodeStale, msg: fmt.Sprintf("message for action %d, but the game is at action %d", m.Seq, at)}
			}
		}
		switch m.Type {
		case play.ReconMsgSense:
			_, err := g.sense(c.seat, m.Square)
			return err
		case play.ReconMsgMove:
			_, err := g.move(c.seat, m.Move, true)
			return err
		case play.ReconMsgResign:
			return g.resign(c.seat)
		case play.ReconMsgMarker:
			if perr := play.MarkerRefusal(m.Piece, c.seat); perr != nil {
				return &apiError{status: http.StatusBadRequest, msg: perr.Message, code: perr.Code}
			}
			g.setMarker(c.seat, m.Square, m.Piece)
			return nil
		case play.ReconMsgRematch:
			return apiErr(http.StatusBadRequest, "games of the API have no rematch; invite again from the Bots page")
		}
		return apiErr(http.StatusBadRequest, "unknown message type %q", m.Type)
	})
	if e != nil {
		if e.status >= 500 && m.Type == play.ReconMsgMarker {
			e = apiErr(http.StatusInternalServerError, "could not save the note")
		}
		c.trySend(play.EncodeError(browserErr(e)))
	}
	if e != nil || m.Type == play.ReconMsgMarker {
		// A refusal, or a note that changes nothing, is answered with the
		// state as it is.
		s.apiSendState(c)
	}
}

// browserErr turns an API refusal into the page's protocol error.
func browserErr(e *apiError) *play.ProtoError {
	switch {
	case e.code != "":
		return play.Errorf(e.code, "%s", e.msg)
	case strings.Contains(e.msg, "not your turn"):
		return play.Errorf(play.CodeNotYourTurn, "%s", e.msg)
	case strings.Contains(e.msg, "over"), strings.Contains(e.msg, "called off"):
		return play.Errorf(play.CodeGameOver, "%s", e.msg)
	case strings.Contains(e.msg, "move action"):
		return play.Errorf(play.CodeIllegalMove, "%s", e.msg)
	case e.status >= 500:
		return play.Errorf(play.CodeServer, "%s", e.msg)
	}
	return play.Errorf(play.CodeWrongPhase, "%s", e.msg)
}
