package web

import (
	"errors"
	"net/http"

	"knightwatch/game"
	"knightwatch/store"
	"knightwatch/training"
)

// Learn from your mistakes (issue 47): the page of a reviewed game's
// mistakes (templates/learn.html, static/js/learn.js), its state as JSON
// and its posts (a tried move, the solution, skip, start again). The
// session is package training's, kept in the store.

// LearnData is learn.html's data.
type LearnData struct {
	ID, GameURL, StateURL string
}

// learnView is the page's state.
type learnView struct {
	Ready   bool   `json:"ready"`
	Human   string `json:"human"`
	Total   int    `json:"total"`
	Current int    `json:"current"`
	Results string `json:"results"`
	// Position is the current mistake's; nil when the session is over.
	Position *learnPosition `json:"position,omitempty"`
	// Verdict is what the post's move was, when it tried one.
	Verdict *learnVerdict `json:"verdict,omitempty"`
	// Answer is the best move of the mistake the post ended (solved,
	// shown or skipped).
	Answer *learnAnswer `json:"answer,omitempty"`
}

type learnPosition struct {
	Index     int                 `json:"index"`
	Ply       int                 `json:"ply"`
	FEN       string              `json:"fen"`
	Said      string              `json:"said"`
	Judgement string              `json:"judgement"`
	Played    string              `json:"played"`
	Dests     map[string][]string `json:"dests"`
}

type learnVerdict struct {
	Good  bool   `json:"good"`
	Same  bool   `json:"same"`
	SAN   string `json:"san"`
	Words string `json:"words"`
}

type learnAnswer struct {
	Index   int    `json:"index"`
	Best    string `json:"best"`
	BestSAN string `json:"bestSan"`
	Result  string `json:"result"`
}

// sessions is the learn sessions on the site's store and engine.
func (s *gamePages) sessions() training.Sessions {
	var eng training.LiveEngine
	switch {
	case s.liveEngine != nil:
		eng = s.liveEngine
	case s.pool != nil:
		eng = s.pool
	}
	return training.Sessions{Store: s.store, Checker: training.Checker{Engine: eng}}
}

// learnGame loads the request's game for its owner: a finished chess game.
func (s *gamePages) learnGame(w http.ResponseWriter, r *http.Request, page bool) (*store.Game, bool) {
	owner := s.currentOwner(r)
	g, err := s.store.Games().GetOwnedGame(r.PathValue("id"), owner)
	if err == nil && g.Status != store.StatusOver {
		err = store.ErrNotFound
	}
	switch {
	case owner == "" || errors.Is(err, store.ErrNotFound):
		if page {
			s.notFoundPage(w, r, notYoursTitle, notYoursText)
		} else {
			writeTrainingError(w, http.StatusNotFound, "no such finished game of yours")
		}
		return nil, false
	case err != nil:
		s.serverError(w, err)
		return nil, false
	}
	return g, true
}

func (s *gamePages) handleLearnPage(w http.ResponseWriter, r *http.Request) {
	g, ok := s.learnGame(w, r, true)
	if !ok {
		return
	}
	s.render(w, r, http.StatusOK, pageLearn, &LearnData{ID: g.ID, GameURL: "/game/" + g.ID, StateURL: "/game/" + g.ID + "/learn.json"})
}

func (s *gamePages) handleLearnState(w http.ResponseWriter, r *http.Request) {
	g, ok := s.learnGame(w, r, false)
	if !ok {
		return
	}
	st, gm, err := s.sessions().State(g)
	if err != nil {
		s.serverError(w, err)
		return
	}
	writeTrainingJSON(w, http.StatusOK, learnViewOf(st, gm))
}

func (s *gamePages) handleLearnPost(w http.ResponseWriter, r *http.Request) {
	b, ok := s.readTrainingBody(w, r)
	if !ok {
		return
	}
	body, err := parseLearnBody(b)
	if err != nil {
		writeTrainingError(w, http.StatusBadRequest, sentence(err.Error()))
		return
	}
	g, ok := s.learnGame(w, r, false)
	if !ok {
		return
	}
	ss := s.sessions()
	before, _, err := ss.State(g)
	if err != nil {
		s.serverError(w, err)
		return
	}
	var st training.LearnState
	var v training.Verdict
	switch body.Action {
	case "":
		if _, busy := s.trying.LoadOrStore(g.Owner, struct{}{}); busy {
			writeTrainingError(w, http.StatusTooManyRequests, "Your last move is still being checked: one at a time.")
			return
		}
		st, v, err = ss.Try(r.Context(), g, body.Index, body.Move)
		s.trying.Delete(g.Owner)
	case "solution":
		st, err = ss.Give(g, body.Index, training.Shown)
	case "skip":
		st, err = ss.Give(g, body.Index, training.Skipped)
	case "restart":
		st, err = ss.Restart(g)
	}
	switch {
	case errors.Is(err, training.ErrIllegal), errors.Is(err, training.ErrWrongPosition), errors.Is(err, training.ErrNotReady):
		writeTrainingError(w, http.StatusConflict, sentence(err.Error()))
		return
	case errors.Is(err, training.ErrNoEngine):
		writeTrainingError(w, http.StatusServiceUnavailable, sentence(err.Error()))
		return
	case err != nil:
		s.serverError(w, err)
		return
	}
	gm, err := g.Replay()
	if err != nil {
		s.serverError(w, err)
		return
	}
	view := learnViewOf(st, gm)
	if body.Action == "" {
		lv := &learnVerdict{Good: v.Good, Same: v.Same, SAN: v.SAN}
		switch {
		case v.Good:
			lv.Words = v.SAN + " is good."
		case v.Same:
			lv.Words = v.SAN + " is the move you played. Try another."
		default:
			lv.Words = v.SAN + " is not good enough. Try again."
		}
		view.Verdict = lv
	}
	if body.Action != "restart" && body.Index < len(before.Mistakes) && st.Results[body.Index] != training.Pending {
		mk := before.Mistakes[body.Index]
		view.Answer = &learnAnswer{Index: body.Index, Best: mk.Best, BestSAN: mk.BestSAN, Result: resultWord(st.Results[body.Index])}
	}
	writeTrainingJSON(w, http.StatusOK, view)
}

// resultWord names a stored result.
func resultWord(b byte) string {
	switch b {
	case training.Solved:
		return "solved"
	case training.Shown:
		return "shown"
	case training.Skipped:
		return "skipped"
	}
	return "pending"
}

// learnViewOf is the page's view of st (gm: the game, nil before the
// review is complete).
func learnViewOf(st training.LearnState, gm *game.Game) learnView {
	v := learnView{Ready: st.Ready, Human: st.Human.String(), Total: len(st.Mistakes), Current: st.Current, Results: st.Results}
	if st.Ready && st.Current < len(st.Mistakes) && gm != nil {
		mk := st.Mistakes[st.Current]
		v.Position = &learnPosition{
			Index: st.Current, Ply: mk.Ply, FEN: mk.FEN, Said: mk.Said, Judgement: mk.Judgement.String(),
			Played: mk.Played, Dests: destsOf(gm.PositionAt(mk.Ply)),
		}
	}
	return v
}
