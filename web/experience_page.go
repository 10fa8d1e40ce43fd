package web

import (
	"net/http"
	"strings"
	"time"

	"knightwatch/store"
)

// experienceListSize is how many games learnt from the experience page lists.
const experienceListSize = 20

// ExperiencePageData is experience.html's data: what the engine has learnt
// (docs/experience.md). The list names no player and links no game: the
// games are their owners'.
type ExperiencePageData struct {
	On         bool // the server learns (play.Games.Learning)
	Stats      store.ExperienceStats
	LastLearnt string // "2026-11-25 16:40 UTC", or "" when never
	Recent     []LearntView
}

// LearntView is one game learnt from, as the page lists it.
type LearntView struct {
	Date    string
	Level   string
	Colour  string // the engine's colour
	Outcome string // "won", "drew", "lost", for the engine
	Reason  string
	Moves   int // moves as players count them
	Lessons int // positions it taught
}

func (s *gamePages) handleExperiencePage(w http.ResponseWriter, r *http.Request) {
	st, err := s.store.Learning().ExperienceSummary()
	if err != nil {
		s.serverError(w, err)
		return
	}
	games, err := s.store.Learning().RecentLearntGames(experienceListSize)
	if err != nil {
		s.serverError(w, err)
		return
	}
	d := &ExperiencePageData{On: s.games.Learning(), Stats: st, Recent: []LearntView{}}
	if !st.LastLearnt.IsZero() {
		d.LastLearnt = st.LastLearnt.UTC().Format("2006-01-02 15:04 UTC")
	}
	for _, g := range games {
		d.Recent = append(d.Recent, s.learntView(g))
	}
	s.render(w, r, http.StatusOK, pageExperience, d)
}

func (s *gamePages) learntView(g store.LearntGame) LearntView {
	engine := g.Human.Other()
	v := LearntView{
		Date: g.LearntAt.UTC().Format(time.DateOnly), Level: s.games.Level(g.Level).Name, Colour: engine.String(),
		Reason: g.Reason.String(), Moves: (len(strings.Fields(g.Moves)) + 1) / 2, Lessons: g.Lessons,
	}
	switch {
	case g.Result == "1/2-1/2":
		v.Outcome = "drew"
	case g.Result == "1-0" && engine.String() == "white", g.Result == "0-1" && engine.String() == "black":
		v.Outcome = "won"
	default:
		v.Outcome = "lost"
	}
	return v
}
