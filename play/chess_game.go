package play

import (
	"errors"
	"fmt"
	"time"

	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/store"
)

// chessGame is a game against the engine as its live.Host drives it: the
// committed record, the game rebuilt from it and its clock, and what the
// engine's draw offers need. The host calls it under its lock only (the
// draw offer's own goroutine takes that lock through the host too).
type chessGame struct {
	games *Games
	rec   store.Game // the committed record
	g     *game.Game
	human game.Color
	clock game.Clock

	// evals are the engine's evaluations of its recent moves, for draw
	// offers (draw.go); draw is a running draw-offer evaluation, or nil;
	// drawOffered and lastDrawOffer (the person's move count at the last
	// offer) space offers out. They live as long as the host.
	evals         []engineEval
	draw          *job
	drawOffered   bool
	lastDrawOffer int
}

// job is a cancellable engine task (a draw offer's evaluation): comparing
// the game's pointer with the job's own after the search tells a current
// answer from a withdrawn one.
type job struct {
	cancel func()
}

// buildGame rebuilds a game from its stored record.
func buildGame(rec *store.Game) (*game.Game, game.Color, error) {
	g, err := rec.Replay()
	if err != nil {
		return nil, 0, err
	}
	return g, rec.Human.Color, nil
}

// loadChessHost reads game id and builds its host (no lock held). A clock
// a crash left running is charged the thinking up to the crash
// (crashCharge); it stays stopped until a tab opens the game.
func (gs *Games) loadChessHost(id string) (*live.Host, error) {
	gs.hookLoad(id)
	rec, err := gs.cfg.Store.Games().GetGame(id)
	if err != nil {
		return nil, err
	}
	if rec.Status == store.StatusDeleted {
		return nil, ErrDeleted
	}
	g, human, err := buildGame(rec)
	if err != nil {
		return nil, err
	}
	cg := &chessGame{games: gs, rec: *rec, g: g, human: human}
	if gs.runningElsewhere(id, rec.ClockSince) {
		cg.clock = recordClock(rec, g) // another server's player is at the board
	} else {
		ms := time.Millisecond
		left := [2]time.Duration{time.Duration(rec.WhiteMS) * ms, time.Duration(rec.BlackMS) * ms}
		if rec.ClockSince != nil {
			side := g.PositionAt(g.Len()).Side()
			left[side] = max(left[side]-gs.crashCharge(rec.ClockSince), 0)
		}
		cg.clock = game.RestoreClock(time.Duration(rec.ClockInitialMS)*ms, time.Duration(rec.ClockIncrementMS)*ms, left, false, 0, time.Time{})
	}
	var autos [2]live.Automaton
	if !gs.cfg.NoEngine {
		autos[human.Other()] = &engineSeat{games: gs, g: cg}
	}
	cfg := gs.HostConfig(id, false)
	cfg.Ended = func() {
		gs.learnFrom(id)
		gs.queueReview(id, cg.rec.Owner)
	}
	return live.NewHost(cfg, cg, autos), nil
}

func (g *chessGame) pos() *game.Position { return g.g.PositionAt(g.g.Len()) }

// turnKey names the engine's search of what (a reply, a draw's
// evaluation) at the game's committed revision: the same on every server
// holding the game, so that their requests are one search
// (enginepool.SearchRequest.Turn).
func (g *chessGame) turnKey(what string) string {
	return fmt.Sprintf("%s %s@%d", what, g.rec.ID, g.rec.Revision)
}

// over reports whether the game's end is committed.
func (g *chessGame) over() bool { return g.rec.Status == store.StatusOver }

// Turn is the side to move while the game is on.
func (g *chessGame) Turn() (game.Color, bool) { return g.pos().Side(), !g.over() }

// Over reports whether the game has ended.
func (g *chessGame) Over() bool { return g.over() }

// Ply counts the moves played.
func (g *chessGame) Ply() int { return g.g.Len() }

// Clock is the game's clock.
func (g *chessGame) Clock() *game.Clock { return &g.clock }

// ClockDue: as on lichess, the clock runs only once each side has made a
// first move.
func (g *chessGame) ClockDue() bool { return g.rec.Timed() && !g.over() && g.g.Len() >= 2 }

