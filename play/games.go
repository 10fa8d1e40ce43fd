package play

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sync"
	"time"

	"knightwatch/enginejobs"
	"knightwatch/enginepool"
	"knightwatch/experience"
	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/recon"
	"knightwatch/recon/bots"
	"knightwatch/review"
	"knightwatch/store"
)

// Defaults of Config.
const (
	// DefaultReplyPause is Config.ReplyPause's default.
	DefaultReplyPause = 300 * time.Millisecond
	// DefaultSaveRetryFirst and DefaultSaveRetryMax are Config's
	// SaveRetryFirst and SaveRetryMax defaults (the host's own).
	DefaultSaveRetryFirst = live.DefaultSaveRetryFirst
	DefaultSaveRetryMax   = live.DefaultSaveRetryMax
)

// chessIDPrefix starts the ID of every game against the engine (the store
// makes them so); store.ReconIDPrefix starts every Reconnaissance Chess
// game's.
const chessIDPrefix = "g_"

// Config configures Games. Store and Levels are required; every other
// Engine is what the games think with: the engine pool of this server
// (an *enginepool.Pool), or on a site of several servers the engine jobs
// that any worker takes (an *enginejobs.Jobs).
type Engine interface {
	// Search runs one live search (an engine reply, a draw evaluation)
	// of owner's game gameID: enginepool.Pool's Search.
	Search(ctx context.Context, owner, gameID string, pos *game.Position, history []uint64, req enginepool.SearchRequest) (enginepool.SearchResult, bool)
	// RunStep runs one step of a bot's turn: enginepool.Pool's RunStep.
	RunStep(ctx context.Context, s enginepool.Step) bool
}

// BotJobs plays steps of the bots' turns elsewhere: enginejobs.Jobs.
type BotJobs interface {
	// BotStep asks for step s and waits for its answer or ctx.
	BotStep(ctx context.Context, s enginejobs.BotStep) (enginejobs.BotAction, bool)
}

// field has a default (the zero value, unless it says otherwise).
type Config struct {
	// Store holds the games.
	Store *store.Store
	// Pool runs the engine for every game: the engine's replies, draw
	// evaluations and the Reconnaissance Chess bots' thinking. Required
	// unless NoEngine; without one, bots think at once outside any pool.
	Pool Engine
	// Learner learns from finished games and tells the engine what they
	// say before each of its moves (docs/experience.md); nil: the engine
	// plays as if it had never played.
	Learner *experience.Learner
	// Reviews reviews every game that ends (Reviewer.Finished); nil: none.
	Reviews *review.Reviewer
	// Levels are the engine's difficulty levels, 1..len(Levels).
	Levels []enginepool.LevelInfo
	// NoEngine stops the engine from replying: benchmarks use it to
	// measure the server alone.
	NoEngine bool
	// ReplyPause is the shortest time between the person's move and the
	// engine's or a bot's reply (default DefaultReplyPause; negative for
	// none).
	ReplyPause time.Duration
	// NewBot builds the Reconnaissance Chess bots of browser and API games
	// (default bots.NewOneThread: one goroutine each, as the engine pool
	// gives each bot's step one core, bot_think.go).
	NewBot func(spec string, seed uint64) (recon.Player, error)
	// BotJobs, when set, plays each step of the bots' turns elsewhere, as
	// a job any worker of the site takes (enginejobs.Jobs on PostgreSQL):
	// the bots are then never made nor fed here. Nil: they think here, in
	// Pool (bot_think.go).
	BotJobs BotJobs
	// SaveRetryFirst and SaveRetryMax pace the retries of a commit the
	// database refused that is not the person's to repeat: the engine's
	// move, a bot's step and a flag fall (live.Host). The first retry
	// waits SaveRetryFirst (default DefaultSaveRetryFirst, 100 ms), each
	// next one twice as long up to SaveRetryMax (default
	// DefaultSaveRetryMax, 5 s), for as long as the game is open.
	SaveRetryFirst, SaveRetryMax time.Duration
	// UntouchedAfter is how long a game in which its player never acted
	// is kept: after it, an hourly sweep deletes it (untouched.go; default
	// DefaultUntouchedAfter, a day; negative: never).
	UntouchedAfter time.Duration
	// AliveEvery is how often the server records that it is alive
	// (alive.go; default DefaultAliveEvery).
	AliveEvery time.Duration
	// Presence, on a site of several servers (PostgreSQL), is this
	// server's presence in the games played in person (store.Presence):
	// their hosts count the players of every server for the clock, and
	// the server renews its own every AliveEvery and stops the clocks that
	// nobody's presence keeps running any more (live.Presence). Nil, as on
	// SQLite: a game's clock runs while this server has its players.
	Presence Presence
	// Logger receives the games' errors (default: the standard logger).
	Logger *log.Logger
	// Hooks let tests see inside; nil fields do nothing.
	Hooks Hooks
}

// Presence is live.Presence with what the server does besides with its
// own: renew it (every Config.AliveEvery) and drop it at a clean stop.
type Presence interface {
	live.Presence
	// Renew keeps this server's presence in every game it is in.
	Renew(now time.Time) error
	// Leave drops all of it.
	Leave() error
}

// Hooks are what tests see of the games as they go. Each runs with no lock
// held.
type Hooks struct {
	// Load runs before a game's record is read to build its host.
	Load func(id string)
	// BotAction runs as a bot of game id (a browser game's ID, or "api
	// game N") has chosen its action for phase (a sense or a move),
	// before the action is applied and saved.
	BotAction func(id string, phase recon.Phase)
	// Swept runs after each sweep of untouched games with the number of
	// games it dropped.
	Swept func(n int64)
	// BotPondered runs as a bot of game id has thought on its opponent's
	// turn (ponder.go), to the end or cut short.
	BotPondered func(id string)
}

