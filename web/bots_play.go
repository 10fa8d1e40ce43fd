package web

import (
	"errors"
	"fmt"
	"net/http"

	"knightwatch/live"
	"knightwatch/play"
	"knightwatch/rbcapi"
	"knightwatch/store"
)

// A person with an account of the API can sign in on /bots, invite a
// connected bot or accept a bot's invitation, and play that game on the
// Reconnaissance Chess board: the page's WebSocket (/ws/api/ID) is one
// more way to act for the person's seat of the API game, beside the HTTP
// calls a bot makes (rbcapi's Seat takes its messages). The game is an
// API game like any other: on the server's clock, which runs whether or
// not the tab is open.

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
	u, e := s.api.Login(r.PostFormValue("username"), r.PostFormValue("password"), s.clientAddr(r))
	if e != nil {
		s.renderBots(w, r, e.Status, "Could not sign in: "+e.Message)
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
	id, e := s.api.InviteInPerson(u, r.PostFormValue("opponent"), white)
	if e != nil {
		s.renderBots(w, r, e.Status, "Could not invite: "+e.Message)
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
	id, e := s.api.AcceptInPerson(u, r.PathValue("id"))
	if e != nil {
		s.renderBots(w, r, e.Status, "Could not accept: "+e.Message)
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/bots/games/%d/play", id), http.StatusSeeOther)
}

// personalSeat finds the signed-in person's seat at the API game of the
// request's path, answering 404 in words when there is none.
func (s *Server) personalSeat(w http.ResponseWriter, r *http.Request) (*rbcapi.Seat, *store.User, bool) {
	u := s.signedInUser(r)
	seat, err := s.api.SeatOf(r.PathValue("id"), u)
	if errors.Is(err, rbcapi.ErrNoSeat) {
		s.missing(w, r, notYoursTitle, noBotGameText)
		return nil, nil, false
	}
	if err != nil {
		s.serverError(w, err)
		return nil, nil, false
	}
	return seat, u, true
}

// handleBotsPlay is the board page of an API game for the person.
func (s *Server) handleBotsPlay(w http.ResponseWriter, r *http.Request) {
	seat, _, ok := s.personalSeat(w, r)
	if !ok {
		return
	}
	s.render(w, http.StatusOK, pageRecon, &ReconGameData{
		ID: fmt.Sprintf("a%d", seat.Game()), WSURL: s.wsURL(r, fmt.Sprintf("/ws/api/%d", seat.Game())),
		OpponentName: seat.Opponent(), Human: seat.Color().String(), APIGame: true,
	})
}

// handleAPIWS is the WebSocket of an API game played in the browser: a
// subscriber of the game's host, for the user's seat. It is counted among
// the API tabs (hub.api), which signing out hangs up.
func (s *Server) handleAPIWS(w http.ResponseWriter, r *http.Request) {
	seat, u, ok := s.personalSeat(w, r)
	if !ok {
		return
	}
	release := s.acquireSocket(w, socketOwner(r, s, u), fmt.Sprintf("a%d", seat.Game()))
	if release == nil {
		return
	}
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		release()
		return
	}
	cl := &client{srv: s, conn: conn, send: make(chan []byte, s.sendQueueLen()), done: make(chan struct{}), seat: seat, user: u,
		release: release, viewer: live.PlayerOf(seat.Color())}
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
	h, err := seat.Join(cl)
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
	go cl.writePump()
	go s.readPump(cl)
}
