package web

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"
	"golang.org/x/time/rate"

	"knightwatch/store"
)

// The Reconnaissance Chess server's HTTP API: the reference's remote
// client (reconchess's RemoteGame, rc-connect, rc-register) talks to these
// routes exactly as it talks to the competition server. Section 4.11 of
// the reconchess documentation is the contract; web/API.md says where
// Knightwatch fills its gaps.

// ReconchessVersion is the reference version the API speaks; rc-connect
// refuses a server that reports another.
const ReconchessVersion = "1.6.9"

const (
	// apiBodyLimit bounds every request body; the largest the API needs is
	// a registration, well under a kilobyte.
	apiBodyLimit = 16 << 10
	// activeWindow is how recently a user must have called to count as
	// connected; rc-connect polls every 5 seconds.
	activeWindow = 60 * time.Second
	// seenEvery is how often a user's last-seen time is written.
	seenEvery = 5 * time.Second
	// Failed logins: each (username, client address) pair may fail
	// loginBurst times, then once per loginEvery; each address
	// addrLoginBurst times over all names, then once per loginEvery/3.
	// Nothing is counted per name alone: a correct password is never
	// refused because of failures from another address.
	loginBurst     = 10
	loginEvery     = 6 * time.Second
	addrLoginBurst = 3 * loginBurst
)

// apiState is the API's share of the server: the verified passwords, the
// login limiters and the users' last calls (the running games are hosts
// in the server's registry).
type apiState struct {
	authMu   sync.Mutex
	verified map[int64][32]byte // user ID: digest of a password bcrypt accepted
	seen     map[int64]time.Time
	failures map[string]*rate.Limiter

	// clock is the clock of new API games.
	clock, increment time.Duration
	// loginEvery is how often a spent failed login of a (name, address)
	// pair comes back; an address's come back three times as often.
	loginEvery time.Duration
	// bcryptCost is the cost of new password hashes (tests lower it).
	bcryptCost int
}

func newAPIState(clock, increment time.Duration) *apiState {
	return &apiState{
		verified: map[int64][32]byte{}, seen: map[int64]time.Time{},
		failures: map[string]*rate.Limiter{}, clock: clock, increment: increment,
		loginEvery: loginEvery, bcryptCost: bcrypt.DefaultCost,
	}
}

// apiRoutes registers the API. Each path answers its other methods with
// 405 and unknown paths with 404, in JSON like every answer of the API.
func (s *Server) apiRoutes() {
	routes := []struct {
		method, path string
		h            http.HandlerFunc
	}{
		{"GET", "/api/version", s.handleAPIVersion},
		{"POST", "/api/users/{$}", s.handleAPIRegister},
		{"GET", "/api/users/{$}", s.authed(s.handleAPIUsers)},
		{"GET", "/api/users", s.authed(s.handleAPIUsers)}, // rc-register probes this
		{"POST", "/api/users/me", s.authed(s.handleAPIMe)},
		{"POST", "/api/users/me/max_games", s.authed(s.handleAPIMaxGames)},
		{"POST", "/api/users/me/ranked", s.authed(s.handleAPIRanked)},
		{"GET", "/api/users/me/version", s.authed(s.handleAPIGetVersion)},
		{"POST", "/api/users/me/version", s.authed(s.handleAPINewVersion)},
		{"GET", "/api/invitations/{$}", s.authed(s.handleAPIInvitations)},
		{"POST", "/api/invitations/{$}", s.authed(s.handleAPIInvite)},
		{"POST", "/api/invitations/{id}", s.authed(s.handleAPIAccept)},
		{"POST", "/api/invitations/{id}/finish", s.authed(s.handleAPIFinish)},
	}
	for _, e := range apiGameEndpoints {
		routes = append(routes, struct {
			method, path string
			h            http.HandlerFunc
		}{e.method, "/api/games/{id}/" + e.name, s.authed(s.gameEndpoint(e.handle))})
	}
	allowed := map[string][]string{}
	for _, r := range routes {
		s.mux.HandleFunc(r.method+" "+r.path, r.h)
		allowed[r.path] = append(allowed[r.path], r.method)
	}
	for path, methods := range allowed {
		allow := strings.Join(methods, ", ")
		s.mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			writeAPIError(w, apiErr(http.StatusMethodNotAllowed, "%s %s: use %s", r.Method, r.URL.Path, allow))
		})
	}
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeAPIError(w, apiErr(http.StatusNotFound, "no such endpoint: %s %s", r.Method, r.URL.Path))
	})
}

