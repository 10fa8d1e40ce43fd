package web

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"knightwatch/enginepool"
	"knightwatch/experience"
	"knightwatch/game"
	"knightwatch/store"
)

// room is one game with at least one open tab: the per-game hub. It owns
// the in-memory game, the connected clients, the clock and the engine's
// running search. Everything that changes the game happens under mu, and
// the change is committed to the database before any client hears of it.
type room struct {
	srv *Server
	id  string

	mu      sync.Mutex
	rec     store.Game // the committed record; replaced only after a successful save
	g       *game.Game
	human   game.Color
	clients map[*client]struct{}
	// watchers are spectators' read-only sockets (watch.go): they get
	// the state and nothing else, and neither keep the clock running nor
	// wake the engine.
	watchers map[*client]struct{}
	closed   bool // the last tab left; late engine replies are dropped

	// runStart is when the clock of the side to move started running;
	// zero when the clock is stopped (untimed, game over, before each side's
	// first move, or nobody connected). rec holds that side's time as of
	// runStart, so the remaining time is rec's minus the time since.
	runStart time.Time
	flag     *time.Timer
	// pausedAt, when set, stops the clock there: the engine's move waits
	// to be saved (retry.go), and the engine is not charged for it.
	pausedAt time.Time
	// retry is the engine's move or a flag fall waiting to be saved, or
	// nil (retry.go).
	retry *saveRetry

	search *job // the engine's running search for its move, or nil
	draw   *job // a running draw-offer evaluation, or nil

	// evals are the engine's evaluations of its recent moves, for draw
	// offers (draw.go). drawOffered and lastDrawOffer (the person's move
	// count at the last offer) space offers out; both live only as long as
	// the room.
	evals         []engineEval
	drawOffered   bool
	lastDrawOffer int
}

// job is a cancellable engine task. Comparing the room's pointer with the
// job's own after the search tells a current reply from a withdrawn one.
type job struct {
	cancel context.CancelFunc
}

// buildGame rebuilds a game from its stored record.
func buildGame(rec *store.Game) (*game.Game, game.Color, error) {
	g, err := rec.Replay()
	if err != nil {
		return nil, 0, err
	}
	return g, rec.Human.Color, nil
}

func (r *room) pos() *game.Position { return r.g.PositionAt(r.g.Len()) }

func (r *room) over() bool { return r.rec.Status == store.StatusOver }

// msOf returns a pointer to colour c's remaining time in rec.
func msOf(rec *store.Game, c game.Color) *int64 {
	if c == game.White {
		return &rec.WhiteMS
	}
	return &rec.BlackMS
}

// clockShouldRunLocked says whether the side to move's clock runs now. As
// on lichess, it starts only after each side has made a first move, and it
// never runs while nobody has the game open.
func (r *room) clockShouldRunLocked() bool {
	return r.rec.Timed() && !r.over() && r.g.Len() >= 2 && len(r.clients) > 0
}

// clockRunsWith says whether the clock will run once rec is the room's
// record (clockShouldRunLocked of it, with no save pending).
func (r *room) clockRunsWith(rec *store.Game) bool {
	return rec.Timed() && rec.Status != store.StatusOver && len(rec.MoveList()) >= 2 && len(r.clients) > 0 && r.retry == nil
}

// recordClockLocked makes the record say what the clock does when it
// started or stopped without a commit (a tab opened the game): running
// from runStart, or stopped. After a commit it already does.
func (r *room) recordClockLocked() {
	var want *time.Time
	if !r.runStart.IsZero() {
		want = &r.runStart
	}
	if (want == nil) == (r.rec.ClockSince == nil) && (want == nil || want.Equal(*r.rec.ClockSince)) {
		return
	}
	if err := r.srv.store.SetGameClock(r.id, r.rec.WhiteMS, r.rec.BlackMS, want); err != nil {
		// At worst a crash before the next commit gives the mover back
		// the time since the clock started.
		r.srv.logf("game %s: %v", r.id, err)
		return
	}
	if want != nil {
		t := *want
		want = &t
	}
	r.rec.ClockSince = want
}

