package store

import (
	"errors"
	"fmt"

	"gorm.io/gorm"

	"knightwatch/changefeed"
)

// The three kinds of game record (chess, Reconnaissance Chess in the
// browser, the API's games) are read and written the same way: by ID, only
// their changing columns, and, for the browser's games, only by their
// owner. These are that way, once.

// getRow loads the row of T whose ID is id; ErrNotFound when none. what
// names the row in errors ("game g_…").
func getRow[T any](db *gorm.DB, what string, id any) (*T, error) {
	var row T
	err := db.Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: get %s %v: %w", what, id, err)
	}
	return &row, nil
}

// revised is a game record with a Revision (Game, ReconGame, APIGame):
// its address, and the key the change feed names it by.
type revised interface {
	revision() *int64
	feedKey() string
}

func (g *Game) revision() *int64      { return &g.Revision }
func (g *ReconGame) revision() *int64 { return &g.Revision }
func (g *APIGame) revision() *int64   { return &g.Revision }
func (g *Game) feedKey() string       { return g.ID }
func (g *ReconGame) feedKey() string  { return g.ID }
func (g *APIGame) feedKey() string    { return APIGameKey(g.ID) }

// saveRevised is saveRow for a game record, made from the revision row
// holds: the row is written, with the next revision, only if the database
// still has that one; else nothing is written and the error wraps
// ErrConflict (another server committed first), or ErrNotFound when the
// row is gone. On success row holds the new revision. Only columns are
// written, with row's values as they are: gorm's own updated_at
// (SkipHooks; no model here has hooks) would be a moment later than the
// one row holds, and row would not read back as written. On PostgreSQL the
// same transaction tells the other servers (changefeed), so that a change
// is heard exactly when it is committed.
func saveRevised[T any, P interface {
	*T
	revised
}](s *Store, what string, id any, row P, columns []string) error {
	rev := row.revision()
	from := *rev
	*rev = from + 1
	cols := append(columns[:len(columns):len(columns)], "revision")
	write := func(tx *gorm.DB) error {
		res := tx.Session(&gorm.Session{SkipHooks: true}).Model(new(T)).Where("id = ? AND revision = ?", id, from).Select(cols).Updates(row)
		if res.Error != nil {
			return fmt.Errorf("store: save %s %v: %w", what, id, res.Error)
		}
		if res.RowsAffected == 0 {
			var n int64
			if err := tx.Model(new(T)).Where("id = ?", id).Count(&n).Error; err != nil {
				return fmt.Errorf("store: save %s %v: %w", what, id, err)
			}
			if n == 0 {
				return fmt.Errorf("store: save %s %v: %w", what, id, ErrNotFound)
			}
			return fmt.Errorf("store: save %s %v from revision %d: %w", what, id, from, ErrConflict)
		}
		if s.pg {
			c := changefeed.Change{Game: row.feedKey(), Revision: from + 1}
			if err := tx.Exec(changefeed.NotifySQL, changefeed.Channel, c.Payload()).Error; err != nil {
				return fmt.Errorf("store: save %s %v: telling the other servers: %w", what, id, err)
			}
		}
		return nil
	}
	var err error
	if s.pg {
		err = s.transaction(write)
	} else {
		err = write(s.db) // one statement on the one writer: nothing to tell
	}
	if err != nil {
		*rev = from
	}
	return err
}

// ownedRow is a record that belongs to an owner (a browser's session).
type ownedRow interface{ ownerKey() string }

func (g *Game) ownerKey() string      { return g.Owner }
func (g *ReconGame) ownerKey() string { return g.Owner }

// getOwnedRow loads the row of T whose ID is id only if it belongs to
// owner; otherwise ErrNotFound, so that callers cannot tell someone else's
// game from a missing one.
func getOwnedRow[T any, P interface {
	*T
	ownedRow
}](db *gorm.DB, what string, id, owner string) (*T, error) {
	row, err := getRow[T](db, what, id)
	if err != nil {
		return nil, err
	}
	if owner == "" || P(row).ownerKey() != owner {
		return nil, ErrNotFound
	}
	return row, nil
}

// revisionOf reads the committed revision of the row of T whose ID is id,
// on the readers; ErrNotFound when there is none.
func revisionOf[T any](db *gorm.DB, what string, id any) (int64, error) {
	var revs []int64
	if err := db.Model(new(T)).Where("id = ?", id).Limit(1).Pluck("revision", &revs).Error; err != nil {
		return 0, fmt.Errorf("store: revision of %s %v: %w", what, id, err)
	}
	if len(revs) == 0 {
		return 0, ErrNotFound
	}
	return revs[0], nil
}
