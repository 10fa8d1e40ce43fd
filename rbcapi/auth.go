package rbcapi

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"net/http"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"
	"golang.org/x/time/rate"

	"knightwatch/store"
)

// userHandler is an API handler for an authenticated user.
type userHandler func(w http.ResponseWriter, r *http.Request, u *store.User)

// authed checks the Basic credentials of every call: 401 when missing or
// wrong, 429 after too many failures from the caller's address, over all
// names or for this one.
// A good call counts as the user being connected.
func (h *handlers) authed(next userHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name, password, ok := r.BasicAuth()
		if !ok {
			writeError(w, errorf(http.StatusUnauthorized, "Basic authorization required"))
			return
		}
		u, e := h.a.login(name, password, h.addr(r), time.Now())
		if e != nil {
			writeError(w, e)
			return
		}
		next(w, r, u)
	}
}

// Login checks name and password as every call's Basic credentials are
// checked, under the same limits on failures, counted for client address
// addr: the sign-in of the Bots page. The account counts as connected.
func (a *API) Login(name, password, addr string) (*store.User, *Error) {
	return a.login(name, password, addr, time.Now())
}

// dummyHash is compared against when the user does not exist, so that a
// wrong name costs the same time as a wrong password.
var dummyHash = sync.OnceValue(func() []byte {
	h, _ := bcrypt.GenerateFromPassword([]byte("knightwatch dummy password"), bcrypt.DefaultCost)
	return h
})

func (a *API) login(name, password, addr string, now time.Time) (*store.User, *Error) {
	// The limits are checked before the password, so that a guesser over
	// them learns nothing more; they are the caller's address's own, so
	// that nobody elsewhere can spend them.
	keys := loginKeys(addr, name)
	if a.blocked(now, keys) {
		return nil, errorf(http.StatusTooManyRequests, "too many failed logins; wait a minute")
	}
	if len(password) > MaxPasswordLen {
		// bcrypt reads no further, so the rest would be ignored: the
		// 72-byte password followed by anything would log in.
		a.failed(now, keys)
		return nil, errorf(http.StatusUnauthorized, "wrong username or password (a password has at most %d bytes)", MaxPasswordLen)
	}
	u, err := a.cfg.Store.API().UserByName(name)
	switch {
	case errors.Is(err, store.ErrNotFound):
		_ = bcrypt.CompareHashAndPassword(dummyHash(), []byte(password))
		a.failed(now, keys)
		return nil, errorf(http.StatusUnauthorized, "wrong username or password")
	case err != nil:
		a.logf("auth: %v", err)
		return nil, errorf(http.StatusInternalServerError, "could not check the login; try again")
	}
	if u.Builtin != "" || !a.checkPassword(u, password) {
		a.failed(now, keys)
		return nil, errorf(http.StatusUnauthorized, "wrong username or password")
	}
	a.succeeded(keys)
	a.touch(u, now)
	return u, nil
}

// loginLimitKeys are the failure limiters of a login: the address's over
// all names, and the (name, address) pair's.
type loginLimitKeys struct{ addr, pair string }

func loginKeys(addr, name string) loginLimitKeys {
	return loginLimitKeys{addr: "addr " + addr, pair: "login " + addr + " " + store.UserKey(name)}
}

// checkPassword verifies password against u's bcrypt hash. A bot calls
// several times a second; bcrypt is slow on purpose, so once a password
// has been accepted its SHA-256 is kept and compared instead.
func (a *API) checkPassword(u *store.User, password string) bool {
	sum := sha256.Sum256(append(u.PasswordHash, password...))
	a.authMu.Lock()
	known, ok := a.verified[u.ID]
	a.authMu.Unlock()
	if ok && subtle.ConstantTimeCompare(known[:], sum[:]) == 1 {
		return true
	}
	if bcrypt.CompareHashAndPassword(u.PasswordHash, []byte(password)) != nil {
		return false
	}
	a.authMu.Lock()
	if len(a.verified) > 100000 {
		clear(a.verified)
	}
	a.verified[u.ID] = sum
	a.authMu.Unlock()
	return true
}

// limiter returns key's limiter, made with burst tokens coming back one
// per every when it is new (under authMu).
func (a *API) limiter(key string, every time.Duration, burst int) *rate.Limiter {
	l, ok := a.failures[key]
	if !ok {
		if len(a.failures) > 100000 {
			clear(a.failures) // a flood of names; forgetting is safer than growing
		}
		l = rate.NewLimiter(rate.Every(every), burst)
		a.failures[key] = l
	}
	return l
}

// blocked reports whether the address or the pair has no failures left.
func (a *API) blocked(now time.Time, k loginLimitKeys) bool {
	a.authMu.Lock()
	defer a.authMu.Unlock()
	for _, key := range []string{k.addr, k.pair} {
		if l, ok := a.failures[key]; ok && l.TokensAt(now) < 1 {
			return true
		}
	}
	return false
}

// failed spends one failure of the address and one of the pair.
func (a *API) failed(now time.Time, k loginLimitKeys) {
	a.authMu.Lock()
	defer a.authMu.Unlock()
	a.limiter(k.addr, a.cfg.LoginEvery/3, AddrLoginBurst).AllowN(now, 1)
	a.limiter(k.pair, a.cfg.LoginEvery, LoginBurst).AllowN(now, 1)
}

// succeeded forgets the pair's failures: a person who mistyped a few
// times and then got it right starts afresh. The address's are kept, or
// logging in to one's own account between guesses would buy more guesses
// at others'.
func (a *API) succeeded(k loginLimitKeys) {
	a.authMu.Lock()
	defer a.authMu.Unlock()
	delete(a.failures, k.pair)
}

// touch records that u called, writing it at most every seenEvery.
func (a *API) touch(u *store.User, now time.Time) {
	a.authMu.Lock()
	last := a.seen[u.ID]
	due := now.Sub(last) >= seenEvery
	if due {
		a.seen[u.ID] = now
	}
	a.authMu.Unlock()
	if due {
		if err := a.cfg.Store.API().TouchUsers([]int64{u.ID}, now); err != nil {
			a.logf("%v", err)
		}
	}
	u.LastSeen = now
}
