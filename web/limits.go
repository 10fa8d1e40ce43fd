package web

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"knightwatch/rbcapi"
	"knightwatch/store"
)

// Defaults of the connection limits in Config (issue 35). One browser (one
// session cookie) opening sockets without end used to exhaust the process's
// file descriptors, and a request body trickled in a byte at a time held
// its connection for as long as the client liked.
const (
	// DefaultMaxSocketsPerGame is how many WebSockets one owner may hold
	// open to one game: a few tabs of the same game, with room to reload.
	DefaultMaxSocketsPerGame = 8
	// DefaultMaxSocketsPerOwner is how many WebSockets one owner may hold
	// open in all: several games in several tabs each.
	DefaultMaxSocketsPerOwner = 32
	// DefaultRequestReadTimeout bounds reading one request's body (forms,
	// JSON, PGN uploads) once its headers are in; not WebSockets.
	DefaultRequestReadTimeout = 30 * time.Second
	// DefaultRequestWriteTimeout bounds writing one response; not WebSockets,
	// which set their own deadline per message.
	DefaultRequestWriteTimeout = 60 * time.Second
	// Timeouts of the http.Server NewHTTPServer builds.
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultIdleTimeout       = 2 * time.Minute
	// maxFormBytes bounds the body of a browser form post (sign-in,
	// registration, invitations, new game): far above any real form.
	maxFormBytes = 8 << 10
)

func (s *sockets) maxSocketsPerGame() int {
	if s.cfg.MaxSocketsPerGame > 0 {
		return s.cfg.MaxSocketsPerGame
	}
	return DefaultMaxSocketsPerGame
}

func (s *sockets) maxSocketsPerOwner() int {
	if s.cfg.MaxSocketsPerOwner > 0 {
		return s.cfg.MaxSocketsPerOwner
	}
	return DefaultMaxSocketsPerOwner
}

// socketCounts counts the open WebSockets per owner and per owner and game.
type socketCounts struct {
	mu      sync.Mutex
	byOwner map[string]int
	byGame  map[[2]string]int
}

// acquireSocket reserves one WebSocket of owner to game, or replies 429 in
// words and returns nil when a limit is reached. The caller must call the
// returned release exactly once, when the socket closes (or the upgrade
// fails).
func (s *sockets) acquireSocket(w http.ResponseWriter, owner, game string) (release func()) {
	sc := &s.counts
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.byOwner == nil {
		sc.byOwner, sc.byGame = map[string]int{}, map[[2]string]int{}
	}
	key := [2]string{owner, game}
	var msg string
	switch {
	case sc.byGame[key] >= s.maxSocketsPerGame():
		msg = fmt.Sprintf("too many connections to this game from this browser (at most %d); close some tabs", s.maxSocketsPerGame())
	case sc.byOwner[owner] >= s.maxSocketsPerOwner():
		msg = fmt.Sprintf("too many connections from this browser (at most %d); close some tabs", s.maxSocketsPerOwner())
	}
	if msg != "" {
		w.Header().Set("Retry-After", "10")
		// Hang up after the answer: a client that keeps asking, and keeps
		// each refused connection open, would otherwise hold a descriptor
		// per refusal.
		w.Header().Set("Connection", "close")
		http.Error(w, msg, http.StatusTooManyRequests)
		return nil
	}
	sc.byGame[key]++
	sc.byOwner[owner]++
	var once sync.Once
	return func() {
		once.Do(func() {
			sc.mu.Lock()
			defer sc.mu.Unlock()
			if sc.byGame[key]--; sc.byGame[key] <= 0 {
				delete(sc.byGame, key)
			}
			if sc.byOwner[owner]--; sc.byOwner[owner] <= 0 {
				delete(sc.byOwner, owner)
			}
		})
	}
}

// isUpgrade reports whether r asks for a WebSocket.
func isUpgrade(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// limitRequest bounds reading and writing one ordinary request: with the
// http.Server's ReadTimeout and WriteTimeout left at zero (they would cut
// long-lived WebSockets short), these per-request deadlines are what stop a
// body trickled in a byte at a time. WebSocket upgrades get none: gorilla
// clears the connection's deadlines on upgrade and the pumps set their own
// per message. The deadlines stay set after the handler returns, so the
// server's draining of an unread body is bounded too; a kept-alive
// connection's next request sets its own.
func (s *Server) limitRequest(w http.ResponseWriter, r *http.Request) {
	if isUpgrade(r) {
		return
	}
	rt, wt := s.cfg.RequestReadTimeout, s.writeTimeout()
	if rt == 0 {
		rt = DefaultRequestReadTimeout
	}
	rc := http.NewResponseController(w)
	now := time.Now()
	if rt > 0 {
		rc.SetReadDeadline(now.Add(rt))
	}
	if wt > 0 {
		rc.SetWriteDeadline(now.Add(wt))
	}
}

// NewHTTPServer returns the http.Server serve runs h in, with the header
// and idle timeouts set. Its ReadTimeout and WriteTimeout stay zero on
// purpose: they would apply to hijacked WebSockets as well, so Server
// bounds each ordinary request itself (Config.RequestReadTimeout and
// RequestWriteTimeout).
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: DefaultReadHeaderTimeout,
		IdleTimeout:       DefaultIdleTimeout,
		MaxHeaderBytes:    64 << 10,
	}
}

// formTooLargeText answers a form post whose body is over its cap.
const formTooLargeText = "The form is too large; nothing was done."

// formParseRefusal is the status and words that answer a form post that could
// not be parsed: 413 when its body went over the cap (the cut-off form
// must not be read as an empty one), else 400.
func formParseRefusal(err error) (int, string) {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return http.StatusRequestEntityTooLarge, formTooLargeText
	}
	return http.StatusBadRequest, "The form could not be read; nothing was done."
}

// limitBody caps every request body at the most its route could need, so
// a handler that forgets http.MaxBytesReader still reads a bounded body:
// a browser form (maxFormBytes), a PGN or history upload (multipart), or
// the API's JSON (rbcapi.BodyLimit). Handlers may cap tighter.
func limitBody(w http.ResponseWriter, r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody {
		return
	}
	ct := strings.ToLower(r.Header.Get("Content-Type"))
	var n int64 = rbcapi.BodyLimit
	switch {
	case strings.HasPrefix(ct, "application/x-www-form-urlencoded"):
		n = maxFormBytes
	case strings.HasPrefix(ct, "multipart/"):
		n = maxUpload + 64<<10
	}
	r.Body = http.MaxBytesReader(w, r.Body, n)
}

// socketOwner is whom an API game's socket counts against: the session's
// owner key, or the signed-in user when the session has none.
func socketOwner(r *http.Request, s *site, u *store.User) string {
	if o := s.currentOwner(r); o != "" {
		return o
	}
	return fmt.Sprintf("user:%d", u.ID)
}
