package web

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Per-owner limits on creating games (issue 35 item 4). Every new game
// against the engine or in Reconnaissance Chess, from the new-game form
// (POST /games) or from rematch over the socket, passes checkCreate first;
// before, one socket sending rematch in a loop added some 2,000 rows a
// second.
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

// createLimits holds one rate limiter per owner that created a game
// recently.
type createLimits struct {
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

func (s *Server) maxUnfinishedGames() int {
	switch n := s.cfg.MaxUnfinishedGames; {
	case n > 0:
		return n
	case n < 0:
		return 0 // no limit
	}
	return DefaultMaxUnfinishedGames
}

// checkCreate decides whether owner may create one more game now. The
// unfinished count is checked first, so a refusal for it uses up no
// token of the rate. The limit on unfinished games is exact but for
// creations racing each other (at most the burst more). err is a database
// error reading the count.
func (s *Server) checkCreate(owner string, now time.Time) (*createRefusal, error) {
	if max := s.maxUnfinishedGames(); max > 0 {
		_, n, err := s.store.UnfinishedGames(owner, 0)
		if err != nil {
			return nil, err
		}
		_, nr, err := s.store.UnfinishedReconGames(owner, 0)
		if err != nil {
			return nil, err
		}
		if n+nr >= int64(max) {
			return &createRefusal{code: CodeTooManyGames, text: tooManyGamesText(int(n + nr))}, nil
		}
	}
	if s.cfg.CreateRate < 0 {
		return nil, nil
	}
	r := s.cfg.CreateRate
	if r == 0 {
		r = DefaultCreateRate
	}
	b := s.cfg.CreateBurst
	if b <= 0 {
		b = DefaultCreateBurst
	}
	cl := &s.creates
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if cl.by == nil {
		cl.by = map[string]*createLimiter{}
	}
	if now.Sub(cl.sweep) > createLimiterIdle {
		// Forget owners idle long enough for their bucket to be full.
		for k, l := range cl.by {
			if now.Sub(l.used) > createLimiterIdle {
				delete(cl.by, k)
			}
		}
		cl.sweep = now
	}
	l := cl.by[owner]
	if l == nil {
		l = &createLimiter{lim: rate.NewLimiter(rate.Limit(r), b)}
		cl.by[owner] = l
	}
	l.used = now
	rv := l.lim.ReserveN(now, 1)
	if d := rv.DelayFrom(now); d > 0 || !rv.OK() {
		rv.CancelAt(now)
		if !rv.OK() || d < time.Second {
			d = time.Second
		}
		return &createRefusal{code: CodeCreateRateLimited, text: createRateText, retryAfter: d}, nil
	}
	return nil, nil
}

// createAllowed runs checkCreate for a form post. On a refusal it answers
// 429 with the home page saying what to do (and Retry-After for the
// rate), on a database error 503, and returns false.
func (s *Server) createAllowed(w http.ResponseWriter, owner string) bool {
	ref, err := s.checkCreate(owner, time.Now())
	if err != nil {
		s.saveFailed(w, owner, err)
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
	s.render(w, http.StatusTooManyRequests, pageHome, d)
	return false
}

// rematchAllowed runs checkCreate for a rematch over the socket, sending
// c the refusal as an error; false when refused.
func (s *Server) rematchAllowed(c *client, owner string) bool {
	ref, err := s.checkCreate(owner, time.Now())
	if err != nil {
		s.logf("rematch: %v", err)
		c.trySend(encodeError(protoErr(CodeServer, "%s", rematchUnsavedText)))
		return false
	}
	if ref != nil {
		c.trySend(encodeError(protoErr(ref.code, "%s", ref.text)))
		return false
	}
	return true
}
