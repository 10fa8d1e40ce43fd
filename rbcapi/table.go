package rbcapi

import (
	"errors"
	"net/http"
	"time"

	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/play"
	"knightwatch/recon"
	"knightwatch/store"
)

// table is one API game as the API's handlers act on it: its host in
// the registry (a running game's is kept there, with its clock and its
// built-in bot), or, for a finished game, one built from the record for the
// call. Every change goes through the host: under its lock, committed
// before the caller hears of it; a refused call changes nothing.
type table struct {
	a  *API
	id int64
	// ids and names are the players' by colour; they never change.
	ids   [2]int64
	names [2]string
}

// tableFor returns the table of game id; store.ErrNotFound when there is
// no such game.
func (a *API) tableFor(id int64) (*table, error) {
	t := &table{a: a, id: id}
	var e *Error
	if err := t.read(func(g *apiGame, _ live.Moment) { t.ids, t.names = g.ids, g.names }); err != nil && errors.As(err, &e) {
		return nil, store.ErrNotFound
	} else if err != nil {
		return nil, err
	}
	return t, nil
}

// host opens the game's host (the registry keeps a running game's).
func (t *table) host() (*live.Host, error) {
	h, err := t.a.reg.Open(apiKey(t.id))
	if errors.Is(err, live.ErrStopped) {
		return nil, errorf(http.StatusServiceUnavailable, "the server is stopping; try again in a moment")
	}
	return h, err
}

// read runs f with the game under its host's lock (the mover's flag
// checked first).
func (t *table) read(f func(g *apiGame, m live.Moment)) error {
	for {
		h, err := t.host()
		if err != nil {
			return err
		}
		// Of the game as committed now: the client may have acted through
		// another server a moment ago.
		if h.ReadLatest(func(g live.Game, m live.Moment) { f(g.(*apiGame), m) }) {
			return nil
		}
		// The host closed as the game ended: its record has the end.
	}
}

// conflictRetries is how often act makes a change again on the game as
// another server left it: the call was the client's to make, and a
// program is not expected to know that a second server answered it.
const conflictRetries = 3

// act applies f, a player's change, through the game's host. A change
// refused because another server had just moved the game on (the host has
// read it again) is made again on the game as it stands, where the rules
// decide it.
func (t *table) act(f func(g *apiGame, now time.Time) error) *Error {
	conflicts := 0
	for {
		h, err := t.host()
		if err != nil {
			return loadErr(t.a, t.id, err)
		}
		var g *apiGame
		h.Read(func(lg live.Game, _ live.Moment) { g = lg.(*apiGame) })
		if g == nil {
			continue // closed as the game ended
		}
		err = h.Act(func(now time.Time) error { return f(g, now) })
		var e *Error
		switch {
		case err == nil:
			return nil
		case errors.Is(err, live.ErrClosed):
			continue
		case errors.Is(err, live.ErrUnsaved):
			return errorf(http.StatusInternalServerError, "could not save the game; try again")
		case errors.Is(err, live.ErrTimeUp), errors.Is(err, live.ErrEndUnsaved):
			return errorf(http.StatusBadRequest, "the game is over")
		case errors.Is(err, live.ErrConflict):
			if conflicts++; conflicts <= conflictRetries {
				continue
			}
			return errorf(http.StatusConflict, "%s", play.ConflictWords)
		case errors.As(err, &e):
			return e
		}
		return arbiterErr(err)
	}
}

// loadErr words a failure to open game id.
func loadErr(a *API, id int64, err error) *Error {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, store.ErrNotFound):
		return errorf(http.StatusNotFound, "game does not exist")
	}
	a.logf("game %d: %v", id, err)
	return errorf(http.StatusInternalServerError, "could not load the game; try again")
}

// arbiterErr words an arbiter's refusal.
func arbiterErr(err error) *Error {
	switch {
	case errors.Is(err, recon.ErrGameOver):
		return errorf(http.StatusBadRequest, "the game is over")
	case errors.Is(err, recon.ErrNotStarted):
		return errorf(http.StatusBadRequest, "the game has not started: both players must call ready")
	}
	return errorf(http.StatusBadRequest, "%v", err)
}

