package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
	"knightwatch/store"
)

// reconRoom is one Reconnaissance Chess game with at least one open tab:
// the arbiter, the bot, the clients and the flag timer. Everything that
// changes the game happens under mu and is committed to the database
// before any client hears of it. The bot thinks in its own goroutine,
// without the lock, and its choices are applied under the lock.
type reconRoom struct {
	srv *Server
	id  string

	mu      sync.Mutex
	rec     store.ReconGame // the committed record
	g       *recon.Game
	bot     recon.Player
	human   game.Color
	markers map[string]string
	clients map[*client]struct{}
	closed  bool
	flag    flagTimer
	botJob  *job // the bot's turn in progress, or nil
	// pending is the bot's step or a flag fall waiting to be saved, or
	// nil; stoppedAt, when set, is the real time at which the game's
	// clock stands still meanwhile, and stoppedFor the real time it has
	// stood still in all, which the arbiter's time leaves out
	// (recon_retry.go).
	pending    *reconPending
	stoppedAt  time.Time
	stoppedFor time.Duration
}

// reconConfig returns the arbiter configuration of a stored game: its
// clock and the reference's 100-half-move draw.
func reconConfig(rec *store.ReconGame) recon.Config {
	return recon.Config{
		Clock:     time.Duration(rec.ClockInitialMS) * time.Millisecond,
		Increment: time.Duration(rec.ClockIncrementMS) * time.Millisecond,
		MoveLimit: 100,
	}
}

// loadReconRoom rebuilds a game from its record: the arbiter from the
// history, the bot by feeding it its side of the history.
func (s *Server) loadReconRoom(rec *store.ReconGame) (*reconRoom, error) {
	human := rec.Human.Color
	bot, err := s.cfg.newBot(rec.Opponent, rec.Seed)
	if err != nil {
		return nil, fmt.Errorf("game %s: bot: %w", rec.ID, err)
	}
	names := [2]string{"You", opponentName(rec.Opponent)}
	if human == game.Black {
		names[0], names[1] = names[1], names[0]
	}
	h := &recon.History{Names: names}
	if rec.History != "" {
		if h, err = recon.UnmarshalHistory([]byte(rec.History)); err != nil {
			return nil, fmt.Errorf("game %s: %w", rec.ID, err)
		}
	}
	clocks := [2]time.Duration{time.Duration(rec.WhiteMS) * time.Millisecond, time.Duration(rec.BlackMS) * time.Millisecond}
	r := &reconRoom{srv: s, id: rec.ID, rec: *rec, bot: bot, human: human, markers: map[string]string{}, clients: map[*client]struct{}{}}
	cfg := reconConfig(rec)
	cfg.Now = r.gameNow
	if r.g, err = recon.Restore(cfg, h, clocks, bot, human.Other()); err != nil {
		closeBot(bot)
		return nil, fmt.Errorf("game %s: %w", rec.ID, err)
	}
	if err := json.Unmarshal([]byte(rec.Markers), &r.markers); err != nil {
		r.markers = map[string]string{}
	}
	r.resumeClock(time.Now())
	return r, nil
}

// resumeClock runs as the room opens: the mover's clock, which Restore
// started from the record, is charged the time it ran before a crash
// (crashCharge), and the record says it runs from now. Its flag, if it
// fell, falls as the first tab joins (syncClockLocked).
func (r *reconRoom) resumeClock(now time.Time) {
	if r.g.Config().Clock <= 0 || r.g.IsOver() {
		return
	}
	r.g.Charge(r.srv.crashCharge(r.rec.ClockSince))
	w, b := r.clockRecord()
	since := &now
	if err := r.srv.store.SetGameClock(r.id, w, b, since); err != nil {
		// At worst a crash before the next commit gives the mover back
		// its time since now.
		r.srv.logf("game %s: %v", r.id, err)
		return
	}
	r.rec.WhiteMS, r.rec.BlackMS, r.rec.ClockSince = w, b, since
}

