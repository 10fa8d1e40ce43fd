package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// On a site of several servers on one database (PostgreSQL), two things
// about a live game are not in its record but must still be known to
// every server: whether a player has it open on some server (the
// presence, which decides whether the mover's clock runs in a game played
// in person), and which one server looks after an API game nobody calls
// (the lease, so that exactly one runs its bot and its flag). Both are
// rows that a server keeps up while it runs and that expire when it is
// killed. Each server names itself by a random ID made as it starts
// (NewServerID). Both are written on the connection of the alive marks on
// PostgreSQL (alive.go): they never wait for the writer nor for the disk,
// and a row lost in a crash of the database is seconds of presence. On
// SQLite, with one server, nothing keeps them (the tables exist, the
// methods work on the writer, and serve does not use them).

// NewServerID returns a fresh random ID for a server process: 16 hex
// digits, different at each start.
func NewServerID() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("store: crypto/rand failed: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

// Shared reports whether several servers may share this database
// (PostgreSQL); a SQLite file has one server.
func (s *Store) Shared() bool { return s.pg }

// light is the connection of the small, frequent writes that a crash may
// lose: the alive marks' own on PostgreSQL, the writer on SQLite.
func (s *Store) light() *gorm.DB {
	if s.alive != nil {
		return s.alive
	}
	return s.db
}

// PresenceTTL is how long a server's presence in a game lasts unless it
// renews it (Presence.Renew): after a kill -9, the players it had are
// known gone that long after its last renewal.
const PresenceTTL = 10 * time.Second

// PresenceRow says that server has players of game (a key as the change
// feed's: a game's ID, or APIGameKey) until ExpiresAt.
type PresenceRow struct {
	Game      string    `gorm:"primaryKey;size:40"`
	Server    string    `gorm:"primaryKey;size:32"`
	ExpiresAt time.Time `gorm:"index;not null"`
}

// TableName names PresenceRow's table.
func (PresenceRow) TableName() string { return "presences" }

// Presence is one server's view of the presence table: what it writes
// of its own players and reads of the other servers'. Its methods take
// the moment they are made at, as every server's clock says it.
type Presence struct {
	s      *Store
	server string
}

// Presence returns server's presence facet.
func (s *Store) Presence(server string) Presence { return Presence{s, server} }

// Here records that this server has players of game (present) until
// now+PresenceTTL, or no longer has any.
func (p Presence) Here(game string, present bool, now time.Time) error {
	db := p.s.light()
	var err error
	if present {
		err = db.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "game"}, {Name: "server"}},
			DoUpdates: clause.AssignmentColumns([]string{"expires_at"}),
		}).Create(&PresenceRow{Game: game, Server: p.server, ExpiresAt: now.Add(PresenceTTL)}).Error
	} else {
		err = db.Where("game = ? AND server = ?", game, p.server).Delete(&PresenceRow{}).Error
	}
	if err != nil {
		return fmt.Errorf("store: presence in %s: %w", game, err)
	}
	return nil
}

// Elsewhere reports whether another server has players of game at now.
func (p Presence) Elsewhere(game string, now time.Time) (bool, error) {
	var n int64
	err := p.s.rd.Model(&PresenceRow{}).Where("game = ? AND server <> ? AND expires_at > ?", game, p.server, now).Limit(1).Count(&n).Error
	if err != nil {
		return false, fmt.Errorf("store: presence in %s: %w", game, err)
	}
	return n > 0, nil
}

// Renew keeps this server's presence in every game it is in until
// now+PresenceTTL (one statement, whatever the number of games), and
// drops the rows of every server that expired before now (a killed
// server's).
func (p Presence) Renew(now time.Time) error {
	db := p.s.light()
	err := errors.Join(
		db.Model(&PresenceRow{}).Where("server = ?", p.server).Update("expires_at", now.Add(PresenceTTL)).Error,
		db.Where("expires_at <= ?", now).Delete(&PresenceRow{}).Error,
	)
	if err != nil {
		return fmt.Errorf("store: renewing the presence: %w", err)
	}
	return nil
}

// Leave drops every presence of this server's (a clean stop).
func (p Presence) Leave() error {
	if err := p.s.light().Where("server = ?", p.server).Delete(&PresenceRow{}).Error; err != nil {
		return fmt.Errorf("store: leaving: %w", err)
	}
	return nil
}

// LeaseRow says that Server looks after game (a key as the change
// feed's) until Until.
type LeaseRow struct {
	Game   string    `gorm:"primaryKey;size:40"`
	Server string    `gorm:"size:32;not null;index"`
	Until  time.Time `gorm:"not null"`
}

// TableName names LeaseRow's table.
func (LeaseRow) TableName() string { return "leases" }

// Leases is one server's view of the lease table.
type Leases struct {
	s      *Store
	server string
}

// Leases returns server's lease facet.
func (s *Store) Leases(server string) Leases { return Leases{s, server} }

// Claim makes this server the one that looks after game until until,
// and reports whether it is: when nobody holds the lease, when its
// holder's ran out before now, or when it is this server's own (renewed).
// One statement (a conditional upsert), so of several servers claiming at
// once exactly one gets it.
func (l Leases) Claim(game string, until, now time.Time) (bool, error) {
	res := l.s.light().Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "game"}},
		DoUpdates: clause.AssignmentColumns([]string{"server", "until"}),
		Where: clause.Where{Exprs: []clause.Expression{clause.Or(
			clause.Expr{SQL: "leases.until <= ?", Vars: []any{now}},
			clause.Expr{SQL: "leases.server = ?", Vars: []any{l.server}},
		)}},
	}).Create(&LeaseRow{Game: game, Server: l.server, Until: until})
	if res.Error != nil {
		return false, fmt.Errorf("store: lease of %s: %w", game, res.Error)
	}
	return res.RowsAffected == 1, nil
}

// Keep renews until until the leases this server holds of games, and
// gives up every other lease it holds (games it no longer hosts).
func (l Leases) Keep(games []string, until time.Time) error {
	db := l.s.light()
	var errs []error
	if len(games) > 0 {
		errs = append(errs, db.Model(&LeaseRow{}).Where("server = ? AND game IN ?", l.server, games).Update("until", until).Error)
		errs = append(errs, db.Where("server = ? AND game NOT IN ?", l.server, games).Delete(&LeaseRow{}).Error)
	} else {
		errs = append(errs, db.Where("server = ?", l.server).Delete(&LeaseRow{}).Error)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("store: keeping the leases: %w", err)
	}
	return nil
}

// Holder returns the server holding game's lease and until when, and
// false when nobody ever held it.
func (l Leases) Holder(game string) (server string, until time.Time, ok bool, err error) {
	var row LeaseRow
	err = l.s.rd.Where("game = ?", game).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return "", time.Time{}, false, nil
	}
	if err != nil {
		return "", time.Time{}, false, fmt.Errorf("store: lease of %s: %w", game, err)
	}
	return row.Server, row.Until, true, nil
}
