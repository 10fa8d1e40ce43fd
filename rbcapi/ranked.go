package rbcapi

import (
	"math/rand/v2"
	"time"

	"knightwatch/game"
	"knightwatch/play"
	"knightwatch/store"
)

// Ranked play and the API's housekeeping, one round every
// Config.MatchEvery:
// games that never started are called off, finished ranked games are
// rated (those a crash left unrated), and users who turned ranked on are
// paired. The rounds run in a goroutine of their own until Close.

const (
	// RankedStartWithin: a ranked game both players have not readied by
	// then is called off (rc-connect accepts within seconds when it has a
	// free slot, and the matchmaker only pairs users with one).
	RankedStartWithin = 2 * time.Minute
	// InviteStartWithin: the same for an invitation between users, which
	// may wait while the invitee plays its other games.
	InviteStartWithin = 30 * time.Minute
	// builtinRankedGames bounds the ranked games each built-in bot plays
	// at once.
	builtinRankedGames = 2
)

// runMatchmaker runs the rounds until Close.
func (a *API) runMatchmaker(every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-a.ctx.Done():
			return
		case <-t.C:
			a.MatchRound(time.Now())
		}
	}
}

// MatchRound is one round of housekeeping and pairing at now: what the
// matchmaker does every Config.MatchEvery (tests run rounds themselves).
func (a *API) MatchRound(now time.Time) {
	for _, limit := range []struct {
		within time.Duration
		ranked bool
	}{{RankedStartWithin, true}, {InviteStartWithin, false}} {
		ids, err := a.cfg.Store.API().StaleWaitingGames(now.Add(-limit.within), limit.ranked)
		if err != nil {
			a.logf("matchmaker: %v", err)
			return
		}
		for _, id := range ids {
			if t, err := a.tableFor(id); err == nil {
				t.abort(now)
			}
		}
	}
	if ids, err := a.cfg.Store.API().UnratedGames(); err == nil {
		for _, id := range ids {
			if err := a.cfg.Store.API().RateGame(id); err != nil {
				a.logf("matchmaker: %v", err)
			}
		}
	}
	a.pairRanked(now)
	a.takeUpQuietGames(now)
}

// QuietAfter is how long a game in play may go without a commit before a
// server that does not hold it takes it up: on a site of several servers,
// the server that held it may have stopped, and a game on the server's
// clock must go on (its bot play, its flag fall) whoever else is left.
// One server holds every game it has started or resumed, so there this
// finds nothing.
const QuietAfter = 10 * time.Second

// LeaseFor is how long a server's lease of an API game lasts unless it
// renews it, which it does every matchmaker round while it holds the
// game: three rounds at DefaultMatchEvery. A killed server's games are
// taken up once their leases have run out.
const LeaseFor = 15 * time.Second

// claim reports whether this server may look after API game id at now:
// on one server always; on a site of several, when it gets the game's
// lease (nobody else's runs), until now+LeaseFor. A failed claim is
// logged and refused.
func (a *API) claim(id int64, now time.Time) bool {
	if a.leases == nil {
		return true
	}
	ok, err := a.leases.Claim(apiKey(id), now.Add(LeaseFor), now)
	if err != nil {
		a.logf("matchmaker: %v", err)
	}
	return ok && err == nil
}

// takeUpQuietGames hosts here the games in play that no commit has
// touched for QuietAfter and this server does not hold. On a site of
// several servers it first renews the leases of the games it holds (and
// gives up those of the games it no longer holds), and takes up a quiet
// game only with its lease: exactly one server does, not every one that
// runs the round, and another only once that one's lease has run out.
func (a *API) takeUpQuietGames(now time.Time) {
	held := map[string]bool{}
	if a.leases != nil {
		keys := a.reg.Held(store.APIIDPrefix)
		for _, k := range keys {
			held[k] = true
		}
		if err := a.leases.Keep(keys, now.Add(LeaseFor)); err != nil {
			a.logf("matchmaker: %v", err)
		}
	}
	ids, err := a.cfg.Store.API().QuietAPIGames(now.Add(-QuietAfter))
	if err != nil {
		a.logf("matchmaker: %v", err)
		return
	}
	for _, id := range ids {
		if held[apiKey(id)] {
			a.claim(id, now) // a game held here and leased by nobody: this server's
			continue
		}
		if a.reg.Get(apiKey(id)) != nil || !a.claim(id, now) {
			continue
		}
		if _, err := a.reg.Open(apiKey(id)); err != nil {
			a.logf("matchmaker: taking up game %d: %v", id, err)
		}
	}
}

// pairRanked starts ranked games: each active user with ranked play on and
// a free slot (below its max_games) gets at most one new game a round,
// against another such user when there is one, otherwise against one of
// Knightwatch's own bots. Nobody is paired with itself; two built-in bots
// are never paired.
func (a *API) pairRanked(now time.Time) {
	users, open, err := a.cfg.Store.API().RankedCandidates(now.Add(-ActiveWindow))
	if err != nil {
		a.logf("matchmaker: %v", err)
		return
	}
	var free []store.User
	for _, u := range users {
		if open[u.ID] < u.MaxGames {
			free = append(free, u)
		}
	}
	rand.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	for len(free) >= 2 {
		u, v := free[0], free[1]
		free = free[2:]
		a.startRanked(&u, &v)
	}
	if len(free) == 1 {
		if bot := a.freeBuiltin(); bot != nil {
			a.startRanked(&free[0], bot)
		}
	}
}

// freeBuiltin returns a built-in bot with fewer than builtinRankedGames
// unfinished games, chosen at random, or nil.
func (a *API) freeBuiltin() *store.User {
	order := rand.Perm(len(play.ReconOpponents))
	for _, i := range order {
		u, err := a.cfg.Store.API().UserByName(play.ReconOpponents[i].Account)
		if err != nil {
			continue
		}
		if n, err := a.cfg.Store.API().OpenAPIGames(u.ID); err == nil && n < builtinRankedGames {
			return u
		}
	}
	return nil
}

// startRanked creates a ranked game between u and v, colours at random,
// each rated under its current version, and invites the remote players
// (the server is the sender); a built-in bot is ready at once.
func (a *API) startRanked(u, v *store.User) {
	players := [2]*store.User{u, v}
	if rand.IntN(2) == 0 {
		players[0], players[1] = v, u
	}
	g := a.newGame(players)
	g.Ranked = true
	var invs []*store.Invitation
	for c, u := range players {
		inv := &store.Invitation{ToID: u.ID}
		if u.Builtin != "" {
			inv.Accepted = true
			if game.Color(c) == game.White {
				g.WhiteReady = true
			} else {
				g.BlackReady = true
			}
		}
		invs = append(invs, inv)
	}
	if err := a.cfg.Store.API().CreateAPIGame(g, invs...); err != nil {
		a.logf("matchmaker: %v", err)
	}
}
