package web

import (
	"crypto/rand"
	"crypto/sha512"
	"encoding/hex"
	"net/http"

	"knightwatch/store"

	"github.com/gorilla/sessions"
)

// SessionCookie is the name of the session cookie.
const SessionCookie = "kw_session"

const ownerKey = "owner"

// newCookieStore builds the signing cookie store from the secret. The
// secret is stretched through SHA-512 into the 64-byte HMAC key
// securecookie recommends, so any non-empty KNIGHTWATCH_SECRET works.
func newCookieStore(secret []byte) *sessions.CookieStore {
	sum := sha512.Sum512(append([]byte("knightwatch session v1:"), secret...))
	cs := sessions.NewCookieStore(sum[:])
	cs.Options.Path = "/"
	cs.Options.HttpOnly = true
	cs.Options.SameSite = http.SameSiteLaxMode
	// gorilla/sessions defaults to Secure; saveSession decides per
	// request, and nothing may inherit the default.
	cs.Options.Secure = false
	cs.MaxAge(365 * 24 * 3600)
	return cs
}

// saveSession writes sess as the response's session cookie. It is the
// only way a session is saved, so every response has one cookie policy:
// Secure exactly when the browser reached us over HTTPS (isHTTPS), so that
// a cookie set over plain HTTP is kept by the browser and one set over
// HTTPS never travels in clear.
func (s *site) saveSession(w http.ResponseWriter, r *http.Request, sess *sessions.Session) error {
	opts := *s.cookies.Options
	opts.Secure = s.isHTTPS(r)
	sess.Options = &opts
	return s.cookies.Save(r, w, sess)
}

// newOwnerKey returns a random 128-bit owner key in hex.
func newOwnerKey() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("web: crypto/rand failed: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

// validOwner accepts only what newOwnerKey makes, so a cookie signed with
// our key but holding anything else is still refused.
func validOwner(s string) bool {
	if len(s) != 32 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// currentOwner returns the owner key from a valid, signed session cookie,
// or "" when there is none (missing, forged, expired).
func (s *site) currentOwner(r *http.Request) string {
	sess, err := s.cookies.Get(r, SessionCookie)
	if err != nil || sess.IsNew {
		return ""
	}
	owner, _ := sess.Values[ownerKey].(string)
	if !validOwner(owner) {
		return ""
	}
	return owner
}

// ensureOwner returns the request's owner key, issuing a fresh one (and
// setting the cookie) when the request has no valid session. A forged
// cookie is simply replaced: its contents never reach any game.
func (s *site) ensureOwner(w http.ResponseWriter, r *http.Request) (string, error) {
	if owner := s.currentOwner(r); owner != "" {
		return owner, nil
	}
	// A fresh session, never the decoded (possibly forged) one.
	sess := sessions.NewSession(s.cookies, SessionCookie)
	sess.IsNew = true
	owner := newOwnerKey()
	sess.Values[ownerKey] = owner
	if err := s.saveSession(w, r, sess); err != nil {
		return "", err
	}
	return owner, nil
}

// The session's values for a signed-in account: its ID and the session
// generation it was signed in under (store.User.SessionGen).
const (
	userKey = "user"
	genKey  = "gen"
)

// signedInUser returns the account the session is signed in to, or nil.
// The cookie is signed, but it is also checked against the account's
// session generation, which signing out moves on: a cookie from before
// the last sign-out is no session. The account is read on every request
// anyway, so the check costs nothing more.
func (s *site) signedInUser(r *http.Request) *store.User {
	sess, err := s.cookies.Get(r, SessionCookie)
	if err != nil || sess.IsNew {
		return nil
	}
	id, ok := sess.Values[userKey].(int64)
	if !ok || id <= 0 {
		return nil
	}
	gen, _ := sess.Values[genKey].(int64) // absent in cookies older than generations: 0
	u, err := s.store.API().UserByID(id)
	if err != nil || u.Builtin != "" || u.SessionGen != gen {
		return nil
	}
	return u
}

// setSignedIn signs the session in to u (nil: out), keeping its owner key
// (a session without a valid one gets a fresh one, never the decoded,
// possibly forged, values). Signing out is setSignedOut.
func (s *site) setSignedIn(w http.ResponseWriter, r *http.Request, u *store.User) error {
	owner := s.currentOwner(r)
	sess, err := s.cookies.Get(r, SessionCookie)
	if err != nil || sess.IsNew || owner == "" {
		sess = sessions.NewSession(s.cookies, SessionCookie)
		sess.IsNew = true
		owner = newOwnerKey()
	}
	sess.Values[ownerKey] = owner
	if u == nil {
		delete(sess.Values, userKey)
		delete(sess.Values, genKey)
	} else {
		sess.Values[userKey] = u.ID
		sess.Values[genKey] = u.SessionGen
	}
	return s.saveSession(w, r, sess)
}