// colorOf returns the colour user plays in the game.
func (t *table) colorOf(userID int64) (game.Color, bool) {
	switch userID {
	case t.ids[game.White]:
		return game.White, true
	case t.ids[game.Black]:
		return game.Black, true
	}
	return 0, false
}

// abort calls off a game that has not started: nobody wins, the pending
// invitations to it go (apiGame.ended).
func (t *table) abort(now time.Time) {
	if e := t.act(func(g *apiGame, _ time.Time) error {
		if g.rec.Status != store.StatusWaiting {
			return live.ErrNothing
		}
		g.rec.Status = store.StatusAborted
		at := now
		g.rec.FinishedAt = &at
		return nil
	}); e != nil {
		t.a.logf("game %d: abort: %s", t.id, e.Message)
	}
}

// ready marks c ready; when both are, the game and White's clock start,
// and the built-in bot, if any, learns its colour. A called-off game stays
// called off: a player who accepted just before the call-off must not
// start it when its opponent has long left.
func (t *table) ready(c game.Color, now time.Time) *Error {
	return t.act(func(g *apiGame, _ time.Time) error {
		if g.aborted() {
			return errorf(http.StatusBadRequest, calledOffMsg)
		}
		ready := &g.rec.WhiteReady
		if c == game.Black {
			ready = &g.rec.BlackReady
		}
		if *ready {
			return errorf(http.StatusBadRequest, "already marked as ready")
		}
		*ready = true
		if !g.rec.WhiteReady || !g.rec.BlackReady {
			return nil
		}
		// Both ready: the game starts, the bot (if any) learns its colour.
		var player recon.Player
		if g.bot != nil {
			player = g.bot.Player()
		}
		arb, err := g.a.cfg.Games.RestoreArbiter(apiConfig(&g.rec), &recon.History{Names: g.names}, false, g.rec.ClockInitialMS, g.rec.ClockInitialMS, nil, player, g.botColor)
		if err != nil {
			g.a.logf("game %d: start: %v", t.id, err)
			return errorf(http.StatusInternalServerError, "could not start the game")
		}
		*g.Arbiter = *arb // the same arbiter object, which the bot holds
		g.rec.Status = store.StatusPlaying
		// The server that starts the game looks after it when it goes
		// quiet, while it runs (a lease: ranked.go).
		g.a.claim(t.id, time.Now())
		return nil
	})
}

// turn refuses an action of c when it is not c's turn to act.
func (g *apiGame) turn(c game.Color) *Error {
	switch {
	case g.rec.Status == store.StatusOver || g.Arbiter.IsOver():
		return errorf(http.StatusBadRequest, "the game is over")
	case g.aborted():
		return errorf(http.StatusBadRequest, calledOffMsg)
	case !g.started():
		return errorf(http.StatusBadRequest, "the game has not started: both players must call ready")
	case g.Arbiter.Turn() != c:
		return errorf(http.StatusBadRequest, "it is not your turn")
	}
	return nil
}

// sense senses s for c.
func (t *table) sense(c game.Color, s game.Square, now time.Time) (recon.SenseResult, *Error) {
	var r recon.SenseResult
	e := t.act(func(g *apiGame, _ time.Time) error {
		var err error
		r, err = g.sense(c, s)
		return err
	})
	return r, e
}

// move plays c's request (game.NoMove passes); with endTurn, the move
// and the end of the turn are one change, as a person's move on the page
// is: nobody is ever sent the game between the two.
func (t *table) move(c game.Color, m game.Move, endTurn bool, now time.Time) (recon.MoveResult, *Error) {
	var r recon.MoveResult
	e := t.act(func(g *apiGame, _ time.Time) error {
		var err error
		r, err = g.move(c, m, endTurn)
		return err
	})
	return r, e
}

// endTurn ends c's turn.
func (t *table) endTurn(c game.Color, now time.Time) *Error {
	return t.act(func(g *apiGame, _ time.Time) error { return g.endTurn(c) })
}

// resign resigns for c, on c's turn only (as the API says).
func (t *table) resign(c game.Color, now time.Time) *Error {
	return t.act(func(g *apiGame, _ time.Time) error { return g.resign(c) })
}