// Mark puts back the moves (replaying those taken back), the outcome, the
// clock, the record and the engine's evaluations.
func (g *chessGame) Mark() func() {
	rec, clock, n := g.rec, g.clock, g.g.Len()
	moves := g.g.Moves()
	evals := append([]engineEval(nil), g.evals...)
	return func() {
		for g.g.Len() > n {
			g.g.Undo()
		}
		for g.g.Len() < n {
			if err := g.g.Play(moves[g.g.Len()]); err != nil {
				g.games.logf("game %s: replaying a move taken back: %v", rec.ID, err)
				break
			}
		}
		g.rec, g.clock, g.evals = rec, clock, evals
		g.g.SetOutcome(game.Outcome{})
		if g.over() {
			g.g.SetOutcome(game.Outcome{Result: game.Result(rec.Result), Termination: rec.Reason.Termination})
		}
	}
}

// Commit saves the record with the clock as it stands.
func (g *chessGame) Commit(now time.Time) error {
	rec := g.rec
	left := g.clock.Left()
	rec.WhiteMS, rec.BlackMS = max(left[game.White].Milliseconds(), 0), max(left[game.Black].Milliseconds(), 0)
	rec.ClockSince = nil
	if _, running := g.clock.Running(); running {
		t := g.clock.Since().Truncate(time.Microsecond) // as PostgreSQL keeps it
		rec.ClockSince = &t
	}
	if err := g.games.cfg.Store.Games().SaveGame(&rec); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return fmt.Errorf("%w: %w", live.ErrConflict, err)
		}
		return err
	}
	g.rec = rec
	// The clock as every server reading the record has it (SettleClock).
	SettleClock(&g.clock, rec.WhiteMS, rec.BlackMS, rec.ClockSince)
	return nil
}

// Revision is the committed record's (live.Shared: another server may
// hold the game too).
func (g *chessGame) Revision() int64 { return g.rec.Revision }

// Reload rebuilds the game from its record as another server committed
// it: the moves, the outcome and the clock, running since the moment the
// record says when it runs there (no crash to charge: that server is
// alive). The engine's evaluations and a draw offer being weighed are
// this server's, and go. A deleted game is not read (ErrDeleted): its
// host stays as it was until it closes.
func (g *chessGame) Reload() error {
	rec, err := g.games.cfg.Store.Games().GetGame(g.rec.ID)
	if err != nil {
		return err
	}
	if rec.Status == store.StatusDeleted {
		return ErrDeleted
	}
	gg, human, err := buildGame(rec)
	if err != nil {
		return err
	}
	g.cancelDraw()
	g.evals = nil
	g.rec, g.g, g.human = *rec, gg, human
	g.clock = recordClock(rec, gg)
	return nil
}

// recordClock is the clock as rec says, running since the moment it says
// when it runs (g is rec's game).
func recordClock(rec *store.Game, g *game.Game) game.Clock {
	ms := time.Millisecond
	left := [2]time.Duration{time.Duration(rec.WhiteMS) * ms, time.Duration(rec.BlackMS) * ms}
	var since time.Time
	if rec.ClockSince != nil {
		since = *rec.ClockSince
	}
	return game.RestoreClock(time.Duration(rec.ClockInitialMS)*ms, time.Duration(rec.ClockIncrementMS)*ms, left,
		rec.ClockSince != nil, g.PositionAt(g.Len()).Side(), since)
}

// finish marks the game over with outcome o, the clock stopped at now.
func (g *chessGame) finish(o game.Outcome, now time.Time) {
	g.clock.Stop(now)
	finish(&g.rec, g.g, o, now)
	g.g.SetOutcome(o)
	g.cancelDraw()
}

// finish marks rec as over with outcome o, with the opening g (its game,
// every move played) ended in, which the home page's list shows.
func finish(rec *store.Game, g *game.Game, o game.Outcome, now time.Time) {
	rec.Status = store.StatusOver
	rec.Result = string(o.Result)
	rec.Reason = store.TerminationOf(o.Termination)
	t := now
	rec.FinishedAt = &t
	name := openingText(g)
	rec.Opening = &name
}

// Flag ends the game on time for the side to move when its clock has run
// out. A side with no mating material left against it only loses half a
// point: FIDE's rule for a flag fall.
func (g *chessGame) Flag(now time.Time) bool {
	side, out := g.clock.Flagged(now)
	if !out || g.over() {
		return false
	}
	g.clock.Stop(now)
	g.clock.SetLeft(side, 0, now)
	o := game.Outcome{Result: game.WinFor(side.Other()), Termination: game.TimeForfeit}
	if g.pos().HasInsufficientMaterial(side.Other()) {
		o.Result = game.Draw
	}
	g.finish(o, now)
	return true
}