// remainingLocked returns colour c's remaining time in ms at now.
func (r *room) remainingLocked(c game.Color, now time.Time) int64 {
	ms := *msOf(&r.rec, c)
	now = r.clockNowLocked(now)
	if !r.runStart.IsZero() && c == r.pos().Side() {
		ms -= now.Sub(r.runStart).Milliseconds()
	}
	return ms
}

// chargeLocked moves the time used since runStart into rec (a copy of
// r.rec that the caller is about to commit). It reports whether the side
// to move has run out of time.
func (r *room) chargeLocked(rec *store.Game, now time.Time) (flagged bool) {
	if r.runStart.IsZero() {
		return false
	}
	side := r.pos().Side()
	ms := msOf(rec, side)
	now = r.clockNowLocked(now)
	*ms -= now.Sub(r.runStart).Milliseconds()
	if *ms <= 0 {
		*ms = 0
		return true
	}
	return false
}

// clockNowLocked is now as the clock sees it: no later than pausedAt.
func (r *room) clockNowLocked(now time.Time) time.Time {
	if !r.pausedAt.IsZero() && now.After(r.pausedAt) {
		return r.pausedAt
	}
	return now
}

// syncClockLocked starts or stops the clock to match the game after a
// committed change, arming the flag timer while it runs.
func (r *room) syncClockLocked(now time.Time) {
	if r.flag != nil {
		r.flag.Stop()
		r.flag = nil
	}
	if r.retry != nil {
		return // the clock waits for the pending save (retry.go)
	}
	if !r.clockShouldRunLocked() {
		r.runStart = time.Time{}
		r.recordClockLocked()
		return
	}
	if r.runStart.IsZero() {
		r.runStart = now
	}
	r.recordClockLocked()
	rem := r.remainingLocked(r.pos().Side(), now)
	if rem < 0 {
		rem = 0
	}
	r.flag = time.AfterFunc(time.Duration(rem)*time.Millisecond+5*time.Millisecond, r.onFlag)
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

// commitLocked saves rec and makes it the room's record. A game that
// this commit ends is handed to the learner (package experience), which
// learns from it later, off the lock. Every caller charges the clock up to
// now and restarts it from now (syncClockLocked), so the record says the
// mover's clock runs from now when it will run after the commit
// (ClockSince, for a restart after a crash: alive.go).
func (r *room) commitLocked(rec *store.Game, now time.Time) error {
	rec.ClockSince = clockSince(r.clockRunsWith(rec), now)
	if err := r.srv.store.SaveGame(rec); err != nil {
		r.srv.logf("game %s: commit: %v", r.id, err)
		return err
	}
	ended := rec.Status == store.StatusOver && r.rec.Status != store.StatusOver
	r.rec = *rec
	if ended {
		r.srv.gameEnded(r.id)
		r.srv.gameFinished(r.id, rec.Owner) // the engine reviews it (analysis.go)
	}
	return nil
}

// flagLocked ends the game on time for the side to move, whose clock has
// run out (rec already charged). A side with no mating material left
// against it only loses half a point: FIDE's rule for a flag fall. When
// the database refuses, the flag fall is saved later (retry.go).
func (r *room) flagLocked(rec *store.Game, now time.Time) error {
	err := r.flagCommitLocked(rec, now)
	if err != nil {
		r.retryFlagLocked()
	}
	return err
}

// flagCommitLocked is flagLocked without the retry.
func (r *room) flagCommitLocked(rec *store.Game, now time.Time) error {
	side := r.pos().Side()
	o := game.Outcome{Result: game.WinFor(side.Other()), Termination: game.TimeForfeit}
	if r.pos().HasInsufficientMaterial(side.Other()) {
		o.Result = game.Draw
	}
	finish(rec, r.g, o, now)
	if err := r.commitLocked(rec, now); err != nil {
		return err
	}
	r.g.SetOutcome(o)
	r.cancelJobsLocked()
	r.runStart = time.Time{}
	r.syncClockLocked(now)
	return nil
}

func (r *room) onFlag() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.over() || r.runStart.IsZero() || r.retry != nil {
		return
	}
	now := time.Now()
	rec := r.rec
	if !r.chargeLocked(&rec, now) {
		r.syncClockLocked(now) // woke early: re-arm
		return
	}
	if err := r.flagLocked(&rec, now); err != nil {
		return
	}
	r.broadcastStateLocked(now)
}

