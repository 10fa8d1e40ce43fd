package web

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"

	"knightwatch/store"
)

// Issue 35 item 4: creating games is limited per owner, by the number of
// unfinished games and by rate, on every path that creates one: the form
// (chess and Reconnaissance Chess) and rematch over the socket (both).
// Before, each path created a game every time it was asked.
func TestCreationLimits(t *testing.T) {
	chessForm := form("white", "1", "standard", "none")
	reconForm := url.Values{"variant": {"recon"}, "color": {"white"}, "opponent": {"random"}, "clock": {"15+5"}}
	paths := []struct {
		name    string
		recon   bool
		rematch bool
	}{
		{"form chess", false, false},
		{"form recon", true, false},
		{"rematch chess", false, true},
		{"rematch recon", true, true},
	}
	limits := []struct {
		name   string
		opts   envOpts
		code   string
		words  string
		header string // a response header the 429 carries
	}{
		{"unfinished", envOpts{noEngine: true, maxUnfinishedGames: 3}, CodeTooManyGames,
			"You have 3 unfinished games; finish or delete some", ""},
		{"rate", envOpts{noEngine: true, createRate: 1e-6, createBurst: 3}, CodeCreateRateLimited,
			"You are starting new games too fast; wait a few seconds", "Retry-After"},
	}
	for _, lim := range limits {
		for _, p := range paths {
			t.Run(lim.name+"/"+p.name, func(t *testing.T) {
				e := newEnv(t, lim.opts)
				c := e.browser()
				f := chessForm
				if p.recon {
					f = reconForm
				}
				var ids []string
				for i := 0; i < 3; i++ {
					if p.recon {
						ids = append(ids, e.newRecon(c, "white", "random", "15+5"))
					} else {
						ids = append(ids, e.newGame(c, f))
					}
				}
				if !p.rematch {
					resp, err := c.PostForm(e.ts.URL+"/games", f)
					if err != nil {
						t.Fatal(err)
					}
					b, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(b), lim.words) ||
						!strings.Contains(string(b), `id="new-game"`) {
						t.Fatalf("4th game: %s %s", resp.Status, b)
					}
					if lim.header != "" && resp.Header.Get(lim.header) == "" {
						t.Errorf("no %s", lim.header)
					}
				} else {
					w := e.mustDial(c, ids[0])
					w.send(`{"type":"rematch"}`)
					m := w.waitFor("error", func(m anyMsg) bool { return m.Type == "error" || m.Type == "redirect" })
					if m.Type != "error" || m.Code != lim.code || !strings.Contains(m.Message, lim.words) {
						t.Fatalf("4th game: %s", m.raw)
					}
				}
				if n := e.countGames(); n != 3 {
					t.Fatalf("%d games in the database, want 3", n)
				}
				if lim.code == CodeTooManyGames {
					// Deleting one (the home page's Delete) makes room.
					var err error
					if p.recon {
						err = e.store.Games().DeleteReconGame(ids[2], e.ownerOf(c))
					} else {
						err = e.store.Games().DeleteGame(ids[2], e.ownerOf(c))
					}
					if err != nil {
						t.Fatal(err)
					}
					if p.recon {
						e.newRecon(c, "white", "random", "15+5")
					} else {
						e.newGame(c, f)
					}
				}
				// Someone else is not limited by this owner's games.
				other := e.browser()
				if p.recon {
					e.newRecon(other, "white", "random", "15+5")
				} else {
					e.newGame(other, f)
				}
			})
		}
	}
}

// countGames counts the rows of both game tables, whatever their status.
func (e *testEnv) countGames() int64 {
	e.t.Helper()
	var n, nr int64
	db, err := gorm.Open(sqlite.Open("file:"+e.dbPath+"?_busy_timeout=5000"), &gorm.Config{})
	if err != nil {
		e.t.Fatal(err)
	}
	if sqlDB, err := db.DB(); err == nil {
		defer sqlDB.Close()
	}
	if err := db.Model(&store.Game{}).Count(&n).Error; err != nil {
		e.t.Fatal(err)
	}
	if err := db.Model(&store.ReconGame{}).Count(&nr).Error; err != nil {
		e.t.Fatal(err)
	}
	return n + nr
}
