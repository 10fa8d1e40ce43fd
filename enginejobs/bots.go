package enginejobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/riverqueue/river"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/recon"
)

// BotStep is one step of a Reconnaissance Chess bot's turn (its sense,
// or its move) asked for as a job: everything a worker needs to rebuild
// the game and the bot. Which calls of the bot make a step is package
// play's (bot_think.go); a worker makes the same ones.
type BotStep struct {
	// Key names the step, the same on every server holding the game: the
	// game and the count of actions taken in it.
	Key string `json:"key"`
	// Owner is whose work the step is; Game names the game.
	Owner string `json:"owner"`
	Game  string `json:"game"`
	// Spec and Seed make the bot (Config.NewBot); Color is its side.
	Spec  string     `json:"spec"`
	Seed  uint64     `json:"seed"`
	Color game.Color `json:"color"`
	// History is the game's record as it stands (recon.History's JSON,
	// the reference's format), up to the step.
	History json.RawMessage `json:"history"`
	// The game's rules (recon.Config without its clock source).
	Clock, Increment     time.Duration
	MoveLimit, TurnLimit int
	// Clocks are each side's time at the start of its current or next
	// turn (recon.Game.Clocks); Left the bot's time as it asks
	// (enginepool.NoClock without a clock).
	Clocks [2]time.Duration `json:"clocks"`
	Left   time.Duration    `json:"left"`
	// Clocked marks the step of a bot spending its clock as a competitor
	// does (the built-in seat of an API game, package play's
	// ReconBot.clocked): the worker runs it as a clocked step
	// (enginepool.Step.Clocked), thinking as long as its clock allows on
	// one of the worker's bot cores, and its job may run that long
	// (stepTimeout). A job without it (asked for by an older server) is a
	// regular step.
	Clocked bool `json:"clocked,omitempty"`
}

// BotAction is a step's answer: the square sensed (game.NoSquare: none)
// or the move requested (game.NoMove: a pass).
type BotAction struct {
	Sense game.Square `json:"sense"`
	Move  game.Move   `json:"move"`
}

// botArgs are a bot step job's arguments.
type botArgs struct {
	Unique string `json:"unique" river:"unique"`
	Try    int    `json:"try"`
	BotStep
}

// Kind is River's name of the job kind.
func (botArgs) Kind() string { return "bot_step" }

// The bots' queues. A regular step holds one regular searcher of the
// worker's pool, as in a server's (enginepool.RunStep): its queue takes
// as many at once as the pool has. A clocked step holds one of the pool's
// bot cores instead, for as long as its clock allows: its queue takes as
// many at once as the worker has bot cores (its searchers, with none,
// where a clocked step runs as a regular one), so that clocked steps
// never hold back the regular ones, and one that finds every core of a
// worker busy stays queued for another worker rather than waiting on this
// one's cores (its wait is the bot's time).
const (
	queueBot        = "engine_bot"
	queueBotClocked = "engine_bot_clocked"
)

// botQueueOf is the queue of step s.
func botQueueOf(s *BotStep) string {
	if s.Clocked {
		return queueBotClocked
	}
	return queueBot
}

// clockedWorkers is how many clocked steps a worker with pool p takes at
// once: its bot cores, or with none its regular searchers.
func clockedWorkers(p *enginepool.Pool) int {
	if n := p.BotCores(); n > 0 {
		return n
	}
	return p.Searchers()
}

