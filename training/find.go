package training

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/store"
)

// Finding puzzles in a reviewed game, after lichess's puzzle generator
// (lichess-puzzler): a candidate is a position just after one of the
// game's mistakes or blunders (the review's ? and ??) where the side to
// move now wins; it is a puzzle when that side has a single clearly
// winning move (its winning chances onlyMoveMargin above the second
// best's, or a mate where the second best mates not), checked by a
// MultiPV-2 search and again by a deeper one;
// the line is played out, after each of the solver's moves the
// opponent's best reply, every solver move again the only winning one,
// until the win is clear (checkmate) or the next solver move is not the
// only one; a line that does not end in mate must have won material.

// IdleEngine is what the generator searches with: the engine pool's
// background lane (enginepool.Pool, or enginejobs.Jobs on a site).
type IdleEngine interface {
	SearchIdle(ctx context.Context, gameID string, pos *game.Position, history []uint64, req enginepool.SearchRequest) (enginepool.SearchResult, bool)
}

// FindOptions are the generator's budgets and rules.
type FindOptions struct {
	// Nodes is a search's budget (DefaultFindNodes when 0); the first
	// move is checked again at DeepNodes (4×Nodes when 0).
	Nodes, DeepNodes uint64
	// Level is the engine's level (the strongest when 0).
	Level int
	// MaxSolverMoves caps a line (DefaultMaxSolverMoves when 0).
	MaxSolverMoves int
}

const (
	// DefaultFindNodes is a puzzle search's budget: the review's.
	DefaultFindNodes = 200_000
	// DefaultMaxSolverMoves caps a puzzle's line at the solver's sixth
	// move.
	DefaultMaxSolverMoves = 6
	// winningCP is the least score of a winning move, as the puzzler's
	// "advantage" puzzles ask (+2 pawns).
	winningCP = 200
	// onlyMoveMargin is how much more the best move's winning chances
	// (-1 to 1, lichess's formula) must be than the second's for it to be
	// the only winning move: a clear margin, as the puzzler asks.
	onlyMoveMargin = 0.5
	// materialWon is the least material (pawns) a line not ending in mate
	// must win for the solver.
	materialWon = 2
	// findTimeCap caps one search, as a review's are capped.
	findTimeCap = 2 * time.Second
)

func (o FindOptions) withDefaults() FindOptions {
	if o.Nodes == 0 {
		o.Nodes = DefaultFindNodes
	}
	if o.DeepNodes == 0 {
		o.DeepNodes = 4 * o.Nodes
	}
	if o.Level == 0 {
		o.Level = 8
	}
	if o.MaxSolverMoves == 0 {
		o.MaxSolverMoves = DefaultMaxSolverMoves
	}
	return o
}

// winChances is lichess's winning chances of a score for the side to
// move, -1 to 1 (a mate counts as ±1).
func winChances(cp, mate int) float64 {
	switch {
	case mate > 0:
		return 1
	case mate < 0:
		return -1
	}
	return 2/(1+math.Exp(-0.00368208*float64(cp))) - 1
}

// finder runs the searches of one game's puzzles.
type finder struct {
	ctx    context.Context
	engine IdleEngine
	opts   FindOptions
	gameID string
	// searches counts the searches made, for the figures.
	searches int
}

// search runs a background search until it is not stopped by a live
// game's request (a stopped search is run again); ok is false only when
// ctx ended.
func (f *finder) search(pos *game.Position, hist []uint64, nodes uint64, second bool) (enginepool.SearchResult, bool) {
	req := enginepool.SearchRequest{Level: f.opts.Level, Nodes: nodes, MoveTime: findTimeCap, Evaluate: true, SecondBest: second,
		Turn: fmt.Sprintf("puzzle %s %s %d %v", f.gameID, pos.FEN(), nodes, second)}
	for {
		res, ok := f.engine.SearchIdle(f.ctx, "puzzles", pos, hist, req)
		if ok {
			f.searches++
			return res, true
		}
		if f.ctx.Err() != nil {
			return res, false
		}
	}
}

