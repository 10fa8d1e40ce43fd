package web

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"

	"knightwatch/store"
	"knightwatch/training"
)

// Puzzles (issue 47): /puzzles sends the player to their next puzzle (from
// their own games first), /puzzles/{id} is a puzzle's page
// (templates/puzzle.html, static/js/puzzle.js), and its posts check the
// player's moves (package training rates the first attempt).

// PuzzleData is puzzle.html's data; Puzzle is nil on the page that says
// there is none yet.
type PuzzleData struct {
	Puzzle *PuzzleView
	// PlayerRating is the player's puzzle rating, rounded; Tried how many
	// puzzles they have tried.
	PlayerRating int
	Tried        int
	// Count is how many puzzles the server has.
	Count int64
}

// PuzzleView is one puzzle as its page shows it.
type PuzzleView struct {
	ID       int64
	FEN      string // before LastMove
	LastMove string
	Solver   string // "white" or "black"
	Rating   int
	Plays    int
	// PlaysText is Plays in words ("1 time", "3 times").
	PlaysText string
	// GameURL links the game it came from at the puzzle's position
	// (#ply=N): the game's page for its owner, else its spectator link;
	// "" when neither is there.
	GameURL  string
	GamePly  int
	MoveURL  string
	DestsURL string
	// Tried is set when this player has tried it before (no rating
	// change this time).
	Tried bool
}

// puzzles is the puzzles' play on the site's store.
func (s *gamePages) puzzles() training.Puzzles { return training.Puzzles{Store: s.store} }

func (s *gamePages) handlePuzzleNext(w http.ResponseWriter, r *http.Request) {
	owner, err := s.ensureOwner(w, r)
	if err != nil {
		s.serverError(w, err)
		return
	}
	if s.puzzleGen != nil {
		s.puzzleGen.Want(owner)
	}
	rating, tried, err := s.puzzles().PlayerRating(owner)
	if err != nil {
		s.serverError(w, err)
		return
	}
	p, err := s.store.Training().NextPuzzle(owner, rating)
	if err == nil {
		http.Redirect(w, r, fmt.Sprintf("/puzzles/%d", p.ID), http.StatusSeeOther)
		return
	}
	if !errors.Is(err, store.ErrNotFound) {
		s.serverError(w, err)
		return
	}
	n, err := s.store.Training().PuzzleCount()
	if err != nil {
		s.serverError(w, err)
		return
	}
	s.render(w, r, http.StatusOK, pagePuzzle, &PuzzleData{PlayerRating: int(math.Round(rating)), Tried: tried, Count: n})
}

// puzzleOf reads the puzzle the path names, answering 404 when there is
// none.
func (s *gamePages) puzzleOf(w http.ResponseWriter, r *http.Request, page bool) (*store.Puzzle, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	var p *store.Puzzle
	if err == nil && id > 0 {
		p, err = s.store.Training().Puzzle(id)
	} else {
		err = store.ErrNotFound
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		if page {
			s.notFoundPage(w, r, "No such puzzle", "There is no puzzle at this address.")
		} else {
			writeTrainingError(w, http.StatusNotFound, "no such puzzle")
		}
		return nil, false
	case err != nil:
		s.serverError(w, err)
		return nil, false
	}
	return p, true
}

func (s *gamePages) handlePuzzlePage(w http.ResponseWriter, r *http.Request) {
	owner, err := s.ensureOwner(w, r)
	if err != nil {
		s.serverError(w, err)
		return
	}
	p, ok := s.puzzleOf(w, r, true)
	if !ok {
		return
	}
	solver, err := training.Solver(p)
	if err != nil {
		s.serverError(w, err)
		return
	}
	rating, tried, err := s.puzzles().PlayerRating(owner)
	if err != nil {
		s.serverError(w, err)
		return
	}
	_, aerr := s.store.Training().Attempt(owner, p.ID)
	if aerr != nil && !errors.Is(aerr, store.ErrNotFound) {
		s.serverError(w, aerr)
		return
	}
	v := &PuzzleView{
		ID: p.ID, FEN: p.FEN, LastMove: p.LastMove, Solver: solver.String(), Rating: int(math.Round(p.Rating)), Plays: p.Plays, PlaysText: playsText(p.Plays),
		GamePly: p.Ply, MoveURL: fmt.Sprintf("/puzzles/%d/move", p.ID), DestsURL: fmt.Sprintf("/puzzles/%d/dests", p.ID), Tried: aerr == nil,
	}
	if rec, err := s.store.Games().GetGame(p.GameID); err == nil {
		if rec.Owner == owner {
			v.GameURL = "/game/" + rec.ID
		} else if rec.WatchToken != nil {
			v.GameURL = "/watch/" + *rec.WatchToken
		}
		if v.GameURL != "" {
			// The position the puzzle starts from: after the game's move
			// that allowed it.
			v.GameURL += fmt.Sprintf("#ply=%d", p.Ply)
		}
	}
	n, err := s.store.Training().PuzzleCount()
	if err != nil {
		s.serverError(w, err)
		return
	}
	s.render(w, r, http.StatusOK, pagePuzzle, &PuzzleData{Puzzle: v, PlayerRating: int(math.Round(rating)), Tried: tried, Count: n})
}

