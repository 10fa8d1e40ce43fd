package web

import (
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"knightwatch/store"
)

// postAccount posts an account form from browser c and returns the status,
// the redirect's target and the page.
func (e *testEnv) postAccount(c *http.Client, path string, form url.Values) (int, string, string) {
	e.t.Helper()
	resp, err := c.PostForm(e.ts.URL+path, form)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Location"), html.UnescapeString(string(b))
}

// Each failure of the account forms is told in the card the person used,
// in words, with what they typed there except the password; nothing is
// changed (no account, no session). A success signs the browser in and
// goes back to the page it came from (a path of this site only).
func TestAccountForms(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	e.apiClient("ann", "ann's password").register()
	long := strings.Repeat("p", 73)
	for _, tc := range []struct {
		name, path string
		form       url.Values
		status     int
		card       string // the id of the error's element
		says       string
		kept       []string // typed values the page shows again
		forbidden  []string // what the page must not show
	}{
		{"sign in, wrong password", "/account/signin", url.Values{"username": {"ann"}, "password": {"not ann's"}}, 401,
			"signin-error", "Wrong username or password.", []string{`name="username" value="ann"`}, []string{"signup-error", "not ann's"}},
		{"sign in, no such name", "/account/signin", url.Values{"username": {"zed"}, "password": {"whatever1"}}, 401,
			"signin-error", "Wrong username or password.", []string{`value="zed"`}, []string{"signup-error", "whatever1"}},
		{"sign in, password over 72 bytes", "/account/signin", url.Values{"username": {"ann"}, "password": {long}}, 401,
			"signin-error", "at most 72 bytes", nil, []string{long}},
		{"sign up, passwords differ", "/account/signup", url.Values{"username": {"bob"}, "email": {"bob@example.org"}, "affiliation": {"lab"}, "password": {"bob's pass1"}, "password2": {"bob's pass2"}}, 400,
			"signup-error", "The two passwords differ", []string{`value="bob"`, `value="bob@example.org"`, `value="lab"`}, []string{"signin-error", "bob's pass"}},
		{"sign up, short password", "/account/signup", url.Values{"username": {"bob"}, "password": {"short"}, "password2": {"short"}}, 400,
			"signup-error", "A password has at least 8 characters.", []string{`value="bob"`}, []string{"signin-error"}},
		{"sign up, bad name", "/account/signup", url.Values{"username": {"b!"}, "password": {"long enough"}, "password2": {"long enough"}}, 400,
			"signup-error", "A username has 3 to 32 characters.", []string{`value="b!"`}, []string{"signin-error", "long enough"}},
		{"sign up, name taken", "/account/signup", url.Values{"username": {"ANN"}, "password": {"long enough"}, "password2": {"long enough"}}, 409,
			"signup-error", `The username "ANN" is taken.`, []string{`value="ANN"`}, []string{"signin-error", "Wrong username"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := e.browser()
			before := e.dbSnapshot()
			status, _, body := e.postAccount(c, tc.path, tc.form)
			if status != tc.status || !strings.Contains(body, `id="`+tc.card+`">`+tc.says) && !strings.Contains(body, tc.says) {
				t.Fatalf("%d %.400s; want %d with %q in #%s", status, body, tc.status, tc.says, tc.card)
			}
			if !strings.Contains(body, `id="`+tc.card+`"`) {
				t.Errorf("the failure is not in the card used (#%s): %.400s", tc.card, body)
			}
			for _, k := range tc.kept {
				if !strings.Contains(body, k) {
					t.Errorf("the page lost %s: %.400s", k, body)
				}
			}
			for _, f := range tc.forbidden {
				if strings.Contains(body, f) {
					t.Errorf("the page shows %q: %.400s", f, body)
				}
			}
			if e.signedInAs(c) != "" {
				t.Error("signed in by a failure")
			}
			if after := e.dbSnapshot(); after != before {
				t.Error("the failure changed the database")
			}
		})
	}

	// A foreign page cannot sign anyone in or up.
	req, _ := http.NewRequest("POST", e.ts.URL+"/account/signin", strings.NewReader("username=ann&password=ann%27s+password"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://evil.example")
	if resp, err := e.browser().Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-origin sign-in: %v %v", resp, err)
	}

	// Success: signed in at once, back where the form said, never off
	// the site; the sign-up form is gone.
	for _, tc := range []struct{ next, want string }{
		{"/bots", "/bots"}, {"", "/"}, {"//evil.example/x", "/"}, {"https://evil.example/", "/"}, {"/\\evil.example", "/"},
	} {
		c := e.browser()
		status, loc, _ := e.postAccount(c, "/account/signin", url.Values{"username": {"ann"}, "password": {"ann's password"}, "next": {tc.next}})
		if status != http.StatusSeeOther || loc != tc.want {
			t.Errorf("sign in with next %q: %d to %q, want %q", tc.next, status, loc, tc.want)
		}
		if got := e.signedInAs(c); got != "ann" {
			t.Errorf("signed in as %q", got)
		}
	}
	c := e.browser()
	if status, loc, _ := e.postAccount(c, "/account/signup", url.Values{"username": {"carol"}, "password": {"carol's pass"}, "password2": {"carol's pass"}, "next": {"/bots"}}); status != http.StatusSeeOther || loc != "/bots" {
		t.Fatalf("sign up: %d to %q", status, loc)
	}
	if got := e.signedInAs(c); got != "carol" {
		t.Errorf("after signing up: signed in as %q", got)
	}
	if _, body, _ := e.get(c, "/account"); strings.Contains(body, "signup-form") || !strings.Contains(body, `id="account-name">carol`) {
		t.Errorf("the account page after signing up: %.400s", body)
	}
	// The account is the API's: a bot connects with it.
	e.apiClient("carol", "carol's pass").invite("random", true)
}

// The browser's games, started signed out, become the account's on
// signing in (or up); a second browser signed in to the account lists and
// plays them, and a move made in one shows in the other at once. Signing
// out gives the browser a fresh owner key; the games stay with the
// account.
func TestGamesFollowTheAccount(t *testing.T) {
	e := newEnv(t, envOpts{})
	desk := e.browser()
	chess := e.newGame(desk, form("white", "1", "standard", "none"))
	recon := e.newRecon(desk, "white", "random", "none")
	over := e.newGame(desk, form("black", "1", "standard", "none"))
	if code, _ := e.postList(desk, over, "resign", ""); code != http.StatusSeeOther {
		t.Fatalf("resign: %d", code)
	}
	stranger := e.browser()
	theirs := e.newGame(stranger, form("white", "1", "standard", "none"))
	browserKey := e.ownerOf(desk)

	w := e.mustDial(desk, chess) // a tab open while signing up
	w.state()
	if status, _, body := e.postAccount(desk, "/account/signup", url.Values{"username": {"dana"}, "password": {"dana's pass"}, "password2": {"dana's pass"}}); status != http.StatusSeeOther {
		t.Fatalf("sign up: %d %.300s", status, body)
	}
	u, err := e.store.API().UserByName("dana")
	if err != nil || u.OwnerKey == "" || u.OwnerKey == browserKey {
		t.Fatalf("dana: %+v, %v", u, err)
	}
	if got := e.ownerOf(desk); got != u.OwnerKey {
		t.Fatalf("the browser plays as %q, want the account's %q", got, u.OwnerKey)
	}
	for _, id := range []string{chess, over} {
		if g := e.row(id); g.Owner != u.OwnerKey {
			t.Errorf("game %s belongs to %q, want the account", id, g.Owner)
		}
	}
	if g, _ := e.store.Games().GetReconGame(recon); g.Owner != u.OwnerKey {
		t.Errorf("the recon game belongs to %q", g.Owner)
	}
	if g := e.row(theirs); g.Owner == u.OwnerKey {
		t.Error("a stranger's game moved too")
	}

	phone := e.browser()
	e.signIn(phone, "dana", "dana's pass")
	for name, c := range map[string]*http.Client{"desk": desk, "phone": phone} {
		ids, _, _ := e.unfinishedRows(c)
		if slices.Sort(ids); !slices.Equal(ids, sorted(chess, recon)) {
			t.Errorf("%s lists %v, want %v", name, ids, sorted(chess, recon))
		}
		if code, _, _ := e.get(c, "/game/"+over); code != http.StatusOK {
			t.Errorf("%s: the finished game's page: %d", name, code)
		}
	}
	// The move made on the phone shows on the desk's tab, and the desk's
	// on the phone's.
	p := e.mustDial(phone, chess)
	p.state()
	p.send(`{"type":"move","move":"e2e4","ply":0}`)
	if s := w.stateAt(1); s.Moves[0].UCI != "e2e4" {
		t.Fatal("the desk did not see the phone's move")
	}
	p.stateAt(2) // the engine's reply
	w.stateAt(2)
	w.send(`{"type":"move","move":"d2d4","ply":2}`)
	if s := p.stateAt(3); s.Moves[2].UCI != "d2d4" {
		t.Fatal("the phone did not see the desk's move")
	}

	// A rematch from the tab opened before signing up (its game's host
	// loaded with the browser's old owner key) is the account's too.
	w.send(`{"type":"rematch"}`)
	m := w.waitFor("redirect", func(m anyMsg) bool { return m.Type == "redirect" })
	rematch := strings.TrimPrefix(m.URL, "/game/")
	if g := e.row(rematch); g.Owner != u.OwnerKey {
		t.Errorf("the rematch belongs to %q, want the account", g.Owner)
	}
	if code, _, _ := e.get(phone, m.URL); code != http.StatusOK {
		t.Errorf("the phone opens the rematch: %d", code)
	}

	// Signing out here: a fresh owner key, no games, and the phone keeps
	// them all.
	if status, loc, _ := e.postAccount(desk, "/account/signout", nil); status != http.StatusSeeOther || loc != "/" {
		t.Fatalf("sign out: %d to %q", status, loc)
	}
	if got := e.ownerOf(desk); got == "" || got == u.OwnerKey || got == browserKey {
		t.Errorf("signed out, the browser plays as %q", got)
	}
	if ids, _, _ := e.unfinishedRows(desk); len(ids) != 0 {
		t.Errorf("signed out, the desk lists %v", ids)
	}
	if code, _, _ := e.get(desk, "/game/"+chess); code != http.StatusNotFound {
		t.Errorf("signed out, the desk opens the account's game: %d", code)
	}
	if ids, _, _ := e.unfinishedRows(phone); len(ids) != 3 {
		t.Errorf("the phone lists %v after the desk signed out", ids)
	}
	// Signing in again brings the desk's new games along too.
	later := e.newGame(desk, form("white", "1", "standard", "none"))
	e.signIn(desk, "dana", "dana's pass")
	if g := e.row(later); g.Owner != u.OwnerKey {
		t.Errorf("the game started signed out belongs to %q", g.Owner)
	}
}

func sorted(ids ...string) []string { slices.Sort(ids); return ids }

// A session cookie holds only while its session does: a forged one, one
// whose session ended (signed out, everywhere, by a password change
// elsewhere) and a copy of one are nobody, and reach none of the
// account's games, not even through the owner key they carry.
func TestEndedSessionCookies(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	e.apiClient("erin", "erin's pass").register()
	desk, phone := e.browser(), e.browser()
	e.signIn(desk, "erin", "erin's pass")
	e.signIn(phone, "erin", "erin's pass")
	id := e.newGame(desk, form("white", "1", "standard", "none"))
	u, _ := url.Parse(e.ts.URL)
	forged := e.browser()
	v := desk.Jar.Cookies(u)[0].Value
	forged.Jar.SetCookies(u, []*http.Cookie{{Name: SessionCookie, Value: v[:len(v)-4] + "AAAA"}})
	deskCopy, phoneCopy := e.copyCookies(desk), e.copyCookies(phone)

	reaches := func(c *http.Client) bool {
		code, _, _ := e.get(c, "/game/"+id)
		return code == http.StatusOK
	}
	for _, step := range []struct {
		name  string
		act   func()
		cases map[string]struct {
			c    *http.Client
			want bool
		}
	}{
		{"before", func() {}, map[string]struct {
			c    *http.Client
			want bool
		}{"desk": {desk, true}, "phone": {phone, true}, "forged": {forged, false}, "desk's copy": {deskCopy, true}}},
		{"desk signs out", func() { e.postAccount(desk, "/account/signout", nil) }, map[string]struct {
			c    *http.Client
			want bool
		}{"desk": {desk, false}, "desk's copy": {deskCopy, false}, "phone": {phone, true}, "phone's copy": {phoneCopy, true}}},
		{"phone changes the password", func() {
			e.signIn(desk, "erin", "erin's pass")
			deskCopy = e.copyCookies(desk)
			if status, loc, body := e.postAccount(phone, "/account/password", url.Values{"current": {"erin's pass"}, "password": {"erin's new pass"}, "password2": {"erin's new pass"}}); status != http.StatusSeeOther || loc != "/account?password=changed" {
				t.Fatalf("change the password: %d %q %.300s", status, loc, body)
			}
		}, map[string]struct {
			c    *http.Client
			want bool
		}{"phone": {phone, true}, "phone's copy": {phoneCopy, true}, "desk": {desk, false}, "desk's copy": {deskCopy, false}}},
	} {
		step.act()
		for name, tc := range step.cases {
			signed := e.signedInAs(tc.c) == "erin"
			if signed != tc.want || reaches(tc.c) != tc.want {
				t.Errorf("%s: %s signed in %v, reaches the game %v; want %v", step.name, name, signed, reaches(tc.c), tc.want)
			}
			if !tc.want {
				if _, resp, err := e.dial(tc.c, id); err == nil || resp == nil || resp.StatusCode != http.StatusNotFound {
					t.Errorf("%s: %s opened the game's socket", step.name, name)
				}
			}
		}
	}
	// The old password no longer signs in; the new one does, here and
	// for the account's bot.
	if status, _, _ := e.postAccount(e.browser(), "/account/signin", url.Values{"username": {"erin"}, "password": {"erin's pass"}}); status != http.StatusUnauthorized {
		t.Errorf("the old password: %d", status)
	}
	e.signIn(desk, "erin", "erin's new pass")
	e.apiClient("erin", "erin's new pass").invite("random", true)
}

// The password form: each refusal in its card, nothing changed; signed
// out, it changes nothing.
func TestChangePasswordRefusals(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true})
	e.apiClient("finn", "finn's pass").register()
	c, other := e.browser(), e.browser()
	e.signIn(c, "finn", "finn's pass")
	e.signIn(other, "finn", "finn's pass")
	for _, tc := range []struct {
		name   string
		c      *http.Client
		form   url.Values
		status int
		says   string
	}{
		{"wrong current password", c, url.Values{"current": {"not finn's"}, "password": {"finn's new pass"}, "password2": {"finn's new pass"}}, 401, "The current password is wrong."},
		{"new passwords differ", c, url.Values{"current": {"finn's pass"}, "password": {"finn's new pass"}, "password2": {"finn's new pasS"}}, 400, "The two new passwords differ"},
		{"new password too short", c, url.Values{"current": {"finn's pass"}, "password": {"short"}, "password2": {"short"}}, 400, "A password has at least 8 characters."},
		{"new password too long", c, url.Values{"current": {"finn's pass"}, "password": {strings.Repeat("x", 73)}, "password2": {strings.Repeat("x", 73)}}, 400, "at most 72 bytes"},
		{"signed out", e.browser(), url.Values{"current": {"finn's pass"}, "password": {"finn's new pass"}, "password2": {"finn's new pass"}}, 401, "Sign in first"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.dbSnapshot()
			status, _, body := e.postAccount(tc.c, "/account/password", tc.form)
			if status != tc.status || !strings.Contains(body, tc.says) {
				t.Errorf("%d %.300s; want %d with %q", status, body, tc.status, tc.says)
			}
			if tc.status != http.StatusUnauthorized && !strings.Contains(body, `id="password-error"`) {
				t.Errorf("the refusal is not in the password card: %.300s", body)
			}
			if strings.Contains(body, "finn's new pass") || strings.Contains(body, "not finn's") {
				t.Error("the page shows a password")
			}
			if after := e.dbSnapshot(); after != before {
				t.Error("the refusal changed the database")
			}
			if e.signedInAs(other) != "finn" {
				t.Error("the refusal signed the other browser out")
			}
		})
	}
	if n, err := e.store.API().ActiveSessions(mustUser(t, e.store, "finn").ID); err != nil || n != 2 {
		t.Errorf("sessions after the refusals: %d, %v", n, err)
	}
}

