package web

import (
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
	"knightwatch/store"

	_ "github.com/mattn/go-sqlite3" // the "sqlite3" driver, for a connection of the test's own
)

// playerEnv is a server with accounts for the player-page tests: alice,
// whose games a browser (aliceBrowser) plays under, with finished chess
// games (one reviewed), an unfinished one and finished Reconnaissance
// Chess games; bob, who never signed in to the site (no owner key); a
// built-in bot's account; and another browser's finished game.
type playerEnv struct {
	*testEnv
	aliceBrowser *http.Client
	alice        *store.User
	// finished is alice's finished chess games, newest first.
	finished []*store.Game
	reviewed *store.Game
}

// playerGameMoves are the games alice finished, in turn: the move list,
// her colour, the result and how it ended.
var playerGameMoves = []struct {
	moves  string
	human  store.Color
	result string
	reason game.Termination
}{
	{"f2f3 e7e5 g2g4 d8h4", store.White, "0-1", game.Checkmate},
	{"e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7", store.White, "1-0", game.Checkmate},
	{"d2d4 d7d5", store.Black, "1/2-1/2", game.DrawAgreed},
	{"e2e4", store.Black, "1-0", game.Resignation},
	{"", store.White, "0-1", game.TimeForfeit},
}

// newPlayerEnv builds the accounts and n finished chess games of alice's
// (playerGameMoves in turn, at levels 1 to 3, finished a minute apart).
func newPlayerEnv(t *testing.T, n int) *playerEnv {
	t.Helper()
	e := &playerEnv{testEnv: newEnv(t, envOpts{noEngine: true})}
	e.aliceBrowser = e.browser()
	if _, err := e.aliceBrowser.Get(e.ts.URL + "/"); err != nil { // the session cookie, its owner key
		t.Fatal(err)
	}
	owner := e.ownerOf(e.aliceBrowser)
	api := e.store.API()
	e.alice = &store.User{Name: "Alice", Email: "alice@example.org", PasswordHash: []byte("x")}
	for _, u := range []*store.User{e.alice, {Name: "bob", Email: "bob@example.org", PasswordHash: []byte("x")},
		{Name: "robot-x", Builtin: "random", PasswordHash: []byte{}}} {
		if err := api.CreateUser(u); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := api.AccountOwnerKey(e.alice.ID, owner); err != nil {
		t.Fatal(err)
	}
	e.alice.OwnerKey = owner
	base := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	for i := 0; i < n; i++ {
		m := playerGameMoves[i%len(playerGameMoves)]
		fin := base.Add(time.Duration(i) * time.Minute)
		g := &store.Game{Owner: owner, Variant: VariantStandard, StartFEN: game.StartFEN, Moves: m.moves, Human: m.human,
			Level: 1 + i%3, Status: store.StatusOver, Result: m.result, Reason: store.TerminationOf(m.reason),
			CreatedAt: base, UpdatedAt: fin, FinishedAt: &fin}
		if err := e.store.Games().CreateGame(g); err != nil {
			t.Fatal(err)
		}
		e.finished = append([]*store.Game{g}, e.finished...)
	}
	// Someone else's finished game and alice's unfinished one: on no page.
	for _, g := range []*store.Game{
		{Owner: newOwnerKey(), Variant: VariantStandard, StartFEN: game.StartFEN, Moves: "e2e4", Human: store.White, Level: 8,
			Status: store.StatusOver, Result: "1-0", Reason: store.TerminationOf(game.Resignation), FinishedAt: &base},
		{Owner: owner, Variant: VariantStandard, StartFEN: game.StartFEN, Moves: "e2e4", Human: store.White, Level: 8},
	} {
		if err := e.store.Games().CreateGame(g); err != nil {
			t.Fatal(err)
		}
	}
	if n > 0 {
		// The newest game reviewed: alice's accuracy, and evaluations in the PGN.
		e.reviewed = e.finished[0]
		rg, err := e.reviewed.Replay()
		if err != nil {
			t.Fatal(err)
		}
		acc := 91.2
		a := &store.Analysis{GameID: e.reviewed.ID, Settings: "test", Positions: rg.Len() + 1, Complete: true, WhiteAccuracy: &acc, BlackAccuracy: &acc}
		var plies []store.AnalysisPly
		for i := 0; i <= rg.Len(); i++ {
			plies = append(plies, store.AnalysisPly{GameID: a.GameID, Ply: i, CP: 10 * i})
		}
		if err := e.store.Reviews().SaveAnalysis(a, plies, false); err != nil {
			t.Fatal(err)
		}
	}
	for i, res := range []string{"1-0", "0-1"} {
		fin := base.Add(time.Duration(i) * time.Hour)
		g := &store.ReconGame{Owner: owner, Human: store.White, Opponent: "random", Status: store.StatusOver, Result: res,
			Reason: store.WinReasonOf(recon.KingCapture), UpdatedAt: fin, FinishedAt: &fin}
		if err := e.store.Games().CreateReconGame(g); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// get fetches path with c (a browser asking for a page when page is set)
// and returns the status, the body and the response.
func (e *playerEnv) get(t *testing.T, c *http.Client, path string, page bool) (int, string, *http.Response) {
	t.Helper()
	req, err := http.NewRequest("GET", e.ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if page {
		req.Header.Set("Accept", "text/html")
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), resp
}

var gameLine = regexp.MustCompile(`<p class="game" data-id="([^"]+)">([^<]*)</p>`)

// TestPlayerPage: the page lists the account's finished games from the
// player's side, newest first, with the record per level and the
// Reconnaissance Chess games; the player's own browser gets the games'
// own pages, anyone else their spectator links; nothing of the account but
// its name shows.
func TestPlayerPage(t *testing.T) {
	e := newPlayerEnv(t, len(playerGameMoves))
	stranger := e.browser()
	for _, tc := range []struct {
		name   string
		c      *http.Client
		path   string
		mine   bool
		review string // how the first game's link starts
		replay string // how a recon game's row ends
	}{
		{"stranger", stranger, "/players/alice", false, "/watch/", "|"},
		{"stranger, name in another case", stranger, "/players/ALICE", false, "/watch/", "|"},
		{"the player", e.aliceBrowser, "/players/Alice", true, "/game/", "/replay"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body, _ := e.get(t, tc.c, tc.path, true)
			if status != http.StatusOK {
				t.Fatalf("status %d: %s", status, body)
			}
			if !strings.Contains(body, `data-mine="`+fmt.Sprint(tc.mine)+`"`) || !strings.Contains(body, `data-count="5"`) ||
				!strings.Contains(body, `<title>Alice</title>`) || !strings.Contains(body, `href="/players/Alice/games.pgn"`) {
				t.Errorf("page head:\n%s", body)
			}
			for _, secret := range []string{e.alice.OwnerKey, "alice@example.org"} {
				if strings.Contains(body, secret) {
					t.Errorf("the page shows %q", secret)
				}
			}
			rows := gameLine.FindAllStringSubmatch(body, -1)
			if len(rows) != len(e.finished) {
				t.Fatalf("%d games listed, want %d:\n%s", len(rows), len(e.finished), body)
			}
			// Newest first: the fifth game (a loss on time, reviewed), then the
			// fourth (lost as Black by resigning), ...
			want := []string{
				"lost|Lost on time|Level 2 · L2|White|91%|",
				"lost|Lost by resignation|Level 1 · L1|Black|not reviewed yet|",
				"drawn|Drawn by agreement|Level 3 · L3|Black|not reviewed yet|",
				"won|Won by checkmate|Level 2 · L2|White|not reviewed yet|",
				"lost|Lost by checkmate|Level 1 · L1|White|not reviewed yet|",
			}
			for i, row := range rows {
				if row[1] != e.finished[i].ID || !strings.HasPrefix(row[2], want[i]) {
					t.Errorf("game %d: %s %q, want %s %q", i, row[1], row[2], e.finished[i].ID, want[i])
				}
				link := row[2][strings.LastIndex(row[2], "|")+1:]
				if !strings.HasPrefix(link, tc.review) {
					t.Errorf("game %d's link %q, want it to start %q", i, link, tc.review)
				}
				if tc.mine && link != "/game/"+row[1] {
					t.Errorf("game %d's link %q", i, link)
				}
			}
			if tc.mine {
				return
			}
			// A stranger's link opens the game's review, read-only.
			link := rows[0][2][strings.LastIndex(rows[0][2], "|")+1:]
			if st, b, _ := e.get(t, stranger, link, true); st != http.StatusOK || !strings.Contains(b, "watch-page") {
				t.Errorf("%s: %d %s", link, st, b)
			}
		})
	}
	t.Run("record and recon", func(t *testing.T) {
		_, body, _ := e.get(t, e.aliceBrowser, "/players/alice", true)
		for _, want := range []string{
			`<p class="record">1|L1|0|0|2|0%</p>`,
			`<p class="record">2|L2|1|0|1|50%</p>`,
			`<p class="record">3|L3|0|1|0|50%</p>`,
			`<p class="recon">lost|Lost: king captured|Random|White|/game/`,
			`<p class="recon">won|Won: king captured|Random|White|/game/`,
		} {
			if !strings.Contains(body, want) {
				t.Errorf("no %s in\n%s", want, body)
			}
		}
		_, body, _ = e.get(t, stranger, "/players/alice", true)
		if strings.Contains(body, "/replay") {
			t.Errorf("a stranger is given a replay link:\n%s", body)
		}
	})
}

// TestPlayerPageNoGames: an account that never played in the browser, or
// never signed in to the site, has a page that says so, without a PGN
// link's games; a name of nobody's, or of a built-in bot, gets the 404
// page in words; so does any odd name, which changes nothing.
func TestPlayerPageNoGames(t *testing.T) {
	e := newPlayerEnv(t, 0)
	c := e.browser()
	long := strings.Repeat("a", maxPlayerNameLen+1)
	for _, tc := range []struct {
		path   string
		status int
		want   string
	}{
		{"/players/bob", http.StatusOK, `data-count="0"`},
		{"/players/alice", http.StatusOK, `data-recon="2"`},
		{"/players/nobody", http.StatusNotFound, noPlayerText},
		{"/players/robot-x", http.StatusNotFound, noPlayerText},
		{"/players/%00", http.StatusNotFound, noPlayerText},
		{"/players/%FF%FE", http.StatusNotFound, noPlayerText},
		{"/players/a%0Ab", http.StatusNotFound, noPlayerText},
		{"/players/%3Cscript%3Ealert(1)%3C%2Fscript%3E", http.StatusNotFound, noPlayerText},
		{"/players/al%2Fice", http.StatusNotFound, noPlayerText},
		{"/players/" + long, http.StatusNotFound, noPlayerText},
		{"/players/%E2%99%9E", http.StatusNotFound, noPlayerText},
		{"/players/nobody/games.pgn", http.StatusNotFound, noPlayerText},
		{"/players/%00/games.pgn", http.StatusNotFound, noPlayerText},
	} {
		t.Run(tc.path, func(t *testing.T) {
			status, body, _ := e.get(t, c, tc.path, true)
			if status != tc.status || !strings.Contains(body, tc.want) {
				t.Errorf("%d %s, want %d with %q", status, body, tc.status, tc.want)
			}
			if strings.Contains(body, "<script>") {
				t.Errorf("the name is not escaped: %s", body)
			}
		})
	}
}

// TestPlayerPagePages: a page holds playerPageSize games; the next holds
// the rest; a page number that is no number is refused in words, one past
// the end is 404.
func TestPlayerPagePages(t *testing.T) {
	e := newPlayerEnv(t, playerPageSize+3)
	c := e.browser()
	for _, tc := range []struct {
		query      string
		status     int
		games      int
		first      int // index in e.finished of the first game listed
		prev, next string
	}{
		{"", http.StatusOK, playerPageSize, 0, "", "/players/Alice?page=2"},
		{"?page=1", http.StatusOK, playerPageSize, 0, "", "/players/Alice?page=2"},
		{"?page=2", http.StatusOK, 3, playerPageSize, "/players/Alice", ""},
		{"?page=3", http.StatusNotFound, 0, 0, "", ""},
		{"?page=0", http.StatusBadRequest, 0, 0, "", ""},
		{"?page=-1", http.StatusBadRequest, 0, 0, "", ""},
		{"?page=two", http.StatusBadRequest, 0, 0, "", ""},
		{"?page=", http.StatusBadRequest, 0, 0, "", ""},
		{"?page=99999999999999999999", http.StatusBadRequest, 0, 0, "", ""},
	} {
		t.Run(tc.query, func(t *testing.T) {
			status, body, _ := e.get(t, c, "/players/alice"+tc.query, true)
			if status != tc.status {
				t.Fatalf("status %d, want %d: %s", status, tc.status, body)
			}
			if status != http.StatusOK {
				if !strings.Contains(body, badPageTitle) {
					t.Errorf("the refusal is not in words: %s", body)
				}
				return
			}
			rows := gameLine.FindAllStringSubmatch(body, -1)
			if len(rows) != tc.games || rows[0][1] != e.finished[tc.first].ID {
				t.Errorf("%d games from %s, want %d from %s", len(rows), rows[0][1], tc.games, e.finished[tc.first].ID)
			}
			if !strings.Contains(body, `data-prev="`+tc.prev+`"`) || !strings.Contains(body, `data-next="`+tc.next+`"`) {
				t.Errorf("links: want prev %q next %q in %s", tc.prev, tc.next, body[:300])
			}
		})
	}
}

// TestPlayerPGNExport: the export is every finished chess game of the
// player's, newest first, as the single-game download writes each (the
// review's evaluations included), and reads back through the game
// package's PGN reader with every move; more games than a batch come
// whole. A player without games gets an empty file.
func TestPlayerPGNExport(t *testing.T) {
	e := newPlayerEnv(t, pgnExportBatch+7)
	for _, tc := range []struct {
		path, file string
		games      []*store.Game
	}{
		{"/players/alice/games.pgn", "knightwatch-Alice-games.pgn", e.finished},
		{"/players/BOB/games.pgn", "knightwatch-bob-games.pgn", nil},
	} {
		t.Run(tc.path, func(t *testing.T) {
			status, body, resp := e.get(t, e.browser(), tc.path, false)
			if status != http.StatusOK {
				t.Fatalf("status %d: %s", status, body)
			}
			if cd := resp.Header.Get("Content-Disposition"); cd != `attachment; filename="`+tc.file+`"` {
				t.Errorf("Content-Disposition %q", cd)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-chess-pgn") {
				t.Errorf("Content-Type %q", ct)
			}
			pgs, err := game.ReadPGN(strings.NewReader(body))
			if err != nil || len(pgs) != len(tc.games) {
				t.Fatalf("read back: %v, %d games, want %d", err, len(pgs), len(tc.games))
			}
			for i, pg := range pgs {
				rec := tc.games[i]
				g, err := pg.Mainline()
				if err != nil {
					t.Fatalf("game %d: %v", i, err)
				}
				var moves []string
				for j, m := range g.Moves() {
					moves = append(moves, g.PositionAt(j).UCI(m))
				}
				if strings.Join(moves, " ") != rec.Moves || string(pg.Result) != rec.Result ||
					pg.Tag("Site") != e.ts.URL+"/game/"+rec.ID || pg.Tag("Termination") != rec.Reason.String() {
					t.Errorf("game %d reads back as %v %s %s %q, want %s %q %s", i, moves, pg.Result, pg.Tag("Site"), pg.Tag("Termination"), rec.ID, rec.Moves, rec.Result)
				}
				reviewed := e.reviewed != nil && rec.ID == e.reviewed.ID && len(moves) > 0
				if hasEval := pg.Root.Variations != nil && strings.Contains(pg.Root.Variations[0].Comment, "[%eval"); hasEval != reviewed {
					t.Errorf("game %d: evaluations %v, want %v", i, hasEval, reviewed)
				}
			}
			if len(tc.games) == 0 && body != "" {
				t.Errorf("no games, yet %q", body)
			}
		})
	}
	// The export and the single-game download write a game alike.
	_, one, _ := e.get(t, e.aliceBrowser, "/game/"+e.finished[1].ID+"/pgn", false)
	_, all, _ := e.get(t, e.aliceBrowser, "/players/alice/games.pgn", false)
	if !strings.Contains(all, one) {
		t.Errorf("the export does not hold the single download's text:\n%s", one)
	}
}

// TestPlayerTemplate: the real player.html renders a page with games, an
// empty one and the player's own, with what each should and should not
// show.
func TestPlayerTemplate(t *testing.T) {
	srv := realHomeServer(t)
	pgm := PlayerGame{ID: "g_1", Date: "2026-05-06", DateISO: "2026-05-06T07:08:09Z", Outcome: "won", Result: "Won by checkmate",
		Score: "1-0", Opponent: "Level 4 · Club", OpponentElo: 1450, Colour: "White", Variant: "Standard", Moves: 23,
		Opening: "B20 Sicilian Defense", Accuracy: "87%", ReviewURL: "/watch/tok"}
	full := &PlayerData{Name: "Alice", GameCount: 1, Page: 1, Pages: 1, PGNURL: "/players/Alice/games.pgn",
		Games:  []PlayerGame{pgm},
		Record: []LevelRecordView{{Level: 4, Name: "Club", ApproxElo: 1450, Wins: 1, Games: 1, Score: "100%"}},
		Recon:  []PlayerReconGame{{Date: "2026-05-06", Opponent: "Random", Colour: "Black", Outcome: "lost", Result: "Lost: king captured", ReplayURL: "/game/r_1/replay"}}, ReconCount: 1}
	mine := *full
	mine.Mine = true
	for _, tc := range []struct {
		name          string
		data          *PlayerData
		want, notWant []string
	}{
		{"a stranger's view", full,
			[]string{"<h1 id=\"player-title\">Alice</h1>", "Download all games (PGN)", "Won by checkmate", "Level 4 · Club", "87%", `href="/watch/tok"`, "Lost: king captured"},
			[]string{"This is your page", "/replay"}},
		{"the player's view", &mine, []string{"This is your page", `href="/game/r_1/replay"`}, nil},
		{"no games", &PlayerData{Name: "bob", Page: 1, Pages: 1, PGNURL: "/players/bob/games.pgn"},
			[]string{"bob has no finished game of chess yet", "No finished game of chess against Knightwatch yet"},
			[]string{"Download all games", "player-record", "player-recon"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			srv.render(rec, httptest.NewRequest("GET", "/players/bob", nil), http.StatusOK, pagePlayer, tc.data)
			body := rec.Body.String()
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d: %s", rec.Code, body)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("no %q in the page", w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(body, w) {
					t.Errorf("%q in the page", w)
				}
			}
		})
	}
}

// TestHomeLinksPlayerPage: the home page of a browser signed in to an
// account links the account's page; signed out, it links none.
func TestHomeLinksPlayerPage(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	e.apiClient("ann-1", "ann's password").register()
	for _, tc := range []struct {
		name   string
		signIn bool
		want   string
	}{
		{"signed out", false, ""},
		{"signed in", true, `<a id="player-page-link" href="/players/ann-1">`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := e.browser()
			if tc.signIn {
				e.signIn(c, "ann-1", "ann's password")
			}
			resp, err := c.Get(e.ts.URL + "/")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			has := strings.Contains(string(body), "player-page-link")
			if has != (tc.want != "") || (tc.want != "" && !strings.Contains(string(body), tc.want)) {
				t.Errorf("want %q in %s", tc.want, body)
			}
		})
	}
}