// clockRecord is each side's time as the record keeps it: the mover's
// with its running turn's time so far charged, so that a restart (which
// starts the turn's clock afresh) charges it.
func (r *reconRoom) clockRecord() (whiteMS, blackMS int64) {
	clocks := r.g.Clocks()
	if r.g.Config().Clock > 0 && !r.g.IsOver() {
		clocks[r.g.Turn()] = r.g.SecondsLeft(r.g.Turn())
	}
	return clocks[game.White].Milliseconds(), clocks[game.Black].Milliseconds()
}

func closeBot(p recon.Player) {
	if c, ok := p.(interface{ Close() error }); ok {
		_ = c.Close()
	}
}

func (r *reconRoom) over() bool { return r.rec.Status == store.StatusOver }

// seq counts the actions taken as the person knows them (seqFor).
func (r *reconRoom) seq() int { return seqFor(r.g, r.human) }

// commitLocked saves the game as the arbiter has it now and makes it the
// room's record. On failure the room's record is unchanged, and so is the
// game as far as any client knows: the caller refuses the action.
func (r *reconRoom) commitLocked(now time.Time) error {
	rec := r.rec
	rec.History = string(recon.MarshalHistory(r.g.History()))
	rec.WhiteMS, rec.BlackMS = r.clockRecord()
	// The mover's clock runs on from now while a tab has the game open
	// (shutdownLocked commits with none left). A commit made while it
	// stands still for a pending save is that save's, after which it runs
	// again at once (retryPending).
	rec.ClockSince = clockSince(r.g.Config().Clock > 0 && !r.g.IsOver() && len(r.clients) > 0, now)
	markers, _ := json.Marshal(r.markers)
	rec.Markers = string(markers)
	if o := r.g.Outcome(); o.Over() && rec.Status != store.StatusOver {
		rec.Status, rec.Result, rec.Reason, rec.FinishedAt = finishedFields(o, now)
	}
	if err := r.srv.store.SaveReconGame(&rec); err != nil {
		r.srv.logf("game %s: commit: %v", r.id, err)
		return err
	}
	r.rec = rec
	return nil
}

// finishedFields returns the record fields of a game that ended with o at now:
// status, PGN result, the reference's reason and the finishing time.
func finishedFields(o recon.Outcome, now time.Time) (status store.Status, result string, reason store.WinReason, at *time.Time) {
	return store.StatusOver, reconResult(o), store.WinReasonOf(o.Reason), &now
}

// reconResult writes an outcome as a PGN result.
func reconResult(o recon.Outcome) string {
	switch {
	case !o.Over():
		return "*"
	case !o.Decisive:
		return "1/2-1/2"
	case o.Winner == game.White:
		return "1-0"
	}
	return "0-1"
}

// syncClockLocked arms the flag timer for the mover's clock; none while
// the clock stands still for a pending save.
func (r *reconRoom) syncClockLocked() {
	if r.closed || r.g.IsOver() || len(r.clients) == 0 || !r.stoppedAt.IsZero() {
		r.flag.stop()
		return
	}
	r.flag.arm(r.g, r.onFlag)
}

func (r *reconRoom) onFlag() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.over() || r.g.IsOver() || r.pending != nil {
		return
	}
	if r.g.SecondsLeft(r.g.Turn()) > 0 {
		r.syncClockLocked() // woke early
		return
	}
	r.flagLocked(time.Now())
}

func (r *reconRoom) cancelBotLocked() {
	if r.botJob != nil {
		r.botJob.cancel()
		r.botJob = nil
	}
}

