package web

import (
	"errors"
	"net/http"
	"time"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"knightwatch/store"
)

// Usernames: 3 to 32 letters, digits, '_' and '-', starting with a letter
// or digit, so that a name is safe in a URL, a file name and a log line.
const (
	minNameLen     = 3
	maxNameLen     = 32
	minPasswordLen = 8
	maxPasswordLen = 72 // bcrypt reads no further
	maxMaxGames    = 64
)

// validUsername says what is wrong with name, or "".
func validUsername(name string) string {
	if len(name) < minNameLen || len(name) > maxNameLen {
		return "a username has 3 to 32 characters"
	}
	for i, r := range name {
		alnum := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if !alnum && (i == 0 || r != '_' && r != '-') {
			return "a username has only letters, digits, '_' and '-', and starts with a letter or digit"
		}
	}
	return ""
}

// validPassword says what is wrong with password, or "".
func validPassword(password string) string {
	switch {
	case !utf8.ValidString(password):
		return "the password is not valid UTF-8"
	case len(password) < minPasswordLen:
		return "a password has at least 8 characters"
	case len(password) > maxPasswordLen:
		return "a password has at most 72 bytes"
	}
	return ""
}

// registerUser creates an account, as the API's registration and the
// sign-up page both do; the error is one a person can act on.
func (s *Server) registerUser(name, email, affiliation, password string) (*store.User, *apiError) {
	if msg := validUsername(name); msg != "" {
		return nil, apiErr(http.StatusBadRequest, "%s", msg)
	}
	if msg := validPassword(password); msg != "" {
		return nil, apiErr(http.StatusBadRequest, "%s", msg)
	}
	if len(email) > 200 || len(affiliation) > 200 || !utf8.ValidString(email) || !utf8.ValidString(affiliation) {
		return nil, apiErr(http.StatusBadRequest, "e-mail and affiliation have at most 200 bytes of text")
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), s.api.bcryptCost)
	if err != nil {
		return nil, apiErr(http.StatusInternalServerError, "could not register; try again")
	}
	u := &store.User{Name: name, Email: email, Affiliation: affiliation, PasswordHash: hash}
	switch err := s.store.CreateUser(u); {
	case errors.Is(err, store.ErrTaken):
		return nil, apiErr(http.StatusConflict, "the username %q is taken", name)
	case err != nil:
		s.logf("register: %v", err)
		return nil, apiErr(http.StatusInternalServerError, "could not register; try again")
	}
	return u, nil
}

// registrationAllowed spends one of the address's registrations: ten at
// once, then one a minute.
func (a *apiState) registrationAllowed(addr string, now time.Time) bool {
	a.authMu.Lock()
	defer a.authMu.Unlock()
	key := "register " + addr
	return a.limiter(key, time.Minute, loginBurst).AllowN(now, 1)
}

// handleAPIRegister is rc-register's call: POST /api/users/ with username,
// email, affiliation and password.
func (s *Server) handleAPIRegister(w http.ResponseWriter, r *http.Request) {
	fields, e := readBody(w, r)
	if e != nil {
		writeAPIError(w, e)
		return
	}
	var name, email, affiliation, password string
	for _, f := range []struct {
		name string
		v    *string
	}{{"username", &name}, {"email", &email}, {"affiliation", &affiliation}, {"password", &password}} {
		if e := field(fields, f.name, f.v, "a string"); e != nil {
			writeAPIError(w, e)
			return
		}
	}
	if !s.api.registrationAllowed(s.clientAddr(r), time.Now()) {
		writeAPIError(w, apiErr(http.StatusTooManyRequests, "too many registrations from this address; wait a minute"))
		return
	}
	u, e := s.registerUser(name, email, affiliation, password)
	if e != nil {
		writeAPIError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"username": u.Name})
}

// handleAPIUsers lists the active users: those that called within the
// last minute, and Knightwatch's own bots, which are always there.
func (s *Server) handleAPIUsers(w http.ResponseWriter, r *http.Request, _ *store.User) {
	us, err := s.store.Users(time.Now().Add(-activeWindow))
	if err != nil {
		s.logf("api users: %v", err)
		writeAPIError(w, apiErr(http.StatusInternalServerError, "could not list the users"))
		return
	}
	names := make([]string, 0, len(us))
	for _, u := range us {
		names = append(names, u.Name)
	}
	writeJSON(w, http.StatusOK, map[string]any{"usernames": names})
}

// handleAPIMe is the ping: the caller is connected now (authed saw to it).
func (s *Server) handleAPIMe(w http.ResponseWriter, r *http.Request, u *store.User) {
	writeJSON(w, http.StatusOK, map[string]any{"id": u.ID, "username": u.Name, "max_games": u.MaxGames})
}

func (s *Server) updateUser(w http.ResponseWriter, u *store.User, reply map[string]any) {
	if err := s.store.UpdateUser(u); err != nil {
		s.logf("api user %d: %v", u.ID, err)
		writeAPIError(w, apiErr(http.StatusInternalServerError, "could not save; try again"))
		return
	}
	reply["id"], reply["username"] = u.ID, u.Name
	writeJSON(w, http.StatusOK, reply)
}

func (s *Server) handleAPIMaxGames(w http.ResponseWriter, r *http.Request, u *store.User) {
	fields, e := readBody(w, r)
	var n int
	if e == nil {
		e = field(fields, "max_games", &n, "an integer")
	}
	if e == nil && (n < 1 || n > maxMaxGames) {
		e = apiErr(http.StatusBadRequest, "max_games must be from 1 to %d", maxMaxGames)
	}
	if e != nil {
		writeAPIError(w, e)
		return
	}
	u.MaxGames = n
	s.updateUser(w, u, map[string]any{"max_games": n})
}

func (s *Server) handleAPIRanked(w http.ResponseWriter, r *http.Request, u *store.User) {
	fields, e := readBody(w, r)
	var ranked bool
	if e == nil {
		e = field(fields, "ranked", &ranked, "a boolean")
	}
	if e != nil {
		writeAPIError(w, e)
		return
	}
	u.Ranked = ranked
	s.updateUser(w, u, map[string]any{"ranked": ranked})
}

func (s *Server) handleAPIGetVersion(w http.ResponseWriter, r *http.Request, u *store.User) {
	writeJSON(w, http.StatusOK, map[string]any{"version": u.Version})
}

// handleAPINewVersion starts a new version of the caller's bot: ranked
// games from now on are rated under it, from a fresh rating.
func (s *Server) handleAPINewVersion(w http.ResponseWriter, r *http.Request, u *store.User) {
	u.Version++
	s.updateUser(w, u, map[string]any{"version": u.Version})
}
