package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// Session is one browser's sign-in to an account. The session cookie
// names its ID; the row, not the cookie, says whether it still holds, so
// that signing out ends exactly the sessions it should (this browser's,
// or all of the account's) and a copy of an ended cookie is worth
// nothing on any server.
type Session struct {
	// ID is random (NewSessionID), the only thing the cookie carries of
	// the session: unguessable even to someone who knows the signing key.
	ID        string `gorm:"primaryKey;size:64"`
	UserID    int64  `gorm:"not null;index"`
	CreatedAt time.Time
	// LastSeen is when the session last made a request, written at most
	// every SessionSeenEvery so that a page load is not a write.
	LastSeen time.Time
	// EndedAt is when the session was signed out (here or everywhere, or
	// by a change of password elsewhere); NULL while it holds.
	EndedAt *time.Time `gorm:"index"`
}

// SessionSeenEvery is how stale Session.LastSeen may be.
const SessionSeenEvery = time.Minute

// NewSessionID returns a random 128-bit session ID in hex.
func NewSessionID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("store: crypto/rand failed: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

// SessionLife is how long a session's cookie lasts (web sets its max age
// to it): a session unused for longer can never be presented again.
const SessionLife = 365 * 24 * time.Hour

// CreateSession starts a session of user id and returns it. In the same
// transaction it deletes the user's sessions that can never hold again,
// ended or unused for SessionLife, so that the table keeps only what some
// browser may still present (bounded by each account's sign-ins since it
// last signed in) without a sweeper of its own.
func (a API) CreateSession(userID int64) (*Session, error) {
	now := a.s.now()
	ss := &Session{ID: NewSessionID(), UserID: userID, CreatedAt: now, LastSeen: now}
	err := a.s.transaction(func(tx *gorm.DB) error {
		if err := tx.Where("user_id = ? AND (ended_at IS NOT NULL OR last_seen < ?)", userID, now.Add(-SessionLife)).Delete(&Session{}).Error; err != nil {
			return err
		}
		return tx.Create(ss).Error
	})
	if err != nil {
		return nil, fmt.Errorf("store: create session of user %d: %w", userID, err)
	}
	return ss, nil
}

// ActiveSession returns the session id and its user while the session
// holds; ErrNotFound when there is no such session, it has ended or gone
// unused for SessionLife, or its user is gone. It records the session as seen (at most every
// SessionSeenEvery).
func (a API) ActiveSession(id string) (*Session, *User, error) {
	var ss Session
	err := a.s.rd.Where("id = ? AND ended_at IS NULL AND last_seen >= ?", id, a.s.now().Add(-SessionLife)).Take(&ss).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil, ErrNotFound
	}
	if err != nil {
		return nil, nil, fmt.Errorf("store: session: %w", err)
	}
	u, err := a.UserByID(ss.UserID)
	if err != nil {
		return nil, nil, err
	}
	if now := a.s.now(); now.Sub(ss.LastSeen) >= SessionSeenEvery {
		if err := a.s.db.Model(&Session{}).Where("id = ?", id).Update("last_seen", now).Error; err != nil {
			return nil, nil, fmt.Errorf("store: session seen: %w", err)
		}
		ss.LastSeen = now
	}
	return &ss, u, nil
}

// SessionsChannel is the notification channel on which, on PostgreSQL,
// the transaction that ends sessions tells every server of the site: its
// payload is the account's ID, whose sockets each server checks again
// (the sockets are each server's; the sessions the database's).
const SessionsChannel = "knightwatch_sessions"

// notifySessionsEnded tells the other servers, in tx, that sessions of
// user id ended (PostgreSQL only: with SQLite there is one server).
func (s *Store) notifySessionsEnded(tx *gorm.DB, userID int64) error {
	if !s.pg {
		return nil
	}
	return tx.Exec("SELECT pg_notify(?, ?)", SessionsChannel, fmt.Sprint(userID)).Error
}

// EndSession ends one session (signing out in one browser); ending one
// that has already ended changes nothing.
func (a API) EndSession(id string) error {
	return a.s.transaction(func(tx *gorm.DB) error {
		var ss Session
		err := tx.Where("id = ? AND ended_at IS NULL", id).Take(&ss).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil
		}
		if err == nil {
			err = tx.Model(&Session{}).Where("id = ?", id).Update("ended_at", a.s.now()).Error
		}
		if err == nil {
			err = a.s.notifySessionsEnded(tx, ss.UserID)
		}
		if err != nil {
			return fmt.Errorf("store: end session: %w", err)
		}
		return nil
	})
}

// EndUserSessions ends every session of user id but keep ("" ends all:
// "sign out everywhere") and returns how many it ended.
func (a API) EndUserSessions(userID int64, keep string) (int64, error) {
	var n int64
	err := a.s.transaction(func(tx *gorm.DB) error {
		res := tx.Model(&Session{}).Where("user_id = ? AND ended_at IS NULL AND id <> ?", userID, keep).Update("ended_at", a.s.now())
		if res.Error != nil {
			return res.Error
		}
		n = res.RowsAffected
		return a.s.notifySessionsEnded(tx, userID)
	})
	if err != nil {
		return 0, fmt.Errorf("store: end sessions of user %d: %w", userID, err)
	}
	return n, nil
}

// ActiveSessions counts the sessions of user id that hold.
func (a API) ActiveSessions(userID int64) (int64, error) {
	var n int64
	if err := a.s.rd.Model(&Session{}).Where("user_id = ? AND ended_at IS NULL", userID).Count(&n).Error; err != nil {
		return 0, fmt.Errorf("store: sessions of user %d: %w", userID, err)
	}
	return n, nil
}

// ChangePassword sets user id's password hash (made by the caller) and
// ends every other session of the account, keeping session keep (the
// browser that made the change), in one transaction: a browser that knew
// the old password cannot stay signed in past the change.
func (a API) ChangePassword(userID int64, hash []byte, keep string) error {
	if len(hash) == 0 {
		return errors.New("store: change password: empty hash")
	}
	return a.s.transaction(func(tx *gorm.DB) error {
		res := tx.Model(&User{}).Where("id = ? AND builtin = ''", userID).Update("password_hash", hash)
		if res.Error != nil {
			return fmt.Errorf("store: change password of user %d: %w", userID, res.Error)
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("store: change password of user %d: %w", userID, ErrNotFound)
		}
		if err := tx.Model(&Session{}).Where("user_id = ? AND ended_at IS NULL AND id <> ?", userID, keep).Update("ended_at", a.s.now()).Error; err != nil {
			return fmt.Errorf("store: change password of user %d: %w", userID, err)
		}
		if err := a.s.notifySessionsEnded(tx, userID); err != nil {
			return fmt.Errorf("store: change password of user %d: %w", userID, err)
		}
		return nil
	})
}
