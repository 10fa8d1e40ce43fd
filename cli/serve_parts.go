package cli

import (
	"context"
	"fmt"
	"log"
	"runtime"
	"strconv"
	"time"

	"knightwatch/changefeed"
	"knightwatch/enginejobs"
	"knightwatch/enginepool"
	"knightwatch/experience"
	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/play"
	"knightwatch/rbcapi"
	"knightwatch/recon/bots"
	"knightwatch/review"
	"knightwatch/store"
	"knightwatch/training"
	"knightwatch/web"
)

// partsFlags are serve's settings of the parts of the web app that are
// not HTTP.
type partsFlags struct {
	// database is --db: on PostgreSQL the registry follows the other
	// servers' commits through the change feed.
	database       string
	syzygy         string // --syzygy
	gaviota        string // --gaviota
	experience     bool   // --experience
	experienceRows int    // --experience-rows
	analysisNodes  int    // --analysis-nodes; 0: no reviews
	noEngine       bool   // --no-engine
	// engineWork is --engine-work: on PostgreSQL, this server takes
	// engine jobs too (as a worker does); it asks for them anyway.
	engineWork bool
	// rbcClock and rbcIncrement are --rbc-clock (zero: rbcapi's default).
	rbcClock, rbcIncrement time.Duration
	// rbcBotCores is --rbc-bot-cores: 0 none (enginepool.Config.BotCores
	// negative).
	rbcBotCores int
}

// buildParts is the composition root of the web app's parts that are not
// HTTP: the engine pool (with the Syzygy and Gaviota tables), the learner (with the
// experience on) and the reviewer (with a review budget), each with its
// own package's defaults, wired to each other (a complete review teaches
// the learner); the registry of live games, the games played in the
// browser (package play) and the reconchess HTTP API (package rbcapi),
// both hosted there. closeParts closes them once the server is closed,
// each after those that use it.
func buildParts(st *store.Store, f partsFlags, logger *log.Logger) (parts web.Parts, closeParts func(), err error) {
	var closers []func()
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	defer func() {
		if err != nil {
			closeAll() // what was built before the failure
		}
	}()
	parts.Store = st
	if parts.Pool, err = enginepool.New(enginepool.Config{SyzygyPath: f.syzygy, GaviotaPath: f.gaviota, BotCores: botCoresConfig(f.rbcBotCores)}); err != nil {
		return web.Parts{}, nil, err
	}
	closers = append(closers, parts.Pool.Close)
	var learner *experience.Learner
	if f.experience {
		if learner, err = experience.New(experience.Options{Store: st, Rows: f.experienceRows, Logger: logger}); err != nil {
			return web.Parts{}, nil, err
		}
		closers = append(closers, learner.Close)
	}
	// The engine: this server's pool, or on PostgreSQL jobs that any
	// worker takes (this server too, unless --engine-work=false).
	var engine interface {
		play.Engine
		review.Engine
	} = parts.Pool
	var botJobs play.BotJobs // nil: the bots think here
	if store.IsPostgres(f.database) && !f.noEngine {
		jobs, err := enginejobs.Start(context.Background(), enginejobs.Config{
			DSN: f.database, Pool: parts.Pool, Work: f.engineWork, NewBot: bots.NewOneThread, Logf: logger.Printf,
		})
		if err != nil {
			return web.Parts{}, nil, err
		}
		closers = append(closers, jobs.Close)
		engine, botJobs = jobs, jobs
	}
	parts.LiveEngine = engine
	if f.analysisNodes > 0 && !f.noEngine {
		// Puzzles come from reviewed games, searched when no game needs
		// the engine (package training).
		if parts.Puzzles, err = training.NewGenerator(training.GeneratorOptions{Store: st, Engine: engine, Logger: logger}); err != nil {
			return web.Parts{}, nil, err
		}
		closers = append(closers, parts.Puzzles.Close)
	}
	if f.analysisNodes > 0 {
		ro := review.Options{Store: st, Engine: engine, Nodes: f.analysisNodes, Logger: logger}
		if learner != nil || parts.Puzzles != nil {
			gen := parts.Puzzles
			ro.Learn = func(id string, positions []*game.Position, moves []game.Move, plies []store.AnalysisPly) {
				if learner != nil {
					learner.Reviewed(id, positions, moves, plies)
				}
				if gen != nil {
					gen.Reviewed(id)
				}
			}
		}
		if parts.Reviews, err = review.New(ro); err != nil {
			return web.Parts{}, nil, err
		}
		closers = append(closers, parts.Reviews.Close)
	}
	parts.Registry = live.NewRegistry()
	// This process among the servers of one database: its presence in the
	// games played in person and its leases of the API's (store/presence.go).
	server := store.NewServerID()
	var presence play.Presence
	if st.Shared() {
		presence = st.Presence(server)
	}
	parts.Games, err = play.New(play.Config{
		Store: st, Pool: engine, BotJobs: botJobs, Learner: learner, Reviews: parts.Reviews,
		Levels: enginepool.Levels(), NoEngine: f.noEngine, Presence: presence, Logger: logger,
	}, parts.Registry)
	if err != nil {
		return web.Parts{}, nil, err
	}
	closers = append(closers, parts.Games.Close)
	parts.API, err = rbcapi.New(rbcapi.Config{
		Store: st, Games: parts.Games, Clock: f.rbcClock, Increment: f.rbcIncrement, Server: server, Logger: logger,
	}, parts.Registry)
	if err != nil {
		return web.Parts{}, nil, err
	}
	closers = append(closers, parts.API.Close)
	// Closed first (the web server closes it too, collecting its tabs):
	// no game is left hosted, its automaton thinking, once the parts go.
	closers = append(closers, func() { parts.Registry.Close() })
	if store.IsPostgres(f.database) {
		// Closed before the registry: nothing reloads a game meanwhile.
		l, err := changefeed.Listen(context.Background(), f.database, feedToRegistry{parts.Registry}, changefeed.Options{Logf: logger.Printf})
		if err != nil {
			return web.Parts{}, nil, err
		}
		closers = append(closers, func() { l.Close() })
	}
	return parts, closeAll, nil
}