// errorResign ends the game on time for c at once, on either turn; a game
// already over (or not started) is left as it is.
func (t *table) errorResign(c game.Color, now time.Time) *Error {
	e := t.act(func(g *apiGame, _ time.Time) error {
		if !g.started() || g.Arbiter.IsOver() {
			return live.ErrNothing
		}
		return g.Arbiter.Forfeit(c)
	})
	if e != nil && e.Message == "the game is over" {
		return nil // the flag fell first: over, as asked
	}
	return e
}

// The actions of the API, on the game under its host's lock; each refusal
// changes nothing.

// sense senses s for c.
func (g *apiGame) sense(c game.Color, s game.Square) (recon.SenseResult, error) {
	if e := g.turn(c); e != nil {
		return nil, e
	}
	if g.Arbiter.Phase() != recon.PhaseSense {
		return nil, errorf(http.StatusBadRequest, "you already sensed this turn")
	}
	return g.Arbiter.Sense(s)
}

// move plays c's request, ending the turn with it when endTurn.
func (g *apiGame) move(c game.Color, m game.Move, endTurn bool) (recon.MoveResult, error) {
	if e := g.turn(c); e != nil {
		return recon.MoveResult{}, e
	}
	switch g.Arbiter.Phase() {
	case recon.PhaseSense:
		return recon.MoveResult{}, errorf(http.StatusBadRequest, "you have not sensed yet this turn")
	case recon.PhaseEndTurn:
		return recon.MoveResult{}, errorf(http.StatusBadRequest, "you already moved this turn")
	}
	r, err := g.Arbiter.Move(m)
	if err != nil || !endTurn || g.Arbiter.IsOver() {
		return r, err
	}
	return r, g.Arbiter.EndTurn()
}

// endTurn ends c's turn. After a move of c's that ended the game (a king
// captured, a draw limit reached) it succeeds and does nothing, as the
// reference's client calls it then too.
func (g *apiGame) endTurn(c game.Color) error {
	if g.Arbiter.IsOver() && g.started() && g.Arbiter.Turn() == c {
		switch g.Arbiter.Outcome().Reason {
		case recon.KingCapture, recon.TurnLimit, recon.MoveLimit:
			return live.ErrNothing
		}
	}
	if e := g.turn(c); e != nil {
		return e
	}
	if g.Arbiter.Phase() != recon.PhaseEndTurn {
		return errorf(http.StatusBadRequest, "you have not sensed and moved yet this turn")
	}
	return g.Arbiter.EndTurn()
}

// resign resigns for c, on c's turn.
func (g *apiGame) resign(c game.Color) error {
	if e := g.turn(c); e != nil {
		return e
	}
	return g.Arbiter.Resign(c)
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
// (recon.Game.ViewOf): nothing of the opponent's turn in progress. A game
// whose end on time waits to be saved is over.
func (t *table) view(c game.Color, now time.Time) apiView {
	var v apiView
	err := t.read(func(g *apiGame, m live.Moment) {
		known := g.Arbiter.ViewOf(c)
		v = apiView{
			started: g.started(), over: g.Arbiter.IsOver() || g.aborted() || m.SavingEnd, outcome: g.Arbiter.Outcome(),
			secondsLeft:     g.Arbiter.SecondsLeft(c),
			senseActions:    g.Arbiter.SenseActions(),
			moveActions:     known.MoveActions,
			opponentCapture: known.OpponentCapture,
		}
		if m.SavingEnd {
			// The mover's flag fell: the outcome the record will have.
			v.outcome, v.secondsLeft = recon.Win(g.Arbiter.Turn().Other(), recon.Timeout), min(v.secondsLeft, 0)
			if c != g.Arbiter.Turn() {
				v.secondsLeft = g.Arbiter.SecondsLeft(c)
			}
		}
		v.myTurn = v.started && !v.over && g.Arbiter.Turn() == c
		if v.over {
			v.history = recon.MarshalHistory(g.Arbiter.History())
		}
	})
	if err != nil {
		t.a.logf("game %d: %v", t.id, err)
		v.over = true // the game cannot be read: nothing more to do in it
	}
	return v
}
