package enginejobs

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/pgtest"
	"knightwatch/recon"
)

// stepThought is what a thinkerBot saw as it chose: the time on its clock
// and how long its thinking had before its context ended (none: no
// deadline).
type stepThought struct {
	left, thinking time.Duration
	deadline       bool
}

// thinkerBot says each of its steps thinks thinkTime (bots.Thinker) and
// reports what it saw as it chooses on thought, without thinking; with
// release set it then waits for release (its context ignored: a step
// overrunning), to keep its job running.
type thinkerBot struct {
	thinkTime time.Duration
	thought   chan<- stepThought
	release   <-chan struct{}
}

func (b *thinkerBot) ThinkTime(time.Duration) time.Duration { return b.thinkTime }

func (b *thinkerBot) Start(game.Color, recon.Board, string) {}
func (b *thinkerBot) OpponentMoveResult(game.Square)        {}
func (b *thinkerBot) SenseResult(recon.SenseResult)         {}
func (b *thinkerBot) MoveResult(recon.MoveResult)           {}
func (b *thinkerBot) End(recon.Outcome, *recon.History)     {}

func (b *thinkerBot) ChooseSense(ctx context.Context, _ []game.Square, _ []game.Move, left time.Duration) game.Square {
	b.choose(ctx, left)
	return game.NoSquare
}

func (b *thinkerBot) ChooseMove(ctx context.Context, _ []game.Move, left time.Duration) game.Move {
	b.choose(ctx, left)
	return game.NoMove
}

func (b *thinkerBot) choose(ctx context.Context, left time.Duration) {
	th := stepThought{left: left}
	if end, ok := ctx.Deadline(); ok {
		th.thinking, th.deadline = time.Until(end), true
	}
	b.thought <- th
	if b.release != nil {
		<-b.release
	}
}

// newThinkerJobs starts a worker on dsn whose pool has one searcher and
// botCores bot cores (enginepool.Config.BotCores: negative none), playing
// every bot step with a thinkerBot.
func newThinkerJobs(t *testing.T, dsn string, botCores int, bot thinkerBot) *Jobs {
	t.Helper()
	var searches atomic.Int64
	pool, err := enginepool.New(enginepool.Config{Searchers: 1, BotCores: botCores,
		NewSearcher: func() enginepool.Searcher { return &stubSearcher{searches: &searches} }})
	if err != nil {
		t.Fatal(err)
	}
	newBot := func(string, uint64) (recon.Player, error) { b := bot; return &b, nil }
	j, err := Start(context.Background(), Config{DSN: dsn, Pool: pool, Work: true, WorkOnly: true, NewBot: newBot,
		Logf: t.Logf, Poll: 50 * time.Millisecond, Grace: 200 * time.Millisecond})
	if err != nil {
		pool.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close(); pool.Close() })
	return j
}

// firstStep is the first step of a new game (White's sense) with left on
// White's clock, as a job of key.
func firstStep(key string, left time.Duration, clocked bool) BotStep {
	cfg := recon.Config{Clock: left, Increment: time.Second, TurnLimit: 50, MoveLimit: 100}
	g := recon.NewGame(cfg, "bot", "remote")
	g.Start()
	return BotStep{
		Key: key, Owner: "owner", Game: key, Spec: "thinker", Seed: 1, Color: game.White,
		History: recon.MarshalHistory(g.History()), Clock: cfg.Clock, Increment: cfg.Increment,
		TurnLimit: cfg.TurnLimit, MoveLimit: cfg.MoveLimit, Clocks: g.Clocks(), Left: g.SecondsLeft(game.White), Clocked: clocked,
	}
}

// stepMax is enginepool's cap on a regular step's thinking.
const stepMax = botTimeout - botRebuild

