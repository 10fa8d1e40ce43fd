package web

// The home page's list of every unfinished game of the visitor (issue 34),
// with Continue, Resign and Delete on each row. Resigning and deleting are
// play's (Games.Resign, Games.Delete): through the game's host, so that
// the record, the clock charge and any open tab see exactly what the game
// page's own Resign does; a deleted game's tabs are told and sent home,
// then hung up here.

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"knightwatch/live"
	"knightwatch/play"
	"knightwatch/recon"
	"knightwatch/store"
)

// unfinishedListSize bounds the home page's list of unfinished games; the
// page says how many there are in all.
const unfinishedListSize = 50

// UnfinishedSummary is one row of the home page's list of unfinished games.
type UnfinishedSummary struct {
	ID, URL, ResignURL, DeleteURL string
	Kind                          string // "chess" or "recon"
	Opponent                      string // the level's or bot's name
	Variant                       string // "Standard", "Chess960", "Reconnaissance"
	Colour                        string // "White" or "Black"
	Clock                         string // "5+3" or "no clock"
	MoveNumber                    int    // the move now being played
	LastActivity                  string // relative: "3 min ago"
	LastActivityExact             string // "2026-11-25 16:40 UTC", for the title
	LastActivityISO               string // for <time datetime>
	at                            time.Time
}

// Notices the home page shows after an action (?done=...).
var homeNotices = map[string]string{
	"resigned": "You resigned the game. It is now in your finished games.",
	"deleted":  "The game was deleted.",
}

// deletedURL is where a page or tab of a deleted game is sent.
const deletedURL = "/?done=deleted"

func colourName(c store.Color) string {
	if c == store.Black {
		return "Black"
	}
	return "White"
}

// clockText writes a clock setting as the form offers it: "5+3", "no clock".
func clockText(initialMS, incMS int64) string {
	if initialMS <= 0 {
		return "no clock"
	}
	min := strconv.FormatFloat(float64(initialMS)/60000, 'f', -1, 64)
	return min + "+" + strconv.FormatInt(incMS/1000, 10)
}

// relativeTime writes t relative to now: "just now", "5 min ago", "2 h ago",
// "3 days ago", then the date.
func relativeTime(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%d h ago", int(d/time.Hour))
	case d < 48*time.Hour:
		return "yesterday"
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%d days ago", int(d/(24*time.Hour)))
	}
	return t.UTC().Format("2006-01-02")
}

// moveNumber is the number of the move being played after plies half-moves
// from the start FEN (its side to move and full-move counter).
func moveNumber(startFEN string, plies int) int {
	f := strings.Fields(startFEN)
	full, black := 1, false
	if len(f) >= 6 {
		if n, err := strconv.Atoi(f[5]); err == nil && n > 0 {
			full = n
		}
		black = f[1] == "b"
	}
	if black {
		plies++
	}
	return full + plies/2
}

func (s *homePages) unfinishedSummary(g *store.Game, now time.Time) UnfinishedSummary {
	variant := "Standard"
	if g.Variant == VariantChess960 {
		variant = "Chess960"
	}
	u := UnfinishedSummary{
		ID: g.ID, Kind: "chess", Opponent: s.games.Level(g.Level).Name, Variant: variant,
		Colour: colourName(g.Human), Clock: clockText(g.ClockInitialMS, g.ClockIncrementMS),
		MoveNumber: moveNumber(g.StartFEN, len(g.MoveList())), at: g.UpdatedAt,
	}
	u.fill(now)
	return u
}

func reconUnfinishedSummary(g *store.ReconGame, now time.Time) UnfinishedSummary {
	plies := 0
	if h, err := recon.UnmarshalHistory([]byte(g.History)); err == nil {
		plies = len(h.RequestedMoves[0]) + len(h.RequestedMoves[1])
	}
	u := UnfinishedSummary{
		ID: g.ID, Kind: "recon", Opponent: play.OpponentName(g.Opponent), Variant: "Reconnaissance",
		Colour: colourName(g.Human), Clock: clockText(g.ClockInitialMS, g.ClockIncrementMS),
		MoveNumber: 1 + plies/2, at: g.UpdatedAt,
	}
	u.fill(now)
	return u
}

func (u *UnfinishedSummary) fill(now time.Time) {
	u.URL = "/game/" + u.ID
	u.ResignURL = u.URL + "/resign"
	u.DeleteURL = u.URL + "/delete"
	u.LastActivity = relativeTime(u.at, now)
	u.LastActivityExact = u.at.UTC().Format("2006-01-02 15:04 UTC")
	u.LastActivityISO = u.at.UTC().Format(time.RFC3339)
}

