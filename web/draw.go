package web

import (
	"context"
	"fmt"
	"time"

	"knightwatch/enginepool"
	"knightwatch/game"
)

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
	// drawOfferEvery is how many of the person's moves must separate two
	// draw offers; an earlier one gets a notice and no evaluation.
	drawOfferEvery = 5
	// drawEvalTime caps the short search made when the room holds no
	// evaluation of the position from the engine's own search.
	drawEvalTime = 150 * time.Millisecond
	// drawEvalDepth is the least depth of the engine's own search whose
	// evaluation the room reuses for a draw offer.
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

// recordEvalLocked keeps the evaluation of the engine's move just played.
func (r *room) recordEvalLocked(res enginepool.SearchResult) {
	r.evals = append(r.evals, engineEval{ply: r.g.Len(), cp: res.CP, mate: res.Mate, depth: res.Depth})
	if n := len(r.evals); n > 64 {
		r.evals = append(r.evals[:0], r.evals[n-32:]...)
	}
}

// dropEvalsLocked forgets evaluations of positions taken back.
func (r *room) dropEvalsLocked() {
	for len(r.evals) > 0 && r.evals[len(r.evals)-1].ply > r.g.Len() {
		r.evals = r.evals[:len(r.evals)-1]
	}
}

// humanMovesLocked counts the moves the person has made in the game.
func (r *room) humanMovesLocked() int {
	n := r.g.Len()
	if r.g.PositionAt(0).Side() == r.human {
		return (n + 1) / 2
	}
	return n / 2
}

// drawInputLocked gathers what the engine knows about the position now,
// reusing the evaluation of its own last search when that is of this very
// position and deep enough.
func (r *room) drawInputLocked() drawInput {
	pos := r.pos()
	engine := r.human.Other()
	in := drawInput{
		MoveNumber: pos.FullmoveNumber(),
		Level:      r.rec.Level,
		Levels:     len(r.srv.cfg.Levels),
		CannotWin:  pos.HasInsufficientMaterial(engine),
	}
	nonPawn := 0
	for _, c := range []game.Color{game.White, game.Black} {
		for _, pt := range []game.PieceType{game.Knight, game.Bishop, game.Rook} {
			nonPawn += pieceValue[pt] * pos.Pieces(c, pt).Count()
		}
	}
	in.Simplified = pos.Pieces(game.White, game.Queen)|pos.Pieces(game.Black, game.Queen) == 0 && nonPawn <= drawSimplified
	for i := len(r.evals) - 1; i >= 0; i-- {
		e := r.evals[i]
		if e.mate != 0 || e.cp > drawQuietCP || e.cp < -drawQuietCP {
			break
		}
		in.QuietStretch++
	}
	if n := len(r.evals); n > 0 {
		if e := r.evals[n-1]; e.ply == r.g.Len() && e.depth >= drawEvalDepth {
			in.HaveEval, in.CP, in.Mate = true, e.cp, e.mate
		}
	}
	return in
}

// offerDrawLocked answers the person's draw offer: at once when the
// answer needs no evaluation or the room holds one, otherwise after a
// short bounded search. Offers closer than drawOfferEvery of the person's
// moves get a notice and nothing else.
func (r *room) offerDrawLocked(c *client) {
	if r.draw != nil {
		r.sendLocked(c, encodeNotice("The engine is still considering your draw offer."))
		return
	}
	moves := r.humanMovesLocked()
	if r.drawOffered && moves-r.lastDrawOffer < drawOfferEvery {
		left := drawOfferEvery - (moves - r.lastDrawOffer)
		r.sendLocked(c, encodeNotice(fmt.Sprintf("You offered a draw recently: you can offer again after %d more of your moves.", left)))
		return
	}
	r.drawOffered, r.lastDrawOffer = true, moves
	r.broadcastLocked(encodeNotice("You offer a draw."))
	in := r.drawInputLocked()
	if v := decideDraw(in); in.CannotWin || in.MoveNumber < drawMinMove || in.HaveEval || r.srv.pool == nil {
		r.answerDrawLocked(c, v, time.Now())
		return
	}
	ctx, cancel := context.WithCancel(r.srv.ctx)
	j := &job{cancel: cancel}
	r.draw = j
	pos := r.pos()
	hist := r.g.HashHistory()
	ply := r.g.Len()
	engineSide := r.human.Other()
	owner := r.rec.Owner
	go func() {
		defer cancel()
		// Short and bounded: a full-strength evaluation capped at
		// drawEvalTime, so an offer never costs a whole move's search.
		res, ok := r.srv.pool.Search(ctx, owner, r.id, pos, hist, enginepool.SearchRequest{Level: len(r.srv.cfg.Levels), MoveTime: drawEvalTime, Evaluate: true})
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.draw != j {
			return
		}
		r.draw = nil
		if !ok || r.closed || r.over() || r.g.Len() != ply {
			r.broadcastLocked(encodeNotice("The draw offer lapsed: the game moved on."))
			return
		}
		cp, mate := res.CP, res.Mate
		if pos.Side() != engineSide {
			cp, mate = -cp, -mate
		}
		in.HaveEval, in.CP, in.Mate = true, cp, mate
		r.answerDrawLocked(c, decideDraw(in), time.Now())
	}()
}

// answerDrawLocked tells every tab the engine's answer and, on accepting,
// ends the game as a draw by agreement.
func (r *room) answerDrawLocked(from *client, v drawVerdict, now time.Time) {
	if !v.Accept {
		r.broadcastLocked(encodeNotice("The engine declines the draw: " + v.Why + "."))
		return
	}
	rec := r.rec
	r.chargeLocked(&rec, now)
	o := game.Outcome{Result: game.Draw, Termination: game.DrawAgreed}
	finish(&rec, r.g, o, now)
	if err := r.commitLocked(&rec, now); err != nil {
		// Nothing changed; the person may offer again at once.
		r.drawOffered = false
		r.sendLocked(from, encodeError(protoErr(CodeServer, "%s", drawUnsavedText)))
		return
	}
	r.g.SetOutcome(o)
	r.cancelJobsLocked()
	r.runStart = time.Time{}
	r.syncClockLocked(now)
	r.broadcastLocked(encodeNotice("The engine accepts the draw: " + v.Why + "."))
	r.broadcastStateLocked(now)
}