// handle applies one message from c.
func (r *reconRoom) handle(c *client, m ReconMessage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	now := time.Now()
	if reconNeedsSeq[m.Type] && m.Seq != r.seq() {
		c.trySend(encodeError(protoErr(CodeStale, "message for action %d, but the game is at action %d", m.Seq, r.seq())))
		c.sendState(r.stateLocked(now), false)
		return
	}
	var perr *ProtoError
	switch m.Type {
	case ReconMsgSync:
		c.sendState(r.stateLocked(now), false)
		return
	case ReconMsgSense:
		perr = r.act(now, senseUnsavedText, func() error { _, err := r.g.Sense(m.Square); return err })
	case ReconMsgMove:
		perr = r.act(now, moveUnsavedText, func() error { _, err := r.g.Move(m.Move); return err })
	case ReconMsgResign:
		perr = r.resignLocked(now)
	case ReconMsgMarker:
		perr = r.markerLocked(m.Square, m.Piece, now)
	case ReconMsgRematch:
		r.rematchLocked(c)
		return
	}
	if perr != nil {
		c.trySend(encodeError(perr))
		if perr.Code == CodeGameOver {
			r.broadcastStateLocked(now)
		}
		return
	}
	r.maybeStartBotLocked()
	r.broadcastStateLocked(now)
	if m.Type == ReconMsgMarker {
		// A note that changes nothing (the same again) is answered too.
		c.sendState(r.stateLocked(now), false)
	}
}

// arbiterErr turns an arbiter refusal into a protocol error.
func arbiterErr(err error) *ProtoError {
	switch {
	case errors.Is(err, recon.ErrGameOver):
		return protoErr(CodeGameOver, "the game is over")
	case errors.Is(err, recon.ErrWrongPhase):
		return protoErr(CodeWrongPhase, "%v", err)
	case errors.Is(err, recon.ErrNotMoveAction):
		return protoErr(CodeIllegalMove, "%v", err)
	case errors.Is(err, recon.ErrBadSquare):
		return protoErr(CodeBadSquare, "%v", err)
	}
	return protoErr(CodeServer, "%v", err)
}

// humanTurnLocked refuses an action when it is not the person's turn.
func (r *reconRoom) humanTurnLocked() *ProtoError {
	if perr := r.pendingFlagErr(); perr != nil {
		return perr
	}
	if r.over() || r.g.IsOver() {
		return protoErr(CodeGameOver, "the game is over")
	}
	if r.g.Turn() != r.human {
		return protoErr(CodeNotYourTurn, "it is the opponent's turn")
	}
	return nil
}

// errCommit marks a change the database refused; the game was put back.
var errCommit = errors.New("could not save the game")

// changeLocked applies f, one or more arbiter actions, and commits the
// result. When f fails the arbiter refused and changed nothing, unless a
// flag fell on the way: then the arbiter is put back and the game ends on
// time as the flag timer would end it (flagLocked). When the commit fails
// the arbiter is put back as it was, so no client ever sees an
// uncommitted change.
func (r *reconRoom) changeLocked(now time.Time, f func() error) error {
	saved := *r.g // a value copy: the arbiter, history included
	if err := f(); err != nil {
		if r.g.IsOver() && !saved.IsOver() {
			*r.g = saved
			r.flagLocked(now)
		}
		return err
	}
	if err := r.commitLocked(now); err != nil {
		*r.g = saved
		return errCommit
	}
	return nil
}

// act runs one arbiter action for the person (ending the turn after a
// move) and commits it; on a refusal or a failed commit (answered with
// unsaved) the game is as before.
func (r *reconRoom) act(now time.Time, unsaved string, f func() error) *ProtoError {
	if perr := r.humanTurnLocked(); perr != nil {
		return perr
	}
	err := r.changeLocked(now, func() error {
		if err := f(); err != nil {
			return err
		}
		if r.g.Phase() == recon.PhaseEndTurn {
			return r.g.EndTurn()
		}
		return nil
	})
	if err != nil {
		return r.refusalLocked(err, unsaved)
	}
	if r.g.IsOver() {
		r.cancelBotLocked()
	}
	r.syncClockLocked()
	return nil
}

// refusalLocked words an action's failure from changeLocked: unsaved when
// the database refused it, the flag's pending save when the flag fell on
// the way and could not be saved, else the arbiter's refusal.
func (r *reconRoom) refusalLocked(err error, unsaved string) *ProtoError {
	if errors.Is(err, errCommit) {
		return protoErr(CodeServer, "%s", unsaved)
	}
	if perr := r.pendingFlagErr(); perr != nil {
		return perr
	}
	return arbiterErr(err)
}