// How long a bot's step may run (the job's timeout: River's, which cuts
// the worker's step off, and the asker's, past which with Config.Grace it
// asks for the step again, ask).
const (
	// botRebuild is what a step takes besides its thinking: rebuilding
	// the bot from the record (knightwatch's boards, turn by turn, on a
	// worker that did not play the step before: 0.1 s for 20 turns
	// against attacker), writing its answer, and a deadline's overshoot.
	botRebuild = 7 * time.Second
	// botTimeout is a regular step's: botRebuild and its thinking (at
	// most 3 s, enginepool's cap). It is also the least of a clocked
	// step's.
	botTimeout = botRebuild + 3*time.Second
	// botTimeoutMax bounds a clocked step's: its clock may hold up to a
	// day (serve --rbc-clock), and a step without a clock has none to
	// bound it (Work cuts a step's thinking short of the timeout).
	botTimeoutMax = time.Hour
	// clockedShare is the share of its clock a clocked step's job may
	// think: a quarter. knightwatch plans a whole turn (both steps) within
	// a sixth of its clock (bots' budgetFor), so the cut never meets a
	// step that keeps to its plan.
	clockedShare = 4
)

// stepTimeout is how long step s may run. A regular step: botTimeout. A
// clocked step thinks as long as the bot says from its clock: botRebuild
// beyond a clockedShare of the time on its clock as it asked, at least
// botTimeout, at most botTimeoutMax; Work cuts its thinking off within
// that. Two consequences, which are what is wanted:
//
//   - A step thinking long, as its bot planned, is never asked for again
//     while it thinks (a second worker would think it all over again).
//   - A worker killed in the middle of a clocked step costs the bot at
//     most a quarter of its clock (and Config.Grace), never the game: the
//     step is asked for again then, and its next try is told the time its
//     clock has left (botRequest). Without a clock (never in an API game)
//     the step is asked for again after botTimeoutMax.
func stepTimeout(s *BotStep) time.Duration {
	if !s.Clocked {
		return botTimeout
	}
	if s.Left == enginepool.NoClock || s.Left/clockedShare >= botTimeoutMax-botRebuild {
		return botTimeoutMax
	}
	return max(s.Left/clockedShare+botRebuild, botTimeout)
}

// BotStep asks for step s of a bot's turn and waits for its answer or
// ctx.
func (j *Jobs) BotStep(ctx context.Context, s BotStep) (BotAction, bool) {
	b, ok := j.ask(ctx, botRequest(s, time.Now()))
	if !ok {
		return BotAction{}, false
	}
	var a BotAction
	if err := json.Unmarshal(b, &a); err != nil {
		j.cfg.Logf("enginejobs: answer %s: %v", s.Key, err)
		return BotAction{}, false
	}
	return a, true
}

// botRequest is the ask for step s, asked at asked. A later try (the job
// before it lost) tells the bot the time its clock has left then, not as
// the first asked: the time since is the bot's. Its timeout stays the
// first try's, the longest (stepTimeout), so that the asker never takes
// for lost a try still within its own.
func botRequest(s BotStep, asked time.Time) request {
	return request{
		key: s.Key, owner: s.Owner, queue: botQueueOf(&s), timeout: stepTimeout(&s),
		args: func(try int) river.JobArgs {
			st := s
			if try > 0 && st.Left != enginepool.NoClock {
				st.Left = max(st.Left-time.Since(asked), 0)
			}
			return botArgs{Unique: uniqueOf(s.Key, try), Try: try, BotStep: st}
		},
	}
}

// botWorker works bot steps in this process's engine pool, keeping each
// bot it played with between the steps of its game (botCache).
type botWorker struct {
	river.WorkerDefaults[botArgs]
	j     *Jobs
	cache *botCache
}

// Timeout is the job's: stepTimeout of its step.
func (w *botWorker) Timeout(job *river.Job[botArgs]) time.Duration {
	return stepTimeout(&job.Args.BotStep)
}

// answerMargin is what a step leaves of its job's timeout to write its
// answer: its thinking is cut off that long before the job's end.
const answerMargin = 2 * time.Second

