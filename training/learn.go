package training

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/review"
	"knightwatch/store"
)

// Learn from your mistakes: the positions of a reviewed game where its
// player made a mistake or a blunder (the review's ? and ??), what
// happened there, and whether another move is good enough.

// Mistake is one move of the player's that the review judged a mistake or
// a blunder.
type Mistake struct {
	// Ply is the move's index in the game: the position before it is
	// the game's position after Ply moves.
	Ply       int
	FEN       string // the position before the move
	Played    string // the move, UCI
	PlayedSAN string
	// Best is the review's best move there (UCI and SAN); "" when it has
	// none.
	Best, BestSAN string
	Judgement     store.Judgement
	// Before and After are the review's evaluations of the positions
	// before and after the move, from White's point of view.
	Before, After review.Eval
	// Said is what happened, in words: "You played Qa4 and lost your
	// queen."
	Said string
}

// Mistakes returns the player's mistakes and blunders in g, as the
// complete review plies (one per position) judges them, in the game's
// order. human is the player's colour.
func Mistakes(g *game.Game, human game.Color, plies []store.AnalysisPly) []Mistake {
	moves := g.Moves()
	if len(plies) != len(moves)+1 {
		return nil
	}
	var out []Mistake
	for i := 1; i < len(plies); i++ {
		j := plies[i].Judgement
		before := g.PositionAt(i - 1)
		if before.Side() != human || (j != store.Mistake && j != store.Blunder) {
			continue
		}
		m := moves[i-1]
		mk := Mistake{
			Ply: i - 1, FEN: before.FEN(), Played: before.UCI(m), PlayedSAN: before.SAN(m),
			Best: plies[i-1].BestUCI, BestSAN: plies[i-1].BestSAN, Judgement: j,
			Before: review.PlyEval(plies[i-1], before.Side()), After: review.PlyEval(plies[i], before.Side().Other()),
		}
		mk.Said = describe(before, m, plies[i].BestUCI, mk.Before, mk.After)
		out = append(out, mk)
	}
	return out
}

// pieceValues are the usual values of the pieces, in pawns.
var pieceValues = [...]int{game.Pawn: 1, game.Knight: 3, game.Bishop: 3, game.Rook: 5, game.Queen: 9}

// material is c's material minus the other side's, in pawns.
func material(p *game.Position, c game.Color) int {
	n := 0
	for pt := game.Pawn; pt <= game.Queen; pt++ {
		n += pieceValues[pt] * (p.Pieces(c, pt).Count() - p.Pieces(c.Other(), pt).Count())
	}
	return n
}

// describe says what move m in pos did, given the opponent's best reply
// (UCI, "" when none) and the evaluations before and after.
func describe(pos *game.Position, m game.Move, reply string, before, after review.Eval) string {
	mover := pos.Side()
	start := fmt.Sprintf("You played %s", pos.SAN(m))
	sign := 1
	if mover == game.Black {
		sign = -1
	}
	switch {
	case sign*after.Mate < 0:
		return start + " and allowed a forced mate."
	case sign*before.Mate > 0:
		return start + " and missed a forced mate."
	}
	next := *pos
	next.MakeMove(m)
	if r, err := next.ParseUCI(reply); err == nil && reply != "" {
		next.MakeMove(r)
	}
	switch loss := material(pos, mover) - material(&next, mover); {
	case loss >= 8:
		return start + " and lost your queen."
	case loss >= 5:
		return start + " and lost a rook."
	case loss >= 3:
		return start + " and lost a piece."
	case loss == 2:
		return start + " and lost the exchange."
	case loss == 1:
		return start + " and lost a pawn."
	}
	w := func(e review.Eval) int {
		p := review.WinPercent(e)
		if mover == game.Black {
			p = 100 - p
		}
		return int(math.Round(p))
	}
	return fmt.Sprintf("%s: your winning chances went from %d%% to %d%%.", start, w(before), w(after))
}

