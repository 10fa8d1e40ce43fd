package web

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/play"
	"knightwatch/recon"
	"knightwatch/store"
)

// apiTable is one API game as the API's handlers act on it: its host in
// the registry (a running game's is kept there, with its clock and its
// built-in bot), or, for a finished game, one built from the record for the
// call. Every change goes through the host: under its lock, committed
// before the caller hears of it; a refused call changes nothing.
type apiTable struct {
	srv *Server
	id  int64
	// ids and names are the players' by colour; they never change.
	ids   [2]int64
	names [2]string
}

// apiError is a refused API call: its HTTP status and what went wrong,
// and, for the page's socket, its protocol code when it has a better one
// than browserErr finds.
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

// apiTableFor returns the table of game id; ErrNotFound when there is no
// such game.
func (s *Server) apiTableFor(id int64) (*apiTable, error) {
	t := &apiTable{srv: s, id: id}
	var e *apiError
	if err := t.read(func(g *apiGame, _ live.Moment) { t.ids, t.names = g.ids, g.names }); err != nil && errors.As(err, &e) {
		return nil, store.ErrNotFound
	} else if err != nil {
		return nil, err
	}
	return t, nil
}

// host opens the game's host (the registry keeps a running game's).
func (t *apiTable) host() (*live.Host, error) {
	h, err := t.srv.reg.Open(apiKey(t.id))
	if errors.Is(err, live.ErrStopped) {
		return nil, apiErr(http.StatusServiceUnavailable, "the server is stopping; try again in a moment")
	}
	return h, err
}

// read runs f with the game under its host's lock (the mover's flag
// checked first).
func (t *apiTable) read(f func(g *apiGame, m live.Moment)) error {
	for {
		h, err := t.host()
		if err != nil {
			return err
		}
		if h.Read(func(g live.Game, m live.Moment) { f(g.(*apiGame), m) }) {
			return nil
		}
		// The host closed as the game ended: its record has the end.
	}
}

// act applies f, a player's change, through the game's host.
func (t *apiTable) act(f func(g *apiGame, now time.Time) error) *apiError {
	for {
		h, err := t.host()
		if err != nil {
			return apiLoadErr(t.srv, t.id, err)
		}
		var g *apiGame
		h.Read(func(lg live.Game, _ live.Moment) { g = lg.(*apiGame) })
		if g == nil {
			continue // closed as the game ended
		}
		err = h.Act(func(now time.Time) error { return f(g, now) })
		var e *apiError
		switch {
		case err == nil:
			return nil
		case errors.Is(err, live.ErrClosed):
			continue
		case errors.Is(err, live.ErrUnsaved):
			return apiErr(http.StatusInternalServerError, "could not save the game; try again")
		case errors.Is(err, live.ErrTimeUp), errors.Is(err, live.ErrEndUnsaved):
			return apiErr(http.StatusBadRequest, "the game is over")
		case errors.As(err, &e):
			return e
		}
		return arbiterAPIErr(err)
	}
}

// apiLoadErr words a failure to open game id.
func apiLoadErr(s *Server, id int64, err error) *apiError {
	var e *apiError
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, store.ErrNotFound):
		return apiErr(http.StatusNotFound, "game does not exist")
	}
	s.logf("api game %d: %v", id, err)
	return apiErr(http.StatusInternalServerError, "could not load the game; try again")
}

