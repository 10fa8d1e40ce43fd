package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
	"knightwatch/store"
)

// apiTable is one running game of the HTTP API: the arbiter, the built-in
// bot when one of the seats is Knightwatch's own, and the flag timer,
// which runs whether or not anyone calls (a bot that stops calling loses
// on time). Every change happens under mu and is committed to the store
// before the caller hears of it; a refused call changes nothing.
type apiTable struct {
	srv *Server
	id  int64
	// ids and names are the players' by colour; they never change.
	ids   [2]int64
	names [2]string

	mu       sync.Mutex
	rec      store.APIGame // the committed record
	g        *recon.Game
	bot      recon.Player // the built-in seat's bot, or nil
	botColor game.Color
	botSpec  string
	live     bool // held in the server's table map, with its timer and bot
	closed   bool
	flag     flagTimer
	botJob   *job
	// endRetry, when set, saves the end the clock brought later, after
	// endDelay (api_retry.go).
	endRetry *time.Timer
	endDelay time.Duration
	// botRunning is true while a bot goroutine may be inside the bot's
	// methods; the bot is closed only after it returns.
	botRunning bool
	// clients are the browser tabs of players who play here in person,
	// told the state after every change.
	clients map[*client]struct{}
}

// apiError is a refused API call: its HTTP status and what went wrong;
// code, when set, is the protocol error code the page's WebSocket sends
// for it (browserErr).
type apiError struct {
	status int
	msg    string
	code   string
}

func (e *apiError) Error() string { return e.msg }

// calledOffMsg answers any action in a game called off before it started.
const calledOffMsg = "the game was called off: it did not start in time"

func apiErr(status int, format string, args ...any) *apiError {
	return &apiError{status: status, msg: fmt.Sprintf(format, args...)}
}

// apiConfig returns the arbiter configuration of a stored API game.
func apiConfig(rec *store.APIGame) recon.Config {
	return recon.Config{
		Clock:     time.Duration(rec.ClockInitialMS) * time.Millisecond,
		Increment: time.Duration(rec.ClockIncrementMS) * time.Millisecond,
		MoveLimit: 100,
	}
}

// apiHistory is the record of rec so far: its history, or an empty one
// with the players' names before the first move.
func apiHistory(rec *store.APIGame) (*recon.History, error) {
	if rec.History == "" {
		return &recon.History{Names: [2]string{rec.WhiteName, rec.BlackName}}, nil
	}
	h, err := recon.UnmarshalHistory([]byte(rec.History))
	if err != nil {
		return nil, fmt.Errorf("api game %d: %w", rec.ID, err)
	}
	return h, nil
}

// apiTableFor returns the table of game id: the live one when the game is
// running, otherwise one rebuilt from the record for this call alone (a
// finished game needs no timer and no bot). ErrNotFound when there is no
// such game.
func (s *Server) apiTableFor(id int64) (*apiTable, error) {
	s.api.mu.Lock()
	defer s.api.mu.Unlock()
	if t, ok := s.api.tables[id]; ok {
		return t, nil
	}
	rec, err := s.store.GetAPIGame(id)
	if err != nil {
		return nil, err
	}
	return s.loadAPITableLocked(rec)
}

// loadAPITableLocked builds the table of rec, under s.api.mu. An unfinished
// game's table goes live: kept in the map, its flag timer armed and its
// built-in bot, if any, started.
func (s *Server) loadAPITableLocked(rec *store.APIGame) (*apiTable, error) {
	t := &apiTable{srv: s, id: rec.ID, rec: *rec, ids: [2]int64{rec.WhiteID, rec.BlackID}, names: [2]string{rec.WhiteName, rec.BlackName},
		clients: map[*client]struct{}{}}
	over := rec.Status == store.StatusOver || rec.Status == store.StatusAborted
	if !over {
		for c, uid := range [2]int64{rec.WhiteID, rec.BlackID} {
			u, err := s.store.UserByID(uid)
			if err != nil {
				return nil, fmt.Errorf("api game %d: %w", rec.ID, err)
			}
			if u.Builtin != "" {
				t.botSpec, t.botColor = u.Builtin, game.Color(c)
			}
		}
	}
	if err := t.buildGame(); err != nil {
		return nil, err
	}
	if over {
		return t, nil
	}
	t.live = true
	s.api.tables[rec.ID] = t
	t.mu.Lock()
	t.resumeClockLocked(time.Now())
	t.syncClockLocked()
	t.maybeStartBotLocked()
	t.mu.Unlock()
	return t, nil
}