// play plays m for the side to move, pressing its clock, with notes (the
// engine's move's experience notes, or none) added to the game's.
func (g *chessGame) play(m game.Move, notes []store.ExperienceNote, now time.Time) error {
	pos := g.pos()
	if !pos.IsLegal(m) {
		return Errorf(CodeIllegalMove, "illegal move %s", m)
	}
	if _, running := g.clock.Running(); running {
		g.clock.Press(now)
	}
	uci := pos.UCI(m)
	if err := g.g.Play(m); err != nil {
		return Errorf(CodeIllegalMove, "illegal move %s: %v", uci, err)
	}
	g.rec.SetMoveList(append(g.rec.MoveList(), uci))
	if len(notes) > 0 {
		old, err := g.rec.Notes()
		if err != nil {
			g.games.logf("game %s: %v", g.rec.ID, err)
		}
		g.rec.SetNotes(append(old, notes...))
	}
	// Draws by threefold repetition and the fifty-move rule are claimed
	// automatically, as lichess does against the computer.
	if o := g.g.OutcomeWithClaims(); o.Over() {
		g.finish(o, now)
	}
	return nil
}

// humanMove plays the person's typed or clicked move.
func (g *chessGame) humanMove(s string, now time.Time) error {
	if g.over() {
		return Errorf(CodeGameOver, "the game is over")
	}
	pos := g.pos()
	if pos.Side() != g.human {
		return Errorf(CodeNotYourTurn, "it is the engine's turn")
	}
	m, err := parseTypedMove(pos, s)
	if err != nil {
		return typedMoveError(s, err)
	}
	return g.play(m, nil, now)
}

// resign resigns for the person.
func (g *chessGame) resign(now time.Time) error {
	if g.over() {
		return Errorf(CodeGameOver, "the game is over")
	}
	g.finish(game.Outcome{Result: game.WinFor(g.human.Other()), Termination: game.Resignation}, now)
	return nil
}

// resignPerson resigns for the person (the list of games).
func (g *chessGame) resignPerson() error {
	if g.over() {
		return ErrNotUnfinished
	}
	return g.resign(time.Now())
}

// takeback takes back the person's last move and the engine's reply (or
// just the person's move while the engine is still thinking). The clock
// keeps the time used; it starts again from now for the side to move.
func (g *chessGame) takeback(now time.Time) error {
	if g.over() {
		return Errorf(CodeGameOver, "the game is over")
	}
	n := 1
	if g.pos().Side() == g.human {
		n = 2 // the engine has replied: take back both
	}
	if g.g.Len() < n {
		return Errorf(CodeNoTakeback, "you have no move to take back")
	}
	g.clock.Stop(now)
	moves := g.rec.MoveList()
	g.rec.SetMoveList(moves[:len(moves)-n])
	g.rec.KeepNotesBefore(len(moves) - n)
	for range n {
		g.g.Undo()
	}
	g.dropEvals()
	g.cancelDraw()
	return nil
}

// cancelDraw withdraws a running draw-offer evaluation; its answer will
// find its job gone and be dropped.
func (g *chessGame) cancelDraw() {
	if g.draw != nil {
		g.draw.cancel()
		g.draw = nil
	}
}

// View is the state a player, or a spectator (no legal moves, no game ID:
// the owner's page address), may see.
func (g *chessGame) View(v live.Viewer, m live.Moment) []byte {
	st := g.buildState(m)
	if v == live.Spectator {
		st.ID = ""
		st.Legal = []LegalView{}
	}
	return mustJSON(st)
}

// Notice words what the host tells the players.
func (g *chessGame) Notice(n live.Notice) []byte {
	switch n {
	case live.StepUnsaved:
		return encodeNotice(EngineMoveUnsavedNotice)
	case live.EndUnsaved:
		return encodeNotice(FlagUnsavedNotice)
	}
	return encodeNotice(SavedAgainNotice)
}

// Latest reads the revision the record is committed at now.
func (g *chessGame) Latest() (int64, error) { return g.games.cfg.Store.Games().GameRevision(g.rec.ID) }

// A game against the engine is shared with the other servers of a site.
var _ live.Shared = (*chessGame)(nil)
