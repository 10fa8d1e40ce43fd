package web

// A player's page, /players/{name}, and the PGN export of the player's
// games, /players/{name}/games.pgn (issue 45). Both are public, as a
// lichess profile is: anyone with the address sees the account's finished
// games, its record against each engine level and its PGN. They show the
// name as registered and the games, nothing else of the account (no owner
// key, email or affiliation), and no unfinished game. A finished game's
// link is its own page for the player (a browser that plays under the
// account's owner key), where the review is, and its read-only spectator
// link (/watch/{token}, which shows the review too) for everyone else; a
// Reconnaissance Chess game's replay opens to its player only, as on the
// home page.

import (
	"bufio"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"knightwatch/game"
	"knightwatch/play"
	"knightwatch/store"
)

const (
	// playerPageSize is how many finished chess games one page of a
	// player's page lists.
	playerPageSize = 50
	// playerReconListSize bounds the player's page's list of finished
	// Reconnaissance Chess games: the newest, with the count of all.
	playerReconListSize = 20
	// pgnExportBatch is how many games the PGN export loads at a time.
	pgnExportBatch = 50
	// maxPlayerNameLen is the longest name the store holds (User.Name):
	// a longer one names nobody, and is not looked up.
	maxPlayerNameLen = 40
)

const (
	noPlayerTitle = "No player by this name"
	noPlayerText  = "No player has this name: it may have been mistyped. Names are those of accounts on this site, in any letter case."
	badPageTitle  = "No such page of games"
)

// playerPages serve a player's page and the PGN export of its games.
type playerPages struct {
	*site
	game *gamePages // its PGN writer, the single-game download's
}

// playerPath is the address of the player's page of the account name.
func playerPath(name string) string { return "/players/" + url.PathEscape(name) }

// PlayerData is player.html's data.
type PlayerData struct {
	// Name is the account's name as registered.
	Name string
	// Mine is set when the visitor plays under the account (its own
	// page): the games' links then open their own pages.
	Mine bool
	// Games is this page's finished chess games, newest first; GameCount
	// how many there are in all, Page this page's number (from 1) of
	// Pages, PrevURL and NextURL the neighbouring pages ("" at an end).
	Games            []PlayerGame
	GameCount        int64
	Page, Pages      int
	PrevURL, NextURL string
	// Record is the player's score against each level played, by level.
	Record []LevelRecordView
	// Recon is the newest finished Reconnaissance Chess games, ReconCount
	// how many there are in all.
	Recon      []PlayerReconGame
	ReconCount int64
	// PGNURL is the export of every finished chess game.
	PGNURL string
}

// PlayerGame is a finished chess game on a player's page, told from the
// player's side.
type PlayerGame struct {
	ID              string
	Date, DateISO   string
	Outcome         string // "won", "lost" or "drawn"
	Result          string // "Won by checkmate", "Drawn by agreement", ...
	Score           string // the PGN result, "1-0"
	Opponent        string // "Level 4 · Club"
	OpponentElo     int    // the level's approximate Elo
	Colour, Variant string
	Moves           int
	Opening         string
	// Accuracy is the player's accuracy in the engine's review, "87%";
	// "" when the game has no complete review (AccuracyNote then says so)
	// or the player made no move in it.
	Accuracy, AccuracyNote string
	// ReviewURL is where the game and its review are shown (the game's
	// page for its player, its spectator link for anyone else).
	ReviewURL string
}

// LevelRecordView is a player's record against one engine level.
type LevelRecordView struct {
	Level                      int
	Name                       string
	ApproxElo                  int
	Wins, Draws, Losses, Games int
	// Score is the points out of the games as a percentage, "62.5%".
	Score string
}

// PlayerReconGame is a finished Reconnaissance Chess game on a player's
// page.
type PlayerReconGame struct {
	Date, DateISO    string
	Opponent, Colour string
	Outcome, Result  string
	// ReplayURL is the replay, "" for a visitor who is not the player.
	ReplayURL string
}

