package web

// The engine's experience (docs/experience.md) on the web side: learning
// from each finished game, and reading the experience of the engine's
// root position before each of its moves.
//
// Learning happens off every lock: a room whose game ends only queues the
// game's ID (learner.notify, never blocking); one goroutine replays the
// game and records it in one transaction (store.RecordGame), which marks
// the game learnt, so no game is learnt twice. At start, and whenever the
// queue overflowed, it catches up with the finished games not learnt yet
// (store.UnlearntGames): a database older than the experience, games that
// ended while the queue was full or just before a stop; paced, so that it
// holds the database's one writer at most half the time.
//
// A complete review of a finished game (analysis.go) teaches too: its
// scores of the move played and of the best move at each ply are handed
// to the learner (Server.reviewEnded, never blocking) and recorded in one
// transaction (store.RecordAnalyses).
//
// Reading happens in the search's goroutine, before it asks the pool for
// an engine: one indexed read by the position's key (store.ExperienceFor).

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"knightwatch/engine"
	"knightwatch/game"
	"knightwatch/store"
)

const (
	// learnQueue bounds the games waiting to be learnt from; beyond it
	// the learner catches up from the database instead.
	learnQueue = 256
	// learnBatch is how many unlearnt games one catch-up read fetches.
	learnBatch = 100
	// reviewQueue bounds the reviews waiting to be learnt from; a review
	// that finds it full is not learnt (it is logged), since reviews come
	// at most as fast as the engine can make them.
	reviewQueue = 64
	// minLearnPlies: a game decided off the board (resignation, time,
	// agreement) in fewer plies teaches nothing: its result says nothing
	// about its few moves.
	minLearnPlies = 10
)

// learner learns from finished games in the background.
type learner struct {
	srv   *Server
	queue chan string
	// reviews carries complete reviews' analysed moves (reviewLessons).
	reviews chan []store.AnalysedMove
	behind  atomic.Bool // the queue overflowed: catch up from the database
	// learnt counts the games recorded (for tests and the page).
	learnt atomic.Int64
}

// startLearner starts the learner when Config.Experience is on.
func (s *Server) startLearner() {
	if !s.cfg.Experience {
		return
	}
	if s.cfg.ExperienceRows > 0 {
		s.store.SetExperienceCap(s.cfg.ExperienceRows)
	}
	l := &learner{srv: s, queue: make(chan string, learnQueue), reviews: make(chan []store.AnalysedMove, reviewQueue)}
	l.behind.Store(true) // the first catch-up, at start
	s.learn = l
	s.conns.Add(1)
	go func() {
		defer s.conns.Done()
		l.run(s.ctx)
	}()
}

// gameEnded tells the learner that game id has just finished.
func (s *Server) gameEnded(id string) {
	if s.learn != nil {
		s.learn.notify(id)
	}
}

// reviewEnded hands the learner what the complete review of game id
// teaches (reviewLessons).
func (s *Server) reviewEnded(id string, moves []store.AnalysedMove) {
	if s.learn == nil || len(moves) == 0 {
		return
	}
	select {
	case s.learn.reviews <- moves:
	default:
		s.logf("experience: the review of game %s is not learnt: %d reviews wait already", id, reviewQueue)
	}
}

func (l *learner) notify(id string) {
	select {
	case l.queue <- id:
	default:
		l.behind.Store(true)
		l.wake()
	}
}

// wake makes a waiting run loop look at behind, without blocking.
func (l *learner) wake() {
	select {
	case l.queue <- "":
	default:
	}
}

// run learns until ctx ends: queued games, and a catch-up whenever behind.
func (l *learner) run(ctx context.Context) {
	for {
		if l.behind.Swap(false) {
			l.catchUp(ctx)
		}
		select {
		case <-ctx.Done():
			return
		case moves := <-l.reviews:
			if err := l.srv.store.RecordAnalyses(moves); err != nil {
				l.srv.logf("experience: %v", err)
			}
		case id := <-l.queue:
			if id == "" {
				continue
			}
			g, err := l.srv.store.GetGame(id)
			if err != nil {
				l.srv.logf("experience: game %s: %v", id, err)
				continue
			}
			l.learn(g)
		}
	}
}

// catchUp learns from every finished game not learnt yet.
func (l *learner) catchUp(ctx context.Context) {
	for ctx.Err() == nil {
		gs, err := l.srv.store.UnlearntGames(learnBatch)
		if err != nil {
			l.srv.logf("experience: %v", err)
			return
		}
		for i := range gs {
			start := time.Now()
			if !l.learn(&gs[i]) {
				return // the database refuses: try again at the next catch-up
			}
			// Paced: the writer is free at least half the time for the
			// live games' commits, however many games there are to learn.
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Since(start)):
			}
		}
		if len(gs) < learnBatch {
			return
		}
	}
}

// learn records the finished game g; it reports false when the database
// refused (a game that cannot be replayed is logged and marked learnt).
func (l *learner) learn(g *store.Game) bool {
	if g.Status != store.StatusOver {
		return true
	}
	lessons, err := GameLessons(g)
	if err != nil {
		l.srv.logf("experience: %v", err)
		lessons = nil // marked learnt, with nothing learnt
	}
	ok, err := l.srv.store.RecordGame(g.ID, lessons)
	if err != nil {
		l.srv.logf("experience: %v", err)
		l.behind.Store(true)
		return false
	}
	if ok {
		l.learnt.Add(1)
	}
	return true
}