// resumeClockLocked runs as a started game is taken up: the mover's clock,
// which restarted from the record, is charged the time it ran before a
// crash (crashCharge), and the record is committed at once, so that it
// says the clock runs from now.
func (t *apiTable) resumeClockLocked(now time.Time) {
	if !t.started() || t.g.IsOver() {
		return
	}
	t.g.Charge(t.srv.crashCharge(t.rec.ClockSince))
	if t.g.CheckClock() {
		t.endedLocked(now) // the flag fell before the crash
		return
	}
	_ = t.commitLocked(t.rec, now) // logged; the next action's commit will say it
}

// buildGame sets up the arbiter (and the bot) from the record: a game not
// started is new and unstarted; a started one is restored, its bot fed its
// side of the record.
func (t *apiTable) buildGame() error {
	rec := &t.rec
	if rec.Status == store.StatusWaiting || rec.Status == store.StatusAborted {
		t.g = recon.NewGame(apiConfig(rec), rec.WhiteName, rec.BlackName)
		return nil
	}
	h, err := apiHistory(rec)
	if err != nil {
		return err
	}
	var bot recon.Player
	if t.botSpec != "" {
		if bot, err = t.srv.cfg.newBot(t.botSpec, rec.Seed); err != nil {
			return fmt.Errorf("api game %d: bot: %w", rec.ID, err)
		}
	}
	clocks := [2]time.Duration{time.Duration(rec.WhiteMS) * time.Millisecond, time.Duration(rec.BlackMS) * time.Millisecond}
	g, err := recon.Restore(apiConfig(rec), h, clocks, bot, t.botColor)
	if err != nil {
		if bot != nil {
			closeBot(bot)
		}
		return fmt.Errorf("api game %d: %w", rec.ID, err)
	}
	t.g, t.bot = g, bot
	return nil
}

// colorOf returns the colour user plays in the game.
func (t *apiTable) colorOf(userID int64) (game.Color, bool) {
	switch userID {
	case t.ids[game.White]:
		return game.White, true
	case t.ids[game.Black]:
		return game.Black, true
	}
	return 0, false
}

// started reports whether both players were ready and the game began.
func (t *apiTable) started() bool {
	return t.rec.Status == store.StatusPlaying || t.rec.Status == store.StatusOver
}

// aborted reports whether the game was called off before it started.
func (t *apiTable) aborted() bool { return t.rec.Status == store.StatusAborted }

// commitLocked saves the game as the arbiter has it now. On failure the
// record is unchanged and the caller puts the arbiter back.
func (t *apiTable) commitLocked(rec store.APIGame, now time.Time) error {
	if rec.Status != store.StatusWaiting {
		rec.History = string(recon.MarshalHistory(t.g.History()))
		clocks := t.g.Clocks()
		if !t.g.IsOver() {
			// The running turn's time so far, so that a restart (which starts
			// the turn afresh) charges it.
			clocks[t.g.Turn()] = t.g.SecondsLeft(t.g.Turn())
		}
		rec.WhiteMS, rec.BlackMS = clocks[game.White].Milliseconds(), clocks[game.Black].Milliseconds()
		// The mover's clock runs on from now, unless the game is over or
		// the server is stopping (shutdown): time while it is down is not
		// charged.
		rec.ClockSince = clockSince(!t.g.IsOver() && t.srv.ctx.Err() == nil, now)
	}
	if o := t.g.Outcome(); o.Over() && rec.Status != store.StatusOver {
		rec.Status, rec.Result, rec.Reason, rec.FinishedAt = finishedFields(o, now)
	}
	if err := t.srv.store.SaveAPIGame(&rec); err != nil {
		t.srv.logf("api game %d: commit: %v", t.id, err)
		return err
	}
	t.rec = rec
	t.broadcastLocked()
	if rec.Status == store.StatusOver {
		if rec.Ranked {
			// Failing here leaves the game unrated; the matchmaker's round
			// rates it later.
			if err := t.srv.store.RateGame(rec.ID); err != nil {
				t.srv.logf("api game %d: %v", t.id, err)
			}
		}
		t.retireLocked()
	}
	return nil
}

