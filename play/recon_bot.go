package play

import (
	"context"
	"sync"
	"time"

	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/recon"
)

// ReconBot is a Reconnaissance Chess bot as a live.Automaton: the
// opponent of a browser game, the built-in seat of an API game. Each of
// its steps thinks in the engine pool as owner's work (bot_think.go).
// The bot's calls are made one at a time from the turn's goroutine, its
// MoveResult included; the host starts its next turn only after Play
// returns.
type ReconBot struct {
	games *Games
	id    string // the game's, for logs and the test hook
	color game.Color
	// mu guards bot, playing and retired: another server's commit read
	// again (Replace) gives the bot a new player while a withdrawn turn
	// may still be thinking with the old one, which is closed only once
	// that turn is over.
	mu      sync.Mutex
	bot     recon.Player
	playing bool
	retired []recon.Player
	// rules holds the host's arbiter, read and changed only in the turn's
	// Read and Step (under the host's lock).
	rules *ReconRules
	owner string
	// spec and seed make the bot: what a worker needs to play its steps
	// (Config.BotJobs).
	spec string
	seed uint64
	// pause makes the bot's move wait the server's reply pause, so that a
	// person sees the turn pass.
	pause bool
	// clocked makes the bot play as a competitor does (an API game): its
	// steps spend its clock on the pool's bot cores, and it thinks on its
	// opponent's turn (ponder.go).
	clocked bool
	// ponderStop and ponderDone, under mu, cancel the bot's thinking on
	// its opponent's turn and tell that it ended (ponder.go); nil when it
	// is not pondering.
	ponderStop context.CancelFunc
	ponderDone chan struct{}
	// closed, under mu, is set by Close: no pondering starts after it.
	closed bool
}

// NewReconBot returns player, the bot spec made with seed (NewPlayer),
// playing color of the game whose arbiter rules holds, as the automaton
// of a game on the server's clock (an API game: no pause before its
// moves); its steps think as owner's work, spending its clock as a
// competitor does (clocked steps, enginepool's botcores.go). id names the
// game in logs, in Hooks.BotAction and in the keys of its steps as jobs.
func (gs *Games) NewReconBot(id, spec string, seed uint64, player recon.Player, color game.Color, rules *ReconRules, owner string) *ReconBot {
	b := gs.newReconBot(id, spec, seed, player, color, rules, owner)
	b.clocked = true
	return b
}

func (gs *Games) newReconBot(id, spec string, seed uint64, player recon.Player, color game.Color, rules *ReconRules, owner string) *ReconBot {
	return &ReconBot{games: gs, id: id, spec: spec, seed: seed, bot: player, color: color, rules: rules, owner: owner}
}

// Player returns the bot's player.
func (b *ReconBot) Player() recon.Player {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.bot
}

// Replace gives the bot player p, fed the game as it now stands (read
// again after another server's commit). The player it replaces is closed
// at once, or when the turn using it is over.
func (b *ReconBot) Replace(p recon.Player) {
	b.mu.Lock()
	old := b.bot
	b.bot = p
	playing := b.playing
	if playing {
		b.retired = append(b.retired, old)
	}
	b.mu.Unlock()
	// The old player's pondering, if any (none starts once it is
	// replaced), ends before it is closed.
	b.stopPonder()
	if !playing {
		CloseBot(old)
	}
}

// Close closes the bot's player (the host calls it after the last turn).
func (b *ReconBot) Close() {
	b.mu.Lock()
	b.closed = true // no pondering starts now; one running is stopped
	b.mu.Unlock()
	b.stopPonder()
	b.mu.Lock()
	defer b.mu.Unlock()
	CloseBot(b.bot)
	for _, p := range b.retired {
		CloseBot(p)
	}
	b.retired = nil
}

// startTurn returns the player a turn plays with; endTurn closes the
// players replaced meanwhile.
func (b *ReconBot) startTurn() recon.Player {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.playing = true
	return b.bot
}

func (b *ReconBot) endTurn() {
	b.mu.Lock()
	retired := b.retired
	b.playing, b.retired = false, nil
	b.mu.Unlock()
	for _, p := range retired {
		CloseBot(p)
	}
}