// feedToRegistry hands what the change feed hears to the registry: the
// hosts this server holds of games another server committed read them
// again.
type feedToRegistry struct{ r *live.Registry }

func (f feedToRegistry) Changed(c changefeed.Change) { f.r.Changed(c.Game, c.Revision) }
func (f feedToRegistry) Resync()                     { f.r.Resync() }

// sessionsFeed hands what the sessions' channel hears to the web server:
// the account whose sessions ended (store.SessionsChannel); after a cut,
// every signed-in socket is checked.
type sessionsFeed struct{ srv *web.Server }

func (f sessionsFeed) Payload(p string) {
	if id, err := strconv.ParseInt(p, 10, 64); err == nil && id > 0 {
		f.srv.SessionsEnded(id)
	}
}

func (f sessionsFeed) Resync() { f.srv.SessionsEnded(0) }

// rbcBotCoresUsage is --rbc-bot-cores's usage, serve's and worker's.
const rbcBotCoresUsage = "cores the built-in bots of HTTP API games may think on at once, spending their clock as competitors do (0: none; their steps then think at most 3 s in the engine pool, as in the web app)"

// checkBotCores refuses an --rbc-bot-cores below 0 or beyond 4 a core.
func checkBotCores(n int) error {
	if n < 0 || n > 4*runtime.NumCPU() {
		return fmt.Errorf("--rbc-bot-cores: %d is not from 0 to %d (4 a core)", n, 4*runtime.NumCPU())
	}
	return nil
}

// botCoresConfig turns --rbc-bot-cores into enginepool.Config.BotCores,
// whose 0 is the default and whose negative is none.
func botCoresConfig(flag int) int {
	if flag == 0 {
		return -1
	}
	return flag
}