// plausibleName reports whether name could be an account's: short enough
// for the store and plain text (a NUL, which PostgreSQL refuses in text,
// or invalid UTF-8 never reaches a query).
func plausibleName(name string) bool {
	return name != "" && len(name) <= maxPlayerNameLen && utf8.ValidString(name) && !strings.ContainsFunc(name, unicode.IsControl)
}

// player loads the account the request's {name} names, answering 404 in
// words when there is none: no such name, or one of Knightwatch's own
// bots (which play inside the server, never in a browser).
func (p *playerPages) player(w http.ResponseWriter, r *http.Request) (*store.User, bool) {
	name := r.PathValue("name")
	if !plausibleName(name) {
		p.missing(w, r, noPlayerTitle, noPlayerText)
		return nil, false
	}
	u, err := p.store.API().UserByName(name)
	if errors.Is(err, store.ErrNotFound) || (err == nil && u.Builtin != "") {
		p.missing(w, r, noPlayerTitle, noPlayerText)
		return nil, false
	}
	if err != nil {
		p.serverError(w, err)
		return nil, false
	}
	return u, true
}

// pageNumber reads ?page= (1 when absent); false for anything but a
// whole number from 1 on.
func pageNumber(q url.Values) (int, bool) {
	v := q.Get("page")
	if v == "" && !q.Has("page") {
		return 1, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, false
	}
	return n, true
}

func (p *playerPages) handlePlayerPage(w http.ResponseWriter, r *http.Request) {
	u, ok := p.player(w, r)
	if !ok {
		return
	}
	page, ok := pageNumber(r.URL.Query())
	if !ok {
		p.inWords(w, r, http.StatusBadRequest, badPageTitle, "The page of games is a whole number from 1 on, as in ?page=2.")
		return
	}
	owner := u.OwnerKey // "" for an account that never signed in here: no games
	gs, n, err := p.store.Games().FinishedGamesPage(owner, (page-1)*playerPageSize, playerPageSize)
	if err != nil {
		p.serverError(w, err)
		return
	}
	pages := max(1, int((n+playerPageSize-1)/playerPageSize))
	if page > pages {
		p.missing(w, r, badPageTitle, fmt.Sprintf("%s's games fill %d %s; there is no page %d.", u.Name, pages, plural(pages, "page", "pages"), page))
		return
	}
	d := &PlayerData{Name: u.Name, Mine: owner != "" && p.currentOwner(r) == owner, GameCount: n, Page: page, Pages: pages,
		Games: []PlayerGame{}, Record: []LevelRecordView{}, Recon: []PlayerReconGame{}}
	base := playerPath(u.Name)
	d.PGNURL = base + "/games.pgn"
	if page > 1 {
		d.PrevURL = base + "?page=" + strconv.Itoa(page-1)
		if page == 2 {
			d.PrevURL = base
		}
	}
	if page < pages {
		d.NextURL = base + "?page=" + strconv.Itoa(page+1)
	}
	if err := p.fillGames(r, d, gs); err != nil {
		p.serverError(w, err)
		return
	}
	recs, err := p.store.Games().RecordByLevel(owner)
	if err != nil {
		p.serverError(w, err)
		return
	}
	for _, rec := range recs {
		lv := p.games.Level(rec.Level)
		d.Record = append(d.Record, LevelRecordView{Level: rec.Level, Name: lv.Name, ApproxElo: lv.ApproxElo,
			Wins: rec.Wins, Draws: rec.Draws, Losses: rec.Losses, Games: rec.Games(),
			Score: strconv.FormatFloat(100*(float64(rec.Wins)+float64(rec.Draws)/2)/float64(rec.Games()), 'f', -1, 64) + "%"})
	}
	rgs, rn, err := p.store.Games().FinishedReconGames(owner, playerReconListSize)
	if err != nil {
		p.serverError(w, err)
		return
	}
	d.ReconCount = rn
	for i := range rgs {
		d.Recon = append(d.Recon, playerReconGame(&rgs[i], d.Mine))
	}
	p.render(w, r, http.StatusOK, pagePlayer, d)
}