// playLocked plays m for the side to move, charging its clock, and commits,
// with notes (the engine's move's experience notes, or none) added to the
// game's. On any failure the game is unchanged.
func (r *room) playLocked(m game.Move, notes []store.ExperienceNote, now time.Time) *ProtoError {
	pos := r.pos()
	if !pos.IsLegal(m) {
		return protoErr(CodeIllegalMove, "illegal move %s", m)
	}
	rec := r.rec
	wasRunning := !r.runStart.IsZero()
	if r.chargeLocked(&rec, now) {
		if err := r.flagLocked(&rec, now); err != nil {
			return protoErr(CodeServer, "%s", flagUnsavedNotice)
		}
		return protoErr(CodeGameOver, "time is up")
	}
	if wasRunning {
		*msOf(&rec, pos.Side()) += rec.ClockIncrementMS
	}
	uci := pos.UCI(m)
	if err := r.g.Play(m); err != nil {
		return protoErr(CodeIllegalMove, "illegal move %s: %v", uci, err)
	}
	rec.SetMoveList(append(r.rec.MoveList(), uci))
	if len(notes) > 0 {
		old, err := r.rec.Notes()
		if err != nil {
			r.srv.logf("game %s: %v", r.id, err)
		}
		rec.SetNotes(append(old, notes...))
	}
	o := r.g.OutcomeWithClaims()
	if o.Over() {
		finish(&rec, r.g, o, now)
	}
	if err := r.commitLocked(&rec, now); err != nil {
		r.g.Undo()
		return protoErr(CodeServer, "%s", moveUnsavedText)
	}
	r.pausedAt = time.Time{}
	if o.Over() {
		// Draws by threefold repetition and the fifty-move rule are
		// claimed automatically, as lichess does against the computer.
		r.g.SetOutcome(o)
		r.cancelJobsLocked()
	}
	r.runStart = time.Time{}
	r.syncClockLocked(now)
	return nil
}

// cancelJobsLocked withdraws the engine's search and any draw evaluation;
// their results will find their job gone and be dropped.
func (r *room) cancelJobsLocked() {
	if r.search != nil {
		r.search.cancel()
		r.search = nil
	}
	if r.draw != nil {
		r.draw.cancel()
		r.draw = nil
	}
	r.cancelRetryLocked()
}

// maybeStartSearchLocked starts the engine when it is to move.
func (r *room) maybeStartSearchLocked(now time.Time) {
	if r.closed || r.over() || r.search != nil || r.retry != nil || len(r.clients) == 0 || r.srv.cfg.NoEngine {
		return
	}
	pos := r.pos()
	if pos.Side() == r.human {
		return
	}
	ctx, cancel := context.WithCancel(r.srv.ctx)
	j := &job{cancel: cancel}
	r.search = j
	req := enginepool.SearchRequest{Level: r.rec.Level, MoveTime: r.srv.levelInfo(r.rec.Level).MoveTime}
	if r.rec.Timed() {
		req.WTime = time.Duration(r.remainingLocked(game.White, now)) * time.Millisecond
		req.BTime = time.Duration(r.remainingLocked(game.Black, now)) * time.Millisecond
		req.WInc = time.Duration(r.rec.ClockIncrementMS) * time.Millisecond
		req.BInc = req.WInc
	}
	go r.runSearch(ctx, j, r.rec.Owner, pos, r.g.HashHistory(), req, r.g.Len(), now)
}