// resignLocked resigns for the person, at any moment of either side's
// turn; a step of the bot waiting to be saved is dropped.
func (r *reconRoom) resignLocked(now time.Time) *ProtoError {
	if perr := r.pendingFlagErr(); perr != nil {
		return perr
	}
	if r.over() || r.g.IsOver() {
		return protoErr(CodeGameOver, "the game is over")
	}
	if err := r.changeLocked(now, func() error { return r.g.Resign(r.human) }); err != nil {
		return r.refusalLocked(err, resignUnsavedText)
	}
	r.dropPendingLocked(now)
	r.cancelBotLocked()
	r.syncClockLocked()
	return nil
}

// maxMarkers bounds the person's notes (one per square at most anyway).
const maxMarkers = 64

func (r *reconRoom) markerLocked(s game.Square, p game.Piece, now time.Time) *ProtoError {
	if perr := markerRefusal(p, r.human); perr != nil {
		return perr
	}
	name := s.String()
	before, had := r.markers[name]
	if p == game.NoPiece {
		delete(r.markers, name)
	} else {
		r.markers[name] = pieceCode(p)
	}
	if len(r.markers) > maxMarkers {
		delete(r.markers, name)
	}
	if err := r.commitLocked(now); err != nil {
		if had {
			r.markers[name] = before
		} else {
			delete(r.markers, name)
		}
		return protoErr(CodeServer, "%s", markerUnsavedText)
	}
	return nil
}

func (r *reconRoom) rematchLocked(c *client) {
	if !r.srv.rematchAllowed(c, r.rec.Owner) {
		return
	}
	human := store.ColorOf(r.rec.Human.Other())
	rec := &store.ReconGame{
		Owner: r.rec.Owner, Human: human, Opponent: r.rec.Opponent, Seed: newSeed(),
		ClockInitialMS: r.rec.ClockInitialMS, ClockIncrementMS: r.rec.ClockIncrementMS,
		WhiteMS: r.rec.ClockInitialMS, BlackMS: r.rec.ClockInitialMS,
	}
	if err := r.srv.store.CreateReconGame(rec); err != nil {
		r.srv.logf("rematch of %s: %v", r.id, err)
		c.trySend(encodeError(protoErr(CodeServer, "%s", rematchUnsavedText)))
		return
	}
	c.trySend(encodeRedirect("/game/" + rec.ID))
}

// maybeStartBotLocked starts the bot's turn when it is the bot's to play.
func (r *reconRoom) maybeStartBotLocked() {
	if r.closed || r.g.IsOver() || r.botJob != nil || r.pending != nil || len(r.clients) == 0 || r.g.Turn() == r.human {
		return
	}
	ctx, cancel := context.WithCancel(r.srv.ctx)
	j := &job{cancel: cancel}
	r.botJob = j
	v := r.g.ViewOf(r.human.Other())
	go r.runBot(ctx, j, r.rec.Owner, r.g.Phase(), v.OpponentCapture, r.g.SenseActions(), v.MoveActions)
}

// testHookBotAction, when set (by tests), runs as the bot of game id has
// chosen its action for phase (a sense or a move), before it is applied
// and saved; no lock is held.
var testHookBotAction func(id string, phase recon.Phase)

