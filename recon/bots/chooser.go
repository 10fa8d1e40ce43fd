package bots

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"knightwatch/engine"
	"knightwatch/game"
	"knightwatch/match"
)

// StockfishEnv names the environment variable the reference's TroutBot
// reads for the Stockfish executable.
const StockfishEnv = "STOCKFISH_EXECUTABLE"

// moveChooser is the chess engine behind trout: it returns its move for
// the side to move in pos (in game's encoding), or an error.
type moveChooser interface {
	choose(ctx context.Context, pos *game.Position, limit searchLimit) (game.Move, error)
	close()
}

// searchLimit is how long one of trout's searches may take.
type searchLimit struct {
	moveTime time.Duration // 0: no time limit
	nodes    uint64        // 0: no node limit
}

// knightwatchChooser searches with Knightwatch's own engine, one thread.
type knightwatchChooser struct {
	e *engine.Engine
}

func newKnightwatchChooser(seed uint64) *knightwatchChooser {
	e := engine.New(engine.Options{HashMB: 16, Threads: 1})
	e.SetSeed(seed)
	return &knightwatchChooser{e: e}
}

func (k *knightwatchChooser) choose(ctx context.Context, pos *game.Position, limit searchLimit) (game.Move, error) {
	r := k.e.Search(ctx, pos, nil, engine.Limits{MoveTime: limit.moveTime, Nodes: limit.nodes}, nil)
	if r.Move == game.NoMove {
		return game.NoMove, errors.New("no legal move")
	}
	return r.Move, nil
}

func (k *knightwatchChooser) close() {}

// stockfishChooser asks a Stockfish process (or any UCI engine), started
// once per bot, through the match package's UCI client.
type stockfishChooser struct {
	e *match.Engine
}

func newStockfishChooser(path string) (*stockfishChooser, error) {
	if path == "" {
		return nil, fmt.Errorf("engine=stockfish needs %s to name the Stockfish executable", StockfishEnv)
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("no Stockfish executable at %q (%s): %v", path, StockfishEnv, err)
	}
	e, err := match.StartEngine(match.EngineSpec{Command: []string{path}}, 10*time.Second)
	if err != nil {
		return nil, err
	}
	return &stockfishChooser{e: e}, nil
}

func (s *stockfishChooser) choose(ctx context.Context, pos *game.Position, limit searchLimit) (game.Move, error) {
	// Stockfish may crash on a board standard chess does not allow (no
	// king, the side not to move in check); refuse those instead.
	if _, err := game.ParseFEN(pos.FEN()); err != nil {
		return game.NoMove, err
	}
	goCmd := "go"
	if limit.moveTime > 0 {
		goCmd += " movetime " + strconv.FormatInt(limit.moveTime.Milliseconds(), 10)
	}
	if limit.nodes > 0 {
		goCmd += " nodes " + strconv.FormatUint(limit.nodes, 10)
	}
	wait := limit.moveTime + 5*time.Second
	if limit.moveTime == 0 {
		wait = time.Minute
	}
	r, err := s.e.Go(ctx, "position fen "+pos.FEN(), goCmd, wait)
	if err != nil {
		if errors.Is(err, match.ErrEngineTimeout) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			if s.e.Stop(5*time.Second) != nil {
				s.e.Kill()
			}
		}
		return game.NoMove, err
	}
	m, err := pos.ParseUCI(strings.TrimSpace(r.Move))
	if err != nil {
		return game.NoMove, fmt.Errorf("stockfish answered %q: %w", r.Move, err)
	}
	return m, nil
}

func (s *stockfishChooser) close() { s.e.Close(2 * time.Second) }