// runSearch searches off the connection's goroutine (queued fairly among
// owners' requests by the engine pool), waits for the natural pause, then plays the reply if it is still wanted.
func (r *room) runSearch(ctx context.Context, j *job, owner string, pos *game.Position, hist []uint64, req enginepool.SearchRequest, ply int, started time.Time) {
	defer j.cancel()
	req.Experience = r.srv.experienceFor(pos) // before the request: a search never waits for the database
	res, ok := r.srv.pool.Search(ctx, owner, r.id, pos, hist, req)
	if ok {
		// A reply found at once still waits a moment, so the person sees
		// their own move land first; never longer than the level's time.
		pause := r.srv.replyPause()
		if req.MoveTime > 0 && pause > req.MoveTime {
			pause = req.MoveTime
		}
		if wait := time.Until(started.Add(pause)); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
			}
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.search != j {
		return // withdrawn: resign, takeback, flag or every tab closed
	}
	r.search = nil
	if !ok || ctx.Err() != nil || r.closed || r.over() || r.g.Len() != ply {
		return
	}
	m := res.Move
	if !pos.IsLegal(m) {
		// The engine promises a legal move; if it ever breaks that
		// promise the game must still go on.
		r.srv.logf("game %s: engine returned illegal move %v in %s", r.id, m, pos.FEN())
		var ml game.MoveList
		pos.GenerateLegal(&ml)
		if ml.N == 0 {
			return
		}
		m = ml.Moves[0]
	}
	now := time.Now()
	var notes []store.ExperienceNote
	if m == res.Move {
		notes = experience.Notes(ply, pos, res.Experience)
	}
	if perr := r.playLocked(m, notes, now); perr != nil {
		if perr.Code == CodeServer {
			// The database refused: keep the move and save it later
			// (unless a flag fall is already waiting to be saved).
			if r.retry == nil {
				r.retryMoveLocked(m, res, now)
			}
			return
		}
		r.broadcastLocked(encodeError(perr))
		if perr.Code == CodeGameOver {
			r.broadcastStateLocked(now)
		}
		return
	}
	if m == res.Move {
		r.recordEvalLocked(res)
	}
	r.broadcastStateLocked(now)
}

// handle applies one decoded message from c.
func (r *room) handle(c *client, m Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	now := time.Now()
	if needsPly[m.Type] && m.Ply != r.g.Len() {
		r.sendLocked(c, encodeError(protoErr(CodeStale, "message for ply %d, but the game is at ply %d", m.Ply, r.g.Len())))
		r.sendLocked(c, r.stateLocked(now))
		return
	}
	var perr *ProtoError
	switch m.Type {
	case MsgSync:
		r.sendLocked(c, r.stateLocked(now))
		return
	case MsgMove:
		perr = r.humanMoveLocked(m.Move, now)
	case MsgResign:
		perr = r.resignLocked(now)
	case MsgDraw:
		if r.over() {
			perr = protoErr(CodeGameOver, "the game is over")
		} else {
			r.offerDrawLocked(c)
			return
		}
	case MsgTakeback:
		perr = r.takebackLocked(now)
	case MsgRematch:
		r.rematchLocked(c)
		return
	default:
		perr = protoErr(CodeUnknownType, "unknown message type %q", m.Type)
	}
	if perr != nil {
		r.sendLocked(c, encodeError(perr))
		if perr.Code == CodeGameOver {
			// The game may have just ended (a flag fell as the move
			// arrived): every tab needs to know, not only the sender.
			r.broadcastStateLocked(now)
		}
		return
	}
	r.maybeStartSearchLocked(now)
	r.broadcastStateLocked(now)
}

func (r *room) humanMoveLocked(s string, now time.Time) *ProtoError {
	if r.over() {
		return protoErr(CodeGameOver, "the game is over")
	}
	pos := r.pos()
	if pos.Side() != r.human {
		return protoErr(CodeNotYourTurn, "it is the engine's turn")
	}
	m, err := parseTypedMove(pos, s)
	if err != nil {
		return typedMoveError(s, err)
	}
	return r.playLocked(m, nil, now)
}

func (r *room) resignLocked(now time.Time) *ProtoError {
	if r.over() {
		return protoErr(CodeGameOver, "the game is over")
	}
	rec := r.rec
	r.chargeLocked(&rec, now)
	o := game.Outcome{Result: game.WinFor(r.human.Other()), Termination: game.Resignation}
	finish(&rec, r.g, o, now)
	if err := r.commitLocked(&rec, now); err != nil {
		return protoErr(CodeServer, "%s", resignUnsavedText)
	}
	r.g.SetOutcome(o)
	r.cancelJobsLocked()
	r.runStart = time.Time{}
	r.syncClockLocked(now)
	return nil
}

