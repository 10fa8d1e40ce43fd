package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"knightwatch/play"
	"knightwatch/store"
)

// finishedListSize bounds the home page's lists of finished games.
const finishedListSize = 50

// homePages serve the home page: the new-game form, the lists of the
// visitor's games, and the list's Resign and Delete (unfinished.go).
type homePages struct {
	*site
	creates *createLimits
}

// LevelView is a level as the new-game form shows it.
type LevelView struct {
	Number       int
	Name         string
	Description  string
	ApproxElo    int
	MoveTimeText string
}

// GameSummary is a game in the home page's lists.
type GameSummary struct {
	ID, URL, PGNURL string
	White, Black    string
	Result, Reason  string
	Date            string
	Variant         string
	LevelName       string
	Moves           int // moves as players count them: a move is one by each side
	// Opening is the opening the game reached, "B20 Sicilian Defense", or "".
	Opening string
}

// HomeData is home.html's data.
type HomeData struct {
	// Continue is the most recently active unfinished chess game.
	Continue *GameSummary
	// Unfinished lists every unfinished game (chess and Reconnaissance
	// Chess), most recently active first, at most unfinishedListSize of
	// them; UnfinishedCount is how many there are in all.
	Unfinished      []UnfinishedSummary
	UnfinishedCount int
	// Notice reports the last action on the list ("The game was deleted.").
	// Confirm, when set, asks before a Resign or Delete posted without
	// confirm=yes.
	Confirm  *ListConfirm
	Notice   string
	Finished []GameSummary
	Levels   []LevelView
	Clocks   []string
	// Error, when set, is why the last new-game form was refused, as a
	// sentence (formSentence); ErrorField names the field at fault ("fen"),
	// "" when it was not one field (too many games, a refused write).
	Error      string
	ErrorField string
	// FEN is the start position typed into a rejected form, shown again in
	// its field so the person can correct it rather than retype it;
	// FENError, when the start position was what the server refused, says
	// why beside it (Error says it at the top of the page too).
	FEN      string
	FENError string
	// DefaultLevel is the level checked in the new-game form until the
	// browser remembers the person's own choice (static/js/home.js).
	DefaultLevel int
	// Reconnaissance Chess: the bots, the clocks, and the person's games.
	ReconOpponents []play.ReconOpponent
	ReconClocks    []string
	ReconPlaying   []ReconSummary
	ReconFinished  []ReconSummary
	// PlayerURL is the player's page of the account the browser is
	// signed in to, "" when it is signed in to none.
	PlayerURL string
}

func (s *homePages) summary(g *store.Game) GameSummary {
	lv := s.games.Level(g.Level)
	engineName := fmt.Sprintf("Knightwatch level %d", g.Level)
	white, black := "You", engineName
	if g.Human == store.Black {
		white, black = engineName, "You"
	}
	date := g.CreatedAt
	if g.FinishedAt != nil {
		date = *g.FinishedAt
	}
	return GameSummary{
		ID: g.ID, URL: "/game/" + g.ID, PGNURL: "/game/" + g.ID + "/pgn",
		White: white, Black: black, Result: g.Result, Reason: g.Reason.String(),
		Date: date.UTC().Format("2006-01-02"), Variant: g.Variant, LevelName: lv.Name,
		Moves: (len(g.MoveList()) + 1) / 2, Opening: play.OpeningName(g),
	}
}

func (s *homePages) levelViews() []LevelView {
	levels := s.games.Levels()
	out := make([]LevelView, len(levels))
	for i, l := range levels {
		out[i] = LevelView{Number: l.Number, Name: l.Name, Description: l.Description, ApproxElo: l.ApproxElo,
			MoveTimeText: formatMoveTime(l.MoveTime)}
	}
	return out
}

// defaultLevel is the new-game form's level for a newcomer: the middle of
// n levels, the lower one when n is even. With the eight engine levels that
// is level 4, "Club" (about 1450 Elo): near the middle of online players'
// ratings (lichess starts everyone at 1500), strong enough to be a game,
// and still beatable by someone who is learning; level 5 (about 1600) would
// be the stronger of the two middles.
func defaultLevel(n int) int { return (n + 1) / 2 }

func formatMoveTime(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

func (s *homePages) homeData(owner, errText string) (*HomeData, error) {
	d := &HomeData{Levels: s.levelViews(), DefaultLevel: defaultLevel(len(s.games.Levels())), Clocks: ClockChoices, Finished: []GameSummary{},
		ReconOpponents: play.ReconOpponents, ReconClocks: ReconClockChoices}
	d.ErrorField, d.Error = formSentence(errText)
	if err := s.reconLists(d, owner); err != nil {
		return nil, err
	}
	if err := s.unfinishedList(d, owner); err != nil {
		return nil, err
	}
	if g, err := s.store.Games().LatestUnfinished(owner); err == nil {
		sum := s.summary(g)
		d.Continue = &sum
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	fin, err := s.store.Games().FinishedGames(owner, finishedListSize)
	if err != nil {
		return nil, err
	}
	s.nameFinished(fin)
	for i := range fin {
		d.Finished = append(d.Finished, s.summary(&fin[i]))
	}
	return d, nil
}

func (s *homePages) handleHome(w http.ResponseWriter, r *http.Request) {
	owner, err := s.ensureOwner(w, r)
	if err != nil {
		s.serverError(w, err)
		return
	}
	d, err := s.homeData(owner, "")
	if err != nil {
		s.serverError(w, err)
		return
	}
	if u := s.signedInUser(r); u != nil {
		d.PlayerURL = playerPath(u.Name)
	}
	d.Notice = homeNotices[r.URL.Query().Get("done")]
	listConfirm(d, r.URL.Query())
	s.render(w, r, http.StatusOK, pageHome, d)
}

// ReconSummary is a Reconnaissance Chess game in the home page's lists.
type ReconSummary struct {
	ID, URL, ReplayURL, HistoryURL string
	White, Black                   string
	Result, Reason                 string
	Date                           string
}

func reconSummary(g *store.ReconGame) ReconSummary {
	white, black := "You", play.OpponentName(g.Opponent)
	if g.Human == store.Black {
		white, black = black, white
	}
	date := g.UpdatedAt
	if g.FinishedAt != nil {
		date = *g.FinishedAt
	}
	return ReconSummary{
		ID: g.ID, URL: "/game/" + g.ID, ReplayURL: "/game/" + g.ID + "/replay", HistoryURL: "/game/" + g.ID + "/history.json",
		White: white, Black: black, Result: g.Result, Reason: winReasonWords(g.Reason),
		Date: date.UTC().Format("2006-01-02"),
	}
}

// reconLists fills the home page's lists of the owner's games.
func (s *homePages) reconLists(d *HomeData, owner string) error {
	playing, err := s.store.Games().ReconGames(owner, store.StatusPlaying, finishedListSize)
	if err != nil {
		return err
	}
	done, err := s.store.Games().ReconGames(owner, store.StatusOver, finishedListSize)
	if err != nil {
		return err
	}
	d.ReconPlaying, d.ReconFinished = []ReconSummary{}, []ReconSummary{}
	for i := range playing {
		d.ReconPlaying = append(d.ReconPlaying, reconSummary(&playing[i]))
	}
	for i := range done {
		d.ReconFinished = append(d.ReconFinished, reconSummary(&done[i]))
	}
	return nil
}