// Verdict is what Check says of a move tried in a mistake's position.
type Verdict struct {
	// Good is set when the move is within the review's threshold of the
	// best: the review would not have judged it (it loses less than an
	// inaccuracy's 10 points of winning chances against the evaluation
	// of the position), or it is the best move, or it mates.
	Good bool
	// Same is set when it is the move played in the game.
	Same bool
	// After is the evaluation after the move (White's point of view);
	// zero when no search was needed.
	After review.Eval
	// SAN is the move in SAN.
	SAN string
}

// checkTimeCap caps the search of a tried move, as the review caps its own.
const checkTimeCap = time.Second

// LiveEngine is what Check searches with: the engine pool's live lane
// (enginepool.Pool, or enginejobs.Jobs on a site), as the player's work.
type LiveEngine interface {
	Search(ctx context.Context, owner, gameID string, pos *game.Position, history []uint64, req enginepool.SearchRequest) (enginepool.SearchResult, bool)
}

// Checker evaluates tried moves with the review's budget, so that the
// evaluation after a tried move is as good as the review's own.
type Checker struct {
	Engine LiveEngine
	// Nodes is the budget of a search (review.DefaultNodes when 0);
	// Level the engine's level (the strongest when 0).
	Nodes uint64
	Level int
}

// ErrIllegal is Check's answer for a move that is not legal in the
// position; ErrNoEngine when the engine could not answer (stopped).
var (
	ErrIllegal  = errors.New("that move is not legal here")
	ErrNoEngine = errors.New("the engine could not evaluate the move; try again")
)

// Check judges move (UCI) tried in mistake mk's position of g, owner's
// game gameID: one search of the position after it, as the owner's work.
func (c Checker) Check(ctx context.Context, owner, gameID string, g *game.Game, mk Mistake, move string) (Verdict, error) {
	if mk.Ply < 0 || mk.Ply >= g.Len() {
		return Verdict{}, errors.New("no such position in the game")
	}
	pos := g.PositionAt(mk.Ply)
	m, err := pos.ParseUCI(move)
	if err != nil || !pos.IsLegal(m) {
		return Verdict{}, ErrIllegal
	}
	v := Verdict{SAN: pos.SAN(m)}
	u := pos.UCI(m)
	switch {
	case u == mk.Played:
		v.Same = true
		return v, nil
	case u == mk.Best:
		v.Good = true
		return v, nil
	}
	replay := game.NewGameFrom(g.StartPosition())
	moves := g.Moves()
	for _, x := range moves[:mk.Ply] {
		_ = replay.Play(x) // legal: the game's
	}
	if err := replay.Play(m); err != nil {
		return Verdict{}, ErrIllegal
	}
	after := replay.Position()
	if after.IsCheckmate() {
		v.Good = true
		return v, nil
	}
	if !after.HasLegalMoves() {
		// Stalemate: worth 0.
		v.Good = review.JudgeMove(mk.Before, review.Eval{}, pos.Side()) == store.NoJudgement
		return v, nil
	}
	if c.Engine == nil {
		return Verdict{}, ErrNoEngine
	}
	nodes, level := c.Nodes, c.Level
	if nodes == 0 {
		nodes = review.DefaultNodes
	}
	if level == 0 {
		level = 8
	}
	res, ok := c.Engine.Search(ctx, owner, gameID, after, replay.HashHistory(), enginepool.SearchRequest{
		Level: level, Nodes: nodes, MoveTime: checkTimeCap, Evaluate: true,
	})
	if !ok {
		return Verdict{}, ErrNoEngine
	}
	sign := 1
	if after.Side() == game.Black {
		sign = -1
	}
	if res.Mate != 0 {
		v.After = review.Eval{Mate: sign * res.Mate}
	} else {
		v.After = review.Eval{CP: sign * res.CP}
	}
	v.Good = review.JudgeMove(mk.Before, v.After, pos.Side()) == store.NoJudgement
	return v, nil
}