// GameLessons is what the finished game g teaches: for every move, by
// either side, the game's result for the side that played it, the plies
// from the move to the end (counting the move) and the engine's weight
// of that lesson (engine.LessonWeight). The person's moves are kept too:
// the engine plays either colour, and a move that beat it is a move worth
// knowing. A game decided off the board in fewer than minLearnPlies plies
// teaches nothing.
func GameLessons(g *store.Game) ([]store.Lesson, error) {
	var white float64
	switch game.Result(g.Result) {
	case game.WhiteWins:
		white = 1
	case game.BlackWins:
		white = 0
	case game.Draw:
		white = 0.5
	default:
		return nil, nil // no result: nothing to learn
	}
	gm, _, err := buildGame(g)
	if err != nil {
		return nil, err
	}
	n := gm.Len()
	switch g.Reason.Termination {
	case game.Resignation, game.TimeForfeit, game.DrawAgreed, game.Adjudication:
		if n < minLearnPlies {
			return nil, nil
		}
	}
	moves := gm.Moves()
	out := make([]store.Lesson, 0, n)
	for i, m := range moves {
		pos := gm.PositionAt(i)
		res := white
		if pos.Side() == game.Black {
			res = 1 - white
		}
		depth := n - i
		out = append(out, store.Lesson{Key: pos.Hash(), Move: pos.UCI(m), Result: res, Depth: depth, Weight: engine.LessonWeight(depth)})
	}
	return out, nil
}

// experienceFor returns the engine's records of the moves of pos, or none
// when the experience is off or cannot be read (the engine then plays
// without: a slow or refusing database must not stop the game).
func (s *Server) experienceFor(pos *game.Position) []engine.MoveRecord {
	if s.learn == nil {
		return nil
	}
	rows, err := s.store.ExperienceFor(pos.Hash())
	if err != nil {
		s.logf("experience: %v", err)
		return nil
	}
	return MoveRecords(pos, rows)
}

// MoveRecords turns the experience rows of pos into the engine's records,
// leaving out rows whose move is not a move of pos (a key collision or a
// stale row).
func MoveRecords(pos *game.Position, rows []store.Experience) []engine.MoveRecord {
	out := make([]engine.MoveRecord, 0, len(rows))
	for _, r := range rows {
		m, err := pos.ParseUCI(r.Move)
		if err != nil {
			continue
		}
		out = append(out, engine.MoveRecord{
			Move: m, Wins: r.Wins, Draws: r.Draws, Losses: r.Losses, Weight: r.Weight, Points: r.Points,
			AnalysisCP: r.AnalysisCP, AnalysisDepth: r.AnalysisDepth,
		})
	}
	return out
}

// experienceNotes turns what the experience changed about the engine's
// move at ply, played in pos, into the game's notes.
func experienceNotes(ply int, pos *game.Position, use *engine.ExperienceUse) []store.ExperienceNote {
	if use == nil {
		return nil
	}
	note := func(r engine.MoveRecord, avoided bool) store.ExperienceNote {
		return store.ExperienceNote{Ply: ply, Move: pos.UCI(r.Move), Avoided: avoided, Wins: r.Wins, Draws: r.Draws,
			Losses: r.Losses, AnalysisCP: r.AnalysisCP, AnalysisDepth: r.AnalysisDepth}
	}
	var out []store.ExperienceNote
	for _, r := range use.Avoided {
		out = append(out, note(r, true))
	}
	if use.Preferred != nil {
		out = append(out, note(*use.Preferred, false))
	}
	return out
}

// experienceText is the sentence the game page shows for the notes of one
// move played in pos: "Chosen from experience: 3...Nf6 lost 2 of 2
// earlier games here".
func experienceText(pos *game.Position, notes []store.ExperienceNote) string {
	var parts []string
	for _, n := range notes {
		m, err := pos.ParseUCI(n.Move)
		if err != nil {
			continue
		}
		name := moveName(pos, m)
		games := n.Wins + n.Draws + n.Losses
		switch {
		case n.Avoided && n.Losses > 0:
			parts = append(parts, fmt.Sprintf("%s lost %d of %s here", name, n.Losses, earlierGames(games)))
		case n.Avoided && n.AnalysisDepth > 0:
			parts = append(parts, fmt.Sprintf("%s was a mistake in the analysis of an earlier game", name))
		case n.Avoided:
			parts = append(parts, fmt.Sprintf("%s scored badly in %s here", name, earlierGames(games)))
		case n.Wins > 0:
			parts = append(parts, fmt.Sprintf("%s won %d of %s here", name, n.Wins, earlierGames(games)))
		default:
			parts = append(parts, fmt.Sprintf("%s held in %s here", name, earlierGames(games)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Chosen from experience: " + strings.Join(parts, "; ")
}

func earlierGames(n int) string {
	if n == 1 {
		return "1 earlier game"
	}
	return fmt.Sprintf("%d earlier games", n)
}

// moveName writes m, a move of pos, with its move number: "3.Nf3",
// "3...Nf6".
func moveName(pos *game.Position, m game.Move) string {
	dots := "."
	if pos.Side() == game.Black {
		dots = "..."
	}
	return fmt.Sprintf("%d%s%s", pos.FullmoveNumber(), dots, pos.SAN(m))
}
