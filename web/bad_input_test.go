package web

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"knightwatch/play"
)

// Issue 41 item 10: a form over the size cap is refused with 413 saying
// so, on every form route, and creates nothing. Before, the new-game form
// read its cut-off body as an empty form and answered 400 naming level.
func TestFormTooLarge(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	e.apiClient("ann", "ann's password").register()
	pad := strings.Repeat("x", 20<<10)
	routes := []struct {
		path      string
		form      url.Values
		signedIn  bool
		createsIn string
	}{
		{"/games", url.Values{"color": {"white"}, "level": {"1"}, "variant": {"standard"}, "clock": {"none"}, "pad": {pad}}, false, "games"},
		{"/games", url.Values{"pad": {pad}, "variant": {"recon"}, "color": {"white"}, "opponent": {"random"}, "clock": {"15+5"}}, false, "games"},
		{"/games", url.Values{"color": {"white"}, "level": {"1"}, "fen": {pad}}, false, "games"},
		{"/account/signin", url.Values{"username": {"ann"}, "password": {"ann's password"}, "pad": {pad}}, false, "sessions"},
		{"/account/signup", url.Values{"username": {"bob"}, "password": {"long enough"}, "password2": {"long enough"}, "pad": {pad}}, false, "users"},
		{"/bots/invite", url.Values{"opponent": {"random"}, "color": {"white"}, "pad": {pad}}, true, "API games"},
	}
	for _, rt := range routes {
		t.Run(rt.path+" "+rt.createsIn, func(t *testing.T) {
			c := e.browser()
			if rt.signedIn {
				e.signIn(c, "ann", "ann's password")
			}
			before := e.dbSnapshot()
			games := e.countGames()
			resp, err := c.PostForm(e.ts.URL+rt.path, rt.form)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), "too large") {
				t.Errorf("20 KiB form: %s %.300s", resp.Status, b)
			}
			if strings.Contains(string(b), "level") {
				t.Errorf("the refusal names a field: %.300s", b)
			}
			if after := e.dbSnapshot(); after != before || e.countGames() != games {
				t.Errorf("the refused form changed the database")
			}
			if rt.path == "/account/signin" {
				if got := e.signedInAs(c); got != "" {
					t.Errorf("signed in as %q by a refused form", got)
				}
			}
		})
	}
}

// Issue 41 item 10: a field the API requires refuses JSON null, which
// before was taken as false, 0 or "" (ranked off, an invitation to ""),
// except where null means something (sense's square: sense nothing;
// move's requested_move: pass).
func TestAPINullFields(t *testing.T) {
	e := newEnv(t, envOpts{})
	alice := e.apiClient("alice", "password-a")
	alice.register()
	e.apiClient("bob", "password-b").register()
	alice.must("POST", "/api/users/me/ranked", map[string]any{"ranked": true}, "", nil)
	anon := e.apiClient("", "")
	cases := []struct {
		c     *apiClient
		path  string
		body  string
		field string
	}{
		{alice, "/api/users/me/ranked", `{"ranked": null}`, "ranked"},
		{alice, "/api/users/me/max_games", `{"max_games": null}`, "max_games"},
		{alice, "/api/invitations/", `{"opponent": null, "color": true}`, "opponent"},
		{alice, "/api/invitations/", `{"opponent": "bob", "color": null}`, "color"},
		{anon, "/api/users/", `{"username": null, "email": "", "affiliation": "", "password": "long enough"}`, "username"},
		{anon, "/api/users/", `{"username": "carol", "email": null, "affiliation": "", "password": "long enough"}`, "email"},
		{anon, "/api/users/", `{"username": "carol", "email": "", "affiliation": "", "password": null}`, "password"},
	}
	before := e.dbSnapshot()
	for _, tc := range cases {
		status, out := tc.c.call("POST", tc.path, tc.body)
		var msg string
		json.Unmarshal(out["error"], &msg)
		if status != http.StatusBadRequest || !strings.Contains(msg, fmt.Sprintf("%q", tc.field)) || !strings.Contains(msg, "not null") {
			t.Errorf("POST %s %s: %d %q, want 400 naming %q and null", tc.path, tc.body, status, msg, tc.field)
		}
	}
	if after := e.dbSnapshot(); after != before {
		t.Errorf("refused calls changed the database:\n%s\n%s", before, after)
	}
}

// Issue 41 item 10: a note (marker) is a guess about where an opponent's
// piece is, so it names one of the opponent's pieces; one naming the
// person's own is refused and changes nothing. Before, any piece was
// kept. The page cycles through the opponent's pieces only
// (static/js/recon.js cycleMarker), which still works.
func TestMarkerNamesOpponentPiece(t *testing.T) {
	e := newEnv(t, envOpts{rbcClock: 300 * time.Second})
	e.apiClient("ann", "ann's password").register()
	games := []struct {
		name string
		open func(t *testing.T, color string) *wsConn
	}{
		{"against a bot", func(t *testing.T, color string) *wsConn {
			c := e.browser()
			return e.dialRecon(c, e.newRecon(c, color, "random", "15+5"))
		}},
		{"an API game in the browser", func(t *testing.T, color string) *wsConn {
			c := e.browser()
			e.signIn(c, "ann", "ann's password")
			resp, err := c.PostForm(e.ts.URL+"/bots/invite", url.Values{"opponent": {"random"}, "color": {color}})
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			var id int64
			if _, err := fmt.Sscanf(resp.Header.Get("Location"), "/bots/games/%d/play", &id); err != nil {
				t.Fatalf("invite: %s", resp.Status)
			}
			w, err := e.dialAPI(c, id)
			if err != nil {
				t.Fatal(err)
			}
			w.reconWait("state", nil, isState)
			return w
		}},
	}
	for _, g := range games {
		for _, color := range []string{"white", "black"} {
			t.Run(g.name+"/"+color, func(t *testing.T) {
				w := g.open(t, color)
				mine, theirs := "w", "b"
				if color == "black" {
					mine, theirs = "b", "w"
				}
				for _, tc := range []struct {
					piece string
					ok    bool
				}{
					{theirs + "N", true},
					{mine + "N", false},
					{mine + "K", false},
					{theirs + "K", true},
					{"", true}, // clears
				} {
					w.send(map[string]any{"type": "marker", "square": "e5", "piece": tc.piece})
					f := w.reconWait("an answer", nil, func(f reconFrame) bool {
						return f.Type == "error" || isState(f) && f.State.Markers["e5"] == tc.piece
					})
					if tc.ok != (f.Type != "error") {
						t.Errorf("note %q as %s: %s", tc.piece, color, f.Raw)
					}
					if !tc.ok && (f.Code != play.CodeBadField || !strings.Contains(string(f.Raw), "opponent")) {
						t.Errorf("note %q refused with %s, want %s in words", tc.piece, f.Raw, play.CodeBadField)
					}
					if st := w.reconSync(); !tc.ok && st.Markers["e5"] == tc.piece {
						t.Errorf("note %q kept", tc.piece)
					}
				}
			})
		}
	}
}
