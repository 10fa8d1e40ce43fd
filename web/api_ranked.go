package web

import (
	"math/rand/v2"
	"time"

	"knightwatch/game"
	"knightwatch/play"
	"knightwatch/store"
)

// Ranked play and the API's housekeeping, one round every matchEvery:
// games that never started are called off, finished ranked games are
// rated (those a crash left unrated), and users who turned ranked on are
// paired. The round runs in its own goroutine until the server closes.

const (
	// rankedStartWithin: a ranked game both players have not readied by
	// then is called off (rc-connect accepts within seconds when it has a
	// free slot, and the matchmaker only pairs users with one).
	rankedStartWithin = 2 * time.Minute
	// inviteStartWithin: the same for an invitation between users, which
	// may wait while the invitee plays its other games.
	inviteStartWithin = 30 * time.Minute
	// builtinRankedGames bounds the ranked games each built-in bot plays
	// at once.
	builtinRankedGames = 2
)

// runMatchmaker runs the rounds until the server closes.
func (s *Server) runMatchmaker(every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
			s.matchRound(time.Now())
		}
	}
}

// matchRound is one round of housekeeping and pairing.
func (s *Server) matchRound(now time.Time) {
	for _, limit := range []struct {
		within time.Duration
		ranked bool
	}{{rankedStartWithin, true}, {inviteStartWithin, false}} {
		ids, err := s.store.StaleWaitingGames(now.Add(-limit.within), limit.ranked)
		if err != nil {
			s.logf("matchmaker: %v", err)
			return
		}
		for _, id := range ids {
			if t, err := s.apiTableFor(id); err == nil {
				t.abort(now)
			}
		}
	}
	if ids, err := s.store.UnratedGames(); err == nil {
		for _, id := range ids {
			if err := s.store.RateGame(id); err != nil {
				s.logf("matchmaker: %v", err)
			}
		}
	}
	s.pairRanked(now)
}

// pairRanked starts ranked games: each active user with ranked play on and
// a free slot (below its max_games) gets at most one new game a round,
// against another such user when there is one, otherwise against one of
// Knightwatch's own bots. Nobody is paired with itself; two built-in bots
// are never paired.
func (s *Server) pairRanked(now time.Time) {
	users, open, err := s.store.RankedCandidates(now.Add(-activeWindow))
	if err != nil {
		s.logf("matchmaker: %v", err)
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
		a, b := free[0], free[1]
		free = free[2:]
		s.startRanked(&a, &b)
	}
	if len(free) == 1 {
		if bot := s.freeBuiltin(); bot != nil {
			s.startRanked(&free[0], bot)
		}
	}
}

// freeBuiltin returns a built-in bot with fewer than builtinRankedGames
// unfinished games, chosen at random, or nil.
func (s *Server) freeBuiltin() *store.User {
	order := rand.Perm(len(play.ReconOpponents))
	for _, i := range order {
		u, err := s.store.UserByName(play.ReconOpponents[i].Account)
		if err != nil {
			continue
		}
		if n, err := s.store.OpenAPIGames(u.ID); err == nil && n < builtinRankedGames {
			return u
		}
	}
	return nil
}

// startRanked creates a ranked game between a and b, colours at random,
// each rated under its current version, and invites the remote players
// (the server is the sender); a built-in bot is ready at once.
func (s *Server) startRanked(a, b *store.User) {
	players := [2]*store.User{a, b}
	if rand.IntN(2) == 0 {
		players[0], players[1] = b, a
	}
	g := s.newAPIGame(players)
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
	if err := s.store.CreateAPIGame(g, invs...); err != nil {
		s.logf("matchmaker: %v", err)
	}
}
