package web

import (
	"errors"
	"fmt"
	"net/http"

	"knightwatch/play"
	"knightwatch/rbcapi"
	"knightwatch/store"
)

// A person signed in to an account (account.go) can, on /bots, invite a
// connected bot or accept a bot's invitation, and play that game on the
// Reconnaissance Chess board: the page's WebSocket (/ws/api/ID) is one
// more way to act for the person's seat of the API game, beside the HTTP
// calls a bot makes (rbcapi's Seat takes its messages). The game is an
// API game like any other: on the server's clock, which runs whether or
// not the tab is open.

// renderBots shows /bots with an error line.
func (s *botsPages) renderBots(w http.ResponseWriter, r *http.Request, status int, msg string) {
	d, err := s.botsData(r)
	if err != nil {
		s.serverError(w, err)
		return
	}
	d.Error = msg
	s.render(w, r, status, pageBots, d)
}

// signedInPost checks a form post of a signed-in person.
func (s *botsPages) signedInPost(w http.ResponseWriter, r *http.Request) (*store.User, bool) {
	if !s.parseFormPost(w, r) {
		return nil, false
	}
	u := s.signedInUser(r)
	if u == nil {
		s.renderBots(w, r, http.StatusUnauthorized, "Sign in first (top right).")
		return nil, false
	}
	return u, true
}

// handleBotsInvite invites a bot for the signed-in person, who is ready at
// once, and opens the game.
func (s *botsPages) handleBotsInvite(w http.ResponseWriter, r *http.Request) {
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
func (s *botsPages) handleBotsAccept(w http.ResponseWriter, r *http.Request) {
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
func (s *site) personalSeat(w http.ResponseWriter, r *http.Request) (*rbcapi.Seat, *store.User, bool) {
	return s.personalSeatOf(w, r, s.signedInUser(r))
}

// personalSeatOf is personalSeat for the signed-in user u (nil: none).
func (s *site) personalSeatOf(w http.ResponseWriter, r *http.Request, u *store.User) (*rbcapi.Seat, *store.User, bool) {
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
func (s *botsPages) handleBotsPlay(w http.ResponseWriter, r *http.Request) {
	seat, _, ok := s.personalSeat(w, r)
	if !ok {
		return
	}
	s.render(w, r, http.StatusOK, pageRecon, &ReconGameData{
		ID: fmt.Sprintf("a%d", seat.Game()), WSURL: s.wsURL(r, fmt.Sprintf("/ws/api/%d", seat.Game())),
		OpponentName: seat.Opponent(), Human: seat.Color().String(), APIGame: true,
	})
}
