package web

import (
	"net/http"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"knightwatch/store"
)

// accountPages serve the one account system of the whole site (/account
// and the account area of every page's header): sign up, sign in, sign
// out here or everywhere, change the password. The accounts are the
// reconchess API's (rbcapi registers them and checks passwords under its
// login limits), so the name and password a person signs in with here
// are the ones their bot connects with. Signing in brings the browser's
// games to the account (signIn), so every browser signed in to it lists
// and resumes the same games.
type accountPages struct {
	*site
	// sockets hangs up the sockets of the sessions a sign-out ends.
	sockets *sockets
}

// AccountData is the account page. Each card's failure is shown in that
// card, with what the person typed there (never a password).
type AccountData struct {
	Title string
	// User is the signed-in account's name ("" when signed out), Sessions
	// how many browsers are signed in to it.
	User     string
	Sessions int64
	// Next is where signing in or up goes back to (a path of this site).
	Next     string
	SignIn   struct{ Username, Error string }
	SignUp   struct{ Username, Email, Affiliation, Error string }
	Password struct{ Error, Done string }
}

// accountView is the header's account area of every page.
type accountView struct {
	Name string // "" when signed out
	Next string // the page, for the sign-in link to come back to
}

func (s *accountPages) data(r *http.Request, u *store.User) (*AccountData, error) {
	d := &AccountData{Title: "Your account", Next: safeNext(r.FormValue("next"))}
	if u != nil {
		d.User, d.Title = u.Name, "Your account: "+u.Name
		n, err := s.store.API().ActiveSessions(u.ID)
		if err != nil {
			return nil, err
		}
		d.Sessions = n
	} else {
		d.Title = "Sign in or sign up"
	}
	return d, nil
}

func (s *accountPages) handleAccountPage(w http.ResponseWriter, r *http.Request) {
	d, err := s.data(r, s.signedInUser(r))
	if err != nil {
		s.serverError(w, err)
		return
	}
	if r.URL.Query().Get("password") == "changed" && d.User != "" {
		d.Password.Done = "Your password is changed; every other browser is signed out."
	}
	s.render(w, r, http.StatusOK, pageAccount, d)
}

// handleSignIn signs the browser in with the account's name and password,
// under the API's limits on failures (per name and address, and per
// address).
func (s *accountPages) handleSignIn(w http.ResponseWriter, r *http.Request) {
	if !s.parseFormPost(w, r) {
		return
	}
	u, e := s.api.Login(r.PostFormValue("username"), r.PostFormValue("password"), s.clientAddr(r))
	if e != nil {
		d, err := s.data(r, s.signedInUser(r))
		if err != nil {
			s.serverError(w, err)
			return
		}
		d.SignIn.Username, d.SignIn.Error = r.PostFormValue("username"), sentence(e.Message)
		s.render(w, r, e.Status, pageAccount, d)
		return
	}
	if err := s.signIn(w, r, u); err != nil {
		s.serverError(w, err)
		return
	}
	http.Redirect(w, r, safeNext(r.PostFormValue("next")), http.StatusSeeOther)
}

// handleSignUp makes an account, the same as rc-register makes, and signs
// the browser in to it. No e-mail is sent; the address is only kept.
func (s *accountPages) handleSignUp(w http.ResponseWriter, r *http.Request) {
	if !s.parseFormPost(w, r) {
		return
	}
	fail := func(status int, msg string) {
		d, err := s.data(r, s.signedInUser(r))
		if err != nil {
			s.serverError(w, err)
			return
		}
		d.SignUp.Username, d.SignUp.Email, d.SignUp.Affiliation = r.PostFormValue("username"), r.PostFormValue("email"), r.PostFormValue("affiliation")
		d.SignUp.Error = msg
		s.render(w, r, status, pageAccount, d)
	}
	password := r.PostFormValue("password")
	if password != r.PostFormValue("password2") {
		fail(http.StatusBadRequest, "The two passwords differ: type the same one twice.")
		return
	}
	u, e := s.api.Register(r.PostFormValue("username"), r.PostFormValue("email"), r.PostFormValue("affiliation"), password, s.clientAddr(r))
	if e != nil {
		fail(e.Status, sentence(e.Message))
		return
	}
	if err := s.signIn(w, r, u); err != nil {
		s.serverError(w, err)
		return
	}
	http.Redirect(w, r, safeNext(r.PostFormValue("next")), http.StatusSeeOther)
}

// handleSignOut signs this browser out; handleSignOutEverywhere every
// browser signed in to the account.
func (s *accountPages) handleSignOut(w http.ResponseWriter, r *http.Request) {
	s.signOutPost(w, r, false)
}

