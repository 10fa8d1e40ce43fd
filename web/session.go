package web

import (
	"crypto/rand"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"net/http"
	"time"

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
	cs.MaxAge(int(store.SessionLife / time.Second))
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

// sessionKey is the session's value naming a signed-in browser's
// session (store.Session), beside its owner key.
const sessionKey = "sid"

// identity is who a request's cookie says the browser is: its owner key
// (the games it plays), and while it is signed in, its session and
// account.
type identity struct {
	owner, session string
	user           *store.User
}

// identify reads the request's session cookie. A signed-in cookie holds
// only while its session does (the sessions table, which every server
// shares, not the cookie, decides) and while it names the account's owner
// key: a cookie whose session was ended (here, everywhere, or by a change
// of password), a copy of one included, is no identity at all, not even
// its owner key, which is the account's and so would still reach the
// account's games. A missing, forged or expired cookie is none either.
// The error is the database's, when it could not say.
func (s *site) identifyErr(r *http.Request) (identity, error) {
	sess, err := s.cookies.Get(r, SessionCookie)
	if err != nil || sess.IsNew {
		return identity{}, nil
	}
	owner, _ := sess.Values[ownerKey].(string)
	if !validOwner(owner) {
		return identity{}, nil
	}
	sid, _ := sess.Values[sessionKey].(string)
	if sid == "" {
		return identity{owner: owner}, nil
	}
	if !validOwner(sid) { // the same form: 128 random bits in hex
		return identity{}, nil
	}
	_, u, err := s.store.API().ActiveSession(sid)
	if errors.Is(err, store.ErrNotFound) {
		return identity{}, nil
	}
	if err != nil {
		return identity{}, err
	}
	if u.Builtin != "" || u.OwnerKey != owner {
		return identity{}, nil
	}
	return identity{owner: owner, session: sid, user: u}, nil
}

// identify is identifyErr for the callers that treat "could not say" as
// nobody (refusing what needs an identity); the error goes to the log.
func (s *site) identify(r *http.Request) identity {
	id, err := s.identifyErr(r)
	if err != nil {
		s.logf("session: %v", err)
	}
	return id
}

// currentOwner returns the owner key from a valid, signed session cookie,
// or "" when there is none (missing, forged, expired, or a session that
// has ended).
func (s *site) currentOwner(r *http.Request) string { return s.identify(r).owner }

// ensureOwner returns the request's owner key, issuing a fresh one (and
// setting the cookie) when the request has no valid session. A forged
// cookie is simply replaced: its contents never reach any game. When the
// database cannot say whether the browser's session holds, it is an
// error, not a fresh key: that would sign the browser out for a hiccup.
func (s *site) ensureOwner(w http.ResponseWriter, r *http.Request) (string, error) {
	id, err := s.identifyErr(r)
	if err != nil {
		return "", err
	}
	if id.owner != "" {
		return id.owner, nil
	}
	owner := newOwnerKey()
	if err := s.writeIdentity(w, r, owner, ""); err != nil {
		return "", err
	}
	return owner, nil
}

// writeIdentity sets the cookie to a fresh session holding owner and, when
// signed in, session id sid: never the decoded, possibly forged, values.
func (s *site) writeIdentity(w http.ResponseWriter, r *http.Request, owner, sid string) error {
	sess := sessions.NewSession(s.cookies, SessionCookie)
	sess.IsNew = true
	sess.Values[ownerKey] = owner
	if sid != "" {
		sess.Values[sessionKey] = sid
	}
	return s.saveSession(w, r, sess)
}

// signedInUser returns the account the browser is signed in to, or nil.
func (s *site) signedInUser(r *http.Request) *store.User { return s.identify(r).user }
