package rbcapi

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"
	"golang.org/x/time/rate"

	"knightwatch/live"
	"knightwatch/play"
	"knightwatch/store"
)

// ReconchessVersion is the reference version the API speaks; rc-connect
// refuses a server that reports another.
const ReconchessVersion = "1.6.9"

// Limits of the API, and Config's defaults.
const (
	// BodyLimit bounds every request body; the largest the API needs is a
	// registration, well under a kilobyte.
	BodyLimit = 16 << 10
	// ActiveWindow is how recently a user must have called to count as
	// connected; rc-connect polls every 5 seconds.
	ActiveWindow = 60 * time.Second
	// seenEvery is how often a user's last-seen time is written.
	seenEvery = 5 * time.Second
	// Failed logins: each (username, client address) pair may fail
	// LoginBurst times, then once per Config.LoginEvery (default
	// DefaultLoginEvery); each address AddrLoginBurst times over all
	// names, then three times as often. Nothing is counted per name
	// alone: a correct password is never refused because of failures from
	// another address.
	LoginBurst        = 10
	DefaultLoginEvery = 6 * time.Second
	AddrLoginBurst    = 3 * LoginBurst
	// DefaultClock and DefaultIncrement are the clock of new games
	// (Config.Clock): the reference's 900 s + 5 s.
	DefaultClock     = 900 * time.Second
	DefaultIncrement = 5 * time.Second
	// DefaultMatchEvery is Config.MatchEvery's default.
	DefaultMatchEvery = 5 * time.Second
)

// Config configures an API. Store and Games are required; the rest has
// defaults.
type Config struct {
	// Store holds the accounts, the invitations and the games.
	Store *store.Store
	// Games makes the built-in bots' automata and the games' arbiters
	// (charged for a crash) and paces the hosts' saves (play.Games's
	// HostConfig).
	Games *play.Games
	// Clock and Increment are the clock of new games (default
	// DefaultClock + DefaultIncrement; Clock zero or less: the default).
	Clock, Increment time.Duration
	// MatchEvery is how often ranked games are paired and unstarted games
	// called off (default DefaultMatchEvery; negative: never, for tests
	// that call MatchRound themselves).
	MatchEvery time.Duration
	// LoginEvery is how often a spent failed login of a (name, address)
	// pair comes back (default DefaultLoginEvery); an address's come back
	// three times as often.
	LoginEvery time.Duration
	// BcryptCost is the cost of new password hashes (default
	// bcrypt.DefaultCost; tests lower it).
	BcryptCost int
	// Server names this server among those of a site on one PostgreSQL
	// database, in the leases of the games it looks after (default: a
	// random ID, store.NewServerID).
	Server string
	// Logger receives the API's errors (default: the standard logger).
	Logger *log.Logger
}

// API is the reconchess HTTP API (package comment): its accounts, its
// games in the registry it was given, the matchmaker. Create it with New;
// its methods are safe for concurrent use.
type API struct {
	cfg Config
	reg *live.Registry
	// leases are this server's leases of the games it looks after, on a
	// site of several servers (Store.Shared; ranked.go); nil on SQLite,
	// where the one server looks after every game.
	leases *store.Leases
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	authMu   sync.Mutex
	verified map[int64][32]byte // user ID: digest of a password bcrypt accepted
	seen     map[int64]time.Time
	failures map[string]*rate.Limiter
}

// New returns the API on cfg.Store with its games hosted in reg: it
// creates the accounts of Knightwatch's own bots (play.ReconOpponents)
// that do not exist yet, registers the kind of its games in reg, takes up
// every unfinished game (their clocks run again, the built-in bots play
// on) and starts the matchmaker, which runs until Close.
func New(cfg Config, reg *live.Registry) (*API, error) {
	if cfg.Store == nil || cfg.Games == nil {
		return nil, errors.New("rbcapi: Config.Store and Games are required")
	}
	if cfg.Clock <= 0 {
		cfg.Clock, cfg.Increment = DefaultClock, DefaultIncrement
	}
	if cfg.MatchEvery == 0 {
		cfg.MatchEvery = DefaultMatchEvery
	}
	if cfg.LoginEvery <= 0 {
		cfg.LoginEvery = DefaultLoginEvery
	}
	if cfg.BcryptCost == 0 {
		cfg.BcryptCost = bcrypt.DefaultCost
	}
	if cfg.Logger == nil {
		cfg.Logger = log.Default()
	}
	if cfg.Server == "" {
		cfg.Server = store.NewServerID()
	}
	a := &API{cfg: cfg, reg: reg, verified: map[int64][32]byte{}, seen: map[int64]time.Time{}, failures: map[string]*rate.Limiter{}}
	if cfg.Store.Shared() {
		l := cfg.Store.Leases(cfg.Server)
		a.leases = &l
	}
	a.ctx, a.cancel = context.WithCancel(context.Background())
	if err := a.ensureBuiltinUsers(); err != nil {
		return nil, err
	}
	reg.Kind(store.APIIDPrefix, a.loadKey)
	if err := a.resumeGames(); err != nil {
		return nil, err
	}
	if cfg.MatchEvery > 0 {
		a.wg.Add(1) // Close waits for the round in progress
		go func() {
			defer a.wg.Done()
			a.runMatchmaker(cfg.MatchEvery)
		}()
	}
	return a, nil
}

// Close stops the matchmaker, waiting for its round in progress, and
// gives up the server's leases, so that the games it looked after are
// taken up elsewhere at the next round rather than when the leases run
// out. The games' hosts are the registry's owner's to close.
func (a *API) Close() {
	a.cancel()
	a.wg.Wait()
	if a.leases != nil {
		if err := a.leases.Keep(nil, time.Now()); err != nil {
			a.logf("%v", err)
		}
	}
}

func (a *API) logf(format string, args ...any) {
	a.cfg.Logger.Printf("rbcapi: "+format, args...)
}

// ensureBuiltinUsers creates the accounts of Knightwatch's own bots that
// do not exist yet. They cannot log in: their password hash is empty.
func (a *API) ensureBuiltinUsers() error {
	for _, o := range play.ReconOpponents {
		if o.Account == "" {
			continue
		}
		u, err := a.cfg.Store.API().UserByName(o.Account)
		if err == nil {
			if u.Builtin != o.Spec {
				return fmt.Errorf("rbcapi: the username %q of a built-in bot belongs to someone else", o.Account)
			}
			continue
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		u = &store.User{Name: o.Account, Affiliation: "Knightwatch", Builtin: o.Spec, PasswordHash: []byte{}, MaxGames: 1 << 20}
		if err := a.cfg.Store.API().CreateUser(u); err != nil && !errors.Is(err, store.ErrTaken) {
			return err
		}
	}
	return nil
}

// resumeGames takes up every unfinished API game after a start: their
// clocks run again (the mover charged its thinking before a crash, not the
// time the server was down) and the built-in bots play on. On a site of
// several servers, only those whose lease this server gets: another
// server that runs looks after the rest, and the games of one that was
// killed are taken up when their leases run out (ranked.go).
func (a *API) resumeGames() error {
	recs, err := a.cfg.Store.API().UnfinishedAPIGames()
	if err != nil {
		return err
	}
	now := time.Now()
	for i := range recs {
		if !a.claim(recs[i].ID, now) {
			continue
		}
		if _, err := a.reg.Open(apiKey(recs[i].ID)); err != nil {
			// One broken record must not keep the server down; its calls get 500s.
			a.logf("resume: %v", err)
		}
	}
	return nil
}