// A clocked step asked for as a job (an API game's bot on a site) reaches
// the worker's pool as a clocked step: its thinking is bounded by the
// bot's clock, well beyond a regular step's 3 s and the regular job's
// timeout, on a worker with bot cores. A regular step, and a clocked one
// on a worker without bot cores, think at most 3 s as before.
func TestClockedBotStepThroughJobs(t *testing.T) {
	const left = time.Minute
	for _, tc := range []struct {
		name     string
		clocked  bool
		botCores int // the worker's (negative: none)
		long     bool
	}{
		{"clocked on a bot core", true, 1, true},
		{"regular", false, 1, false},
		{"clocked without bot cores", true, -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dsn := pgtest.DB(t)
			thought := make(chan stepThought, 1)
			newThinkerJobs(t, dsn, tc.botCores, thinkerBot{thinkTime: 5 * time.Second, thought: thought})
			var searches atomic.Int64
			asker := newJobs(t, dsn, false, 1, stubSearcher{searches: &searches})
			s := firstStep("g bot 0", left, tc.clocked)
			act, ok := asker.BotStep(waitCtx(t), s)
			if !ok || act.Sense != game.NoSquare {
				t.Fatalf("answer %+v, %v; want the bot's no sense", act, ok)
			}
			th := <-thought
			if th.left > left || th.left < left-30*time.Second {
				t.Errorf("the bot was told %v on its clock; want about %v", th.left, left)
			}
			if !th.deadline || th.thinking > th.left {
				t.Fatalf("thinking for %v (deadline %v): want at most the clock's %v", th.thinking, th.deadline, th.left)
			}
			if long := th.thinking > botTimeout; long != tc.long || !long && th.thinking > stepMax {
				t.Fatalf("thinking for %v with %v on the clock; want beyond the regular job's %v: %v (else at most %v)", th.thinking, th.left, botTimeout, tc.long, stepMax)
			}
		})
	}
}

// A clocked step's job may run a quarter of the bot's clock as it asked,
// and the rebuild besides; a regular step's as before, whatever its clock.
// The asker and the worker agree on it (the worker's River timeout and
// the asker's wait before it asks again).
func TestBotStepTimeout(t *testing.T) {
	for _, tc := range []struct {
		name    string
		left    time.Duration
		clocked bool
		want    time.Duration
		queue   string
	}{
		{"regular", 15 * time.Minute, false, botTimeout, queueBot},
		{"regular without a clock", enginepool.NoClock, false, botTimeout, queueBot},
		{"clocked, little left", time.Second, true, botTimeout, queueBotClocked},
		{"clocked, a minute", time.Minute, true, 15*time.Second + botRebuild, queueBotClocked},
		{"clocked, the competitions' 900 s", 900 * time.Second, true, 225*time.Second + botRebuild, queueBotClocked},
		{"clocked, four hours", 4 * time.Hour, true, botTimeoutMax, queueBotClocked},
		{"clocked, a day", 24 * time.Hour, true, botTimeoutMax, queueBotClocked},
		{"clocked without a clock", enginepool.NoClock, true, botTimeoutMax, queueBotClocked},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := BotStep{Key: "k", Left: tc.left, Clocked: tc.clocked}
			r := botRequest(s, time.Now())
			args, ok := r.args(0).(botArgs)
			if !ok {
				t.Fatalf("args of %T", r.args(0))
			}
			worker := (&botWorker{}).Timeout(&river.Job[botArgs]{Args: args})
			if r.timeout != tc.want || worker != tc.want || r.queue != tc.queue {
				t.Fatalf("asker's timeout %v, worker's %v, queue %s; want %v and %s", r.timeout, worker, r.queue, tc.want, tc.queue)
			}
		})
	}
}

// A step asked for again (its job lost) tells the bot the time its clock
// has left then; the first try what it had as it asked.
func TestBotStepLaterTryLeft(t *testing.T) {
	const gone = 10 * time.Second
	asked := time.Now().Add(-gone)
	for _, tc := range []struct {
		name      string
		left      time.Duration
		try       int
		atMost    time.Duration
		atLeast   time.Duration
		unchanged bool
	}{
		{"first try", time.Minute, 0, time.Minute, time.Minute, true},
		{"second try", time.Minute, 1, time.Minute - gone, 0, false},
		{"second try, the clock out", 5 * time.Second, 1, 0, 0, false},
		{"second try without a clock", enginepool.NoClock, 1, enginepool.NoClock, enginepool.NoClock, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := botRequest(BotStep{Key: "k", Left: tc.left, Clocked: true}, asked).args(tc.try).(botArgs)
			if got.Left > tc.atMost || got.Left < tc.atLeast || got.Try != tc.try || got.Unique != uniqueOf("k", tc.try) {
				t.Fatalf("try %d (unique %q) told %v; want from %v to %v", got.Try, got.Unique, got.Left, tc.atLeast, tc.atMost)
			}
		})
	}
}

