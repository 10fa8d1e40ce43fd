package training

import (
	"context"
	"errors"
	"log"
	"sync"
	"time"

	"knightwatch/store"
)

// GeneratorOptions configure a Generator.
type GeneratorOptions struct {
	// Store holds the games, their reviews and the puzzles; Engine is the
	// pool's background lane. Both are required.
	Store  *store.Store
	Engine IdleEngine
	Find   FindOptions
	// Logger receives what could not be searched or saved (default: the
	// standard logger).
	Logger *log.Logger
	// Scanned, when set, is called after each game is searched with the
	// puzzles found and the searches made: for tests and figures.
	Scanned func(gameID string, puzzles, searches int, took time.Duration)
}

// Generator finds puzzles in finished, reviewed games in the background,
// on the engine pool's background lane, one game at a time: when no game
// needs the engine, as reviews do. It starts with what the store says is
// left to search and wakes when a review is complete (Reviewed) or a
// player asks for puzzles (Want: that player's games go first).
type Generator struct {
	o      GeneratorOptions
	wake   chan struct{}
	mu     sync.Mutex
	owner  string // the last player who asked for puzzles
	cancel context.CancelFunc
	done   chan struct{}
}

// NewGenerator starts the generator.
func NewGenerator(o GeneratorOptions) (*Generator, error) {
	if o.Store == nil || o.Engine == nil {
		return nil, errors.New("training: GeneratorOptions.Store and Engine are required")
	}
	if o.Logger == nil {
		o.Logger = log.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	g := &Generator{o: o, wake: make(chan struct{}, 1), cancel: cancel, done: make(chan struct{})}
	go g.run(ctx)
	return g, nil
}

// Reviewed tells the generator a game's review is complete. It never
// blocks.
func (g *Generator) Reviewed(string) { g.poke() }

// Want tells the generator owner asks for puzzles: their own games are
// searched first. It never blocks.
func (g *Generator) Want(owner string) {
	g.mu.Lock()
	g.owner = owner
	g.mu.Unlock()
	g.poke()
}

func (g *Generator) poke() {
	select {
	case g.wake <- struct{}{}:
	default:
	}
}

// Close stops the generator (a game being searched is searched again
// after the next start) and waits for it.
func (g *Generator) Close() {
	g.cancel()
	<-g.done
}

func (g *Generator) run(ctx context.Context) {
	defer close(g.done)
	for ctx.Err() == nil {
		g.mu.Lock()
		owner := g.owner
		g.mu.Unlock()
		games, err := g.o.Store.Training().GamesToScan(owner, 1)
		if err != nil {
			g.o.Logger.Printf("puzzles: %v", err)
		}
		if err != nil || len(games) == 0 {
			select {
			case <-g.wake:
			case <-ctx.Done():
			case <-time.After(time.Minute): // a save that failed, tried again
			}
			continue
		}
		g.scan(ctx, &games[0])
	}
}

// scan searches one game and stores what it found.
func (g *Generator) scan(ctx context.Context, rec *store.Game) {
	start := time.Now()
	var found []store.Puzzle
	searches := 0
	_, plies, err := g.o.Store.Reviews().GameAnalysis(rec.ID)
	if err == nil {
		gm, rerr := rec.Replay()
		if rerr != nil {
			err = rerr
		} else {
			var alive bool
			found, searches, alive = Find(ctx, g.o.Engine, g.o.Find, rec, gm, plies)
			if !alive {
				return
			}
		}
	}
	if err != nil {
		// Marked searched all the same: it would fail again.
		g.o.Logger.Printf("puzzles of %s: %v", rec.ID, err)
	}
	if err := g.o.Store.Training().SaveScan(rec.ID, found); err != nil {
		g.o.Logger.Printf("puzzles of %s: %v", rec.ID, err)
		select {
		case <-ctx.Done():
		case <-time.After(time.Minute):
		}
		return
	}
	if g.o.Scanned != nil {
		g.o.Scanned(rec.ID, len(found), searches, time.Since(start))
	}
}
