package web

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
)

// When the database refuses to write the new game, POST /games answers 503
// with a page that says so in words, not a bare "internal server error";
// and when even reading fails, the same words in plain text.
func TestCreateGameDatabaseFailure(t *testing.T) {
	tests := []struct {
		name    string
		table   string
		form    url.Values
		closeDB bool // reads fail too: the plain-text answer
	}{
		{"standard game", "games", form("white", "1", "standard", "none"), false},
		{"recon game", "recon_games", url.Values{"variant": {"recon"}, "color": {"white"}, "opponent": {"random"}, "clock": {"15+5"}}, false},
		{"database gone", "", form("white", "1", "standard", "none"), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOpts{noEngine: true})
			c := e.browser()
			if resp, err := c.Get(e.ts.URL + "/"); err == nil { // the cookie first
				resp.Body.Close()
			}
			if tc.table != "" {
				// A second connection makes the table refuse inserts, the way
				// a full disk or a read-only file would.
				db, err := gorm.Open(sqlite.Open("file:"+e.dbPath+"?_busy_timeout=5000"), &gorm.Config{})
				if err != nil {
					t.Fatal(err)
				}
				if err := db.Exec("CREATE TRIGGER refuse BEFORE INSERT ON " + tc.table + " BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END").Error; err != nil {
					t.Fatal(err)
				}
				sqlDB, _ := db.DB()
				sqlDB.Close()
			}
			if tc.closeDB {
				e.store.Close()
			}
			resp, err := c.PostForm(e.ts.URL+"/games", tc.form)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			body := string(b)
			if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "could not be saved") ||
				strings.Contains(strings.ToLower(body), "internal server error") {
				t.Errorf("%s: %s", resp.Status, body)
			}
			if !tc.closeDB && !strings.Contains(body, `id="new-game"`) {
				t.Errorf("want the home page with the form: %s", body)
			}
		})
	}
}
