package analysisboard

import (
	"fmt"
	"math"
	"sync"
	"time"
)

// Caps bound one owner's engine analysis, on top of the pool's fairness
// (which already puts an owner who analyses behind those who do not).
type Caps struct {
	// Concurrent is how many analyses one owner may run at once (in
	// several tabs). Default 2.
	Concurrent int
	// PerMinute is how much engine time one owner's analyses may take in
	// a minute, refilled evenly (a token bucket of this size). Default
	// 40 s: two thirds of a core for one person who never stops.
	PerMinute time.Duration
	// PerPosition is the most engine time one position gets before its
	// analysis says it is done. Default 20 s.
	PerPosition time.Duration
	// Server is how many analyses the whole server runs at once, all
	// owners together; 0: no cap but the per-owner ones (the pool shares
	// its searchers fairly anyway). A server on PostgreSQL that leaves
	// the engine's jobs to workers (serve --engine-work=false) still runs
	// analyses on its own pool, capped here (cli/serve sets 1).
	Server int
}

// Default caps.
const (
	DefaultConcurrent  = 2
	DefaultPerMinute   = 40 * time.Second
	DefaultPerPosition = 20 * time.Second
)

func (c Caps) withDefaults() Caps {
	if c.Concurrent <= 0 {
		c.Concurrent = DefaultConcurrent
	}
	if c.PerMinute <= 0 {
		c.PerMinute = DefaultPerMinute
	}
	if c.PerPosition <= 0 {
		c.PerPosition = DefaultPerPosition
	}
	return c
}

// Limiter keeps every owner's analyses running and engine time left
// under Caps. Its lock is held only around its map.
type Limiter struct {
	caps   Caps
	now    func() time.Time
	mu     sync.Mutex
	owners map[string]*ownerUse
	starts int // counts Start calls, for the sweep
	// running counts the analyses running, all owners together.
	running int
}

type ownerUse struct {
	running int
	tokens  time.Duration // engine time left, at last
	last    time.Time
}

// NewLimiter makes a Limiter with caps (zero fields: the defaults).
func NewLimiter(caps Caps) *Limiter {
	return &Limiter{caps: caps.withDefaults(), now: time.Now, owners: map[string]*ownerUse{}}
}

// Caps returns the caps in force.
func (l *Limiter) Caps() Caps { return l.caps }

// refill brings u's tokens up to now.
func (l *Limiter) refill(u *ownerUse, now time.Time) {
	rate := float64(l.caps.PerMinute) / float64(time.Minute)
	u.tokens = min(l.caps.PerMinute, u.tokens+time.Duration(rate*float64(now.Sub(u.last))))
	u.last = now
}

// Start reserves one analysis for owner: it returns the engine time it
// may take (at most PerPosition) and the function to call with the time
// it took once it ends; or, when a cap is reached, the refusal in words.
func (l *Limiter) Start(owner string) (budget time.Duration, done func(used time.Duration), refusal string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if l.starts++; l.starts%256 == 0 {
		l.sweep(now)
	}
	u := l.owners[owner]
	if u == nil {
		u = &ownerUse{tokens: l.caps.PerMinute, last: now}
		l.owners[owner] = u
	}
	l.refill(u, now)
	if u.running >= l.caps.Concurrent {
		return 0, nil, fmt.Sprintf("You already have %d analyses running (in other tabs); close one to analyse here.", u.running)
	}
	if l.caps.Server > 0 && l.running >= l.caps.Server {
		return 0, nil, fmt.Sprintf("The server is running as many analyses as it allows (%d at once); try again in a moment.", l.caps.Server)
	}
	if u.tokens < time.Second {
		rate := float64(l.caps.PerMinute) / float64(time.Minute)
		wait := time.Duration(float64(time.Second-u.tokens) / rate)
		return 0, nil, fmt.Sprintf("You have used your %d engine seconds of the last minute; the engine can analyse again in %d s.",
			int(l.caps.PerMinute.Seconds()), int(math.Ceil(wait.Seconds())))
	}
	u.running++
	l.running++
	budget = min(u.tokens, l.caps.PerPosition)
	var once sync.Once
	return budget, func(used time.Duration) {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			now := l.now()
			l.refill(u, now)
			u.tokens -= used
			u.running--
			l.running--
			if u.running == 0 && u.tokens >= l.caps.PerMinute {
				delete(l.owners, owner)
			}
		})
	}, ""
}

// sweep forgets the owners with nothing running whose engine time is
// all back, so that the map holds only recent ones.
func (l *Limiter) sweep(now time.Time) {
	for k, u := range l.owners {
		if u.running == 0 {
			l.refill(u, now)
			if u.tokens >= l.caps.PerMinute {
				delete(l.owners, k)
			}
		}
	}
}