// fillGames adds gs to d as the player sees them, with the accuracy of
// each complete review.
func (p *playerPages) fillGames(r *http.Request, d *PlayerData, gs []store.Game) error {
	ids := make([]string, len(gs))
	for i := range gs {
		ids[i] = gs[i].ID
	}
	reviews, err := p.store.Reviews().CompleteAnalyses(ids)
	if err != nil {
		return err
	}
	for i := range gs {
		g := &gs[i]
		lv := p.games.Level(g.Level)
		outcome, result := resultFromSide(g.Human, g.Result, g.Reason.Termination)
		date := g.CreatedAt
		if g.FinishedAt != nil {
			date = *g.FinishedAt
		}
		variant := "Standard"
		if g.Variant == VariantChess960 {
			variant = "Chess960"
		}
		pg := PlayerGame{
			ID: g.ID, Date: date.UTC().Format("2006-01-02"), DateISO: date.UTC().Format(time.RFC3339),
			Outcome: outcome, Result: result, Score: g.Result,
			Opponent: fmt.Sprintf("Level %d · %s", g.Level, lv.Name), OpponentElo: lv.ApproxElo,
			Colour: colourName(g.Human), Variant: variant, Moves: (len(g.MoveList()) + 1) / 2,
			Opening: play.OpeningName(g),
		}
		pg.Accuracy, pg.AccuracyNote = accuracyWords(reviews, g)
		if d.Mine {
			pg.ReviewURL = "/game/" + g.ID
		} else {
			// Made here for a row older than the column (one write, the
			// first time); a newer game has had one since its creation.
			// Without it the row goes without its link rather than the
			// page failing.
			if g.WatchToken != nil {
				pg.ReviewURL = watchPath(*g.WatchToken)
			} else if tok, err := p.store.Games().EnsureWatchToken(g.ID); err == nil {
				pg.ReviewURL = watchPath(tok)
			} else {
				p.logf("player page: %v", err)
			}
		}
		d.Games = append(d.Games, pg)
	}
	return nil
}

// accuracyWords is the player's accuracy in game g's review, or why there
// is none.
func accuracyWords(reviews map[string]store.Analysis, g *store.Game) (accuracy, note string) {
	a, ok := reviews[g.ID]
	if !ok {
		return "", "not reviewed yet"
	}
	acc := a.WhiteAccuracy
	if g.Human == store.Black {
		acc = a.BlackAccuracy
	}
	if acc == nil {
		return "", "no move of the player's to judge"
	}
	return strconv.FormatFloat(*acc, 'f', 0, 64) + "%", ""
}

// resultFromSide says how a finished game went for the player who had
// colour human: the outcome ("won", "lost", "drawn", or "" for a result
// that is none of them) and a sentence ("Won by checkmate").
func resultFromSide(human store.Color, result string, reason game.Termination) (outcome, words string) {
	won, lost := string(game.WhiteWins), string(game.BlackWins)
	if human == store.Black {
		won, lost = lost, won
	}
	switch result {
	case won:
		outcome, words = "won", "Won"
	case lost:
		outcome, words = "lost", "Lost"
	case string(game.Draw):
		outcome, words = "drawn", "Drawn"
	default:
		return "", "Ended"
	}
	if how := terminationWords(reason); how != "" {
		words += " " + how
	}
	return outcome, words
}

// terminationWords says how a game ended after "Won", "Lost" or "Drawn".
func terminationWords(t game.Termination) string {
	switch t {
	case game.NotOver:
		return ""
	case game.Checkmate:
		return "by checkmate"
	case game.Resignation:
		return "by resignation"
	case game.TimeForfeit:
		return "on time"
	case game.DrawAgreed:
		return "by agreement"
	case game.Stalemate:
		return "by stalemate"
	case game.InsufficientMaterial:
		return "by insufficient material"
	case game.ThreefoldRepetition, game.FivefoldRepetition:
		return "by repetition"
	case game.FiftyMoves:
		return "by the fifty-move rule"
	case game.SeventyFiveMoves:
		return "by the seventy-five-move rule"
	}
	return "by " + t.String()
}