// onlyMove returns the only clearly winning move in pos, or ok false.
func (f *finder) onlyMove(pos *game.Position, hist []uint64, nodes uint64) (game.Move, bool, bool) {
	legal := pos.LegalMoves()
	if len(legal) == 0 {
		return game.NoMove, false, true
	}
	res, alive := f.search(pos, hist, nodes, true)
	if !alive {
		return game.NoMove, false, false
	}
	if !pos.IsLegal(res.Move) || res.Depth == 0 {
		return game.NoMove, false, true
	}
	best := enginepool.Line{Move: res.Move, CP: res.CP, Mate: res.Mate}
	if best.Mate <= 0 && (best.Mate < 0 || best.CP < winningCP) {
		return game.NoMove, false, true
	}
	if len(legal) > 1 {
		second := res.Second
		if second.Move == game.NoMove || second.Move == best.Move {
			return game.NoMove, false, true
		}
		// A mate is the only one when the second move mates not at all;
		// else the margin decides.
		mateOnly := best.Mate > 0 && second.Mate <= 0
		if !mateOnly && winChances(best.CP, best.Mate)-winChances(second.CP, second.Mate) < onlyMoveMargin {
			return game.NoMove, false, true
		}
	}
	return res.Move, true, true
}

// candidate says whether the position after ply moves is worth a search:
// just after a mistake or blunder, its side to move winning by the review.
func candidate(plies []store.AnalysisPly, ply int, pos *game.Position) bool {
	p := plies[ply]
	if p.Judgement != store.Mistake && p.Judgement != store.Blunder || !pos.HasLegalMoves() {
		return false
	}
	sign := 1
	if pos.Side() == game.Black {
		sign = -1
	}
	return sign*p.Mate > 0 || (p.Mate == 0 && sign*p.CP >= winningCP)
}

// Find returns the puzzles of rec (over, replayed as g, with its complete
// review plies), and false when ctx ended first.
func Find(ctx context.Context, engine IdleEngine, opts FindOptions, rec *store.Game, g *game.Game, plies []store.AnalysisPly) ([]store.Puzzle, int, bool) {
	f := &finder{ctx: ctx, engine: engine, opts: opts.withDefaults(), gameID: rec.ID}
	moves := g.Moves()
	if len(plies) != len(moves)+1 {
		return nil, 0, true
	}
	var out []store.Puzzle
	for ply := 1; ply < len(plies); ply++ {
		if !candidate(plies, ply, g.PositionAt(ply)) {
			continue
		}
		p, alive := f.puzzleAt(rec, g, moves, ply)
		if !alive {
			return nil, f.searches, false
		}
		if p != nil {
			out = append(out, *p)
		}
	}
	return out, f.searches, true
}

// puzzleAt tries the position after ply moves of g.
func (f *finder) puzzleAt(rec *store.Game, g *game.Game, moves []game.Move, ply int) (*store.Puzzle, bool) {
	replay := game.NewGameFrom(g.StartPosition())
	for _, m := range moves[:ply] {
		_ = replay.Play(m) // legal: the game's
	}
	start := *replay.Position()
	solver := start.Side()
	var line []game.Move
	var lastGain int
	mate := false
	for n := 0; n < f.opts.MaxSolverMoves; n++ {
		pos := replay.Position()
		m, ok, alive := f.onlyMove(pos, replay.HashHistory(), f.opts.Nodes)
		if !alive {
			return nil, false
		}
		if ok && n == 0 {
			// Checked again deeper, as the puzzler does.
			var deep game.Move
			deep, ok, alive = f.onlyMove(pos, replay.HashHistory(), f.opts.DeepNodes)
			if !alive {
				return nil, false
			}
			ok = ok && deep == m
		}
		if !ok {
			break
		}
		_ = replay.Play(m)
		line = append(line, m)
		after := replay.Position()
		if after.IsCheckmate() {
			mate = true
			break
		}
		if !after.HasLegalMoves() {
			return nil, true // stalemate: no win
		}
		res, alive := f.search(after, replay.HashHistory(), f.opts.Nodes, false)
		if !alive {
			return nil, false
		}
		if !after.IsLegal(res.Move) {
			return nil, true
		}
		next := *after
		next.MakeMove(res.Move)
		lastGain = material(&next, solver) - material(&start, solver)
		if n+1 == f.opts.MaxSolverMoves {
			break
		}
		_ = replay.Play(res.Move)
		line = append(line, res.Move)
	}
	// The line ends with the solver's move.
	if len(line)%2 == 0 && len(line) > 0 {
		line = line[:len(line)-1]
	}
	if len(line) == 0 || (!mate && lastGain < materialWon) {
		return nil, true
	}
	before := g.PositionAt(ply - 1)
	uci := make([]string, len(line))
	p := start
	for i, m := range line {
		uci[i] = p.UCI(m)
		p.MakeMove(m)
	}
	r := NewRating()
	return &store.Puzzle{
		GameID: rec.ID, Ply: ply, Owner: rec.Owner, FEN: before.FEN(), LastMove: before.UCI(moves[ply-1]),
		Line: strings.Join(uci, " "), Mate: mate, Rating: r.R, RD: r.RD, Volatility: r.Vol,
	}, true
}
