package play

import (
	"context"

	"knightwatch/recon"
	"knightwatch/recon/bots"
)

// Thinking on the opponent's turn. A bot playing as a competitor does (an
// API game's built-in seat, ReconBot.clocked) that can ponder
// (bots.Ponderer: knightwatch expands its boards by every move the
// opponent may make) does so once its turn is over, while the remote side
// senses and moves, so that when its turn comes it filters instead of
// expanding:
//
//   - Pondering takes one of the pool's bot cores only if one is free and
//     no clocked step waits for one (enginepool.Pool.TryBotCore); else the
//     bot does not ponder that turn. A clocked step that comes to wait for
//     a core stops it (the pool drops it), so it never makes a step wait
//     longer than it takes to stop, and it stays within the server's
//     budget of cores for bot thinking.
//   - It is cancelled, and waited for, as the bot's turn comes (Play), as
//     the bot is replaced or closed: the bot is never fed while it
//     ponders. Cut short, it leaves the bot as it would be without it.
//   - Its memory is the bot's own bound on its boards (knightwatch's
//     MaxBoards): the expansion the next turn would make anyway.

// botCores is the part of the pool a bot ponders on.
type botCores interface {
	TryBotCore(drop func()) (release func(), ok bool)
}

// startPonder starts player's thinking on its opponent's turn, if the bot
// plays as a competitor, player can ponder and is still the bot's (not
// replaced meanwhile), and a bot core is free.
func (b *ReconBot) startPonder(player recon.Player) {
	if !b.clocked {
		return
	}
	p, ok := player.(bots.Ponderer)
	if !ok {
		return
	}
	cores, ok := b.games.cfg.Pool.(botCores)
	if !ok {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	release, ok := cores.TryBotCore(cancel)
	if !ok {
		cancel()
		return
	}
	done := make(chan struct{})
	b.mu.Lock()
	if b.closed || b.bot != player || b.playing || b.ponderStop != nil {
		b.mu.Unlock()
		cancel()
		release()
		return
	}
	b.ponderStop, b.ponderDone = cancel, done
	b.mu.Unlock()
	go func() {
		defer close(done)
		defer release()
		p.Ponder(ctx)
		if b.games.cfg.Hooks.BotPondered != nil {
			b.games.cfg.Hooks.BotPondered(b.id)
		}
	}()
}

// stopPonder cancels the bot's pondering, if any, and waits for it to end.
func (b *ReconBot) stopPonder() {
	b.mu.Lock()
	stop, done := b.ponderStop, b.ponderDone
	b.ponderStop, b.ponderDone = nil, nil
	b.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}
