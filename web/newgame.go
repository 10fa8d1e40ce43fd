package web

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"

	"knightwatch/game"
	"knightwatch/play"
	"knightwatch/store"
)

// Variants (store's: a record says which it is).
const (
	VariantStandard = store.VariantStandard
	VariantChess960 = store.VariantChess960
)

// ClockChoices are the time controls offered on the new-game form.
var ClockChoices = []string{"none", "1+0", "3+0", "3+2", "5+3", "10+5", "15+5", "15+10", "30+20"}

// newGameForm is a validated new-game form.
type newGameForm struct {
	human     game.Color
	level     int
	variant   string
	initialMS int64
	incMS     int64
	start     *game.Position
}

// parseClock parses "none" or "M+S" from ClockChoices.
func parseClock(v string) (initialMS, incMS int64, ok bool) {
	found := false
	for _, c := range ClockChoices {
		if c == v {
			found = true
		}
	}
	if !found {
		return 0, 0, false
	}
	return parseClockText(v)
}

// parseClockText parses "none" or "M+S" (minutes and seconds).
func parseClockText(v string) (initialMS, incMS int64, ok bool) {
	if v == "none" {
		return 0, 0, true
	}
	m, sec, _ := strings.Cut(v, "+")
	mi, err1 := strconv.Atoi(m)
	si, err2 := strconv.Atoi(sec)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return int64(mi) * 60000, int64(si) * 1000, true
}

// parseNewGame validates the form, for an engine of levels levels; the
// error names the field.
func parseNewGame(r *http.Request, levels int) (*newGameForm, error) {
	if err := r.ParseForm(); err != nil {
		return nil, fmt.Errorf("form: %v", err)
	}
	f := &newGameForm{}
	switch r.PostForm.Get("color") {
	case "white":
		f.human = game.White
	case "black":
		f.human = game.Black
	case "random", "":
		f.human = game.Color(rand.IntN(2))
	default:
		return nil, fmt.Errorf("color: must be white, black or random")
	}
	lv, err := strconv.Atoi(r.PostForm.Get("level"))
	if err != nil || lv < 1 || lv > levels {
		return nil, fmt.Errorf("level: must be a number from 1 to %d", levels)
	}
	f.level = lv
	f.variant = r.PostForm.Get("variant")
	if f.variant == "" {
		f.variant = VariantStandard
	}
	if f.variant != VariantStandard && f.variant != VariantChess960 {
		return nil, fmt.Errorf("variant: must be standard, chess960 or recon")
	}
	clock := r.PostForm.Get("clock")
	if clock == "" {
		clock = "none"
	}
	var ok bool
	if f.initialMS, f.incMS, ok = parseClock(clock); !ok {
		return nil, fmt.Errorf("clock: must be one of %s", strings.Join(ClockChoices, ", "))
	}
	fen := strings.TrimSpace(r.PostForm.Get("fen"))
	switch {
	case fen != "" && f.variant != VariantStandard:
		return nil, fmt.Errorf("fen: a start position can only be given for standard chess")
	case fen != "":
		if len(fen) > 120 {
			return nil, fmt.Errorf("fen: too long")
		}
		p, err := game.ParseFEN(fen)
		if err != nil {
			return nil, fmt.Errorf("fen: %s", fenProblem(err))
		}
		if p.Chess960() {
			return nil, fmt.Errorf("fen: Chess960 castling rights need the chess960 variant")
		}
		if o := game.NewGameFrom(p).OutcomeWithClaims(); o.Over() {
			return nil, fmt.Errorf("fen: the position is already over (%s)", o.Termination)
		}
		f.start = p
	case f.variant == VariantChess960:
		p, err := randomChess960()
		if err != nil {
			return nil, err
		}
		f.start = p
	default:
		f.start = game.NewPosition()
	}
	return f, nil
}

// typedFEN is the start position as typed into the new-game form, kept
// for re-rendering a rejected form (html/template escapes it); a
// pathological length is cut, since it was rejected anyway.
func typedFEN(r *http.Request) string {
	fen := strings.TrimSpace(r.PostForm.Get("fen"))
	if len(fen) > 200 {
		fen = fen[:200]
	}
	return fen
}

