package web

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"knightwatch/play"

	"golang.org/x/time/rate"
)

// Limits on creating games, per owner (issue 35 item 4) and per client
// address (issue 41 item 3). Every new game against the engine or in
// Reconnaissance Chess, from the new-game form (POST /games) or from
// rematch over the socket, passes checkCreate first; before, one socket
// sending rematch in a loop added some 2,000 rows a second, and a client
// sending no cookie, a new owner each time, 200 a second. Games their
// player never acted in are dropped a day later (play/untouched.go).
const (
	// DefaultMaxUnfinishedGames is Config.MaxUnfinishedGames' default: how
	// many unfinished games (against the engine and in Reconnaissance Chess
	// together) one owner may have. The home page lists them, with Resign
	// and Delete on each.
	DefaultMaxUnfinishedGames = 100
	// DefaultCreateRate and DefaultCreateBurst are Config.CreateRate's and
	// CreateBurst's defaults: one new game a second on average, ten at
	// once. Far above any person starting games by hand.
	DefaultCreateRate  = 1
	DefaultCreateBurst = 10
	// DefaultCreateAddrRate and DefaultCreateAddrBurst are
	// Config.CreateAddrRate's and CreateAddrBurst's defaults: one new game
	// a second on average from one address, thirty at once, so that a
	// few people behind one address start games as they like while a
	// client that sends no cookie is held to about the rate of one.
	DefaultCreateAddrRate  = 1
	DefaultCreateAddrBurst = 30

	// CodeTooManyGames and CodeCreateRateLimited are the error codes of a
	// refused rematch over the socket (PROTOCOL.md); the form gets 429
	// with the same words.
	CodeTooManyGames      = "too_many_games"
	CodeCreateRateLimited = "create_rate_limited"

	createRateText = "You are starting new games too fast; wait a few seconds and try again."
	// createLimiterIdle is how long an owner's limiter is kept unused.
	createLimiterIdle = 10 * time.Minute
)

func tooManyGamesText(n int) string {
	return fmt.Sprintf("You have %d unfinished games; finish or delete some (Resign or Delete in the list of unfinished games on the home page) before starting another.", n)
}

// createLimits are the limits on creating games, of the form and of a
// rematch alike: the count of an owner's unfinished games (in the store)
// and one rate limiter per owner and one per client address that created
// a game recently (keys "owner ..." and "addr ...").
type createLimits struct {
	site  *site // its Config's limits, its store
	mu    sync.Mutex
	by    map[string]*createLimiter
	sweep time.Time
}

type createLimiter struct {
	lim  *rate.Limiter
	used time.Time
}

// createRefusal says why a new game was refused.
type createRefusal struct {
	code       string
	text       string
	retryAfter time.Duration // for the rate limit; zero otherwise
}

func (cl *createLimits) maxUnfinishedGames() int {
	switch n := cl.site.cfg.MaxUnfinishedGames; {
	case n > 0:
		return n
	case n < 0:
		return 0 // no limit
	}
	return DefaultMaxUnfinishedGames
}

// checkCreate decides whether owner, from client address addr, may
// create one more game now. The unfinished count is checked first, so a
// refusal for it uses up no token of the rates; a refusal by the
// address's rate gives back the owner's token. The limit on unfinished
// games is exact but for creations racing each other (at most the burst
// more). err is a database error reading the count.
func (cl *createLimits) checkCreate(owner, addr string, now time.Time) (*createRefusal, error) {
	cfg, st := &cl.site.cfg, cl.site.store
	if max := cl.maxUnfinishedGames(); max > 0 {
		_, n, err := st.Games().UnfinishedGames(owner, 0)
		if err != nil {
			return nil, err
		}
		_, nr, err := st.Games().UnfinishedReconGames(owner, 0)
		if err != nil {
			return nil, err
		}
		if n+nr >= int64(max) {
			return &createRefusal{code: CodeTooManyGames, text: tooManyGamesText(int(n + nr))}, nil
		}
	}
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if cl.by == nil {
		cl.by = map[string]*createLimiter{}
	}
	if now.Sub(cl.sweep) > createLimiterIdle {
		// Forget owners and addresses idle long enough for their bucket
		// to be full.
		for k, l := range cl.by {
			if now.Sub(l.used) > createLimiterIdle {
				delete(cl.by, k)
			}
		}
		cl.sweep = now
	}
	ownerRes, d := cl.reserveLocked("owner "+owner, cfg.CreateRate, DefaultCreateRate, cfg.CreateBurst, DefaultCreateBurst, now)
	if d > 0 {
		return &createRefusal{code: CodeCreateRateLimited, text: createRateText, retryAfter: d}, nil
	}
	if _, d := cl.reserveLocked("addr "+addr, cfg.CreateAddrRate, DefaultCreateAddrRate, cfg.CreateAddrBurst, DefaultCreateAddrBurst, now); d > 0 {
		if ownerRes != nil {
			ownerRes.CancelAt(now)
		}
		return &createRefusal{code: CodeCreateRateLimited, text: createRateText, retryAfter: d}, nil
	}
	return nil, nil
}

// reserveLocked takes one token of key's limiter, made with rate r and
// burst b (zero: the defaults given; a negative rate: no limit, and a nil
// reservation). It returns the reservation and, when there was no token,
// zero reservation and how long to wait (at least a second).
func (cl *createLimits) reserveLocked(key string, r, defRate float64, b, defBurst int, now time.Time) (*rate.Reservation, time.Duration) {
	if r < 0 {
		return nil, 0
	}
	if r == 0 {
		r = defRate
	}
	if b <= 0 {
		b = defBurst
	}
	l := cl.by[key]
	if l == nil {
		l = &createLimiter{lim: rate.NewLimiter(rate.Limit(r), b)}
		cl.by[key] = l
	}
	l.used = now
	rv := l.lim.ReserveN(now, 1)
	if d := rv.DelayFrom(now); d > 0 || !rv.OK() {
		rv.CancelAt(now)
		if !rv.OK() || d < time.Second {
			d = time.Second
		}
		return nil, d
	}
	return rv, 0
}

// createAllowed runs checkCreate for a form post. On a refusal it answers
// 429 with the home page saying what to do (and Retry-After for the
// rate), on a database error 503, and returns false.
func (s *homePages) createAllowed(w http.ResponseWriter, r *http.Request, owner string) bool {
	ref, err := s.creates.checkCreate(owner, s.clientAddr(r), time.Now())
	if err != nil {
		s.saveFailed(w, r, owner, err)
		return false
	}
	if ref == nil {
		return true
	}
	if ref.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((ref.retryAfter+time.Second-1)/time.Second)))
	}
	d, herr := s.homeData(owner, ref.text)
	if herr != nil {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprintln(w, ref.text)
		return false
	}
	s.render(w, r, http.StatusTooManyRequests, pageHome, d)
	return false
}

// rematchAllowed runs checkCreate for a rematch over the socket, sending
// c the refusal as an error; false when refused.
func (s *sockets) rematchAllowed(c *client, owner string) bool {
	ref, err := s.creates.checkCreate(owner, c.addr, time.Now())
	if err != nil {
		s.logf("rematch: %v", err)
		c.trySend(play.EncodeError(play.Errorf(play.CodeServer, "%s", play.RematchUnsavedText)))
		return false
	}
	if ref != nil {
		c.trySend(play.EncodeError(play.Errorf(ref.code, "%s", ref.text)))
		return false
	}
	return true
}