// abort calls off a game that has not started: nobody wins, the pending
// invitations to it go away.
func (t *apiTable) abort(now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.rec.Status != store.StatusWaiting {
		return
	}
	rec := t.rec
	rec.Status = store.StatusAborted
	at := now
	rec.FinishedAt = &at
	if err := t.srv.store.SaveAPIGame(&rec); err != nil {
		t.srv.logf("api game %d: abort: %v", t.id, err)
		return
	}
	t.rec = rec
	if err := t.srv.store.CloseGameInvitations(t.id); err != nil {
		t.srv.logf("api game %d: %v", t.id, err)
	}
	t.broadcastLocked()
	t.retireLocked()
}

// changeLocked applies f, one or more arbiter actions, and commits; when f
// fails or the commit does, the arbiter is as before (a flag that fell on
// the way is then committed on its own).
func (t *apiTable) changeLocked(now time.Time, f func() error) *apiError {
	saved := *t.g
	if err := f(); err != nil {
		if t.g.IsOver() && t.rec.Status != store.StatusOver {
			t.endedLocked(now)
		}
		return arbiterAPIErr(err)
	}
	if err := t.commitLocked(t.rec, now); err != nil {
		*t.g = saved
		return apiErr(http.StatusInternalServerError, "could not save the game; try again")
	}
	t.afterChangeLocked()
	return nil
}

// afterChangeLocked re-arms the timer and hands the turn to the bot.
func (t *apiTable) afterChangeLocked() {
	if t.g.IsOver() {
		t.cancelBotLocked()
	}
	t.syncClockLocked()
	t.maybeStartBotLocked()
}

// endedLocked commits a game that the clock has just ended.
func (t *apiTable) endedLocked(now time.Time) {
	t.cancelBotLocked()
	if t.commitLocked(t.rec, now) != nil { // logged
		t.saveEndLaterLocked()
	}
	t.syncClockLocked()
}

func arbiterAPIErr(err error) *apiError {
	switch {
	case errors.Is(err, recon.ErrGameOver):
		return apiErr(http.StatusBadRequest, "the game is over")
	case errors.Is(err, recon.ErrNotStarted):
		return apiErr(http.StatusBadRequest, "the game has not started: both players must call ready")
	case errors.Is(err, recon.ErrWrongPhase):
		return apiErr(http.StatusBadRequest, "%v", err)
	case errors.Is(err, recon.ErrNotMoveAction), errors.Is(err, recon.ErrBadSquare):
		return apiErr(http.StatusBadRequest, "%v", err)
	}
	return apiErr(http.StatusBadRequest, "%v", err)
}

// retireLocked takes a finished game's table out of the server's map: its
// timer stops, its bot is told the end and closed, and the built-in bot's
// invitation is marked finished.
func (t *apiTable) retireLocked() {
	if !t.live || t.closed {
		return
	}
	t.closed = true
	t.cancelBotLocked()
	t.stopEndRetryLocked()
	t.flag.stop()
	t.closeBotLocked()
	if t.botSpec != "" {
		if err := t.srv.store.FinishGameInvitations(t.id, t.ids[t.botColor]); err != nil {
			t.srv.logf("api game %d: %v", t.id, err)
		}
	}
	go func() {
		t.srv.api.mu.Lock()
		if t.srv.api.tables[t.id] == t {
			delete(t.srv.api.tables, t.id)
		}
		t.srv.api.mu.Unlock()
	}()
}

// checkClockLocked ends the game when the mover's flag has fallen, so that
// every call sees the game as the clock has it.
func (t *apiTable) checkClockLocked(now time.Time) {
	if t.started() && t.rec.Status != store.StatusOver && t.g.CheckClock() {
		t.endedLocked(now)
	}
}

// syncClockLocked arms the flag timer for the mover's clock.
func (t *apiTable) syncClockLocked() {
	if !t.live || t.closed || t.g.IsOver() {
		t.flag.stop()
		return
	}
	t.flag.arm(t.g, t.onFlag)
}

func (t *apiTable) onFlag() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	if !t.g.CheckClock() {
		t.syncClockLocked() // woke early
		return
	}
	t.endedLocked(time.Now())
}

// shutdown stops the table when the server closes: the bot and the timer
// stop and the running turn's time so far is committed.
func (t *apiTable) shutdown() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	t.cancelBotLocked()
	t.stopEndRetryLocked()
	if t.started() && (!t.g.IsOver() || t.rec.Status != store.StatusOver) {
		_ = t.commitLocked(t.rec, time.Now()) // the last try of an unsaved end too
	}
	t.flag.stop()
	t.closed = true
	t.closeBotLocked()
}

