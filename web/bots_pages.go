package web

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"knightwatch/play"
	"knightwatch/rbcapi"
	"knightwatch/recon"
	"knightwatch/store"
)

// botsPages serve /bots: how to connect a bot (with an account of the
// site's one account system, account.go), who is connected, the leaderboard, the finished games and their
// replays, and a signed-in person's invitations and games (bots_play.go).
type botsPages struct{ *site }

// BotsData is the "Connect your bot" page: how to connect, a sign-up form,
// who is connected and the latest games of the HTTP API.
type BotsData struct {
	Title     string
	ServerURL string
	Error     string // why an invitation or its acceptance failed
	Builtin   []play.ReconOpponent
	Connected []string
	Playing   []APIGameView
	Finished  []APIGameView
	Leaders   []LeaderView
	StartElo  float64
	EloK      float64
	// For a signed-in person: who, whom they may invite, their pending
	// invitations and their unfinished games.
	User        string
	Opponents   []string
	Invitations []InvitationView
	MyGames     []APIGameView
}

// InvitationView is an invitation to the signed-in person.
type InvitationView struct {
	ID, GameID int64
	From       string // "" for the server's ranked games
	Color      string // the person's colour
}

// LeaderView is one rated bot version on the leaderboard.
type LeaderView struct {
	Rank, Version, Games, Wins, Losses, Draws int
	Name                                      string
	Elo                                       int
}

// APIGameView is one API game in a list.
type APIGameView struct {
	ID                    int64
	White, Black          string
	Result, Reason, Since string
	ReplayURL             string
}

const botsListSize = 30

func (s *botsPages) botsData(r *http.Request) (*BotsData, error) {
	d := &BotsData{Title: "Connect your bot", ServerURL: s.siteURL(r), StartElo: store.StartRating, EloK: store.EloK}
	for _, o := range play.ReconOpponents {
		if o.Account != "" {
			d.Builtin = append(d.Builtin, o)
		}
	}
	us, err := s.store.API().Users(time.Now().Add(-rbcapi.ActiveWindow))
	if err != nil {
		return nil, err
	}
	for _, u := range us {
		if u.Builtin == "" {
			d.Connected = append(d.Connected, u.Name)
		}
	}
	if u := s.signedInUser(r); u != nil {
		if err := s.personalBotsData(d, u, us); err != nil {
			return nil, err
		}
	}
	leaders, err := s.store.API().Leaderboard(100)
	if err != nil {
		return nil, err
	}
	for i, l := range leaders {
		d.Leaders = append(d.Leaders, LeaderView{Rank: i + 1, Name: l.Name, Version: l.Version, Elo: int(math.Round(l.Elo)),
			Games: l.Games, Wins: l.Wins, Losses: l.Losses, Draws: l.Draws})
	}
	for _, list := range []struct {
		status store.Status
		out    *[]APIGameView
	}{{store.StatusPlaying, &d.Playing}, {store.StatusOver, &d.Finished}} {
		gs, err := s.store.API().RecentAPIGames(list.status, botsListSize)
		if err != nil {
			return nil, err
		}
		for _, g := range gs {
			v := APIGameView{ID: g.ID, White: g.WhiteName, Black: g.BlackName, Result: g.Result, Reason: winReasonWords(g.Reason),
				Since: g.CreatedAt.UTC().Format("2006-01-02 15:04")}
			if g.Status == store.StatusOver {
				v.ReplayURL = fmt.Sprintf("/bots/games/%d/replay", g.ID)
			}
			*list.out = append(*list.out, v)
		}
	}
	return d, nil
}

// personalBotsData adds what a signed-in person sees: the users they may
// invite (the connected ones and Knightwatch's bots), their invitations
// and their unfinished games.
func (s *botsPages) personalBotsData(d *BotsData, u *store.User, active []store.User) error {
	d.User = u.Name
	for _, a := range active {
		if a.ID != u.ID {
			d.Opponents = append(d.Opponents, a.Name)
		}
	}
	ids, err := s.store.API().PendingInvitations(u.ID)
	if err != nil {
		return err
	}
	for _, id := range ids {
		inv, err := s.store.API().GetInvitation(id)
		if err != nil {
			return err
		}
		g, err := s.store.API().GetAPIGame(inv.GameID)
		if err != nil {
			return err
		}
		v := InvitationView{ID: inv.ID, GameID: g.ID, Color: "white"}
		from := g.WhiteName
		if g.WhiteID == u.ID {
			from = g.BlackName
		} else {
			v.Color = "black"
		}
		if inv.FromID != 0 {
			v.From = from
		}
		d.Invitations = append(d.Invitations, v)
	}
	gs, err := s.store.API().UserAPIGames(u.ID, store.StatusUnset, 50)
	if err != nil {
		return err
	}
	for _, g := range gs {
		if g.Status == store.StatusPlaying || g.Status == store.StatusWaiting {
			d.MyGames = append(d.MyGames, APIGameView{ID: g.ID, White: g.WhiteName, Black: g.BlackName,
				Since: g.CreatedAt.UTC().Format("2006-01-02 15:04"), ReplayURL: fmt.Sprintf("/bots/games/%d/play", g.ID)})
		}
	}
	return nil
}

func (s *botsPages) handleBotsPage(w http.ResponseWriter, r *http.Request) {
	d, err := s.botsData(r)
	if err != nil {
		s.serverError(w, err)
		return
	}
	s.render(w, r, http.StatusOK, pageBots, d)
}

// parseFormPost checks that a form post comes from this site's own pages
// and parses its (small) body; otherwise it answers 403 or 400.
func (s *site) parseFormPost(w http.ResponseWriter, r *http.Request) bool {
	if !s.checkOrigin(r) {
		http.Error(w, "cross-origin form post refused", http.StatusForbidden)
		return false
	}
	r.Body = http.MaxBytesReader(w, r.Body, rbcapi.BodyLimit)
	if err := r.ParseForm(); err != nil {
		status, msg := formParseRefusal(err)
		http.Error(w, msg, status)
		return false
	}
	return true
}

// finishedAPIGame loads a finished API game named in the path. Finished
// games are public, as on the competition server: their histories reveal
// nothing that still matters.
func (s *botsPages) finishedAPIGame(w http.ResponseWriter, r *http.Request) (*store.APIGame, *recon.History, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	ok := err == nil && id > 0
	var g *store.APIGame
	if ok {
		g, err = s.store.API().GetAPIGame(id)
	}
	switch {
	case !ok || errors.Is(err, store.ErrNotFound):
		s.missing(w, r, noPageTitle, "There is no game of the bots' API at this address: it may have been mistyped.")
		return nil, nil, false
	case err != nil:
		s.serverError(w, err)
		return nil, nil, false
	case g.Status != store.StatusOver:
		s.missing(w, r, notOverTitle, notOverText)
		return nil, nil, false
	}
	h, err := recon.UnmarshalHistory([]byte(g.History))
	if err != nil {
		s.serverError(w, err)
		return nil, nil, false
	}
	return g, h, true
}

func (s *botsPages) handleAPIGameReplay(w http.ResponseWriter, r *http.Request) {
	g, h, ok := s.finishedAPIGame(w, r)
	if ok {
		s.renderReplay(w, r, http.StatusOK, h, fmt.Sprintf("/bots/games/%d/history.json", g.ID))
	}
}

func (s *botsPages) handleAPIGameHistoryFile(w http.ResponseWriter, r *http.Request) {
	g, _, ok := s.finishedAPIGame(w, r)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="knightwatch-api-game-%d.json"`, g.ID))
	_, _ = w.Write([]byte(g.History))
}
