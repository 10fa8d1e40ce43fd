package web

import (
	"errors"
	"net/http"

	"knightwatch/game"
	"knightwatch/play"
	"knightwatch/store"
)

// maxOpenGames bounds the unfinished games one user may have, invitations
// sent included, so that nobody fills the database with games never played.
const maxOpenGames = 100

func (s *Server) handleAPIInvitations(w http.ResponseWriter, r *http.Request, u *store.User) {
	ids, err := s.store.PendingInvitations(u.ID)
	if err != nil {
		s.logf("api invitations: %v", err)
		writeAPIError(w, apiErr(http.StatusInternalServerError, "could not list the invitations"))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"invitations": ids})
}

// handleAPIInvite creates a game against the named opponent, the caller
// playing color, and invites the opponent. Knightwatch's own bots accept
// at once and are ready.
func (s *Server) handleAPIInvite(w http.ResponseWriter, r *http.Request, u *store.User) {
	fields, e := readBody(w, r)
	var opponent string
	var white bool
	if e == nil {
		e = field(fields, "opponent", &opponent, "a username")
	}
	if e == nil {
		e = field(fields, "color", &white, "a boolean (true for White)")
	}
	if e != nil {
		writeAPIError(w, e)
		return
	}
	id, e := s.invite(u, opponent, white)
	if e != nil {
		writeAPIError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"game_id": id})
}

// invite creates the game of an invitation from u to opponent, u playing
// White when white is set, and returns its ID.
func (s *Server) invite(u *store.User, opponent string, white bool) (int64, *apiError) {
	op, err := s.store.UserByName(opponent)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return 0, apiErr(http.StatusBadRequest, "there is no user %q", opponent)
	case err != nil:
		s.logf("api invite: %v", err)
		return 0, apiErr(http.StatusInternalServerError, "could not send the invitation; try again")
	case op.ID == u.ID:
		return 0, apiErr(http.StatusBadRequest, "you cannot invite yourself")
	}
	players := [2]*store.User{u, op}
	if !white {
		players = [2]*store.User{op, u}
	}
	g := s.newAPIGame(players)
	inv := &store.Invitation{FromID: u.ID, ToID: op.ID}
	if op.Builtin != "" {
		inv.Accepted = true
		if players[game.White] == op {
			g.WhiteReady = true
		} else {
			g.BlackReady = true
		}
	}
	// Counted and inserted in one transaction: invitations racing each
	// other cannot all see room under the cap.
	switch n, err := s.store.CreateAPIGameWithin(u.ID, maxOpenGames, g, inv); {
	case errors.Is(err, store.ErrTooManyGames):
		return 0, apiErr(http.StatusBadRequest, "you have %d unfinished games; finish some first", n)
	case err != nil:
		s.logf("api invite: %v", err)
		return 0, apiErr(http.StatusInternalServerError, "could not create the game; try again")
	}
	return g.ID, nil
}

// newAPIGame returns a new game record between players (White, Black) on
// the server's clock for API games.
func (s *Server) newAPIGame(players [2]*store.User) *store.APIGame {
	ms := s.api.clock.Milliseconds()
	return &store.APIGame{
		WhiteID: players[game.White].ID, BlackID: players[game.Black].ID,
		WhiteName: players[game.White].Name, BlackName: players[game.Black].Name,
		WhiteVersion: players[game.White].Version, BlackVersion: players[game.Black].Version,
		Seed: play.NewSeed(), ClockInitialMS: ms, ClockIncrementMS: s.api.increment.Milliseconds(),
		WhiteMS: ms, BlackMS: ms, Status: store.StatusWaiting,
	}
}

// myInvitation loads invitation id if it was sent to u.
func (s *Server) myInvitation(r *http.Request, u *store.User) (*store.Invitation, *apiError) {
	id, ok := pathID(r, "id")
	if !ok {
		return nil, apiErr(http.StatusBadRequest, "invitation does not exist")
	}
	inv, err := s.store.GetInvitation(id)
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && inv.ToID != u.ID:
		return nil, apiErr(http.StatusBadRequest, "invitation does not exist")
	case err != nil:
		s.logf("api invitation: %v", err)
		return nil, apiErr(http.StatusInternalServerError, "could not load the invitation; try again")
	}
	return inv, nil
}

func (s *Server) handleAPIAccept(w http.ResponseWriter, r *http.Request, u *store.User) {
	inv, e := s.myInvitation(r, u)
	if e == nil && inv.Accepted {
		e = apiErr(http.StatusBadRequest, "invitation does not exist (it was accepted already)")
	}
	if e != nil {
		writeAPIError(w, e)
		return
	}
	inv.Accepted = true
	if err := s.store.SetInvitation(inv); err != nil {
		writeAPIError(w, apiErr(http.StatusInternalServerError, "could not accept; try again"))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"game_id": inv.GameID})
}

func (s *Server) handleAPIFinish(w http.ResponseWriter, r *http.Request, u *store.User) {
	inv, e := s.myInvitation(r, u)
	if e == nil && !inv.Accepted {
		e = apiErr(http.StatusBadRequest, "invitation is not accepted")
	}
	if e != nil {
		writeAPIError(w, e)
		return
	}
	inv.Finished = true
	if err := s.store.SetInvitation(inv); err != nil {
		writeAPIError(w, apiErr(http.StatusInternalServerError, "could not save; try again"))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{})
}
