package store

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ErrTaken is returned when a username is already in use (names are
// compared without regard to case).
var ErrTaken = errors.New("store: name taken")

// User is an account of the Reconnaissance Chess server: a person or a
// bot that connects through the HTTP API, or one of Knightwatch's own bots
// (Builtin names its spec). The password is kept only as a slow salted
// hash made by the caller.
type User struct {
	ID int64 `gorm:"primaryKey;autoIncrement"`
	// Name is as registered; NameKey is its lower-case form, unique, so
	// that "Bob" and "bob" cannot both exist.
	Name         string `gorm:"size:40;not null"`
	NameKey      string `gorm:"size:40;not null;uniqueIndex"`
	Email        string `gorm:"size:200;not null;default:''"`
	Affiliation  string `gorm:"size:200;not null;default:''"`
	PasswordHash []byte `gorm:"not null"`
	// Builtin is the bot spec of one of Knightwatch's own bots ("" for
	// everyone else); such users play inside the server and cannot log in.
	Builtin string `gorm:"size:80;not null;default:''"`
	// MaxGames bounds the games the user plays at once (invitations it
	// accepts, ranked games it is given).
	MaxGames int  `gorm:"not null;default:4"`
	Ranked   bool `gorm:"not null;default:false"`
	// Version is the bot version ranked games are rated under; 0 until
	// the first is created.
	Version int `gorm:"not null;default:0"`
	// OwnerKey is the owner key (the browser's identity in the session
	// cookie, which owns the games played in the browser) that every
	// browser signed in to the account plays under, so that its games are
	// the account's on every device; "" until the account first signs in
	// to the site (AccountOwnerKey).
	OwnerKey  string    `gorm:"size:32;not null;default:'';index"`
	LastSeen  time.Time `gorm:"index"`
	CreatedAt time.Time
}

// UserKey is the form of a username that uniqueness is decided on.
func UserKey(name string) string { return strings.ToLower(name) }

// CreateUser inserts u; ErrTaken when its name is in use.
func (a API) CreateUser(u *User) error {
	u.NameKey = UserKey(u.Name)
	if u.MaxGames == 0 {
		u.MaxGames = 4
	}
	res := a.s.db.Clauses(clause.OnConflict{DoNothing: true}).Create(u)
	if res.Error != nil {
		return fmt.Errorf("store: create user %q: %w", u.Name, res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrTaken
	}
	return nil
}

// UserByName loads a user by name, in any case; ErrNotFound when none.
func (a API) UserByName(name string) (*User, error) {
	var u User
	err := a.s.rd.Where("name_key = ?", UserKey(name)).Take(&u).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: user %q: %w", name, err)
	}
	return &u, nil
}

// UserByID loads a user; ErrNotFound when none.
func (a API) UserByID(id int64) (*User, error) {
	var u User
	err := a.s.rd.Where("id = ?", id).Take(&u).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: user %d: %w", id, err)
	}
	return &u, nil
}

// UpdateUser writes the changeable settings of u: max games, ranked,
// version and last seen.
func (a API) UpdateUser(u *User) error {
	res := a.s.db.Model(&User{}).Where("id = ?", u.ID).
		Select("max_games", "ranked", "version", "last_seen").Updates(u)
	if res.Error != nil {
		return fmt.Errorf("store: update user %d: %w", u.ID, res.Error)
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: update user %d: %w", u.ID, ErrNotFound)
	}
	return nil
}

// AccountOwnerKey returns user id's owner key, setting it to fresh (a new
// owner key, which the caller makes) if the account has none yet: of two
// browsers signing in at once, both get the one that was set first.
func (a API) AccountOwnerKey(id int64, fresh string) (string, error) {
	if err := a.s.db.Model(&User{}).Where("id = ? AND owner_key = ''", id).Update("owner_key", fresh).Error; err != nil {
		return "", fmt.Errorf("store: owner key of user %d: %w", id, err)
	}
	var u User
	err := a.s.db.Select("owner_key").Where("id = ?", id).Take(&u).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return "", fmt.Errorf("store: owner key of user %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("store: owner key of user %d: %w", id, err)
	}
	return u.OwnerKey, nil
}

// TouchUsers records that the users were seen at t.
func (a API) TouchUsers(ids []int64, t time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	if err := a.s.db.Model(&User{}).Where("id IN ?", ids).Update("last_seen", t).Error; err != nil {
		return fmt.Errorf("store: touch users: %w", err)
	}
	return nil
}

// Users returns every user seen since t or built in, by name.
func (a API) Users(seenSince time.Time) ([]User, error) {
	var us []User
	err := a.s.rd.Where("last_seen >= ? OR builtin <> ''", seenSince).Order("name_key").Find(&us).Error
	if err != nil {
		return nil, fmt.Errorf("store: users: %w", err)
	}
	return us, nil
}