// Play plays the bot's turn: the opponent's capture and the sense, then
// the sense's result and the move, each a step in the engine pool, each
// applied through t.
func (b *ReconBot) Play(t *live.Turn) {
	if jobs := b.games.cfg.BotJobs; jobs != nil {
		b.playAsJobs(t, jobs)
		return
	}
	// The arbiter stays the same object for the game's life (a game read
	// again is copied into it); the player is the turn's, whatever
	// replaces it meanwhile.
	g := b.rules.Arbiter
	b.stopPonder() // the turn has come
	player := b.startTurn()
	moved := false
	defer func() {
		b.endTurn()
		if moved {
			b.startPonder(player)
		}
	}()
	var (
		phase        recon.Phase
		capture      game.Square
		senseActions []game.Square
		moveActions  []game.Move
	)
	if !t.Read(func(live.Game, live.Moment) {
		v := g.ViewOf(b.color)
		phase, capture, senseActions, moveActions = g.Phase(), v.OpponentCapture, g.SenseActions(), v.MoveActions
	}) {
		return
	}
	clock := func() time.Duration {
		left := time.Duration(0)
		t.Read(func(live.Game, live.Moment) { left = g.SecondsLeft(b.color) })
		return left
	}
	ctx := t.Context()
	var sensed recon.SenseResult
	if phase == recon.PhaseSense {
		var s game.Square
		if !b.games.botStep(ctx, b.owner, player, clock, b.clocked, func(think context.Context, left time.Duration) {
			player.OpponentMoveResult(capture)
			s = player.ChooseSense(think, senseActions, moveActions, left)
		}) {
			return
		}
		b.games.hookBotAction(b.id, recon.PhaseSense)
		if !t.Step(func(time.Time) error {
			var err error
			sensed, err = b.sense(g, s)
			return err
		}) {
			return
		}
	}
	var m game.Move
	if !b.games.botStep(ctx, b.owner, player, clock, b.clocked, func(think context.Context, left time.Duration) {
		if phase == recon.PhaseSense {
			player.SenseResult(sensed)
		}
		m = player.ChooseMove(think, moveActions, left)
	}) {
		return
	}
	b.waitReplyPause(ctx)
	b.games.hookBotAction(b.id, recon.PhaseMove)
	var res recon.MoveResult
	if !t.Step(func(time.Time) error {
		var err error
		res, err = b.move(g, m)
		return err
	}) {
		return
	}
	player.MoveResult(res)
	moved = true
}

// sense applies the bot's sense s to g; one the rules refuse senses
// nothing instead (the game must go on whatever the bot chose).
func (b *ReconBot) sense(g *recon.Game, s game.Square) (recon.SenseResult, error) {
	sensed, err := g.Sense(s)
	if err != nil && !g.IsOver() {
		b.games.logf("game %s: bot sensed %s: %v; senses nothing instead", b.id, recon.SquareName(s), err)
		sensed, err = g.Sense(game.NoSquare)
	}
	return sensed, err
}

// move applies the bot's move m to g and ends its turn; a move the rules
// refuse is a pass instead.
func (b *ReconBot) move(g *recon.Game, m game.Move) (recon.MoveResult, error) {
	res, err := g.Move(m)
	if err != nil && !g.IsOver() {
		b.games.logf("game %s: bot chose %s: %v; passes instead", b.id, recon.UCI(m), err)
		res, err = g.Move(game.NoMove)
	}
	if err == nil && !g.IsOver() {
		err = g.EndTurn()
	}
	return res, err
}

// waitReplyPause waits the server's reply pause before a move of a bot
// whose person should see the turn pass (or until ctx ends).
func (b *ReconBot) waitReplyPause(ctx context.Context) {
	if pause := b.games.cfg.ReplyPause; b.pause && pause > 0 {
		timer := time.NewTimer(pause)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
		}
	}
}

// hookBotAction runs the BotAction hook of the tests.
func (gs *Games) hookBotAction(id string, phase recon.Phase) {
	if gs.cfg.Hooks.BotAction != nil {
		gs.cfg.Hooks.BotAction(id, phase)
	}
}

// NewPlayer makes the bot spec, with seed, as Config.NewBot makes them;
// nil when the bots play as jobs elsewhere (Config.BotJobs), where no
// player of theirs is fed here. A nil player is fed nothing
// (RestoreArbiter) and closes as nothing.
func (gs *Games) NewPlayer(spec string, seed uint64) (recon.Player, error) {
	if gs.cfg.BotJobs != nil {
		return nil, nil
	}
	return gs.cfg.NewBot(spec, seed)
}