// closeBotLocked closes the bot of a closed table once no goroutine is in
// its methods (otherwise the bot goroutine closes it as it ends).
func (t *apiTable) closeBotLocked() {
	if t.bot != nil && !t.botRunning {
		closeBot(t.bot)
		t.bot = nil
	}
}

func (t *apiTable) cancelBotLocked() {
	if t.botJob != nil {
		t.botJob.cancel()
		t.botJob = nil
	}
}

// ready marks c ready; when both are, the game and White's clock start.
// A called-off game stays called off: a player who accepted just before
// the call-off must not start it when its opponent has long left.
func (t *apiTable) ready(c game.Color, now time.Time) *apiError {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.aborted() {
		return apiErr(http.StatusBadRequest, calledOffMsg)
	}
	rec := t.rec
	ready := &rec.WhiteReady
	if c == game.Black {
		ready = &rec.BlackReady
	}
	if *ready {
		return apiErr(http.StatusBadRequest, "already marked as ready")
	}
	*ready = true
	if !rec.WhiteReady || !rec.BlackReady {
		if err := t.srv.store.SaveAPIGame(&rec); err != nil {
			return apiErr(http.StatusInternalServerError, "could not save the game; try again")
		}
		t.rec = rec
		t.broadcastLocked()
		return nil
	}
	// Both ready: the game starts, the bot (if any) learns its colour.
	rec.Status = store.StatusPlaying
	saved := t.rec
	t.rec = rec
	if err := t.buildGame(); err != nil {
		t.rec = saved
		t.srv.logf("api game %d: start: %v", t.id, err)
		return apiErr(http.StatusInternalServerError, "could not start the game")
	}
	if err := t.commitLocked(rec, now); err != nil {
		t.rec = saved
		t.g = recon.NewGame(apiConfig(&saved), saved.WhiteName, saved.BlackName)
		if t.bot != nil {
			closeBot(t.bot)
			t.bot = nil
		}
		return apiErr(http.StatusInternalServerError, "could not save the game; try again")
	}
	t.afterChangeLocked()
	return nil
}

// turnLocked refuses an action of c when it is not c's turn to act.
func (t *apiTable) turnLocked(c game.Color) *apiError {
	switch {
	case t.rec.Status == store.StatusOver || t.g.IsOver():
		return apiErr(http.StatusBadRequest, "the game is over")
	case t.aborted():
		return apiErr(http.StatusBadRequest, calledOffMsg)
	case !t.started():
		return apiErr(http.StatusBadRequest, "the game has not started: both players must call ready")
	case t.g.Turn() != c:
		return apiErr(http.StatusBadRequest, "it is not your turn")
	}
	return nil
}

// sense senses s for c.
func (t *apiTable) sense(c game.Color, s game.Square, now time.Time) (recon.SenseResult, *apiError) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.checkClockLocked(now)
	if e := t.turnLocked(c); e != nil {
		return nil, e
	}
	if t.g.Phase() != recon.PhaseSense {
		return nil, apiErr(http.StatusBadRequest, "you already sensed this turn")
	}
	var r recon.SenseResult
	e := t.changeLocked(now, func() error {
		var err error
		r, err = t.g.Sense(s)
		return err
	})
	return r, e
}

// move plays c's request (game.NoMove passes); with endTurn, the move
// and the end of the turn are one change, as a person's move on the page
// is: nobody is ever sent the game between the two.
func (t *apiTable) move(c game.Color, m game.Move, endTurn bool, now time.Time) (recon.MoveResult, *apiError) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.checkClockLocked(now)
	if e := t.turnLocked(c); e != nil {
		return recon.MoveResult{}, e
	}
	switch t.g.Phase() {
	case recon.PhaseSense:
		return recon.MoveResult{}, apiErr(http.StatusBadRequest, "you have not sensed yet this turn")
	case recon.PhaseEndTurn:
		return recon.MoveResult{}, apiErr(http.StatusBadRequest, "you already moved this turn")
	}
	var r recon.MoveResult
	e := t.changeLocked(now, func() error {
		var err error
		if r, err = t.g.Move(m); err != nil || !endTurn || t.g.IsOver() {
			return err
		}
		return t.g.EndTurn()
	})
	return r, e
}

