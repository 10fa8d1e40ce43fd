package web

import (
	"crypto/rand"
	"crypto/sha512"
	"encoding/hex"
	"net/http"

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
func (s *Server) saveSession(w http.ResponseWriter, r *http.Request, sess *sessions.Session) error {
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
func (s *Server) currentOwner(r *http.Request) string {
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
func (s *Server) ensureOwner(w http.ResponseWriter, r *http.Request) (string, error) {
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