// unfinishedList fills the home page's list: the owner's unfinished chess
// and Reconnaissance Chess games, most recently active first, at most
// unfinishedListSize of them, and how many there are in all.
func (s *homePages) unfinishedList(d *HomeData, owner string) error {
	d.Unfinished = []UnfinishedSummary{}
	if owner == "" {
		return nil
	}
	gs, n, err := s.store.Games().UnfinishedGames(owner, unfinishedListSize)
	if err != nil {
		return err
	}
	rs, rn, err := s.store.Games().UnfinishedReconGames(owner, unfinishedListSize)
	if err != nil {
		return err
	}
	now := time.Now()
	for i := range gs {
		d.Unfinished = append(d.Unfinished, s.unfinishedSummary(&gs[i], now))
	}
	for i := range rs {
		d.Unfinished = append(d.Unfinished, reconUnfinishedSummary(&rs[i], now))
	}
	sort.SliceStable(d.Unfinished, func(i, j int) bool { return d.Unfinished[i].at.After(d.Unfinished[j].at) })
	if len(d.Unfinished) > unfinishedListSize {
		d.Unfinished = d.Unfinished[:unfinishedListSize]
	}
	d.UnfinishedCount = int(n + rn)
	return nil
}

// ListConfirm is the home page's question before a Resign or Delete
// posted without confirm=yes (no JavaScript, so no confirm() dialog): the
// action happens only when the person answers yes.
type ListConfirm struct {
	Action   string // "resign" or "delete"
	Question string
	PostURL  string
	Game     UnfinishedSummary
}

// listConfirm fills d.Confirm from ?confirm=resign|delete&game=ID when
// that game is in the visitor's list.
func listConfirm(d *HomeData, q url.Values) {
	action, id := q.Get("confirm"), q.Get("game")
	if action != "resign" && action != "delete" {
		return
	}
	for _, u := range d.Unfinished {
		if u.ID != id {
			continue
		}
		c := &ListConfirm{Action: action, Game: u}
		if action == "resign" {
			c.PostURL = u.ResignURL
			c.Question = fmt.Sprintf("Resign your game against %s (%s, move %d)? It counts as a loss.", u.Opponent, u.Colour, u.MoveNumber)
		} else {
			c.PostURL = u.DeleteURL
			c.Question = fmt.Sprintf("Delete your unfinished game against %s (%s, move %d)? It disappears from your games for good.", u.Opponent, u.Colour, u.MoveNumber)
		}
		d.Confirm = c
		return
	}
}

// confirmed reports whether a list action's post says the person agreed
// (confirm=yes); otherwise it sends them to the home page's question.
func confirmed(w http.ResponseWriter, r *http.Request, action string) bool {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<10)
	if err := r.ParseForm(); err == nil && r.PostForm.Get("confirm") == "yes" {
		return true
	}
	q := url.Values{"confirm": {action}, "game": {r.PathValue("id")}}
	http.Redirect(w, r, "/?"+q.Encode()+"#list-confirm", http.StatusSeeOther)
	return false
}

// listAction checks a Resign or Delete post from the home page's list and
// returns the owner; false when it has replied already. A post without a
// session, or for a game that is not the visitor's, gets 404: the two are
// indistinguishable, as everywhere.
func (s *homePages) listAction(w http.ResponseWriter, r *http.Request) (string, bool) {
	if !s.checkOrigin(r) {
		http.Error(w, "cross-origin form post refused", http.StatusForbidden)
		return "", false
	}
	owner := s.currentOwner(r)
	if owner == "" {
		s.missing(w, r, notYoursTitle, notYoursText)
		return "", false
	}
	return owner, true
}

func (s *homePages) listActionDone(w http.ResponseWriter, r *http.Request, err error, done string) {
	switch {
	case err == nil:
		http.Redirect(w, r, "/?done="+url.QueryEscape(done), http.StatusSeeOther)
	case errors.Is(err, store.ErrNotFound):
		s.missing(w, r, notYoursTitle, notYoursText)
	case errors.Is(err, play.ErrNotUnfinished):
		s.inWords(w, r, http.StatusConflict, "This game is already over", "This game ended before your answer arrived: it is now in your finished games.")
	case errors.Is(err, live.ErrStopped):
		http.Error(w, "the server is shutting down", http.StatusServiceUnavailable)
	default:
		s.serverError(w, err)
	}
}

// handleListResign resigns the visitor's unfinished game: POST /game/{id}/resign.
func (s *homePages) handleListResign(w http.ResponseWriter, r *http.Request) {
	owner, ok := s.listAction(w, r)
	if !ok || !confirmed(w, r, "resign") {
		return
	}
	s.listActionDone(w, r, s.games.Resign(r.PathValue("id"), owner), "resigned")
}

// handleListDelete deletes the visitor's unfinished game: POST /game/{id}/delete.
func (s *homePages) handleListDelete(w http.ResponseWriter, r *http.Request) {
	owner, ok := s.listAction(w, r)
	if !ok || !confirmed(w, r, "delete") {
		return
	}
	subs, err := s.games.Delete(r.PathValue("id"), owner)
	for _, sub := range subs {
		sub.(*client).stop() // told by play; its pumps close it
	}
	s.listActionDone(w, r, err, "deleted")
}