// puzzleStepView is a puzzle post's answer.
type puzzleStepView struct {
	Correct  bool     `json:"correct"`
	Done     bool     `json:"done"`
	Reply    string   `json:"reply,omitempty"`
	Solution []string `json:"solution,omitempty"`
	// SolutionSAN is Solution in SAN, for the words.
	SolutionSAN []string `json:"solutionSan,omitempty"`
	// Dests are the solver's moves after Reply.
	Dests   map[string][]string `json:"dests,omitempty"`
	Counted bool                `json:"counted"`
	Before  int                 `json:"before,omitempty"`
	After   int                 `json:"after,omitempty"`
	// PuzzleRating and Plays are the puzzle's rating and rated attempts
	// once Done (this one included when Counted), for the page's facts.
	PuzzleRating int `json:"puzzleRating,omitempty"`
	Plays        int `json:"plays,omitempty"`
}

// handlePuzzleDests answers the solver's legal moves at the puzzle's start.
func (s *gamePages) handlePuzzleDests(w http.ResponseWriter, r *http.Request) {
	p, ok := s.puzzleOf(w, r, false)
	if !ok {
		return
	}
	pos, err := training.Start(p)
	if err != nil {
		s.serverError(w, err)
		return
	}
	writeTrainingJSON(w, http.StatusOK, map[string]any{"fen": pos.FEN(), "dests": destsOf(pos)})
}

func (s *gamePages) handlePuzzleMove(w http.ResponseWriter, r *http.Request) {
	b, ok := s.readTrainingBody(w, r)
	if !ok {
		return
	}
	body, err := parsePuzzleBody(b)
	if err != nil {
		writeTrainingError(w, http.StatusBadRequest, sentence(err.Error()))
		return
	}
	owner := s.currentOwner(r)
	if owner == "" {
		writeTrainingError(w, http.StatusForbidden, "Your browser has no session here: reload the page.")
		return
	}
	p, ok := s.puzzleOf(w, r, false)
	if !ok {
		return
	}
	st, err := s.puzzles().Play(owner, p, body.Moves, body.GiveUp)
	switch {
	case errors.Is(err, training.ErrBadMoves), errors.Is(err, training.ErrIllegal):
		writeTrainingError(w, http.StatusConflict, sentence(err.Error()))
		return
	case err != nil:
		s.serverError(w, err)
		return
	}
	v := puzzleStepView{Correct: st.Correct, Done: st.Done, Reply: st.Reply, Solution: st.Solution, Counted: st.Counted}
	if len(st.Solution) > 0 {
		if pos, err := training.Start(p); err == nil {
			for _, u := range st.Solution {
				m, err := pos.ParseUCI(u)
				if err != nil || !pos.IsLegal(m) {
					break
				}
				v.SolutionSAN = append(v.SolutionSAN, pos.SAN(m))
				pos.MakeMove(m)
			}
		}
	}
	if st.Done {
		v.PuzzleRating, v.Plays = int(math.Round(p.Rating)), p.Plays
	}
	if st.Counted {
		v.Before, v.After = int(math.Round(st.Before)), int(math.Round(st.After))
		v.PuzzleRating, v.Plays = int(math.Round(st.PuzzleAfter)), p.Plays+1
	}
	if st.Reply != "" {
		pos, err := training.Start(p)
		if err == nil {
			for _, u := range append(append([]string(nil), body.Moves...), st.Reply) {
				m, perr := pos.ParseUCI(u)
				if perr != nil {
					err = perr
					break
				}
				pos.MakeMove(m)
			}
		}
		if err != nil {
			s.serverError(w, err)
			return
		}
		v.Dests = destsOf(pos)
	}
	writeTrainingJSON(w, http.StatusOK, v)
}

// playsText is how many rated attempts a puzzle has had, in words; the
// puzzle page's script says the same (puzzle.js playsText).
func playsText(n int) string {
	return fmt.Sprintf("%d %s", n, plural(n, "time", "times"))
}