// TestPlayerPageOldGameWithoutWatchToken: a game stored before watch
// tokens existed gets its token when a stranger first sees it on the
// player's page, and keeps it: the same link on every later visit.
func TestPlayerPageOldGameWithoutWatchToken(t *testing.T) {
	e := newPlayerEnv(t, 1)
	id := e.finished[0].ID
	// As a row older than the column: written from a connection of its
	// own, since the store never clears a token.
	db, err := sql.Open("sqlite3", "file:"+e.dbPath+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("UPDATE games SET watch_token = NULL WHERE id = ?", id); err != nil {
		t.Fatal(err)
	}
	if g, err := e.store.Games().GetGame(id); err != nil || g.WatchToken != nil {
		t.Fatalf("the token is not cleared: %v, %v", g.WatchToken, err)
	}
	stranger := e.browser()
	var links []string
	for i := 0; i < 2; i++ {
		_, body, _ := e.get(t, stranger, "/players/alice", true)
		rows := gameLine.FindAllStringSubmatch(body, -1)
		if len(rows) != 1 {
			t.Fatalf("visit %d: %s", i, body)
		}
		links = append(links, rows[0][2][strings.LastIndex(rows[0][2], "|")+1:])
	}
	g, err := e.store.Games().GetGame(id)
	if err != nil || g.WatchToken == nil || links[0] != "/watch/"+*g.WatchToken || links[1] != links[0] {
		t.Errorf("links %v, stored token %v (%v)", links, g.WatchToken, err)
	}
}
