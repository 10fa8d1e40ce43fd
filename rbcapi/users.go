package rbcapi

import (
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode"
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
	// MaxPasswordLen is the longest password: bcrypt reads no further.
	MaxPasswordLen = 72
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

// plainText reports whether s is UTF-8 text without control characters:
// a NUL, which PostgreSQL refuses in text, or a line break in what is
// shown on one line.
func plainText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, unicode.IsControl)
}

// validPassword says what is wrong with password, or "".
func validPassword(password string) string {
	switch {
	case !utf8.ValidString(password):
		return "the password is not valid UTF-8"
	case len(password) < minPasswordLen:
		return "a password has at least 8 characters"
	case len(password) > MaxPasswordLen:
		return "a password has at most 72 bytes"
	}
	return ""
}

// Register creates an account, as rc-register's call does, when client
// address addr has a registration left (ten at once, then one a minute);
// the error is one a person can act on: the sign-up of the Bots page.
func (a *API) Register(name, email, affiliation, password, addr string) (*store.User, *Error) {
	if !a.registrationAllowed(addr, time.Now()) {
		return nil, errorf(http.StatusTooManyRequests, "too many registrations from this address; wait a minute")
	}
	return a.registerUser(name, email, affiliation, password)
}

// registerUser creates an account; the error is one a person can act on.
func (a *API) registerUser(name, email, affiliation, password string) (*store.User, *Error) {
	if msg := validUsername(name); msg != "" {
		return nil, errorf(http.StatusBadRequest, "%s", msg)
	}
	if msg := validPassword(password); msg != "" {
		return nil, errorf(http.StatusBadRequest, "%s", msg)
	}
	if len(email) > 200 || len(affiliation) > 200 || !plainText(email) || !plainText(affiliation) {
		return nil, errorf(http.StatusBadRequest, "e-mail and affiliation have at most 200 bytes of text, without control characters")
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), a.cfg.BcryptCost)
	if err != nil {
		return nil, errorf(http.StatusInternalServerError, "could not register; try again")
	}
	u := &store.User{Name: name, Email: email, Affiliation: affiliation, PasswordHash: hash}
	switch err := a.cfg.Store.API().CreateUser(u); {
	case errors.Is(err, store.ErrTaken):
		return nil, errorf(http.StatusConflict, "the username %q is taken", name)
	case err != nil:
		a.logf("register: %v", err)
		return nil, errorf(http.StatusInternalServerError, "could not register; try again")
	}
	return u, nil
}

// registrationAllowed spends one of the address's registrations: ten at
// once, then one a minute.
func (a *API) registrationAllowed(addr string, now time.Time) bool {
	a.authMu.Lock()
	defer a.authMu.Unlock()
	key := "register " + addr
	return a.limiter(key, time.Minute, LoginBurst).AllowN(now, 1)
}

// register is rc-register's call: POST /api/users/ with username, email,
// affiliation and password.
func (h *handlers) register(w http.ResponseWriter, r *http.Request) {
	fields, e := readBody(w, r)
	if e != nil {
		writeError(w, e)
		return
	}
	var name, email, affiliation, password string
	for _, f := range []struct {
		name string
		v    *string
	}{{"username", &name}, {"email", &email}, {"affiliation", &affiliation}, {"password", &password}} {
		if e := field(fields, f.name, f.v, "a string"); e != nil {
			writeError(w, e)
			return
		}
	}
	u, e := h.a.Register(name, email, affiliation, password, h.addr(r))
	if e != nil {
		writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"username": u.Name})
}

// users lists the active users: those that called within the last
// minute, and Knightwatch's own bots, which are always there.
func (h *handlers) users(w http.ResponseWriter, r *http.Request, _ *store.User) {
	us, err := h.a.cfg.Store.API().Users(time.Now().Add(-ActiveWindow))
	if err != nil {
		h.a.logf("users: %v", err)
		writeError(w, errorf(http.StatusInternalServerError, "could not list the users"))
		return
	}
	names := make([]string, 0, len(us))
	for _, u := range us {
		names = append(names, u.Name)
	}
	writeJSON(w, http.StatusOK, map[string]any{"usernames": names})
}

// me is the ping: the caller is connected now (authed saw to it).
func (h *handlers) me(w http.ResponseWriter, r *http.Request, u *store.User) {
	writeJSON(w, http.StatusOK, map[string]any{"id": u.ID, "username": u.Name, "max_games": u.MaxGames})
}

func (h *handlers) updateUser(w http.ResponseWriter, u *store.User, reply map[string]any) {
	if err := h.a.cfg.Store.API().UpdateUser(u); err != nil {
		h.a.logf("user %d: %v", u.ID, err)
		writeError(w, errorf(http.StatusInternalServerError, "could not save; try again"))
		return
	}
	reply["id"], reply["username"] = u.ID, u.Name
	writeJSON(w, http.StatusOK, reply)
}

func (h *handlers) maxGames(w http.ResponseWriter, r *http.Request, u *store.User) {
	fields, e := readBody(w, r)
	var n int
	if e == nil {
		e = field(fields, "max_games", &n, "an integer")
	}
	if e == nil && (n < 1 || n > maxMaxGames) {
		e = errorf(http.StatusBadRequest, "max_games must be from 1 to %d", maxMaxGames)
	}
	if e != nil {
		writeError(w, e)
		return
	}
	u.MaxGames = n
	h.updateUser(w, u, map[string]any{"max_games": n})
}

func (h *handlers) ranked(w http.ResponseWriter, r *http.Request, u *store.User) {
	fields, e := readBody(w, r)
	var ranked bool
	if e == nil {
		e = field(fields, "ranked", &ranked, "a boolean")
	}
	if e != nil {
		writeError(w, e)
		return
	}
	u.Ranked = ranked
	h.updateUser(w, u, map[string]any{"ranked": ranked})
}

func (h *handlers) getVersion(w http.ResponseWriter, r *http.Request, u *store.User) {
	writeJSON(w, http.StatusOK, map[string]any{"version": u.Version})
}

// newVersion starts a new version of the caller's bot: ranked games from
// now on are rated under it, from a fresh rating.
func (h *handlers) newVersion(w http.ResponseWriter, r *http.Request, u *store.User) {
	u.Version++
	h.updateUser(w, u, map[string]any{"version": u.Version})
}

// ChangePassword sets u's password to next, after checking current as a
// login is checked (under the same limits on failures, for client address
// addr), with the rules of registration; the account's browser sessions
// other than keep end with the change. The error is one a person can act
// on: the account page's form.
func (a *API) ChangePassword(u *store.User, current, next, keep, addr string) *Error {
	if _, e := a.login(u.Name, current, addr, time.Now()); e != nil {
		if e.Status == http.StatusUnauthorized {
			return errorf(http.StatusUnauthorized, "the current password is wrong")
		}
		return e
	}
	if msg := validPassword(next); msg != "" {
		return errorf(http.StatusBadRequest, "%s", msg)
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(next), a.cfg.BcryptCost)
	if err != nil {
		return errorf(http.StatusInternalServerError, "could not change the password; try again")
	}
	if err := a.cfg.Store.API().ChangePassword(u.ID, hash, keep); err != nil {
		a.logf("change password: %v", err)
		return errorf(http.StatusInternalServerError, "could not change the password; try again")
	}
	// The old password's shortcut past bcrypt goes too (it would not
	// match the new hash anyway; this keeps the cache honest).
	a.authMu.Lock()
	delete(a.verified, u.ID)
	a.authMu.Unlock()
	return nil
}