// endTurn ends c's turn. After a move of c's that ended the game (a king
// captured, a draw limit reached) it succeeds and does nothing, as the
// reference's client calls it then too.
func (t *apiTable) endTurn(c game.Color, now time.Time) *apiError {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.checkClockLocked(now)
	if t.g.IsOver() && t.started() && t.g.Turn() == c {
		switch t.g.Outcome().Reason {
		case recon.KingCapture, recon.TurnLimit, recon.MoveLimit:
			return nil
		}
	}
	if e := t.turnLocked(c); e != nil {
		return e
	}
	if t.g.Phase() != recon.PhaseEndTurn {
		return apiErr(http.StatusBadRequest, "you have not sensed and moved yet this turn")
	}
	return t.changeLocked(now, t.g.EndTurn)
}

// resign resigns for c, on c's turn only (as the API says).
func (t *apiTable) resign(c game.Color, now time.Time) *apiError {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.checkClockLocked(now)
	if e := t.turnLocked(c); e != nil {
		return e
	}
	return t.changeLocked(now, func() error { return t.g.Resign(c) })
}

// errorResign ends the game on time for c at once, on either turn; a game
// already over (or not started) is left as it is.
func (t *apiTable) errorResign(c game.Color, now time.Time) *apiError {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.checkClockLocked(now)
	if !t.started() || t.g.IsOver() {
		return nil
	}
	return t.changeLocked(now, func() error { return t.g.Forfeit(c) })
}

// apiView is what one player may know of the game at one moment.
type apiView struct {
	started, over, myTurn bool
	outcome               recon.Outcome
	secondsLeft           time.Duration
	senseActions          []game.Square
	moveActions           []game.Move
	opponentCapture       game.Square
	history               []byte // only once the game is over
}

// view returns what c may know now, from c's view of the game alone
// (recon.Game.ViewOf): nothing of the opponent's turn in progress.
func (t *apiTable) view(c game.Color, now time.Time) apiView {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.checkClockLocked(now)
	known := t.g.ViewOf(c)
	v := apiView{
		started: t.started(), over: t.g.IsOver() || t.aborted(), outcome: t.g.Outcome(),
		secondsLeft:     t.g.SecondsLeft(c),
		senseActions:    t.g.SenseActions(),
		moveActions:     known.MoveActions,
		opponentCapture: known.OpponentCapture,
	}
	v.myTurn = v.started && !v.over && t.g.Turn() == c
	if v.over {
		v.history = recon.MarshalHistory(t.g.History())
	}
	return v
}

// maybeStartBotLocked starts the built-in bot's turn when it is its to play.
func (t *apiTable) maybeStartBotLocked() {
	if t.bot == nil || !t.live || t.closed || !t.started() || t.g.IsOver() || t.botJob != nil || t.botRunning || t.g.Turn() != t.botColor || t.srv.ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithCancel(t.srv.ctx)
	if d, ok := t.g.Deadline(); ok {
		ctx, cancel = context.WithDeadline(t.srv.ctx, d)
	}
	j := &job{cancel: cancel}
	t.botJob = j
	t.botRunning = true
	v := t.g.ViewOf(t.botColor)
	go t.runBot(ctx, j, t.g.Phase(), v.OpponentCapture, t.g.SenseActions(), v.MoveActions)
}

// botOwner is whom the built-in bot's thinking is charged to in the
// engine pool (bot_think.go): the user it plays against, who asked for
// the game (an invitation, or a ranked game the user's bot is connected
// for). Keyed by user, not by game, so that one user's many games share
// one user's share of the engine, as one person's games against the
// engine do; the key cannot be a browser session's (those are hex).
func (t *apiTable) botOwner() string {
	return fmt.Sprintf("api-user:%d", t.ids[t.botColor.Other()])
}

