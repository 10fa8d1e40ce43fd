package rbcapi

import (
	"errors"
	"net/http"

	"knightwatch/game"
	"knightwatch/play"
	"knightwatch/store"
)

// MaxOpenGames bounds the unfinished games one user may have, invitations
// sent included, so that nobody fills the database with games never played.
const MaxOpenGames = 100

func (h *handlers) invitations(w http.ResponseWriter, r *http.Request, u *store.User) {
	ids, err := h.a.cfg.Store.API().PendingInvitations(u.ID)
	if err != nil {
		h.a.logf("invitations: %v", err)
		writeError(w, errorf(http.StatusInternalServerError, "could not list the invitations"))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"invitations": ids})
}

// invite creates a game against the named opponent, the caller playing
// color, and invites the opponent. Knightwatch's own bots accept at once
// and are ready.
func (h *handlers) invite(w http.ResponseWriter, r *http.Request, u *store.User) {
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
		writeError(w, e)
		return
	}
	id, e := h.a.invite(u, opponent, white)
	if e != nil {
		writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"game_id": id})
}

// invite creates the game of an invitation from u to opponent, u playing
// White when white is set, and returns its ID.
func (a *API) invite(u *store.User, opponent string, white bool) (int64, *Error) {
	op, err := a.cfg.Store.API().UserByName(opponent)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return 0, errorf(http.StatusBadRequest, "there is no user %q", opponent)
	case err != nil:
		a.logf("invite: %v", err)
		return 0, errorf(http.StatusInternalServerError, "could not send the invitation; try again")
	case op.ID == u.ID:
		return 0, errorf(http.StatusBadRequest, "you cannot invite yourself")
	}
	players := [2]*store.User{u, op}
	if !white {
		players = [2]*store.User{op, u}
	}
	g := a.newGame(players)
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
	switch n, err := a.cfg.Store.API().CreateAPIGameWithin(u.ID, MaxOpenGames, g, inv); {
	case errors.Is(err, store.ErrTooManyGames):
		return 0, errorf(http.StatusBadRequest, "you have %d unfinished games; finish some first", n)
	case err != nil:
		a.logf("invite: %v", err)
		return 0, errorf(http.StatusInternalServerError, "could not create the game; try again")
	}
	return g.ID, nil
}

// newGame returns a new game record between players (White, Black) on
// the server's clock for API games.
func (a *API) newGame(players [2]*store.User) *store.APIGame {
	ms := a.cfg.Clock.Milliseconds()
	return &store.APIGame{
		WhiteID: players[game.White].ID, BlackID: players[game.Black].ID,
		WhiteName: players[game.White].Name, BlackName: players[game.Black].Name,
		WhiteVersion: players[game.White].Version, BlackVersion: players[game.Black].Version,
		Seed: play.NewSeed(), ClockInitialMS: ms, ClockIncrementMS: a.cfg.Increment.Milliseconds(),
		WhiteMS: ms, BlackMS: ms, Status: store.StatusWaiting,
	}
}

// myInvitation loads invitation id (as a path has it) if it was sent to
// u.
func (a *API) myInvitation(idText string, u *store.User) (*store.Invitation, *Error) {
	id, ok := parseID(idText)
	if !ok {
		return nil, errorf(http.StatusBadRequest, "invitation does not exist")
	}
	inv, err := a.cfg.Store.API().GetInvitation(id)
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && inv.ToID != u.ID:
		return nil, errorf(http.StatusBadRequest, "invitation does not exist")
	case err != nil:
		a.logf("invitation: %v", err)
		return nil, errorf(http.StatusInternalServerError, "could not load the invitation; try again")
	}
	return inv, nil
}

func (h *handlers) accept(w http.ResponseWriter, r *http.Request, u *store.User) {
	inv, e := h.a.myInvitation(r.PathValue("id"), u)
	if e == nil && inv.Accepted {
		e = errorf(http.StatusBadRequest, "invitation does not exist (it was accepted already)")
	}
	if e != nil {
		writeError(w, e)
		return
	}
	inv.Accepted = true
	if err := h.a.cfg.Store.API().SetInvitation(inv); err != nil {
		writeError(w, errorf(http.StatusInternalServerError, "could not accept; try again"))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"game_id": inv.GameID})
}

func (h *handlers) finish(w http.ResponseWriter, r *http.Request, u *store.User) {
	inv, e := h.a.myInvitation(r.PathValue("id"), u)
	if e == nil && !inv.Accepted {
		e = errorf(http.StatusBadRequest, "invitation is not accepted")
	}
	if e != nil {
		writeError(w, e)
		return
	}
	inv.Finished = true
	if err := h.a.cfg.Store.API().SetInvitation(inv); err != nil {
		writeError(w, errorf(http.StatusInternalServerError, "could not save; try again"))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{})
}