// A bot step's job crosses the database as JSON: clocked or not, the flag
// stays as asked, and a job asked for without it (an older server's) is a
// regular step.
func TestBotStepJSONClocked(t *testing.T) {
	for _, tc := range []struct {
		name string
		json func(t *testing.T) []byte
		want bool
	}{
		{"clocked", marshalStep(BotStep{Key: "k", Left: time.Minute, Clocked: true}), true},
		{"regular", marshalStep(BotStep{Key: "k", Left: time.Minute}), false},
		{"an older server's", func(*testing.T) []byte {
			return []byte(`{"unique":"k#0","try":0,"key":"k","owner":"o","game":"g","spec":"attacker","seed":1,"color":0,"history":null,"clocks":[0,0],"left":60000000000}`)
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a botArgs
			if err := json.Unmarshal(tc.json(t), &a); err != nil {
				t.Fatal(err)
			}
			if a.Clocked != tc.want || a.Key != "k" || a.Left != time.Minute {
				t.Fatalf("read back %+v; want clocked %v", a.BotStep, tc.want)
			}
			if got := stepTimeout(&a.BotStep); (got > botTimeout) != tc.want {
				t.Fatalf("timeout %v read back; clocked %v", got, tc.want)
			}
		})
	}
}

func marshalStep(s BotStep) func(t *testing.T) []byte {
	return func(t *testing.T) []byte {
		b, err := json.Marshal(botRequest(s, time.Now()).args(0))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
}

// A clocked step that thinks longer than a regular step's timeout and
// Grace is not taken for lost (asked for again, a second worker thinking
// it over) while within a quarter of its clock; past its own timeout it
// is, as a killed worker's, long before the clock runs out. A regular
// step running as long is lost.
func TestLongClockedStepNotLost(t *testing.T) {
	for _, tc := range []struct {
		name    string
		clocked bool
		running []time.Duration // how long the job has run, in turn
		lost    []bool
	}{
		{"clocked", true, []time.Duration{20 * time.Second, 50 * time.Second}, []bool{false, true}},
		{"regular", false, []time.Duration{20 * time.Second}, []bool{true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dsn := pgtest.DB(t)
			thought := make(chan stepThought, 1)
			release := make(chan struct{})
			newThinkerJobs(t, dsn, 1, thinkerBot{thinkTime: 5 * time.Second, thought: thought, release: release})
			var searches atomic.Int64
			asker := newJobs(t, dsn, false, 1, stubSearcher{searches: &searches})
			// 120 s on the clock: its job's timeout is 37 s. Every job here
			// runs less than River's rescuer waits (a minute), which
			// would make it retryable under the test.
			s := firstStep("long bot 0", 120*time.Second, tc.clocked)
			answered := make(chan bool, 1)
			go func() {
				_, ok := asker.BotStep(waitCtx(t), s)
				answered <- ok
			}()
			<-thought // the step thinks, its job running
			ctx := waitCtx(t)
			var id int64
			if err := asker.db.QueryRow(ctx, "SELECT id FROM river_job WHERE args->>'unique' = $1", uniqueOf(s.Key, 0)).Scan(&id); err != nil {
				t.Fatal(err)
			}
			for i, d := range tc.running {
				if _, err := asker.db.Exec(ctx, "UPDATE river_job SET attempted_at = now() - $2::interval WHERE id = $1", id, d.String()); err != nil {
					t.Fatal(err)
				}
				_, lost, err := asker.look(ctx, s.Key, id, botRequest(s, time.Now()).timeout)
				if err != nil {
					t.Fatal(err)
				}
				if lost != tc.lost[i] {
					t.Errorf("running for %v: lost %v; want %v", d, lost, tc.lost[i])
				}
			}
			close(release)
			if !<-answered {
				t.Fatal("no answer")
			}
		})
	}
}
