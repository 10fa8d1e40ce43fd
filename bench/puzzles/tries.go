package main

import (
	"context"
	"fmt"
	"time"

	"knightwatch/engine"
	"knightwatch/game"
	"knightwatch/review"
	"knightwatch/store"
	"knightwatch/training"
)

// How to judge a move tried in "learn from your mistakes" (docs/training.md):
// (a) search the position after it, as training.Checker does, or (b) search
// the position before it restricted to it (UCI searchmoves), each at the
// review's budget; both against (ref) the position after it searched at
// ten times the budget. Verdicts are review.JudgeMove's from the review's
// evaluation of the position.

// tryMethod is one way to evaluate a tried move: the evaluation after it,
// White's point of view.
type tryMethod func(e *engine.Engine, g *game.Game, ply int, m game.Move, nodes uint64) review.Eval

// whiteEval turns a score for the side to move of pos into White's.
func whiteEval(pos *game.Position, s engine.Score) review.Eval {
	sign := 1
	if pos.Side() == game.Black {
		sign = -1
	}
	if s.Mate != 0 {
		return review.Eval{Mate: sign * s.Mate}
	}
	return review.Eval{CP: sign * s.CP}
}

// replayTo is g's game object after its first ply moves, and then extra.
func replayTo(g *game.Game, ply int, extra ...game.Move) *game.Game {
	r := game.NewGameFrom(g.StartPosition())
	for _, m := range append(g.Moves()[:ply:ply], extra...) {
		_ = r.Play(m)
	}
	return r
}

func after(e *engine.Engine, g *game.Game, ply int, m game.Move, nodes uint64) review.Eval {
	r := replayTo(g, ply, m)
	pos := r.Position()
	if pos.IsCheckmate() {
		return whiteEval(pos, engine.Score{Mate: -1})
	}
	if !pos.HasLegalMoves() {
		return review.Eval{}
	}
	e.NewGame()
	res := e.Search(context.Background(), pos, r.HashHistory(), engine.Limits{Nodes: nodes, MoveTime: 5 * time.Second}, nil)
	return whiteEval(pos, res.Score)
}

func searchMoves(e *engine.Engine, g *game.Game, ply int, m game.Move, nodes uint64) review.Eval {
	r := replayTo(g, ply)
	pos := r.Position()
	e.NewGame()
	res := e.Search(context.Background(), pos, r.HashHistory(), engine.Limits{Nodes: nodes, MoveTime: 5 * time.Second, SearchMoves: []game.Move{m}}, nil)
	return whiteEval(pos, res.Score)
}

// measureTries compares the two ways on up to maxMistakes mistakes of the
// reviewed games (either side's), movesEach legal moves tried at each
// (the first in generation order, and the review's best).
func measureTries(st *store.Store, ids []string, maxMistakes, movesEach int, nodes uint64) error {
	e := engine.New(engine.Options{HashMB: 16, Threads: 1})
	type tally struct {
		agree, good int
		took        time.Duration
	}
	var a, b tally
	n, tries := 0, 0
	for _, id := range ids {
		rec, err := st.Games().GetGame(id)
		if err != nil {
			return err
		}
		_, plies, err := st.Reviews().GameAnalysis(id)
		if err != nil {
			return err
		}
		g, err := rec.Replay()
		if err != nil {
			return err
		}
		for _, side := range []game.Color{game.White, game.Black} {
			for _, mk := range training.Mistakes(g, side, plies) {
				if n >= maxMistakes {
					break
				}
				n++
				pos := g.PositionAt(mk.Ply)
				moves := pos.LegalMoves()
				if len(moves) > movesEach {
					moves = moves[:movesEach]
				}
				if best, err := pos.ParseUCI(mk.Best); err == nil {
					moves = append(moves, best)
				}
				for _, m := range moves {
					tries++
					ref := review.JudgeMove(mk.Before, after(e, g, mk.Ply, m, 10*nodes), side) == store.NoJudgement
					for _, c := range []struct {
						t *tally
						f tryMethod
					}{{&a, after}, {&b, searchMoves}} {
						t0 := time.Now()
						good := review.JudgeMove(mk.Before, c.f(e, g, mk.Ply, m, nodes), side) == store.NoJudgement
						c.t.took += time.Since(t0)
						if good == ref {
							c.t.agree++
						}
						if good {
							c.t.good++
						}
					}
				}
			}
		}
	}
	if tries == 0 {
		fmt.Println("tried moves: no mistakes in these games")
		return nil
	}
	pct := func(x int) float64 { return 100 * float64(x) / float64(tries) }
	fmt.Printf("tried moves: %d at %d mistakes, judged against the position after each at %d nodes:\n", tries, n, 10*nodes)
	fmt.Printf("  (a) position after, %d nodes: agrees %.0f%%, accepts %.0f%%, %.0f ms a try\n", nodes, pct(a.agree), pct(a.good), float64(a.took.Milliseconds())/float64(tries))
	fmt.Printf("  (b) searchmoves before, %d nodes: agrees %.0f%%, accepts %.0f%%, %.0f ms a try\n", nodes, pct(b.agree), pct(b.good), float64(b.took.Milliseconds())/float64(tries))
	return nil
}