func mustUser(t *testing.T, st *store.Store, name string) *store.User {
	t.Helper()
	u, err := st.API().UserByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// The real account.html and header: each state of the page shows its own
// cards, each failure in its card, and the header's account area the
// browser's state.
func TestAccountTemplate(t *testing.T) {
	srv := realHomeServer(t)
	signedIn := func(d *AccountData) { d.User, d.Sessions = "hana", 2 }
	for _, tc := range []struct {
		name       string
		data       func(d *AccountData)
		want, lack []string
	}{
		{"signed out", func(d *AccountData) {}, []string{`id="signin-form"`, `id="signup-form"`, `id="header-signin"`, `name="next" value="/bots"`},
			[]string{`id="signed-in"`, `id="password-form"`, "alert"}},
		{"sign-in failure", func(d *AccountData) { d.SignIn.Username, d.SignIn.Error = "hana", "Wrong username or password." },
			[]string{`id="signin-error">Wrong username or password.`, `value="hana"`}, []string{`id="signup-error"`}},
		{"sign-up failure", func(d *AccountData) {
			d.SignUp.Username, d.SignUp.Email, d.SignUp.Error = "hana", "h@example.org", "The two passwords differ."
		},
			[]string{`id="signup-error">The two passwords differ.`, `value="h@example.org"`}, []string{`id="signin-error"`}},
		{"signed in", signedIn, []string{`id="account-name">hana`, "2 browsers are signed in", `id="signout-everywhere"`, `id="password-form"`},
			[]string{`id="signin-form"`, `id="signup-form"`}},
		{"password failure", func(d *AccountData) { signedIn(d); d.Password.Error = "The current password is wrong." },
			[]string{`id="password-error">The current password is wrong.`}, []string{`id="password-done"`}},
		{"password changed", func(d *AccountData) { signedIn(d); d.Sessions = 1; d.Password.Done = "Your password is changed." },
			[]string{`id="password-done">Your password is changed.`, "This browser is the only one signed in."}, []string{`id="password-error"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &AccountData{Title: "Account", Next: "/bots"}
			tc.data(d)
			rr := httptest.NewRecorder()
			srv.render(rr, httptest.NewRequest("GET", "/account?next=/bots", nil), http.StatusOK, pageAccount, d)
			body := html.UnescapeString(rr.Body.String())
			if rr.Code != http.StatusOK {
				t.Fatalf("%d %.300s", rr.Code, body)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("lacks %q", w)
				}
			}
			for _, l := range tc.lack {
				if strings.Contains(body, l) {
					t.Errorf("has %q", l)
				}
			}
			if strings.Contains(body, "kw-account-area") {
				t.Error("the header's slot was left unfilled")
			}
		})
	}
}