// Games hosts the games played in the browser against the server: chess
// against the engine (IDs "g_…") and Reconnaissance Chess against a bot
// ("r_…"), each in a live.Host of the registry it is given, and the
// housekeeping of their records (the sweep of untouched games, the marks
// that the server is alive). Create it with New; its methods are safe for
// concurrent use.
type Games struct {
	cfg    Config
	reg    *live.Registry
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// lastAlive is when the previous server on this database was last
	// alive, read at start (zero when unknown): the clocks a crash left
	// running are charged up to it (alive.go).
	lastAlive time.Time
}

// New returns the games of cfg.Store, hosted in reg: it registers their
// kinds there and starts the sweep of untouched games and the alive marks,
// which run until Close.
func New(cfg Config, reg *live.Registry) (*Games, error) {
	if cfg.Store == nil {
		return nil, errors.New("play: Config.Store is required")
	}
	if cfg.Pool == nil && !cfg.NoEngine {
		return nil, errors.New("play: Config.Pool is required unless NoEngine")
	}
	if len(cfg.Levels) == 0 {
		return nil, errors.New("play: Config.Levels is empty")
	}
	if cfg.Logger == nil {
		cfg.Logger = log.Default()
	}
	if cfg.NewBot == nil {
		cfg.NewBot = bots.NewOneThread
	}
	switch {
	case cfg.ReplyPause < 0:
		cfg.ReplyPause = 0
	case cfg.ReplyPause == 0:
		cfg.ReplyPause = DefaultReplyPause
	}
	if cfg.SaveRetryFirst <= 0 {
		cfg.SaveRetryFirst = DefaultSaveRetryFirst
	}
	if cfg.SaveRetryMax <= 0 {
		cfg.SaveRetryMax = DefaultSaveRetryMax
	}
	if cfg.UntouchedAfter == 0 {
		cfg.UntouchedAfter = DefaultUntouchedAfter
	}
	if cfg.AliveEvery <= 0 {
		cfg.AliveEvery = DefaultAliveEvery
	}
	gs := &Games{cfg: cfg, reg: reg}
	gs.ctx, gs.cancel = context.WithCancel(context.Background())
	// Read before the first mark of this server overwrites it.
	if t, ok := cfg.Store.LastAlive(); ok {
		gs.lastAlive = t
	}
	reg.Kind(chessIDPrefix, gs.loadChessHost)
	reg.Kind(store.ReconIDPrefix, gs.loadReconHost)
	gs.wg.Add(1)
	go func() {
		defer gs.wg.Done()
		gs.runAliveMarker()
	}()
	if cfg.UntouchedAfter > 0 {
		gs.wg.Add(1) // Close waits for the sweep in progress
		go func() {
			defer gs.wg.Done()
			gs.runUntouchedSweeper()
		}()
	}
	return gs, nil
}

// Close stops the sweep and the alive marks, waiting for them, and the
// automata and pending saves of the games still hosted (the registry's
// owner closes their hosts). The parts in Config stay open.
func (gs *Games) Close() {
	gs.cancel()
	gs.wg.Wait()
	if p := gs.cfg.Presence; p != nil {
		if err := p.Leave(); err != nil { // what the closed hosts failed to drop
			gs.logf("%v", err)
		}
	}
}

func (gs *Games) logf(format string, args ...any) {
	gs.cfg.Logger.Printf("play: "+format, args...)
}

// Levels returns the engine's levels, 1..len.
func (gs *Games) Levels() []enginepool.LevelInfo { return gs.cfg.Levels }

// Level returns level n (a placeholder named "Level n" when there is no
// such level).
func (gs *Games) Level(n int) enginepool.LevelInfo {
	if n >= 1 && n <= len(gs.cfg.Levels) {
		return gs.cfg.Levels[n-1]
	}
	return enginepool.LevelInfo{Number: n, Name: fmt.Sprintf("Level %d", n)}
}

// Learning reports whether the engine learns from finished games
// (Config.Learner).
func (gs *Games) Learning() bool { return gs.cfg.Learner != nil }

// HostConfig is the host configuration of game id, for every kind of game
// the server plays (rbcapi's too): the save retries' pacing, the log, and
// the context that Close ends; always puts the game on the server's clock
// (the API's games).
func (gs *Games) HostConfig(id string, always bool) live.Config {
	cfg := live.Config{
		ID: id, Always: always, Context: gs.ctx,
		SaveRetryFirst: gs.cfg.SaveRetryFirst, SaveRetryMax: gs.cfg.SaveRetryMax,
		Logf: gs.cfg.Logger.Printf,
	}
	if gs.cfg.Presence != nil && !always {
		cfg.Presence = gs.cfg.Presence
	}
	return cfg
}

// runningElsewhere reports whether a record's clock that says it runs
// (since not nil) runs because a player has the game open on another
// server now: then a host loading it here runs it from the record, as
// that server does, rather than charging a crash and stopping it. False
// without a Presence (one server: a clock left running is a crash's), and
// when the look fails (logged).
func (gs *Games) runningElsewhere(id string, since *time.Time) bool {
	if gs.cfg.Presence == nil || since == nil {
		return false
	}
	ok, err := gs.cfg.Presence.Elsewhere(id, time.Now())
	if err != nil {
		gs.logf("game %s: %v", id, err)
	}
	return ok && err == nil
}

// hookLoad runs the Load hook of the tests.
func (gs *Games) hookLoad(id string) {
	if gs.cfg.Hooks.Load != nil {
		gs.cfg.Hooks.Load(id)
	}
}