// takebackLocked takes back the person's last move and the engine's reply
// (or just the person's move while the engine is still thinking).
func (r *room) takebackLocked(now time.Time) *ProtoError {
	if r.over() {
		return protoErr(CodeGameOver, "the game is over")
	}
	n := 1
	if r.pos().Side() == r.human {
		n = 2 // the engine has replied: take back both
	}
	if r.g.Len() < n {
		return protoErr(CodeNoTakeback, "you have no move to take back")
	}
	rec := r.rec
	if r.chargeLocked(&rec, now) {
		if err := r.flagLocked(&rec, now); err != nil {
			return protoErr(CodeServer, "%s", flagUnsavedNotice)
		}
		return protoErr(CodeGameOver, "time is up")
	}
	moves := r.rec.MoveList()
	rec.SetMoveList(moves[:len(moves)-n])
	rec.KeepNotesBefore(len(moves) - n)
	if err := r.commitLocked(&rec, now); err != nil {
		return protoErr(CodeServer, "%s", takebackUnsavedText)
	}
	for i := 0; i < n; i++ {
		r.g.Undo()
	}
	r.dropEvalsLocked()
	r.cancelJobsLocked()
	r.runStart = time.Time{}
	r.syncClockLocked(now)
	return nil
}

func (r *room) rematchLocked(c *client) {
	if !r.srv.rematchAllowed(c, r.rec.Owner) {
		return
	}
	human := store.ColorOf(r.rec.Human.Other())
	rec := &store.Game{
		Owner: r.rec.Owner, Variant: r.rec.Variant, StartFEN: r.rec.StartFEN, Human: human,
		Level: r.rec.Level, ClockInitialMS: r.rec.ClockInitialMS, ClockIncrementMS: r.rec.ClockIncrementMS,
		WhiteMS: r.rec.ClockInitialMS, BlackMS: r.rec.ClockInitialMS,
	}
	if err := r.srv.store.CreateGame(rec); err != nil {
		r.srv.logf("rematch of %s: %v", r.id, err)
		r.sendLocked(c, encodeError(protoErr(CodeServer, "%s", rematchUnsavedText)))
		return
	}
	r.sendLocked(c, encodeRedirect("/game/"+rec.ID))
}

// shutdownLocked runs when the last tab leaves: the engine stops and the
// clock stops, so time away is never charged.
func (r *room) shutdownLocked(now time.Time) {
	if !r.runStart.IsZero() {
		rec := r.rec
		r.chargeLocked(&rec, now)     // up to pausedAt, if a save was pending
		_ = r.commitLocked(&rec, now) // logged; at worst the time since the last move is not charged
	}
	// A pending engine move is dropped: the engine searches again when
	// the game is next opened.
	r.cancelJobsLocked()
	r.runStart = time.Time{}
	if r.flag != nil {
		r.flag.Stop()
		r.flag = nil
	}
	r.closed = true
}

func (r *room) sendLocked(c *client, b []byte) { c.trySend(b) }

func (r *room) broadcastLocked(b []byte) {
	for c := range r.clients {
		c.trySend(b)
	}
}

func (r *room) broadcastStateLocked(now time.Time) {
	r.broadcastLocked(r.stateLocked(now))
	r.broadcastWatchersLocked(now)
}

// pieceValue is the material count shown beside the board, in pawns.
var pieceValue = [...]int{game.Pawn: 1, game.Knight: 3, game.Bishop: 3, game.Rook: 5, game.Queen: 9, game.King: 0}

// stateLocked builds the state message.
func (r *room) stateLocked(now time.Time) []byte {
	return mustJSON(r.buildStateLocked(now))
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("web: marshal: " + err.Error()) // only our own plain structs get here
	}
	return b
}