func arbiterAPIErr(err error) *apiError {
	switch {
	case errors.Is(err, recon.ErrGameOver):
		return apiErr(http.StatusBadRequest, "the game is over")
	case errors.Is(err, recon.ErrNotStarted):
		return apiErr(http.StatusBadRequest, "the game has not started: both players must call ready")
	}
	return apiErr(http.StatusBadRequest, "%v", err)
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

// abort calls off a game that has not started: nobody wins, the pending
// invitations to it go (apiGame.ended).
func (t *apiTable) abort(now time.Time) {
	if e := t.act(func(g *apiGame, _ time.Time) error {
		if g.rec.Status != store.StatusWaiting {
			return live.ErrNothing
		}
		g.rec.Status = store.StatusAborted
		at := now
		g.rec.FinishedAt = &at
		return nil
	}); e != nil {
		t.srv.logf("api game %d: abort: %s", t.id, e.msg)
	}
}

// ready marks c ready; when both are, the game and White's clock start,
// and the built-in bot, if any, learns its colour. A called-off game stays
// called off: a player who accepted just before the call-off must not
// start it when its opponent has long left.
func (t *apiTable) ready(c game.Color, now time.Time) *apiError {
	return t.act(func(g *apiGame, _ time.Time) error {
		if g.aborted() {
			return apiErr(http.StatusBadRequest, calledOffMsg)
		}
		ready := &g.rec.WhiteReady
		if c == game.Black {
			ready = &g.rec.BlackReady
		}
		if *ready {
			return apiErr(http.StatusBadRequest, "already marked as ready")
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
		arb, err := g.srv.games.RestoreArbiter(apiConfig(&g.rec), &recon.History{Names: g.names}, g.rec.ClockInitialMS, g.rec.ClockInitialMS, nil, player, g.botColor)
		if err != nil {
			g.srv.logf("api game %d: start: %v", t.id, err)
			return apiErr(http.StatusInternalServerError, "could not start the game")
		}
		*g.Arbiter = *arb // the same arbiter object, which the bot holds
		g.rec.Status = store.StatusPlaying
		return nil
	})
}

// turn refuses an action of c when it is not c's turn to act.
func (g *apiGame) turn(c game.Color) *apiError {
	switch {
	case g.rec.Status == store.StatusOver || g.Arbiter.IsOver():
		return apiErr(http.StatusBadRequest, "the game is over")
	case g.aborted():
		return apiErr(http.StatusBadRequest, calledOffMsg)
	case !g.started():
		return apiErr(http.StatusBadRequest, "the game has not started: both players must call ready")
	case g.Arbiter.Turn() != c:
		return apiErr(http.StatusBadRequest, "it is not your turn")
	}
	return nil
}

// sense senses s for c.
func (t *apiTable) sense(c game.Color, s game.Square, now time.Time) (recon.SenseResult, *apiError) {
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
func (t *apiTable) move(c game.Color, m game.Move, endTurn bool, now time.Time) (recon.MoveResult, *apiError) {
	var r recon.MoveResult
	e := t.act(func(g *apiGame, _ time.Time) error {
		var err error
		r, err = g.move(c, m, endTurn)
		return err
	})
	return r, e
}

// endTurn ends c's turn.
func (t *apiTable) endTurn(c game.Color, now time.Time) *apiError {
	return t.act(func(g *apiGame, _ time.Time) error { return g.endTurn(c) })
}

// resign resigns for c, on c's turn only (as the API says).
func (t *apiTable) resign(c game.Color, now time.Time) *apiError {
	return t.act(func(g *apiGame, _ time.Time) error { return g.resign(c) })
}

// errorResign ends the game on time for c at once, on either turn; a game
// already over (or not started) is left as it is.
func (t *apiTable) errorResign(c game.Color, now time.Time) *apiError {
	e := t.act(func(g *apiGame, _ time.Time) error {
		if !g.started() || g.Arbiter.IsOver() {
			return live.ErrNothing
		}
		return g.Arbiter.Forfeit(c)
	})
	if e != nil && e.msg == "the game is over" {
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
		return nil, apiErr(http.StatusBadRequest, "you already sensed this turn")
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
		return recon.MoveResult{}, apiErr(http.StatusBadRequest, "you have not sensed yet this turn")
	case recon.PhaseEndTurn:
		return recon.MoveResult{}, apiErr(http.StatusBadRequest, "you already moved this turn")
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
		return apiErr(http.StatusBadRequest, "you have not sensed and moved yet this turn")
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
func (t *apiTable) view(c game.Color, now time.Time) apiView {
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
		t.srv.logf("api game %d: %v", t.id, err)
		v.over = true // the game cannot be read: nothing more to do in it
	}
	return v
}

// ensureBuiltinUsers creates the accounts of Knightwatch's own bots that
// do not exist yet. They cannot log in: their password hash is empty.
func (s *Server) ensureBuiltinUsers() error {
	for _, o := range play.ReconOpponents {
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
// clocks run again (the mover charged its thinking before a crash, not the
// time the server was down) and the built-in bots play on.
func (s *Server) resumeAPIGames() error {
	recs, err := s.store.UnfinishedAPIGames()
	if err != nil {
		return err
	}
	for i := range recs {
		if _, err := s.reg.Open(apiKey(recs[i].ID)); err != nil {
			// One broken record must not keep the server down; its calls get 500s.
			s.logf("resume: %v", err)
		}
	}
	return nil
}