// Work plays the job's step: the game restored from its record, the bot
// the one kept from its previous step when the record goes on from there
// (told what happened since, as a server's bot would have been), else a
// new one fed the whole record. After a move the bot is told its result
// at once, as on a server: the move is applied to the worker's copy of the
// game, which the record will show (the next step checks it did).
func (w *botWorker) Work(ctx context.Context, job *river.Job[botArgs]) error {
	a := &job.Args
	if answered, err := w.j.answered(ctx, a.Key, a.Try, job.Attempt); err != nil {
		return err
	} else if answered {
		return complete(ctx, w.j, job, a.Key, nil) // an earlier try answered
	}
	h, err := recon.UnmarshalHistory(a.History)
	if err != nil {
		return river.JobCancel(fmt.Errorf("job %d: %w", job.ID, err))
	}
	cfg := recon.Config{Clock: a.Clock, Increment: a.Increment, MoveLimit: a.MoveLimit, TurnLimit: a.TurnLimit}
	arb, err := recon.Restore(cfg, h, a.Clocks, nil, a.Color)
	if err != nil {
		return river.JobCancel(fmt.Errorf("job %d: %w", job.ID, err))
	}
	phase := arb.Phase()
	if arb.IsOver() || arb.Turn() != a.Color || phase != recon.PhaseSense && phase != recon.PhaseMove {
		return river.JobCancel(fmt.Errorf("job %d: not the bot's step", job.ID))
	}
	st := w.cache.take(a.Game, a.Color)
	cont := st != nil && st.continues(h, a.Color, phase)
	if cont {
		w.j.continued.Add(1)
	} else {
		w.j.restored.Add(1)
		st.close()
		player, err := w.j.cfg.NewBot(a.Spec, a.Seed)
		if err != nil {
			return river.JobCancel(fmt.Errorf("job %d: %w", job.ID, err))
		}
		st = &botState{player: player}
		if _, err := recon.Restore(cfg, h, a.Clocks, player, a.Color); err != nil {
			st.close()
			return river.JobCancel(fmt.Errorf("job %d: %w", job.ID, err))
		}
	}
	v := arb.ViewOf(a.Color)
	capture, moveActions, senseActions := v.OpponentCapture, v.MoveActions, arb.SenseActions()
	player := st.player
	var act BotAction
	clock := func() time.Duration {
		if a.Left == enginepool.NoClock {
			return a.Left
		}
		return max(a.Left-time.Since(job.CreatedAt), 0) // queued time is the bot's
	}
	// The step ends answerMargin before the job does, so that its answer
	// is written: a clocked step thinks at most about a quarter of its
	// clock (stepTimeout), which its bot's plan keeps well within; a step
	// that rebuilt for long comes nearer.
	stepCtx := ctx
	if end, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		stepCtx, cancel = context.WithDeadline(ctx, end.Add(-answerMargin))
		defer cancel()
	}
	ran := w.j.cfg.Pool.RunStep(stepCtx, enginepool.Step{Owner: a.Owner, Cost: thinkTime(player, clock()), Left: clock(), Clock: clock, Clocked: a.Clocked,
		Run: func(think context.Context, left time.Duration) {
			if phase == recon.PhaseSense {
				player.OpponentMoveResult(capture)
				act.Sense = player.ChooseSense(think, senseActions, moveActions, left)
				return
			}
			if cont {
				c := a.Color
				player.SenseResult(h.SenseResults[c][len(h.SenseResults[c])-1])
			}
			act.Move = player.ChooseMove(think, moveActions, left)
		}})
	if !ran {
		st.close() // told part of a step: of no use to the next
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errors.New("the step did not run")
	}
	st.senses, st.moves, st.phase = len(h.Senses[a.Color]), len(h.RequestedMoves[a.Color]), phase
	if phase == recon.PhaseSense {
		st.senses++
	} else {
		res, err := arb.Move(act.Move)
		if err != nil {
			res, _ = arb.Move(game.NoMove) // the server passes instead, as this copy does
		}
		player.MoveResult(res)
		st.moves++
		st.res = res
	}
	if err := complete(ctx, w.j, job, a.Key, act); err != nil {
		st.close()
		return err
	}
	w.cache.put(a.Game, a.Color, st)
	return nil
}

