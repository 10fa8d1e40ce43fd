package training

import (
	"context"
	"errors"
	"strings"

	"knightwatch/game"
	"knightwatch/store"
)

// The results of a learn session's positions, as stored
// (store.LearnSession.Results).
const (
	Pending = '.' // not done yet
	Solved  = 's' // a good move was found
	Shown   = 'r' // the solution was shown
	Skipped = 'k' // skipped
)

// Sessions are the learn sessions: which of a reviewed game's mistakes its
// player has done, kept in the store so that coming back later shows where
// they were.
type Sessions struct {
	Store   *store.Store
	Checker Checker
}

// LearnState is a game's learn session as it stands.
type LearnState struct {
	// Ready is false while the game's review is not complete (nothing to
	// learn from yet).
	Ready    bool
	Human    game.Color
	Mistakes []Mistake
	// Results has one of Pending, Solved, Shown or Skipped per mistake.
	Results string
	// Current is the index of the first mistake not done; len(Mistakes)
	// when the session is over.
	Current int
}

// ErrNotReady is the answer to a try before the game's review is
// complete; ErrWrongPosition to a try at another position than the
// session's current one (a second tab, a stale page).
var (
	ErrNotReady      = errors.New("the game's review is not complete yet")
	ErrWrongPosition = errors.New("that position is not the one to play now; reload the page")
)

// State reads rec's learn session (rec must be over and its owner's).
func (s Sessions) State(rec *store.Game) (LearnState, *game.Game, error) {
	st := LearnState{Human: rec.Human.Color}
	a, plies, err := s.Store.Reviews().GameAnalysis(rec.ID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !a.Complete) {
		return st, nil, nil
	}
	if err != nil {
		return st, nil, err
	}
	g, err := rec.Replay()
	if err != nil {
		return st, nil, err
	}
	st.Ready = true
	st.Mistakes = Mistakes(g, rec.Human.Color, plies)
	st.Results = strings.Repeat(string(rune(Pending)), len(st.Mistakes))
	ls, err := s.Store.Training().LearnSession(rec.ID)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return st, nil, err
	case len(ls.Results) == len(st.Mistakes) && validResults(ls.Results):
		st.Results = ls.Results
	}
	st.Current = strings.IndexByte(st.Results, Pending)
	if st.Current < 0 {
		st.Current = len(st.Mistakes)
	}
	return st, g, nil
}

// validResults reports whether r holds only the four results.
func validResults(r string) bool {
	for i := 0; i < len(r); i++ {
		switch r[i] {
		case Pending, Solved, Shown, Skipped:
		default:
			return false
		}
	}
	return true
}

// Try checks move (UCI) at mistake index of rec's session: a good move
// marks it solved; any other changes nothing (the player may retry).
func (s Sessions) Try(ctx context.Context, rec *store.Game, index int, move string) (LearnState, Verdict, error) {
	st, g, err := s.State(rec)
	if err != nil {
		return st, Verdict{}, err
	}
	if !st.Ready {
		return st, Verdict{}, ErrNotReady
	}
	if index != st.Current || index >= len(st.Mistakes) {
		return st, Verdict{}, ErrWrongPosition
	}
	v, err := s.Checker.Check(ctx, rec.Owner, rec.ID, g, st.Mistakes[index], move)
	if err != nil || !v.Good {
		return st, v, err
	}
	st, err = s.set(rec.ID, st, index, Solved)
	return st, v, err
}

// Give ends mistake index of rec's session with result Shown (the
// solution is shown) or Skipped.
func (s Sessions) Give(rec *store.Game, index int, result byte) (LearnState, error) {
	if result != Shown && result != Skipped {
		return LearnState{}, errors.New("training: unknown result")
	}
	st, _, err := s.State(rec)
	if err != nil {
		return st, err
	}
	if !st.Ready {
		return st, ErrNotReady
	}
	if index != st.Current || index >= len(st.Mistakes) {
		return st, ErrWrongPosition
	}
	return s.set(rec.ID, st, index, result)
}

// Restart starts rec's session again from its first mistake.
func (s Sessions) Restart(rec *store.Game) (LearnState, error) {
	st, _, err := s.State(rec)
	if err != nil || !st.Ready {
		return st, err
	}
	st.Results = strings.Repeat(string(rune(Pending)), len(st.Mistakes))
	st.Current = 0
	return st, s.Store.Training().SaveLearnSession(&store.LearnSession{GameID: rec.ID, Results: st.Results})
}

// set stores result for mistake index and moves on.
func (s Sessions) set(id string, st LearnState, index int, result byte) (LearnState, error) {
	b := []byte(st.Results)
	b[index] = result
	if err := s.Store.Training().SaveLearnSession(&store.LearnSession{GameID: id, Results: string(b)}); err != nil {
		return st, err
	}
	st.Results = string(b)
	st.Current = strings.IndexByte(st.Results, Pending)
	if st.Current < 0 {
		st.Current = len(st.Mistakes)
	}
	return st, nil
}
