package tune

import (
	"context"
	"math/rand/v2"

	"knightwatch/engine"
	"knightwatch/game"
)

// SelfPlayOptions configure GenerateTrainingData.
type SelfPlayOptions struct {
	Games       int
	Nodes       uint64 // node budget per move
	RandomPlies int    // random moves after the book to diversify openings
	MaxPlies    int    // a game still going after this many plies is a draw; 0 means 300
	Seed        uint64
	// Network plays and scores the games with the built-in network. The
	// default is the hand-written evaluation: the data the built-in
	// network learned from were made that way, and the same seeds give
	// the same data only with the same evaluation.
	Network bool
}

// GenerateTrainingData plays fast self-play games and returns their quiet
// positions (not in check, the move played neither a capture nor a
// promotion, the score not a mate) labelled with the results and scored
// with the search's score. The openings come from the default Polyglot
// book (engine.DefaultBookFile, when installed) and then RandomPlies
// random moves; a game is adjudicated to the side ahead after six moves in
// a row beyond 10 pawns or with a mate score. progress, when not nil, is
// called after each game.
func GenerateTrainingData(ctx context.Context, o SelfPlayOptions, progress func(game int, result string)) []TrainingPosition {
	if o.MaxPlies <= 0 {
		o.MaxPlies = 300
	}
	rng := rand.New(rand.NewPCG(o.Seed, 99))
	e := engine.New(engine.Options{HashMB: 8, HandWrittenEval: !o.Network})
	e.SetSeed(o.Seed)
	book, err := engine.OpenBook(engine.DefaultBookFile)
	if err != nil {
		book = nil // no book: the random plies alone vary the openings
	}
	var out []TrainingPosition
	for gi := 0; gi < o.Games && ctx.Err() == nil; gi++ {
		e.NewGame()
		g := game.NewGame()
		// Opening: book moves while there are any, then random plies.
		for ply := 0; ply < 16 && book != nil; ply++ {
			m, ok := book.Choose(g.Position(), rng)
			if !ok {
				break
			}
			g.Play(m)
		}
		for i := 0; i < o.RandomPlies && !g.Outcome().Over(); i++ {
			moves := g.Position().LegalMoves()
			g.Play(moves[rng.IntN(len(moves))])
		}
		type scoredFEN struct {
			fen   string
			score int
		}
		var fens []scoredFEN
		result := ""
		adjudicate := 0
		for g.Len() < o.MaxPlies {
			if oc := g.OutcomeWithClaims(); oc.Over() {
				result = string(oc.Result)
				break
			}
			p := g.Position()
			res := e.Search(ctx, p, g.HashHistory(), engine.Limits{Nodes: o.Nodes}, nil)
			if ctx.Err() != nil {
				return out
			}
			// Resign adjudication saves time in decided games.
			cp := res.Score.CP
			if p.Side() == game.Black {
				cp = -cp
			}
			quiet := !p.InCheck() && !p.IsCapture(res.Move) && !res.Move.IsPromotion() && res.Score.Mate == 0
			if quiet {
				fens = append(fens, scoredFEN{p.FEN(), cp})
			}
			if res.Score.Mate != 0 || cp > 1000 || cp < -1000 {
				adjudicate++
				if adjudicate >= 6 {
					if cp > 0 {
						result = string(game.WhiteWins)
					} else {
						result = string(game.BlackWins)
					}
					break
				}
			} else {
				adjudicate = 0
			}
			g.Play(res.Move)
		}
		if result == "" {
			result = string(game.Draw)
		}
		label := 0.5
		switch result {
		case string(game.WhiteWins):
			label = 1
		case string(game.BlackWins):
			label = 0
		}
		for _, f := range fens {
			out = append(out, TrainingPosition{FEN: f.fen, Result: label, Score: f.score, Scored: true})
		}
		if progress != nil {
			progress(gi+1, result)
		}
	}
	return out
}