// runBot plays the built-in bot's turn from phase, thinking without the
// lock, in the engine pool as its opponent's work (bot_think.go); each
// choice is applied and committed under the lock only if the turn is
// still on.
func (t *apiTable) runBot(ctx context.Context, j *job, phase recon.Phase, capture game.Square, senseActions []game.Square, moveActions []game.Move) {
	defer t.botEnded(j)
	defer j.cancel()
	bot := t.bot // set before the goroutine started; cleared only after it ends
	owner := t.botOwner()
	current := func() bool { return t.botJob == j && !t.closed && !t.g.IsOver() }
	timeLeft := func() time.Duration {
		t.mu.Lock()
		defer t.mu.Unlock()
		return t.g.SecondsLeft(t.botColor)
	}
	var sensed recon.SenseResult
	if phase == recon.PhaseSense {
		var s game.Square
		if !t.srv.botStep(ctx, owner, bot, timeLeft, func(think context.Context, left time.Duration) {
			bot.OpponentMoveResult(capture)
			s = bot.ChooseSense(think, senseActions, moveActions, left)
		}) {
			return
		}
		t.mu.Lock()
		if !current() {
			t.mu.Unlock()
			return
		}
		saved := t.botChangeLocked(ctx, current, func() error {
			var err error
			if sensed, err = t.g.Sense(s); err != nil && !t.g.IsOver() {
				sensed, err = t.g.Sense(game.NoSquare)
			}
			return err
		})
		t.mu.Unlock()
		if !saved {
			return
		}
	}
	var m game.Move
	if !t.srv.botStep(ctx, owner, bot, timeLeft, func(think context.Context, left time.Duration) {
		if phase == recon.PhaseSense {
			bot.SenseResult(sensed)
		}
		m = bot.ChooseMove(think, moveActions, left)
	}) {
		return
	}
	t.mu.Lock()
	if !current() {
		t.mu.Unlock()
		return
	}
	var res recon.MoveResult
	saved := t.botChangeLocked(ctx, current, func() error {
		var err error
		if res, err = t.g.Move(m); err != nil && !t.g.IsOver() {
			t.srv.logf("api game %d: bot chose %s: %v; passes instead", t.id, recon.UCI(m), err)
			res, err = t.g.Move(game.NoMove)
		}
		if err == nil && !t.g.IsOver() {
			err = t.g.EndTurn()
		}
		return err
	})
	t.mu.Unlock()
	if saved {
		bot.MoveResult(res)
	}
}

// botEnded runs as the bot goroutine of job j ends: a game the clock
// ended meanwhile is committed, a closed table's bot is closed, and the
// bot's next turn (after a restart mid-turn, say) starts.
func (t *apiTable) botEnded(j *job) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.botRunning = false
	if t.botJob == j {
		t.botJob = nil
	}
	if t.closed {
		t.closeBotLocked()
		return
	}
	t.checkClockLocked(time.Now()) // a turn withdrawn as the flag fell
	if t.g.IsOver() && t.rec.Status != store.StatusOver {
		t.endedLocked(time.Now())
		return
	}
	t.maybeStartBotLocked()
}

// ensureBuiltinUsers creates the accounts of Knightwatch's own bots that
// do not exist yet. They cannot log in: their password hash is empty.
func (s *Server) ensureBuiltinUsers() error {
	for _, o := range ReconOpponents {
		if o.Account == "" {
			continue
		}
		u, err := s.store.UserByName(o.Account)
		if err == nil {
			if u.Builtin != o.Spec {
				return fmt.Errorf("web: the username %q of a built-in bot belongs to someone else", o.Account)
			}
			continue
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		u = &store.User{Name: o.Account, Affiliation: "Knightwatch", Builtin: o.Spec, PasswordHash: []byte{}, MaxGames: 1 << 20}
		if err := s.store.CreateUser(u); err != nil && !errors.Is(err, store.ErrTaken) {
			return err
		}
	}
	return nil
}

// resumeAPIGames takes up every unfinished API game after a start: their
// clocks run again (the time the server was down is not charged) and the
// built-in bots play on.
func (s *Server) resumeAPIGames() error {
	recs, err := s.store.UnfinishedAPIGames()
	if err != nil {
		return err
	}
	s.api.mu.Lock()
	defer s.api.mu.Unlock()
	for i := range recs {
		if _, err := s.loadAPITableLocked(&recs[i]); err != nil {
			// One broken record must not keep the server down; its calls get 500s.
			s.logf("resume: %v", err)
		}
	}
	return nil
}

// closeAPIGames stops every running API game, committing its clocks.
func (s *Server) closeAPIGames() {
	s.api.mu.Lock()
	tables := make([]*apiTable, 0, len(s.api.tables))
	for _, t := range s.api.tables {
		tables = append(tables, t)
	}
	s.api.mu.Unlock()
	for _, t := range tables {
		t.shutdown()
	}
}