func (s *accountPages) handleSignOutEverywhere(w http.ResponseWriter, r *http.Request) {
	s.signOutPost(w, r, true)
}

func (s *accountPages) signOutPost(w http.ResponseWriter, r *http.Request, everywhere bool) {
	if !s.parseFormPost(w, r) {
		return
	}
	if err := s.signOut(w, r, everywhere); err != nil {
		s.serverError(w, err)
		return
	}
	// Home, not back: the page was most likely one of the account's
	// games, which this browser no longer plays.
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// handleChangePassword changes the signed-in account's password (the
// current one, then the new one twice, under registration's rules) and
// ends every other session of the account.
func (s *accountPages) handleChangePassword(w http.ResponseWriter, r *http.Request) {
	if !s.parseFormPost(w, r) {
		return
	}
	who := s.identify(r)
	fail := func(status int, msg string) {
		d, err := s.data(r, who.user)
		if err != nil {
			s.serverError(w, err)
			return
		}
		if who.user == nil {
			d.SignIn.Error = msg // signed out, the page has no password card
		} else {
			d.Password.Error = msg
		}
		s.render(w, r, status, pageAccount, d)
	}
	if who.user == nil {
		fail(http.StatusUnauthorized, "Sign in first: this browser is not signed in (any more).")
		return
	}
	next := r.PostFormValue("password")
	if next != r.PostFormValue("password2") {
		fail(http.StatusBadRequest, "The two new passwords differ: type the same one twice.")
		return
	}
	if e := s.api.ChangePassword(who.user, r.PostFormValue("current"), next, who.session, s.clientAddr(r)); e != nil {
		fail(e.Status, sentence(e.Message))
		return
	}
	s.sockets.closeSockets(func(c *client) bool { return c.account == who.user.ID && c.session != who.session })
	http.Redirect(w, r, "/account?password=changed", http.StatusSeeOther)
}

// sentence makes one of rbcapi's messages ("wrong username or password")
// a sentence for a page.
func sentence(msg string) string {
	r, n := utf8.DecodeRuneInString(msg)
	if n == 0 {
		return msg
	}
	msg = string(unicode.ToUpper(r)) + msg[n:]
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

// safeNext returns next when it is a path of this site, "/" otherwise: a
// sign-in never sends the browser to another site.
func safeNext(next string) string {
	if next == "" || len(next) > 300 || next[0] != '/' || strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\r\n") {
		return "/"
	}
	u, err := url.Parse(next)
	if err != nil || u.Host != "" || u.Scheme != "" {
		return "/"
	}
	return next
}

// signIn signs the browser in to u: it starts a session of its own, moves
// the browser's games (every one, chess and Reconnaissance Chess, finished
// or not) to the account's owner key, and sets the cookie to that key and
// the session, so that this browser and every other signed in to the
// account list and play the same games. A session the browser held
// before (of another account) ends.
func (s *accountPages) signIn(w http.ResponseWriter, r *http.Request, u *store.User) error {
	was, err := s.identifyErr(r)
	if err != nil {
		return err
	}
	api := s.store.API()
	account, err := api.AccountOwnerKey(u.ID, newOwnerKey())
	if err != nil {
		return err
	}
	// The browser's own games follow the person into the account; a
	// browser signed in to another account keeps that account's games
	// there.
	if was.owner != "" && was.user == nil {
		if _, err := s.store.Games().MoveOwnerGames(was.owner, account); err != nil {
			return err
		}
	}
	if was.session != "" {
		if err := api.EndSession(was.session); err != nil {
			return err
		}
		s.sockets.closeSockets(func(c *client) bool { return c.session == was.session })
	}
	ss, err := api.CreateSession(u.ID)
	if err != nil {
		return err
	}
	return s.writeIdentity(w, r, account, ss.ID)
}

// signOut ends the browser's session (everywhere: every session of its
// account), hangs up the sockets those sessions opened, and gives the
// browser a fresh owner key: the games stay with the account.
func (s *accountPages) signOut(w http.ResponseWriter, r *http.Request, everywhere bool) error {
	id, err := s.identifyErr(r)
	if err != nil {
		return err // the session may hold: never just forget it
	}
	if id.user != nil {
		if everywhere {
			_, err = s.store.API().EndUserSessions(id.user.ID, "")
			s.sockets.closeSockets(func(c *client) bool { return c.account == id.user.ID })
		} else {
			err = s.store.API().EndSession(id.session)
			s.sockets.closeSockets(func(c *client) bool { return c.session == id.session })
		}
		if err != nil {
			return err
		}
	} else if id.owner != "" {
		// Not signed in: nothing to end, and the browser's games stay its
		// own.
		return s.writeIdentity(w, r, id.owner, "")
	}
	return s.writeIdentity(w, r, newOwnerKey(), "")
}