// playerReconGame is g as a player's page lists it; mine: the visitor is
// its player, who may open its replay.
func playerReconGame(g *store.ReconGame, mine bool) PlayerReconGame {
	date := g.UpdatedAt
	if g.FinishedAt != nil {
		date = *g.FinishedAt
	}
	out := PlayerReconGame{Date: date.UTC().Format("2006-01-02"), DateISO: date.UTC().Format(time.RFC3339),
		Opponent: play.OpponentName(g.Opponent), Colour: colourName(g.Human)}
	won, lost := "1-0", "0-1"
	if g.Human == store.Black {
		won, lost = lost, won
	}
	switch g.Result {
	case won:
		out.Outcome, out.Result = "won", "Won"
	case lost:
		out.Outcome, out.Result = "lost", "Lost"
	case "1/2-1/2":
		out.Outcome, out.Result = "drawn", "Drawn"
	default:
		out.Result = "Ended"
	}
	if how := winReasonWords(g.Reason); how != "" {
		out.Result += ": " + how
	}
	if mine {
		out.ReplayURL = "/game/" + g.ID + "/replay"
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// pgnFileName is the export's file name: the account's name where it is
// safe in a file name (a username is, as rbcapi allows them), else
// "player".
func pgnFileName(name string) string {
	safe := name != ""
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			safe = false
			break
		}
	}
	if !safe {
		name = "player"
	}
	return "knightwatch-" + name + "-games.pgn"
}

// handleGamesPGN writes every finished chess game of the player as one
// PGN file, newest first, each as the single-game download writes it.
// It streams: the games are read a batch at a time and written as they
// come, and each batch gives the response another write timeout, so that
// a long export is bounded per batch rather than as a whole. A player
// without a finished game gets an empty file (a PGN file of no games).
// An error once the file has begun cannot change the status: the file is
// cut there, and the log says why.
func (p *playerPages) handleGamesPGN(w http.ResponseWriter, r *http.Request) {
	u, ok := p.player(w, r)
	if !ok {
		return
	}
	ids, err := p.store.Games().FinishedGameIDs(u.OwnerKey)
	if err != nil {
		p.serverError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+pgnFileName(u.Name)+`"`)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	site := p.siteURL(r)
	rc := http.NewResponseController(w)
	bw := bufio.NewWriterSize(w, 32<<10)
	for start := 0; start < len(ids); start += pgnExportBatch {
		batch := ids[start:min(start+pgnExportBatch, len(ids))]
		gs, err := p.store.Games().OwnedGames(u.OwnerKey, batch)
		if err != nil {
			p.logf("PGN export of %s cut after %d games: %v", u.Name, start, err)
			break
		}
		for i := range gs {
			if err := p.game.writePGN(bw, &gs[i], site); err != nil {
				// A record that does not replay is left out; the rest
				// of the file is still worth having.
				p.logf("PGN export of %s: game %s left out: %v", u.Name, gs[i].ID, err)
			}
		}
		if err := bw.Flush(); err != nil {
			return // the client went away
		}
		if wt := p.writeTimeout(); wt > 0 {
			_ = rc.SetWriteDeadline(time.Now().Add(wt))
		}
	}
	_ = bw.Flush()
}

// writeTimeout is the bound on writing one response
// (Config.RequestWriteTimeout, its default when 0; none when negative).
func (s *site) writeTimeout() time.Duration {
	if s.cfg.RequestWriteTimeout == 0 {
		return DefaultRequestWriteTimeout
	}
	return s.cfg.RequestWriteTimeout
}
