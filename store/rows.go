package store

import (
	"errors"
	"fmt"

	"gorm.io/gorm"
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

// saveRow writes columns of row, the row of T whose ID is id (which must
// exist: ErrNotFound otherwise). The values are row's as they are: gorm's
// own updated_at (SkipHooks; no model here has hooks) would be a moment
// later than the one row holds, and row would not read back as written.
func saveRow[T any](db *gorm.DB, what string, id any, row *T, columns []string) error {
	res := db.Session(&gorm.Session{SkipHooks: true}).Model(new(T)).Where("id = ?", id).Select(columns).Updates(row)
	if res.Error != nil {
		return fmt.Errorf("store: save %s %v: %w", what, id, res.Error)
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: save %s %v: %w", what, id, ErrNotFound)
	}
	return nil
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
