package play

import (
	"context"
	"errors"
	"fmt"
	"time"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/live"
)

// DrawOfferEvery is how many of the person's moves must separate two draw
// offers; an earlier one gets a notice and no evaluation.
const DrawOfferEvery = 5

// The engine's answer to a draw offer (issue 34). It takes a draw only
// when it has a reason to: it cannot win at all, it stands clearly worse,
// or the game has long been a dead level endgame; never in the opening.
const (
	// drawMinMove is the first full move at which the engine considers a
	// draw on the board's merits; before it only a lack of mating material
	// makes it accept.
	drawMinMove = 30
	// drawWorseStrong and drawWorseWeak are the evaluations (engine's view,
	// centipawns) below which the strongest and the weakest level accept;
	// the levels between are spread evenly. A weak level gives up sooner.
	drawWorseStrong = -150
	drawWorseWeak   = -50
	// drawQuietCP is a near-zero evaluation; drawQuietStrong and
	// drawQuietWeak are how many of the engine's own moves in a row must
	// have been evaluated that close to zero, in a simplified endgame, for
	// the strongest and the weakest level to call the game a dead draw.
	drawQuietCP     = 25
	drawQuietStrong = 10
	drawQuietWeak   = 5
	// drawSimplified is the most non-pawn material (both sides together,
	// knight and bishop 3, rook 5) a queenless endgame may have to count as
	// simplified: a rook and a minor piece each.
	drawSimplified = 16
	// drawEvalTime caps the short search made when the game holds no
	// evaluation of the position from the engine's own search.
	drawEvalTime = 150 * time.Millisecond
	// drawEvalDepth is the least depth of the engine's own search whose
	// evaluation the game reuses for a draw offer.
	drawEvalDepth = 4
)

// drawInput is what the engine weighs when offered a draw.
type drawInput struct {
	MoveNumber   int  // the position's full-move number
	Level        int  // the game's level, 1..Levels
	Levels       int  // how many levels there are
	CannotWin    bool // the engine has no mating material
	Simplified   bool // a queenless endgame with little material left
	HaveEval     bool // CP and Mate hold an evaluation from a real search
	CP, Mate     int  // that evaluation, from the engine's point of view
	QuietStretch int  // the engine's latest consecutive near-zero evaluations
}

// drawVerdict is the engine's answer and its reason, in words.
type drawVerdict struct {
	Accept bool
	Why    string
}

// levelScale spreads a setting from its weakest-level value to its
// strongest-level value across the levels.
func levelScale(level, levels, weak, strong int) int {
	if levels <= 1 || level >= levels {
		return strong
	}
	if level <= 1 {
		return weak
	}
	return weak + (strong-weak)*(level-1)/(levels-1)
}

// decideDraw is the engine's answer to a draw offer. It needs no
// evaluation to decline in the opening or to accept without mating
// material; otherwise it declines when in doubt (no evaluation).
func decideDraw(in drawInput) drawVerdict {
	switch {
	case in.CannotWin:
		return drawVerdict{true, "it has no mating material left"}
	case in.MoveNumber < drawMinMove:
		return drawVerdict{false, fmt.Sprintf("it is too early in the game (before move %d)", drawMinMove)}
	case !in.HaveEval:
		return drawVerdict{false, "it wants to play on"}
	case in.Mate > 0:
		return drawVerdict{false, "it sees a mate"}
	case in.Mate < 0:
		return drawVerdict{true, "it stands worse"}
	case in.CP < levelScale(in.Level, in.Levels, drawWorseWeak, drawWorseStrong):
		return drawVerdict{true, "it stands worse"}
	case in.Simplified && in.CP <= drawQuietCP && in.CP >= -drawQuietCP &&
		in.QuietStretch >= levelScale(in.Level, in.Levels, drawQuietWeak, drawQuietStrong):
		return drawVerdict{true, "the endgame is a dead draw"}
	}
	return drawVerdict{false, "it wants to play on"}
}

// engineEval is one evaluation from the engine's search for its move, of
// the position after that move (ply), from the engine's point of view.
type engineEval struct {
	ply, cp, mate, depth int
}

// recordEval keeps the evaluation of the engine's move just played.
func (g *chessGame) recordEval(res enginepool.SearchResult) {
	g.evals = append(g.evals, engineEval{ply: g.g.Len(), cp: res.CP, mate: res.Mate, depth: res.Depth})
	if n := len(g.evals); n > 64 {
		g.evals = append(g.evals[:0], g.evals[n-32:]...)
	}
}

// dropEvals forgets evaluations of positions taken back.
func (g *chessGame) dropEvals() {
	for len(g.evals) > 0 && g.evals[len(g.evals)-1].ply > g.g.Len() {
		g.evals = g.evals[:len(g.evals)-1]
	}
}

// humanMoves counts the moves the person has made in the game.
func (g *chessGame) humanMoves() int {
	n := g.g.Len()
	if g.g.PositionAt(0).Side() == g.human {
		return (n + 1) / 2
	}
	return n / 2
}