// thinkTime is what the bot says its next step may take with left on its
// clock (bots.Thinker); one that does not say is taken to think a second.
func thinkTime(p recon.Player, left time.Duration) time.Duration {
	if t, ok := p.(interface {
		ThinkTime(time.Duration) time.Duration
	}); ok {
		return t.ThinkTime(left)
	}
	return enginepool.DefaultCost
}

// botState is a bot kept between the steps of its game: what it was
// told up to its last step, which the next step's record must go on from.
type botState struct {
	player recon.Player
	// senses and moves count the bot's own senses and requested moves
	// the record will hold after its last step (phase); res is the
	// result of its last move, as it was told.
	senses, moves int
	phase         recon.Phase
	res           recon.MoveResult
	used          time.Time
}

// continues reports whether a step in phase, on record h, is the next
// step of the bot after its last: the move after its sense, or the sense
// of its next turn after its move, whose result the record shows as the
// bot was told.
func (s *botState) continues(h *recon.History, c game.Color, phase recon.Phase) bool {
	senses, moves := len(h.Senses[c]), len(h.RequestedMoves[c])
	if senses != s.senses || moves != s.moves {
		return false
	}
	switch {
	case s.phase == recon.PhaseSense && phase == recon.PhaseMove:
		return true
	case s.phase == recon.PhaseMove && phase == recon.PhaseSense:
		n := moves - 1
		return n >= 0 && h.RequestedMoves[c][n] == s.res.Requested && h.TakenMoves[c][n] == s.res.Taken && h.CaptureSquares[c][n] == s.res.Capture
	}
	return false
}

// close closes the bot's player, if any.
func (s *botState) close() {
	if s == nil {
		return
	}
	if c, ok := s.player.(interface{ Close() error }); ok {
		_ = c.Close()
	}
}

// botCache keeps the bots a worker played with, by game and colour: the
// next step of a game taken by the same worker goes on with the same bot,
// its boards as they are, instead of feeding a new one the whole record.
// At most botCacheSize bots are kept, none longer than botCacheIdle
// unused.
type botCache struct {
	mu   sync.Mutex
	bots map[botKey]*botState
}

type botKey struct {
	game  string
	color game.Color
}

const (
	botCacheSize = 256
	botCacheIdle = 15 * time.Minute
)

func newBotCache() *botCache { return &botCache{bots: map[botKey]*botState{}} }

// take removes and returns the bot kept for the game's colour, if any: a
// step holds it alone.
func (c *botCache) take(gameID string, color game.Color) *botState {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := botKey{gameID, color}
	s := c.bots[k]
	delete(c.bots, k)
	return s
}

// put keeps s for the game's colour, closing the bots unused for
// botCacheIdle and, beyond botCacheSize, the least recently used.
func (c *botCache) put(gameID string, color game.Color, s *botState) {
	now := time.Now()
	s.used = now
	c.mu.Lock()
	var gone []*botState
	for k, b := range c.bots {
		if now.Sub(b.used) > botCacheIdle {
			gone = append(gone, b)
			delete(c.bots, k)
		}
	}
	if old := c.bots[botKey{gameID, color}]; old != nil {
		gone = append(gone, old)
	}
	c.bots[botKey{gameID, color}] = s
	for len(c.bots) > botCacheSize {
		var oldest botKey
		var at time.Time
		for k, b := range c.bots {
			if at.IsZero() || b.used.Before(at) {
				oldest, at = k, b.used
			}
		}
		gone = append(gone, c.bots[oldest])
		delete(c.bots, oldest)
	}
	c.mu.Unlock()
	for _, b := range gone {
		b.close()
	}
}

// closeAll closes every bot kept.
func (c *botCache) closeAll() {
	c.mu.Lock()
	bots := c.bots
	c.bots = map[botKey]*botState{}
	c.mu.Unlock()
	for _, b := range bots {
		b.close()
	}
}