// runBot plays the bot's turn from phase, its thinking in the engine
// pool as owner's work (bot_think.go): each of its choices is applied
// under the lock (and committed) only if its turn is still on; a choice
// the database refuses is saved later while the bot waits
// (botStepLocked). The bot's calls are made one at a time from this
// goroutine, its MoveResult included; the job ends only after it, so the
// bot's next turn cannot start before.
func (r *reconRoom) runBot(ctx context.Context, j *job, owner string, phase recon.Phase, capture game.Square, senseActions []game.Square, moveActions []game.Move) {
	defer j.cancel()
	current := func() bool { return r.botJob == j && !r.closed && !r.g.IsOver() }
	clock := func() time.Duration {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.g.SecondsLeft(r.human.Other())
	}
	// withdrawn ends the job of a step that never ran: the job was
	// withdrawn (cancelBotLocked) or the server is stopping, so no turn
	// starts from here.
	withdrawn := func() {
		r.mu.Lock()
		if r.botJob == j {
			r.botJob = nil
		}
		r.mu.Unlock()
	}
	var sensed recon.SenseResult
	if phase == recon.PhaseSense {
		var s game.Square
		if !r.srv.botStep(ctx, owner, r.bot, clock, func(think context.Context, left time.Duration) {
			r.bot.OpponentMoveResult(capture)
			s = r.bot.ChooseSense(think, senseActions, moveActions, left)
		}) {
			withdrawn()
			return
		}
		if testHookBotAction != nil {
			testHookBotAction(r.id, recon.PhaseSense)
		}
		r.mu.Lock()
		if !current() {
			r.finishBotLocked(j)
			r.mu.Unlock()
			return
		}
		ok, _ := r.botStepLocked(j, time.Now(), func() error {
			var err error
			sensed, err = r.g.Sense(s)
			if err != nil && !r.g.IsOver() {
				r.srv.logf("game %s: bot sensed %s: %v; senses nothing instead", r.id, recon.SquareName(s), err)
				sensed, err = r.g.Sense(game.NoSquare)
			}
			return err
		})
		r.mu.Unlock()
		if !ok {
			return
		}
	}
	var m game.Move
	if !r.srv.botStep(ctx, owner, r.bot, clock, func(think context.Context, left time.Duration) {
		if phase == recon.PhaseSense {
			r.bot.SenseResult(sensed)
		}
		m = r.bot.ChooseMove(think, moveActions, left)
	}) {
		withdrawn()
		return
	}
	// A bot's reply is never instant: the person should see the turn pass.
	if pause := r.srv.replyPause(); pause > 0 {
		t := time.NewTimer(pause)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
	if testHookBotAction != nil {
		testHookBotAction(r.id, recon.PhaseMove)
	}
	r.mu.Lock()
	if !current() {
		r.finishBotLocked(j)
		r.mu.Unlock()
		return
	}
	var res recon.MoveResult
	now := time.Now()
	ok, waited := r.botStepLocked(j, now, func() error {
		var err error
		res, err = r.g.Move(m)
		if err != nil && !r.g.IsOver() {
			r.srv.logf("game %s: bot chose %s: %v; passes instead", r.id, recon.UCI(m), err)
			res, err = r.g.Move(game.NoMove)
		}
		if err == nil && !r.g.IsOver() {
			err = r.g.EndTurn()
		}
		return err
	})
	if !ok {
		r.mu.Unlock()
		return
	}
	if !waited { // a pending step, once saved, was told by retryPending
		r.syncClockLocked()
		r.broadcastStateLocked(now)
	}
	r.mu.Unlock()
	r.bot.MoveResult(res)
	r.mu.Lock()
	r.finishBotLocked(j)
	r.mu.Unlock()
}

// finishBotLocked ends the bot's job j and, when it is the bot's turn
// again (never, in a game between two sides), starts the next. A flag
// that fell while the bot thought was dealt with where it was found
// (changeLocked, onFlag).
func (r *reconRoom) finishBotLocked(j *job) {
	if r.botJob != j {
		return
	}
	r.botJob = nil
	if r.closed {
		return
	}
	r.maybeStartBotLocked()
}

// shutdownLocked runs when the last tab leaves: the bot stops and the
// clock stops, so time away is never charged. A step waiting to be saved
// is dropped (the bot's turn is played again when the game next opens;
// a flag fall is found again at once).
func (r *reconRoom) shutdownLocked(now time.Time) {
	r.cancelBotLocked()
	if !r.g.IsOver() && r.g.Config().Clock > 0 {
		_ = r.commitLocked(now) // logged; at worst the running turn's time is not charged
	}
	r.dropPendingLocked(now)
	r.flag.stop()
	r.closed = true
	closeBot(r.bot)
}

// broadcastStateLocked sends each tab the person's state when it changed
// for them (client.sendState).
func (r *reconRoom) broadcastStateLocked(now time.Time) {
	b := r.stateLocked(now)
	for c := range r.clients {
		c.sendState(b, true)
	}
}

func (r *reconRoom) broadcastLocked(b []byte) {
	for c := range r.clients {
		c.trySend(b)
	}
}

func (r *reconRoom) stateLocked(now time.Time) []byte { return mustJSON(r.buildStateLocked(now)) }

// buildStateLocked builds what the person may see of the room's game.
func (r *reconRoom) buildStateLocked(now time.Time) *ReconState {
	return buildReconState(r.g, reconSeat{
		id: r.id, human: r.human, opponent: r.rec.Opponent, opponentName: opponentName(r.rec.Opponent), saving: r.pending != nil,
		markers: r.markers, status: r.rec.Status.String(), result: r.rec.Result, reason: r.rec.Reason.String(),
		timed: r.rec.Timed(), clockMS: r.rec.ClockInitialMS, incrementMS: r.rec.ClockIncrementMS,
		historyURL: "/game/" + r.id + "/history.json", replayURL: "/game/" + r.id + "/replay",
	})
}

// reconSeat is a person's seat at a game, with what the page needs that
// the arbiter does not hold.
type reconSeat struct {
	id                     string
	human                  game.Color
	opponent, opponentName string
	markers                map[string]string
	status, result, reason string
	timed                  bool
	clockMS, incrementMS   int64
	historyURL, replayURL  string
	notStarted             bool // the opponent has not said it is ready
	saving                 bool // a step waits to be saved; the clock stands still
}

// seqFor counts the actions taken in g as c knows them: every sense and
// every move of both sides, but the opponent's in the turn it has not yet
// ended (c learns of those only when its own turn begins). On c's own turn,
// the only time its sense or move is taken, it counts every action.
func seqFor(g *recon.Game, c game.Color) int {
	h := g.History()
	n := 0
	for side := game.White; side <= game.Black; side++ {
		n += len(h.Senses[side]) + len(h.RequestedMoves[side])
	}
	if !g.IsOver() && g.Turn() == c.Other() {
		switch g.Phase() {
		case recon.PhaseMove:
			n--
		case recon.PhaseEndTurn:
			n -= 2
		}
	}
	return n
}

// buildReconState builds what the person in seat may see of g, from the
// person's view alone (recon.Game.ViewOf): their own pieces as they know
// them, their own turns' observations, their move actions in their move
// phase only, their markers and clock; the true board only once the game is
// over. Nothing of the opponent's turn in progress is in it, whatever the
// phase of either side.
func buildReconState(g *recon.Game, seat reconSeat) *ReconState {
	h := g.History()
	v := g.ViewOf(seat.human)
	st := &ReconState{
		Type: ReconMsgState, ID: seat.id, Human: seat.human.String(),
		Opponent: seat.opponent, OpponentName: seat.opponentName,
		Seq: seqFor(g, seat.human), Pieces: map[string]string{}, Turns: []ReconTurnView{}, MoveActions: []LegalView{},
		Markers: seat.markers, Status: seat.status, Result: seat.result, Reason: seat.reason, Saving: seat.saving,
	}
	for s, p := range v.Pieces {
		if p != game.NoPiece {
			st.Pieces[game.Square(s).String()] = pieceCode(p)
		}
	}
	st.Turns = humanTurns(h, seat.human)
	switch {
	case v.Phase == recon.PhaseOver:
		st.Phase = "over"
		// Everything is told at the end: the pieces as they stand.
		board := g.Board()
		clear(st.Pieces)
		for s := game.A1; s <= game.H8; s++ {
			if p := board.PieceAt(s); p != game.NoPiece && p.Color() == seat.human {
				st.Pieces[s.String()] = pieceCode(p)
			}
		}
		st.TrueFEN = board.FEN()
		st.HistoryURL = seat.historyURL
		st.ReplayURL = seat.replayURL
	case seat.notStarted || !v.ToAct:
		st.Phase = "waiting"
	case v.Phase == recon.PhaseSense:
		st.Phase = "sense"
		if n := len(st.Turns); n == 0 || st.Turns[n-1].Sensed {
			// The turn has begun: its opening news is the opponent's capture.
			st.Turns = append(st.Turns, ReconTurnView{OpponentCapture: squareOrEmpty(v.OpponentCapture), Lost: lostPiece(h, seat.human, v.OpponentCapture)})
		}
	case v.Phase == recon.PhaseMove:
		st.Phase = "move"
		st.MoveActions = moveActionViews(v.MoveActions, &v.Pieces)
	default:
		// Moved, the turn not yet ended (an API client ends it by a call
		// of its own): nothing more to do on this page.
		st.Phase = "waiting"
	}
	if seat.timed {
		cv := &ReconClockView{Initial: seat.clockMS, Increment: seat.incrementMS}
		cv.Mine = max(g.SecondsLeft(seat.human).Milliseconds(), 0)
		cv.Running = !g.IsOver() && !seat.notStarted && !seat.saving && g.Turn() == seat.human
		st.Clock = cv
	}
	return st
}

// humanTurns lists the person's turns in h with what they learnt in each.
func humanTurns(h *recon.History, human game.Color) []ReconTurnView {
	out := []ReconTurnView{}
	for n := range h.Senses[human] {
		t := ReconTurnView{Sensed: true, Sense: squareOrEmpty(h.Senses[human][n]), SenseResult: []ReconSquareView{}}
		// The opponent's capture announced at this turn's start: the one
		// made by the opponent's turn just before.
		prev := recon.Turn{Color: human, Number: n}
		if human == game.White {
			prev = recon.Turn{Color: game.Black, Number: n - 1}
		} else {
			prev = recon.Turn{Color: game.White, Number: n}
		}
		if prev.Number >= 0 && prev.Number < len(h.CaptureSquares[prev.Color]) {
			cs := h.CaptureSquares[prev.Color][prev.Number]
			t.OpponentCapture = squareOrEmpty(cs)
			if cs != game.NoSquare {
				if b, err := recon.ParseBoard(h.FENsBefore[prev.Color][prev.Number]); err == nil {
					t.Lost = pieceCode(b.PieceAt(cs))
				}
			}
		}
		for _, sp := range h.SenseResults[human][n] {
			t.SenseResult = append(t.SenseResult, ReconSquareView{Square: sp.Square.String(), Piece: pieceCode(sp.Piece)})
		}
		if n < len(h.RequestedMoves[human]) {
			t.Moved = true
			t.Requested = recon.UCI(h.RequestedMoves[human][n])
			if tk := h.TakenMoves[human][n]; tk != game.NoMove {
				t.Taken = recon.UCI(tk)
			}
			t.Capture = squareOrEmpty(h.CaptureSquares[human][n])
		}
		out = append(out, t)
	}
	return out
}

// lostPiece returns the code of the person's piece the opponent's last
// move took on capture, read from the record (the person's own piece,
// which they know).
func lostPiece(h *recon.History, human game.Color, capture game.Square) string {
	opp := human.Other()
	n := len(h.FENsBefore[opp])
	if capture == game.NoSquare || n == 0 {
		return ""
	}
	b, err := recon.ParseBoard(h.FENsBefore[opp][n-1])
	if err != nil {
		return ""
	}
	return pieceCode(b.PieceAt(capture))
}

func squareOrEmpty(s game.Square) string {
	if s == game.NoSquare {
		return ""
	}
	return s.String()
}

// moveActionViews lists the move actions as the board offers them,
// sorted; a bare pawn move to the last rank is offered as its promotions.
func moveActionViews(actions []game.Move, own *[64]game.Piece) []LegalView {
	out := make([]LegalView, 0, len(actions))
	seen := map[string]bool{}
	for _, m := range actions {
		uci := recon.UCI(m)
		if seen[uci] {
			continue
		}
		seen[uci] = true
		lv := LegalView{From: m.From().String(), To: m.To().String(), UCI: uci}
		if m.IsPromotion() {
			lv.Promotion = m.Promotion().String()
		} else if own[m.From()].Type() == game.Pawn && (m.To().Rank() == 0 || m.To().Rank() == 7) {
			// A bare pawn capture onto the last rank: the promotions are
			// listed as well and the board asks which.
			continue
		}
		out = append(out, lv)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].UCI < out[j].UCI })
	return out
}