// drawInput gathers what the engine knows about the position now,
// reusing the evaluation of its own last search when that is of this very
// position and deep enough.
func (g *chessGame) drawInput() drawInput {
	pos := g.pos()
	engine := g.human.Other()
	in := drawInput{
		MoveNumber: pos.FullmoveNumber(),
		Level:      g.rec.Level,
		Levels:     len(g.games.cfg.Levels),
		CannotWin:  pos.HasInsufficientMaterial(engine),
	}
	nonPawn := 0
	for _, c := range []game.Color{game.White, game.Black} {
		for _, pt := range []game.PieceType{game.Knight, game.Bishop, game.Rook} {
			nonPawn += pieceValue[pt] * pos.Pieces(c, pt).Count()
		}
	}
	in.Simplified = pos.Pieces(game.White, game.Queen)|pos.Pieces(game.Black, game.Queen) == 0 && nonPawn <= drawSimplified
	for i := len(g.evals) - 1; i >= 0; i-- {
		e := g.evals[i]
		if e.mate != 0 || e.cp > drawQuietCP || e.cp < -drawQuietCP {
			break
		}
		in.QuietStretch++
	}
	if n := len(g.evals); n > 0 {
		if e := g.evals[n-1]; e.ply == g.g.Len() && e.depth >= drawEvalDepth {
			in.HaveEval, in.CP, in.Mate = true, e.cp, e.mate
		}
	}
	return in
}

// offerDraw answers the draw offer (made at ply) of the person at seat s:
// at once when the answer needs no evaluation or the game holds one,
// otherwise after a short bounded search in the engine pool. Offers closer
// than DrawOfferEvery of the person's moves get a notice and nothing else.
func (gs *Games) offerDraw(s *Seat, g *chessGame, ply int) {
	pool := gs.cfg.Pool
	err := s.host.Locked(func(l live.Locked) error {
		switch {
		case g.over():
			return Errorf(CodeGameOver, "the game is over")
		case ply != g.g.Len():
			return errStalePly{ply, g.g.Len()}
		case g.draw != nil:
			s.tab.Send(encodeNotice("The engine is still considering your draw offer."))
			return nil
		}
		moves := g.humanMoves()
		if g.drawOffered && moves-g.lastDrawOffer < DrawOfferEvery {
			left := DrawOfferEvery - (moves - g.lastDrawOffer)
			s.tab.Send(encodeNotice(fmt.Sprintf("You offered a draw recently: you can offer again after %d more of your moves.", left)))
			return nil
		}
		g.drawOffered, g.lastDrawOffer = true, moves
		l.Notify(encodeNotice("You offer a draw."))
		in := g.drawInput()
		if v := decideDraw(in); in.CannotWin || in.MoveNumber < drawMinMove || in.HaveEval || pool == nil {
			gs.answerDraw(l, g, s, v)
			return nil
		}
		ctx, cancel := context.WithCancel(gs.ctx)
		j := &job{cancel: cancel}
		g.draw = j
		pos, hist, at, engineSide, owner, id, turn := *g.pos(), g.g.HashHistory(), g.g.Len(), g.human.Other(), g.rec.Owner, g.rec.ID, g.turnKey("draw")
		go func() {
			defer cancel()
			// Short and bounded: a full-strength evaluation capped at
			// drawEvalTime, so an offer never costs a whole move's search.
			res, ok := pool.Search(ctx, owner, id, &pos, hist, enginepool.SearchRequest{Level: len(gs.cfg.Levels), MoveTime: drawEvalTime, Evaluate: true, Turn: turn})
			_ = s.host.Locked(func(l live.Locked) error {
				if g.draw != j {
					return nil
				}
				g.draw = nil
				if !ok || g.over() || g.g.Len() != at {
					l.Notify(encodeNotice("The draw offer lapsed: the game moved on."))
					return nil
				}
				cp, mate := res.CP, res.Mate
				if pos.Side() != engineSide {
					cp, mate = -cp, -mate
				}
				in.HaveEval, in.CP, in.Mate = true, cp, mate
				gs.answerDraw(l, g, s, decideDraw(in))
				return nil
			})
		}()
		return nil
	})
	if err == nil {
		return
	}
	if perr := chessRefusal(err, ""); perr != nil {
		s.tab.Send(EncodeError(perr))
		s.host.SendState(s.tab)
	}
}

// answerDraw tells every tab the engine's answer and, on accepting, ends
// the game as a draw by agreement (the host's lock held); from is the
// seat that offered.
func (gs *Games) answerDraw(l live.Locked, g *chessGame, from *Seat, v drawVerdict) {
	if !v.Accept {
		l.Notify(encodeNotice("The engine declines the draw: " + v.Why + "."))
		return
	}
	err := l.ActTold(encodeNotice("The engine accepts the draw: "+v.Why+"."), func(now time.Time) error {
		if g.over() {
			return Errorf(CodeGameOver, "the game is over")
		}
		g.finish(game.Outcome{Result: game.Draw, Termination: game.DrawAgreed}, now)
		return nil
	})
	if err != nil {
		// Nothing changed; the person may offer again at once.
		g.drawOffered = false
		if errors.Is(err, live.ErrUnsaved) {
			from.tab.Send(EncodeError(Errorf(CodeServer, "%s", DrawUnsavedText)))
		}
	}
}