func (r *room) buildStateLocked(now time.Time) *StateMessage {
	pos := r.pos()
	st := &StateMessage{
		Type:      MsgState,
		ID:        r.id,
		Variant:   r.rec.Variant,
		StartFEN:  r.rec.StartFEN,
		FEN:       pos.FEN(),
		Ply:       r.g.Len(),
		Turn:      pos.Side().String(),
		Human:     r.human.String(),
		Level:     r.rec.Level,
		LevelName: r.srv.levelInfo(r.rec.Level).Name,
		Moves:     make([]MoveView, 0, r.g.Len()),
		Legal:     []LegalView{},
		Status:    r.rec.Status.String(),
		Result:    r.rec.Result,
		Reason:    r.rec.Reason.String(),
		Captured:  CapturedView{White: []string{}, Black: []string{}},
		Thinking:  r.search != nil || (r.retry != nil && r.retry.move != nil),
		Saving:    r.retry != nil,
		Openings:  openingViews(r.g),
	}
	moves := r.g.Moves()
	notes := r.notesByPlyLocked()
	for i, m := range moves {
		before := r.g.PositionAt(i)
		uci := before.UCI(m)
		st.Moves = append(st.Moves, MoveView{SAN: before.SAN(m), UCI: uci, FEN: r.g.PositionAt(i + 1).FEN(),
			Experience: experienceText(before, notes[i])})
		if before.IsCapture(m) {
			letter := before.CapturedPiece(m).String()
			if before.Side() == game.White {
				st.Captured.White = append(st.Captured.White, letter)
			} else {
				st.Captured.Black = append(st.Captured.Black, letter)
			}
		}
		if i == len(moves)-1 {
			st.LastMove = &LastMoveView{From: uci[0:2], To: uci[2:4]}
		}
	}
	if pos.InCheck() {
		st.Check = pos.KingSquare(pos.Side()).String()
	}
	for pt := game.Pawn; pt <= game.Queen; pt++ {
		st.Material += pieceValue[pt] * (pos.Pieces(game.White, pt).Count() - pos.Pieces(game.Black, pt).Count())
	}
	if !r.over() && pos.Side() == r.human {
		st.Legal = legalViews(pos)
	}
	if r.rec.Timed() {
		cv := &ClockView{
			White:     max(r.remainingLocked(game.White, now), 0),
			Black:     max(r.remainingLocked(game.Black, now), 0),
			Initial:   r.rec.ClockInitialMS,
			Increment: r.rec.ClockIncrementMS,
		}
		if !r.runStart.IsZero() && r.retry == nil {
			cv.Running = pos.Side().String()
		}
		st.Clock = cv
	}
	return st
}

// notesByPlyLocked returns the game's experience notes by ply (an
// unreadable column is logged and shows none).
func (r *room) notesByPlyLocked() map[int][]store.ExperienceNote {
	notes, err := r.rec.Notes()
	if err != nil {
		r.srv.logf("game %s: %v", r.id, err)
	}
	if len(notes) == 0 {
		return nil
	}
	out := map[int][]store.ExperienceNote{}
	for _, n := range notes {
		out[n.Ply] = append(out[n.Ply], n)
	}
	return out
}

// legalViews lists the legal moves as the board offers them. A castling
// move is offered on the king's destination; in Chess960, where the move is
// written king-takes-rook, on the rook's square as well.
func legalViews(pos *game.Position) []LegalView {
	var ml game.MoveList
	pos.GenerateLegal(&ml)
	out := make([]LegalView, 0, ml.N+2)
	for _, m := range ml.Slice() {
		uci := pos.UCI(m)
		lv := LegalView{From: m.From().String(), To: uci[2:4], UCI: uci}
		if m.IsPromotion() {
			lv.Promotion = m.Promotion().String()
		}
		if m.IsCastling() && pos.Chess960() {
			kingFile := 6
			if m.To() < m.From() {
				kingFile = 2
			}
			dest := game.NewSquare(kingFile, m.From().Rank())
			lv.To = m.To().String()
			out = append(out, lv)
			if dest != m.To() && dest != m.From() {
				lv.To = dest.String()
				out = append(out, lv)
			}
			continue
		}
		out = append(out, lv)
	}
	return out
}

// errRoomGone is returned when a game cannot be opened.
var errRoomGone = errors.New("web: game not available")