func (s *homePages) handleCreate(w http.ResponseWriter, r *http.Request) {
	if !s.checkOrigin(r) {
		http.Error(w, "cross-origin form post refused", http.StatusForbidden)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
	owner, err := s.ensureOwner(w, r)
	if err != nil {
		s.serverError(w, err)
		return
	}
	if err := r.ParseForm(); err != nil {
		// Parsed once here: parsing again would read the cut-off body of a
		// form over the cap as an empty form and name its first field.
		status, msg := formParseRefusal(err)
		d, herr := s.homeData(owner, msg)
		if herr != nil {
			s.serverError(w, herr)
			return
		}
		s.render(w, r, status, pageHome, d)
		return
	}
	if r.PostForm.Get("variant") == VariantRecon {
		if !s.createAllowed(w, r, owner) {
			return
		}
		rec, err := s.createRecon(r, owner)
		var ferr *formError
		if err != nil && !errors.As(err, &ferr) {
			s.saveFailed(w, r, owner, err)
			return
		}
		if err != nil {
			d, herr := s.homeData(owner, err.Error())
			if herr != nil {
				s.serverError(w, herr)
				return
			}
			s.render(w, r, http.StatusBadRequest, pageHome, d)
			return
		}
		http.Redirect(w, r, "/game/"+rec.ID, http.StatusSeeOther)
		return
	}
	f, ferr := parseNewGame(r, len(s.games.Levels()))
	if ferr != nil {
		d, err := s.homeData(owner, ferr.Error())
		if err != nil {
			s.serverError(w, err)
			return
		}
		d.FEN = typedFEN(r)
		if why, ok := strings.CutPrefix(ferr.Error(), "fen: "); ok {
			d.FENError = why
		}
		s.render(w, r, http.StatusBadRequest, pageHome, d)
		return
	}
	if !s.createAllowed(w, r, owner) {
		return
	}
	rec := &store.Game{
		Owner: owner, Variant: f.variant, StartFEN: f.start.FEN(), Human: store.ColorOf(f.human), Level: f.level,
		ClockInitialMS: f.initialMS, ClockIncrementMS: f.incMS, WhiteMS: f.initialMS, BlackMS: f.initialMS,
	}
	if err := s.store.Games().CreateGame(rec); err != nil {
		s.saveFailed(w, r, owner, err)
		return
	}
	http.Redirect(w, r, "/game/"+rec.ID, http.StatusSeeOther)
}

// VariantRecon is Reconnaissance Chess on the new-game form.
const VariantRecon = "recon"

// ReconClockChoices are the clocks Reconnaissance Chess accepts (the form's
// clocks); the first, the reference's 15 minutes and 5 seconds a turn, is
// the default.
var ReconClockChoices = []string{"15+5", "none", "3+2", "5+3", "10+5", "15+10", "30+20"}

// formError is a refused new-game field: the person sees it on the form.
type formError struct{ msg string }

func (e *formError) Error() string { return e.msg }

func badField(format string, args ...any) error { return &formError{fmt.Sprintf(format, args...)} }

// createRecon validates the Reconnaissance Chess fields of the new-game
// form and creates the game; the error names the field.
func (s *homePages) createRecon(r *http.Request, owner string) (*store.ReconGame, error) {
	var human store.Color
	switch r.PostForm.Get("color") {
	case "white":
		human = store.White
	case "black":
		human = store.Black
	case "random", "":
		human = store.ColorOf(game.Color(rand.IntN(2)))
	default:
		return nil, badField("color: must be white, black or random")
	}
	opponent := r.PostForm.Get("opponent")
	if opponent == "" {
		opponent = play.ReconOpponents[0].Spec
	}
	known := false
	for _, o := range play.ReconOpponents {
		known = known || o.Spec == opponent
	}
	if !known {
		return nil, badField("opponent: must be one of the bots offered")
	}
	clock := r.PostForm.Get("clock")
	if clock == "" {
		clock = ReconClockChoices[0]
	}
	found := false
	for _, c := range ReconClockChoices {
		found = found || c == clock
	}
	initialMS, incMS, ok := parseClockText(clock)
	if !found || !ok {
		return nil, badField("clock: must be one of %s for Reconnaissance Chess", strings.Join(ReconClockChoices, ", "))
	}
	rec := &store.ReconGame{
		Owner: owner, Human: human, Opponent: opponent, Seed: play.NewSeed(),
		ClockInitialMS: initialMS, ClockIncrementMS: incMS, WhiteMS: initialMS, BlackMS: initialMS,
	}
	if err := s.store.Games().CreateReconGame(rec); err != nil {
		return nil, err
	}
	return rec, nil
}