// writeJSON writes v as the response.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeAPIError writes a refusal as {"error": "..."} with its status.
func writeAPIError(w http.ResponseWriter, e *apiError) {
	if e.status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="knightwatch", charset="UTF-8"`)
	}
	writeJSON(w, e.status, map[string]string{"error": e.msg})
}

// readBody reads a JSON object body into its fields. An empty body is an
// empty object (the reference's client posts some calls without one).
func readBody(w http.ResponseWriter, r *http.Request) (map[string]json.RawMessage, *apiError) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, apiBodyLimit))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, apiErr(http.StatusRequestEntityTooLarge, "request body over %d bytes", apiBodyLimit)
		}
		return nil, apiErr(http.StatusBadRequest, "could not read the body: %v", err)
	}
	return decodeObject(data)
}

// decodeObject parses a request body: one JSON object, or nothing.
func decodeObject(data []byte) (map[string]json.RawMessage, *apiError) {
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]json.RawMessage{}, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, apiErr(http.StatusBadRequest, "the body must be one JSON object: %v", err)
	}
	if fields == nil {
		return nil, apiErr(http.StatusBadRequest, "the body must be a JSON object, not null")
	}
	return fields, nil
}

// field decodes the required field name of a body into v. JSON null is
// refused unless v can hold it (a pointer to a pointer: sense's square,
// where null means to sense nothing): encoding/json would leave v as it
// was, so {"ranked": null} would read as false.
func field(fields map[string]json.RawMessage, name string, v any, what string) *apiError {
	raw, ok := fields[name]
	if !ok {
		return apiErr(http.StatusBadRequest, "%q is missing (want %s)", name, what)
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) && reflect.TypeOf(v).Elem().Kind() != reflect.Pointer {
		return apiErr(http.StatusBadRequest, "%q must be %s, not null", name, what)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return apiErr(http.StatusBadRequest, "%q must be %s, not %s", name, what, shortJSON(raw))
	}
	return nil
}

func shortJSON(raw json.RawMessage) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "…"
	}
	return string(raw)
}

// apiHandler is an API handler for an authenticated user.
type apiHandler func(w http.ResponseWriter, r *http.Request, u *store.User)

// authed checks the Basic credentials of every call: 401 when missing or
// wrong, 429 after too many failures from the caller's address, over all
// names or for this one.
// A good call counts as the user being connected.
func (s *Server) authed(h apiHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		u, e := s.authenticate(r, time.Now())
		if e != nil {
			writeAPIError(w, e)
			return
		}
		h(w, r, u)
	}
}

// dummyHash is compared against when the user does not exist, so that a
// wrong name costs the same time as a wrong password.
var dummyHash = sync.OnceValue(func() []byte {
	h, _ := bcrypt.GenerateFromPassword([]byte("knightwatch dummy password"), bcrypt.DefaultCost)
	return h
})

func (s *Server) authenticate(r *http.Request, now time.Time) (*store.User, *apiError) {
	name, password, ok := r.BasicAuth()
	if !ok {
		return nil, apiErr(http.StatusUnauthorized, "Basic authorization required")
	}
	// The limits are checked before the password, so that a guesser over
	// them learns nothing more; they are the caller's address's own, so
	// that nobody elsewhere can spend them.
	keys := loginKeys(s.clientAddr(r), name)
	if s.api.blocked(now, keys) {
		return nil, apiErr(http.StatusTooManyRequests, "too many failed logins; wait a minute")
	}
	if len(password) > maxPasswordLen {
		// bcrypt reads no further, so the rest would be ignored: the
		// 72-byte password followed by anything would log in.
		s.api.failed(now, keys)
		return nil, apiErr(http.StatusUnauthorized, "wrong username or password (a password has at most %d bytes)", maxPasswordLen)
	}
	u, err := s.store.UserByName(name)
	switch {
	case errors.Is(err, store.ErrNotFound):
		_ = bcrypt.CompareHashAndPassword(dummyHash(), []byte(password))
		s.api.failed(now, keys)
		return nil, apiErr(http.StatusUnauthorized, "wrong username or password")
	case err != nil:
		s.logf("api auth: %v", err)
		return nil, apiErr(http.StatusInternalServerError, "could not check the login; try again")
	}
	if u.Builtin != "" || !s.api.checkPassword(u, password) {
		s.api.failed(now, keys)
		return nil, apiErr(http.StatusUnauthorized, "wrong username or password")
	}
	s.api.succeeded(keys)
	s.api.touch(s, u, now)
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
func (a *apiState) checkPassword(u *store.User, password string) bool {
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
func (a *apiState) limiter(key string, every time.Duration, burst int) *rate.Limiter {
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
func (a *apiState) blocked(now time.Time, k loginLimitKeys) bool {
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
func (a *apiState) failed(now time.Time, k loginLimitKeys) {
	a.authMu.Lock()
	defer a.authMu.Unlock()
	a.limiter(k.addr, a.loginEvery/3, addrLoginBurst).AllowN(now, 1)
	a.limiter(k.pair, a.loginEvery, loginBurst).AllowN(now, 1)
}

// succeeded forgets the pair's failures: a person who mistyped a few
// times and then got it right starts afresh. The address's are kept, or
// logging in to one's own account between guesses would buy more guesses
// at others'.
func (a *apiState) succeeded(k loginLimitKeys) {
	a.authMu.Lock()
	defer a.authMu.Unlock()
	delete(a.failures, k.pair)
}

// touch records that u called, writing it at most every seenEvery.
func (a *apiState) touch(s *Server, u *store.User, now time.Time) {
	a.authMu.Lock()
	last := a.seen[u.ID]
	due := now.Sub(last) >= seenEvery
	if due {
		a.seen[u.ID] = now
	}
	a.authMu.Unlock()
	if due {
		if err := s.store.TouchUsers([]int64{u.ID}, now); err != nil {
			s.logf("api: %v", err)
		}
	}
	u.LastSeen = now
}

func (s *Server) handleAPIVersion(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"version": ReconchessVersion})
}

// pathID reads the integer path value name.
func pathID(r *http.Request, name string) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	return id, err == nil && id > 0
}
